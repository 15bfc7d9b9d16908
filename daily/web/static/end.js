// The end screen: final total, rank and percentile (or the fair-play review), histogram,
// par and ceiling, copy and share, and, after a player's first game, their name.
import * as api from "./api.js";
import { fmtNumber, playerName, t } from "./i18n.js";
import { analysisBlock } from "./advice.js";
import { getToken } from "./store.js";
import { copyText, errorText, h, histogram, later, lengthNote, standingText, toast } from "./ui.js";
import { challengeButton, versusBlock } from "./together.js";

// How long Copy waits for a rank that is on its way before it copies without it (ms).
const RANK_WAIT = 2500;

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

// The day's perfect-information ceiling, once revealed: "perfect game with foresight: 346".
export function ceilingBlock(ceiling) {
  if (typeof ceiling !== "number") return null;
  return h("p", { class: "ceiling", "data-testid": "ceiling" },
    t("ceiling_line", { score: fmtNumber(ceiling) }));
}

// A ranked game in the fair-play review (pending, held or disqualified): why, in the
// player's language.
export function reviewBlock(review) {
  if (!review || typeof review !== "object") return null;
  if (review.state === "pending_review") {  // on its way into the top: an operator looks first
    return h("div", { class: "review", role: "status", "data-testid": "review" },
      h("strong", { text: t("review_pending") }),
      h("p", { text: t("review_pending_text", { total: fmtNumber(review.total ?? 0) }) }));
  }
  const reason = ["ceiling", "unchecked", "scout_link", "residual", "copy", "young_link",
    "reveal_cover", "foresight_record"].includes(review.reason_code)
    ? review.reason_code : "foresight";  // strict: the same words as the likelihood test
  const key = (review.state === "disqualified" ? "review_disqualified_" : "review_held_") + reason;
  return h("div", { class: "review", role: "status", "data-testid": "review" },
    h("strong", { text: t(review.state === "disqualified" ? "review_disqualified" : "review_title") }),
    h("p", { text: t(key, {
      optimal: fmtNumber(review.optimal_in_hindsight ?? 0),
      decisions: fmtNumber(review.decisions ?? 0),
      total: fmtNumber(review.total ?? 0),
    }) }));
}

