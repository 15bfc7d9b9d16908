// The end screen: final total, rank and percentile, histogram, par, copy and share.
import * as api from "./api.js";
import { fmtNumber, t } from "./i18n.js";
import { analysisBlock } from "./advice.js";
import { copyText, h, histogram, toast } from "./ui.js";
import { challengeButton, versusBlock } from "./together.js";

// ---------- the end screen (also used for a finished game opened again) ----------

// The bots' scores on the same dice: {"easy": 231, ...} (or {"easy": {"total": 231}}).
export function parBlock(par) {
  if (!par || typeof par !== "object") return null;
  const source = par.levels && typeof par.levels === "object" ? par.levels : par;
  const score = (v) => (typeof v === "number" ? v : v && (v.total ?? v.score ?? v.mean));
  const parts = ["easy", "medium", "hard"].filter((k) => score(source[k]) != null)
    .map((k) => `${t("par_" + k)} ${fmtNumber(score(source[k]))}`);
  if (!parts.length) return null;
  return h("p", { class: "par", "data-testid": "par" }, h("strong", { text: `${t("par")}: ` }),
    parts.join(" · "));
}

export function endScreen(game) {
  const result = game.result || {};
  const total = result.total ?? game.total;
  const code = result.code;
  const link = code ? `/r/${code}` : null;
  const rankBox = h("div", { class: "rank", "data-testid": "rank" },
    game.mode === "ranked" ? t("rank_pending") : t("practice_mode"));
  const chartBox = h("div", { class: "chart-box" });
  const parBox = h("div", {});
  const shareText = result.share_text || "";
  const fallback = h("textarea", { class: "share-text", readonly: true, rows: 6, hidden: true, "aria-label": t("copy_result") }, shareText);
  const actions = h("div", { class: "row wrap" },
    shareText ? h("button", {
      type: "button", class: "btn primary", "data-testid": "copy-result", text: t("copy_result"),
      onclick: async () => {
        if (await copyText(shareText)) toast(t("copied"));
        else { fallback.hidden = false; fallback.select(); toast(t("copy_failed")); }
      },
    }) : null,
    shareText && navigator.share ? h("button", {
      type: "button", class: "btn", text: t("share"),
      onclick: () => navigator.share({ text: shareText }).catch(() => {}),
    }) : null,
    link ? h("a", { class: "btn", href: link, "data-testid": "result-link", text: t("result_link") }) : null,
    game.date && game.mode === "ranked"
      ? h("a", { class: "btn", href: `/#/board/${game.date}/${game.ruleset}`, text: t("see_board") }) : null);
  const panel = h("section", { class: "end", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title", text: t("game_over") }),
    h("p", { class: "final" }, h("span", { text: t("final_total") }),
      h("strong", { class: "final-total", "data-testid": "final-total", text: total })),
    versusBlock(game),
    rankBox, chartBox, parBox, actions, fallback, challengeButton(game),
    game.mode === "practice" ? analysisBlock(game) : null);
  if (game.mode === "ranked" && game.date) fillRank(game, total, rankBox, chartBox, parBox);
  else if (game.date) fillPar(game, parBox);
  return panel;
}

function rankText(me, players) {
  return [
    t("rank_line", { rank: fmtNumber(me.rank), players: fmtNumber(players) }),
    me.percentile !== null && me.percentile !== undefined
      ? t("percentile_line", { p: fmtNumber(me.percentile, 1) }) : null,
  ].filter(Boolean).join(" · ");
}

async function fillPar(game, parBox) {
  try {
    const day = await api.getDay(game.date, game.ruleset);
    parBox.replaceChildren(parBlock(day.par) || "");
  } catch { /* par is optional */ }
}

// The rank arrives when the worker has written the result: poll the board for a while.
async function fillRank(game, total, rankBox, chartBox, parBox) {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (!rankBox.isConnected && attempt > 0) return;
    try {
      const board = await api.getBoard(game.date, game.ruleset, 100);
      if (board.me) {
        rankBox.textContent = rankText(board.me, board.players);
        rankBox.dataset.rank = board.me.rank;
        chartBox.replaceChildren(histogram(board.histogram, total, board.players) || "");
        if (board.par) parBox.replaceChildren(parBlock(board.par) || "");
        else fillPar(game, parBox);
        return;
      }
    } catch (err) {
      if (err.status && err.status !== 429 && err.status < 500) return;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(500 + attempt * 250, 3000)));
  }
}