// The end screen of an offline Practice game: the total, and another game (`again`,
// given by the game screen, starts it).
function localEnd(game, again) {
  return h("section", { class: "end", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title", text: t("game_over") }),
    h("p", { class: "final" }, h("span", { text: t("final_total") }),
      h("strong", { class: "final-total", "data-testid": "final-total", text: game.total })),
    h("p", { class: "muted", text: t("offline_end") }),
    h("div", { class: "row wrap" },
      h("button", {
        type: "button", class: "btn primary", "data-testid": "offline-again", text: t("play_again"),
        onclick: () => again(game.ruleset),
      }),
      h("a", { class: "btn", href: "/#/practice", text: t("nav_practice") })));
}

// The end screen of a finished game; `again(ruleset)` starts another offline game.
export function endScreen(game, again) {
  if (game.local) return localEnd(game, again);
  const result = game.result || {};
  const total = result.total ?? game.total;
  const code = result.code;
  const link = code ? `/r/${code}` : null;
  const held = reviewBlock(result.review);
  const ranked = game.mode === "ranked" && game.date && !held;
  const rankBox = h("div", { class: "rank", "data-testid": "rank" },
    held || (game.mode === "ranked" ? t("rank_pending") : t("practice_mode")));
  const chartBox = h("div", { class: "chart-box" });
  const parBox = h("div", {});
  // The share text gains the rank once the board has the game: Copy waits a moment for
  // it, the text is replaced as soon as it comes, and the buttons say so meanwhile.
  const share = shareState(result.share_text || "", !ranked || result.rank != null);
  const actions = h("div", { class: "row wrap" },
    shareButtons(share),
    link ? h("a", { class: "btn", href: link, "data-testid": "result-link", text: t("result_link") }) : null,
    game.date && game.mode === "ranked"
      ? h("a", { class: "btn", href: `/#/board/${game.date}/${game.ruleset}`, text: t("see_board") }) : null);
  const streakBox = h("p", { class: "streak-line lit", "data-testid": "end-streak", hidden: !result.streak },
    result.streak ? streakText(result.streak) : "");
  const panel = h("section", { class: "end", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title", text: t("game_over") }),
    h("p", { class: "final" }, h("span", { text: t("final_total") }),
      h("strong", { class: "final-total", "data-testid": "final-total", text: total })),
    versusBlock(game),
    rankBox, streakBox, chartBox, parBox,
    later(() => import("./audit.js"), (m) => m.auditBlock({ code, mode: game.mode, date: game.date, ruleset: game.ruleset, receipt: result.receipt, accepted: result.accepted })), actions, share.fallback, namePrompt(), challengeButton(game),
    game.mode === "practice" ? analysisBlock(game) : null);
  const finish = (state) => {
    const done = (state && state.result) || {};
    if (done.streak) { streakBox.textContent = streakText(done.streak); streakBox.hidden = false; }
    share.settle(done.share_text);
  };
  if (ranked) fillRank(game, total, rankBox, chartBox, parBox, finish);
  else if (game.date) fillPar(game, parBox);
  return panel;
}

// A share text that may still gain its rank: `final` once it has it (or never will);
// `settle(text)` puts the final text in and updates the buttons showing it.
export function shareState(text, final = true) {
  const share = { text, final, buttons: [] };
  share.fallback = h("textarea", { class: "share-text", readonly: true, rows: 3, hidden: true, "aria-label": t("copy_result") }, text);
  let settle = () => {};
  share.ready = final ? Promise.resolve() : new Promise((resolve) => { settle = resolve; });
  share.settle = (newText) => {
    if (newText) { share.text = newText; share.fallback.value = newText; }
    share.final = true;
    for (const [button, key] of share.buttons) button.textContent = t(key);
    settle();
  };
  return share;
}

// Copy and (where the browser has the Web Share API) Share of a player's own result;
// before the rank is known they say so, and they wait a moment for it.
export function shareButtons(share) {
  if (!share.text) return null;
  const wait = () => (share.final ? null
    : Promise.race([share.ready, new Promise((r) => setTimeout(r, RANK_WAIT))]));
  const copy = h("button", {
    type: "button", class: "btn primary", "data-testid": "copy-result",
    "data-final": share.final ? "1" : "0", text: t(share.final ? "copy_result" : "copy_pending"),
    onclick: async () => {
      await wait();
      if (await copyText(share.text)) toast(t("copied"));
      else { share.fallback.value = share.text; share.fallback.hidden = false; share.fallback.select(); toast(t("copy_failed")); }
    },
  });
  share.buttons.push([copy, "copy_result"]);
  const out = [copy];
  if (navigator.share) {
    const send = h("button", {
      type: "button", class: "btn", "data-testid": "share-result", text: t(share.final ? "share" : "share_pending"),
      onclick: async () => {
        await wait();
        navigator.share({ text: share.text }).catch(() => {});
      },
    });
    share.buttons.push([send, "share"]);
    out.push(send);
  }
  const settle = share.settle;
  share.settle = (text) => { settle(text); copy.dataset.final = "1"; };
  return out;
}

function streakText(days) {
  return days >= 2 ? t("streak_days", { n: days }) : t("streak_started");
}

// After a player's first game, once: the name friends and the boards will show
// (skippable). A name chosen here shows everywhere at once (the boards read names when
// they are read).
const KEY_NAMED = "dd.name.asked";

function namePrompt() {
  let asked = false;
  try { asked = localStorage.getItem(KEY_NAMED) !== null; } catch { asked = true; }
  if (asked || !getToken()) return null;
  const box = h("form", { class: "panel name-prompt", "data-testid": "name-prompt", hidden: true });
  const done = () => {
    try { localStorage.setItem(KEY_NAMED, "1"); } catch { /* asked again next time */ }
  };
  api.getMe().then((me) => {
    if (!/^Player \d+$/.test(me.name || "")) { done(); return; }
    const input = h("input", {
      type: "text", id: "first-name", maxlength: 24, autocomplete: "nickname", required: true,
      placeholder: playerName(me.name), "data-testid": "name-input",
    });
    const note = h("p", { class: "muted", role: "status" });
    box.replaceChildren(
      h("label", { for: "first-name", text: t("name_ask") }),
      h("p", { class: "muted", text: t("name_ask_help", { name: playerName(me.name) }) }),
      h("div", { class: "row wrap" }, input,
        h("button", { type: "submit", class: "btn primary", "data-testid": "name-save", text: t("save") }),
        h("button", {
          type: "button", class: "btn ghost", "data-testid": "name-skip", text: t("skip_for_now"),
          onclick: () => { done(); box.remove(); },
        })),
      lengthNote(input), note);
    box.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        const saved = await api.renamePlayer(name);
        done();
        box.replaceChildren(h("p", { "data-testid": "name-saved", text: t("name_saved", { name: saved.name || name }) }));
      } catch (err) {
        note.textContent = errorText(err);
      }
    });
    box.hidden = false;
  }).catch(() => {});
  return box;
}

async function fillPar(game, parBox) {
  try {
    const day = await api.getDay(game.date, game.ruleset);
    parBox.replaceChildren(parBlock(day.par) || "");
  } catch { /* par is optional */ }
}

// The rank arrives when the worker has written the result: poll the board for a while,
// then take the game's share text again (with the rank and the streak) for Copy.
async function fillRank(game, total, rankBox, chartBox, parBox, finish) {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (!rankBox.isConnected && attempt > 0) return;
    try {
      const board = await api.getBoard(game.date, game.ruleset, 100);
      if (board.review) {
        rankBox.replaceChildren(reviewBlock(board.review));
        rankBox.dataset.review = board.review.state;
        finish(null);
        return;
      }
      if (board.me) {
        rankBox.textContent = standingText(board.me, board.players);
        rankBox.dataset.rank = board.me.rank;
        api.getGame(game.id).then(finish).catch(() => finish(null));
        chartBox.replaceChildren(histogram(board.histogram, total, board.players) || "");
        if (board.par) {
          parBox.replaceChildren(parBlock(board.par) || "", ceilingBlock(board.ceiling) || "");
        } else fillPar(game, parBox);
        return;
      }
    } catch (err) {
      if (err.status && err.status !== 429 && err.status < 500) { finish(null); return; }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(500 + attempt * 250, 3000)));
  }
  finish(null);
}
