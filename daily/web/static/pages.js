// The other screens: today, leaderboards, practice, profile, a shared result and the rules.
import * as api from "./api.js";
import { renderCard } from "./card.js";
import { ceilingBlock, parBlock, reviewBlock } from "./end.js";
import { startAndOpen, startOffline } from "./game.js";
import { onInstallable, promptInstall } from "./install.js";
import { unfinishedLocal } from "./local.js";
import { boxName, fmtDate, fmtNumber, lang, playerName as shownName, rulesetName, t } from "./i18n.js";
import { etaMinutes, fetchHealth } from "./notes.js";
import { shareButtons, shareState } from "./end.js";
import { getToken, previousTokens, rememberedGame, replaceToken, setToken } from "./store.js";
import { challengeForm, chosenOpponents, groupsSection, opponentsPicker } from "./together.js";
import {
  confirmDialog, copyText, countdownText, dieFace, distinctNames, errorText, h, histogram, later,
  lengthNote, localDate, miniDice, passkeysSupported, shiftDate, standingText, toast,
} from "./ui.js";
import { confirmBoxes, setConfirmBoxes } from "./store.js";

// The "Sign in with a passkey" button (the first page, the profile). The WebAuthn part
// (passkeys.js) loads when it is pressed, and the audit (audit.js, checkpoint.js) when a
// ranked result shows: neither comes with the first page.
function passkeySignIn() {
  if (!passkeysSupported()) return null;
  const note = h("p", { class: "muted", role: "status", "data-testid": "passkey-signin-note" });
  return h("div", { class: "passkey-signin" },
    h("button", {
      type: "button", class: "btn", "data-testid": "passkey-signin", text: t("passkey_signin"),
      onclick: async () => {
        note.textContent = "";
        const { failureText, signInWithPasskey } = await import("./passkeys.js");
        try {
          const player = await signInWithPasskey();
          toast(t("passkey_signed_in", { name: player.name }));
          location.hash = "#/profile";
          window.dispatchEvent(new HashChangeEvent("hashchange"));
        } catch (err) {
          note.textContent = failureText(err);
        }
      },
    }),
    note);
}


const PRACTICE_RULESETS = ["yahtzee", "yatzy", "maxi-yatzy", "yacht", "generala", "triple-yahtzee"];

function failure(root, err) {
  root.replaceChildren(h("div", { class: "panel" },
    h("p", { role: "alert", text: err.status === 404 ? t("not_found") : errorText(err) }),
    h("a", { class: "btn", href: "/#/", text: t("back_home") })));
}

// The date this browser plays: its local date when that is open, else the nearest open one.
export function playDate(today) {
  const mine = localDate();
  const open = today.open_dates || [];
  if (open.includes(mine)) return mine;
  const sorted = [...open].sort();
  return mine < sorted[0] ? sorted[0] : sorted[sorted.length - 1];
}

// The weekly special's ruleset on a date (null on other days), from /today's "special":
// the rotation advances one ruleset per week since 1970-01-01 (a Thursday).
export function specialOn(today, date) {
  const special = today && today.special;
  if (!special || !date) return null;
  const [y, m, d] = date.split("-").map(Number);
  const days = Math.floor(Date.UTC(y, m - 1, d) / 86400000);
  const weekday = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][(days + 3) % 7];
  if (weekday !== special.weekday) return null;
  return special.rotation[Math.floor(days / 7) % special.rotation.length];
}

function setsOn(today, date) {
  const special = specialOn(today, date);
  const everyday = (today && today.rulesets) || ["yahtzee", "maxi-yatzy"];
  return special && !everyday.includes(special) ? [...everyday, special] : everyday;
}

// ---------- home ----------

export async function homePage(root) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let today;
  try {
    today = await api.getToday();
  } catch (err) {
    if (err.code === "unauthorized" && getToken()) {
      today = await api.api("GET", "/today", undefined, { token: null }).catch(() => null);
    }
    if (!today && err.status === 0) { offlineToday(root); return () => {}; }
    if (!today) { failure(root, err); return () => {}; }
  }
  const date = playDate(today);
  const clock = h("p", { class: "countdown", "data-testid": "countdown" });
  const days = h("section", { class: "panel days-panel", "data-testid": "home-days", "aria-label": t("your_days") }, clock);
  const tick = () => {
    const now = new Date();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    clock.textContent = t("next_day", { time: countdownText(midnight - now) });
  };
  tick();
  const timer = setInterval(tick, 1000);
  const special = specialOn(today, date);
  const cards = setsOn(today, date).map((ruleset) => {
    const set = (today.sets || []).find((s) => s.date === date && s.ruleset === ruleset) || {};
    const played = set.played;
    let action;
    if (played && played.over) {
      action = h("div", { class: "row wrap" },
        h("p", { class: "played", text: `✓ ${t("played", { total: played.total })}` }),
        played.code ? h("a", { class: "btn", href: `/r/${played.code}`, text: t("see_result") }) : null);
    } else {
      const resume = (played && played.game_id) || rememberedGame(date, ruleset);
      action = h("button", {
        type: "button", class: "btn primary big", "data-testid": `play-${ruleset}`,
        text: played ? t("resume") : t("play"),
        onclick: () => startAndOpen({ ruleset, date, mode: "ranked", opponents: chosenOpponents() }),
        "data-resume": resume ? "1" : null,
      });
    }
    const count = h("span", { class: "muted players-so-far" });
    api.getBoard(date, ruleset, 1).then((board) => {
      count.textContent = t("players_so_far", { n: fmtNumber(board.players), count: board.players });
    }).catch(() => {});
    const faces = ruleset === "maxi-yatzy" ? [1, 2, 3, 4, 5, 6] : [2, 3, 4, 5, 6];
    return h("article", { class: ruleset === special ? "set-card special" : "set-card", "data-ruleset": ruleset },
      ruleset === special ? h("p", { class: "badge special-badge", "data-testid": "special", text: t("special") }) : null,
      h("div", { class: "set-title" }, h("h2", {}, rulesetName(ruleset)),
        h("span", { class: "mini-dice deco", "aria-hidden": "true" }, faces.map((f) => dieFace(f, "mini")))),
      h("p", { class: "muted", text: fmtDate(date) }),
      buildingNotice(ruleset),
      action,
      h("div", { class: "row wrap spread" },
        h("a", { class: "link", href: `/#/board/${date}/${ruleset}`, text: t("see_board") }), count));
  });
  root.replaceChildren(h("section", { class: "home" },
    h("h1", { text: t("home_title") }),
    welcome(),
    h("p", { class: "intro", text: t("home_intro") }),
    days,
    h("div", { class: "panel opponents-panel" }, opponentsPicker("home-opp"), h("p", { class: "muted hint-small", text: t("opponents_help") })),
    h("div", { class: "sets" }, cards),
    groupsSection(),
    getToken() ? null : h("div", { class: "panel", "data-testid": "home-passkey" },
      h("p", { class: "muted", text: t("passkey_home") }), passkeySignIn()),
    h("p", {}, h("a", { class: "link", href: "/#/rules", text: t("rules_link") }))));
  fillDays(days, today, date);
  return () => clearInterval(timer);
}

// Offline, Today cannot load: offline practice can (the game is played in this browser).
function offlineToday(root) {
  root.replaceChildren(h("section", { class: "home" },
    h("h1", { text: t("home_title") }),
    h("div", { class: "panel offline-panel", "data-testid": "offline-today" },
      h("p", { text: t("offline_today") }),
      h("div", { class: "row wrap" },
        h("button", {
          type: "button", class: "btn primary", "data-testid": "today-offline-practice", text: t("play_offline"),
          onclick: () => startOffline("yahtzee"),
        }),
        h("a", { class: "btn", href: "/#/practice", text: t("nav_practice") })))));
}

// The first visit: a short welcome, once (dismissed, or gone after the first game).
const KEY_WELCOMED = "dd.welcomed";

function welcome() {
  let seen = true;
  try { seen = localStorage.getItem(KEY_WELCOMED) !== null || Boolean(getToken()); } catch { /* no storage */ }
  if (seen) return null;
  const box = h("section", { class: "panel welcome", "data-testid": "welcome", "aria-labelledby": "welcome-title" },
    h("h2", { id: "welcome-title", text: t("welcome_title") }),
    h("p", { text: t("welcome_text") }),
    h("button", {
      type: "button", class: "btn small", "data-testid": "welcome-ok", text: t("welcome_ok"),
      onclick: () => {
        try { localStorage.setItem(KEY_WELCOMED, "1"); } catch { /* shown again next time */ }
        box.remove();
      },
    }));
  return box;
}

// While the Maxi Yatzy table builds, its computer opponents are stand-ins: say so before Play.
function buildingNotice(ruleset) {
  if (ruleset !== "maxi-yatzy") return null;
  const note = h("p", { class: "build-note", "data-testid": "build-notice", role: "status", hidden: true });
  fetchHealth().then((health) => {
    const table = health && health.tables && health.tables[ruleset];
    if (!table || table.state !== "building") return;
    note.textContent = typeof table.eta_seconds === "number"
      ? t("maxi_building", { minutes: etaMinutes(table.eta_seconds) }) : t("maxi_building_soon");
    note.hidden = false;
  });
  return note;
}

// Coming back: the streak, yesterday's results and (in the panel already) the countdown.
async function fillDays(panel, today, date) {
  const yesterday = shiftDate(date, -1);
  const playedToday = (today.sets || []).some((x) => x.date === date && x.played && x.played.over);
  const boardLink = h("a", { class: "link", href: `/#/board/${yesterday}`, "data-testid": "yesterday-board", text: t("yesterday_board") });
  if (!getToken()) {
    panel.prepend(h("p", { class: "streak-line", "data-testid": "home-streak", text: t("streak_none") }),
      h("p", { "data-testid": "yesterday" }, boardLink));
    return;
  }
  let me;
  try { me = await api.getMe(); } catch { return; }
  const streak = (me.stats && me.stats.current_streak) || 0;
  const streakText = streak === 0 ? t("streak_none")
    : playedToday ? t("streak_kept", { n: streak, count: streak }) : t("streak_keep", { n: streak, count: streak });
  const mine = (me.history || []).filter((g) => g.date === yesterday);
  const line = h("p", { "data-testid": "yesterday" });
  const played = (me.history || []).length > 0 || (me.stats && me.stats.games > 0);
  if (!mine.length && !played) line.append(boardLink);  // a new player: no reproach
  else if (!mine.length) line.append(`${t("yesterday_none")} `, boardLink);
  else {
    line.append(h("strong", { text: `${t("yesterday")}: ` }));
    const results = await Promise.all(mine.map((g) => api.getResult(g.code).catch(() => null)));
    mine.forEach((g, i) => {
      const r = results[i];
      const rank = r && r.rank ? ` · ${standingText(r, r.players, { today: false })}` : "";
      if (i) line.append(" · ");
      line.append(h("a", { href: `/r/${g.code}`, text: `${rulesetName(g.ruleset)} ${g.total}${rank}` }));
    });
  }
  panel.prepend(h("p", { class: streak ? "streak-line lit" : "streak-line", "data-testid": "home-streak", text: streakText }), line);
  const standing = me.public_top;
  if (standing && standing.provisional && standing.ranked_days > 0) {
    line.after(h("p", { class: "provisional-note", "data-testid": "home-provisional",
      text: t("provisional_note", { n: standing.provisional_days, count: standing.provisional_days }) }));
  }
}

// ---------- leaderboards ----------

function boardTable(rows, me, caption, names) {
  return h("table", { class: "board" },
    h("caption", { text: caption }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("rank") }), h("th", { scope: "col", text: t("player") }),
      h("th", { scope: "col", class: "num", text: t("score") }))),
    h("tbody", {}, rows.map((row) => {
      // your row: your game (others may share your rank)
      const mine = Boolean(me) && (me.game_id ? row.game_id === me.game_id : row.rank === me.rank);
      return h("tr", { class: mine ? "me" : null, "aria-current": mine ? "true" : null },
        h("td", { text: row.rank }),
        h("td", { class: "player-name" }, names.get(row.player && row.player.id) ?? shownName(row.player && row.player.name), mine ? h("strong", { class: "you", text: ` (${t("you")})` }) : null,
          markBadge(row.marks || [])),
        h("td", { class: "num", text: row.score }));
    })));
}

// One badge per row that does not stand on the public top (its first mark; all in its title).
function markBadge(marks) {
  if (!marks.length) return null;
  return h("span", { class: "badge mark", "data-mark": marks[0], title: marks.map((m) => t(`mark_${m}`)).join(" · "), text: t(`mark_${marks[0]}`) });
}

// Why your game is not on the public top, in plain words (provisional players).
function markNote(marks, days) {
  const lines = [];
  if (marks.includes("provisional")) lines.push(t("provisional_note", { n: days, count: days }));
  if (marks.includes("no_passkey")) lines.push(t("no_passkey_note"));
  return h("p", { class: "provisional-note", "data-testid": "board-provisional", text: lines.join(" · ") });
}

// A day no longer open anywhere (its board is not live any more, frozen or not yet).
function closedDay(today, day) {
  const open = (today && today.open_dates) || [];
  return open.length > 0 && !open.includes(day) && day < [...open].sort()[0];
}

// Copy and Share of the player's own result, from its public page's share text.
function ownShare(code) {
  const box = h("div", { class: "row wrap own-share", "data-testid": "own-share" });
  api.getResult(code).then((result) => {
    const share = shareState(result.share_text || "", result.rank != null || result.mode !== "ranked");
    box.replaceChildren(...[shareButtons(share)].flat().filter(Boolean), share.fallback);
  }).catch(() => {});
  return box;
}

export async function boardPage(root, date, ruleset) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let today = null;
  try { today = await api.getToday(); } catch { /* the board still works */ }
  const day = date || (today ? playDate(today) : localDate());
  const rulesets = setsOn(today, day);
  const rs = ruleset || rulesets[0];
  const go = (d, r) => { location.hash = `#/board/${d}/${r}`; };
  const picker = h("input", {
    type: "date", value: day, "aria-label": t("date"), max: today ? [...today.open_dates].sort().pop() : null,
    onchange: (e) => e.target.value && go(e.target.value, rs),
  });
  const controls = h("div", { class: "board-controls" },
    h("div", { class: "tabs", role: "group", "aria-label": t("ruleset") },
      rulesets.map((r) => h("a", {
        class: r === rs ? "tab active" : "tab", href: `/#/board/${day}/${r}`,
        "aria-current": r === rs ? "page" : null, text: rulesetName(r),
      }))),
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn small", "aria-label": t("prev_day"), text: "◀", onclick: () => go(shiftDate(day, -1), rs) }),
      picker,
      h("button", { type: "button", class: "btn small", "aria-label": t("next_day_btn"), text: "▶", onclick: () => go(shiftDate(day, 1), rs) })));
  const body = h("div", { class: "board-body" }, h("p", { class: "loading", text: t("loading") }));
  root.replaceChildren(h("section", { class: "boards" },
    h("h1", {}, `${t("board_title")} · ${rulesetName(rs)}`),
    h("p", { class: "muted", text: fmtDate(day) }), controls, body));
  try {
    const board = await api.getBoard(day, rs, 100);
    const parts = [
      h("p", { class: "board-meta" },
        h("span", { class: "badge", "data-testid": "board-state", text: board.frozen ? t("frozen") : closedDay(today, day) ? t("closed") : t("live") }), " ",
        t("players_n", { n: fmtNumber(board.players), count: board.players })),
    ];
    if (!board.top || !board.top.length) parts.push(h("p", { text: t("no_players") }));
    if (board.me) {
      const isToday = today ? day === playDate(today) : false;
      parts.push(h("p", { class: "rank", "data-testid": "board-rank", text: standingText(board.me, board.players, { today: isToday }) }));
      const myRow = (board.around || []).find((row) => row.game_id === board.me.game_id);
      const marks = (myRow && myRow.marks) || [];
      if (marks.length) parts.push(markNote(marks, board.provisional_days));
    }
    if (board.top_open) parts.push(h("p", { class: "muted", "data-testid": "board-top-open", text: t("top_open") }));
    const leftOut = board.left_out ? board.left_out.games : 0;
    if (leftOut) parts.push(h("p", { class: "muted", "data-testid": "board-left-out", text: t("left_out", { n: fmtNumber(leftOut), count: leftOut }) }));
    const chart = histogram(board.histogram, board.me ? board.me.score : null, board.players);
    if (chart) parts.push(chart);
    if (board.review) parts.push(reviewBlock(board.review));
    if (board.par) {
      const parLine = parBlock(board.par);
      if (parLine) parts.push(parLine);
    }
    const ceilingLine = ceilingBlock(board.ceiling);
    if (ceilingLine) parts.push(ceilingLine);
    // around you, unless your row is in the top (a provisional game is not: see its marks)
    const rows = [...(board.top || []), ...(board.around || [])];
    const names = distinctNames([...new Map(rows.map((r) => [r.player && r.player.id, r.player && r.player.name])).entries()], shownName);
    const myRow = board.me && rows.find((r) => r.game_id === board.me.game_id);
    if (myRow && myRow.code) parts.push(ownShare(myRow.code));
    const inTop = board.me && (board.top || []).some((row) => row.game_id === board.me.game_id);
    if (board.around && board.around.length && board.me && !inTop) {
      parts.push(boardTable(board.around, board.me, t("around_you"), names));
    }
    if (board.top && board.top.length) parts.push(boardTable(board.top, board.me, t("top", { n: board.top.length }), names));
    body.replaceChildren(...parts);
  } catch (err) {
    body.replaceChildren(h("p", { role: "alert", text: err.status === 404 ? t("no_players") : errorText(err) }));
  }
  return () => {};
}

// ---------- practice ----------

export async function practicePage(root) {
  const select = h("select", { id: "practice-ruleset", "aria-label": t("ruleset") },
    PRACTICE_RULESETS.map((r) => h("option", { value: r, text: rulesetName(r) })));
  const days = h("div", { class: "days" }, h("p", { class: "loading", text: t("loading") }));
  // Offline, Practice on random dice goes on in the browser (rules generated from the core).
  const offline = h("div", { class: "panel offline-panel", "data-testid": "offline-panel", hidden: true });
  const showOffline = () => {
    const resume = unfinishedLocal(select.value);
    offline.replaceChildren(
      h("p", { text: t("offline_note") }),
      h("div", { class: "row wrap" },
        h("button", {
          type: "button", class: "btn primary", "data-testid": "practice-offline", text: t("play_offline"),
          onclick: () => startOffline(select.value),
        }),
        resume ? h("a", { class: "btn", href: `/#/play/${resume}`, "data-testid": "offline-resume", text: t("resume") }) : null));
    offline.hidden = false;
  };
  root.replaceChildren(h("section", { class: "practice" },
    h("h1", { text: t("practice_title") }),
    h("p", { class: "intro", text: t("practice_intro") }),
    offline,
    h("div", { class: "panel" },
      h("label", { for: "practice-ruleset", text: t("ruleset") }),
      h("div", { class: "row wrap" }, select,
        h("button", {
          type: "button", class: "btn primary", "data-testid": "practice-random", text: t("random_dice"),
          onclick: () => startAndOpen({ ruleset: select.value, mode: "practice", opponents: chosenOpponents() }),
        }),
        h("button", {
          type: "button", class: "btn", "data-testid": "practice-challenge", text: t("challenge"),
          onclick: async () => {
            try {
              await api.ensurePlayer();
              const made = await api.createChallenge({ ruleset: select.value });
              location.hash = `#/challenge/${made.code}`;
            } catch (err) { toast(errorText(err)); }
          },
        })),
      opponentsPicker("practice-opp")),
    challengeForm(),
    h("h2", { text: t("revealed_days") }), days));
  if (navigator.onLine === false) showOffline();
  try {
    const today = await api.getToday();
    const to = [...today.open_dates].sort()[0];
    const every = [...new Set([...(today.rulesets || []), ...((today.special && today.special.rotation) || [])])];
    const lists = await Promise.all(every.map((r) =>
      api.getDays(shiftDate(to, -14), to, r).then((res) => res.days || []).catch(() => [])));
    const revealed = lists.flat().filter((d) => d.status === "revealed")
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1
        : every.indexOf(a.ruleset) - every.indexOf(b.ruleset)));
    days.replaceChildren(revealed.length
      ? h("ul", { class: "day-list" }, revealed.map((d) => h("li", {},
        h("span", {}, h("strong", { text: rulesetName(d.ruleset) }), ` · ${fmtDate(d.date)}`),
        h("span", { class: "row" },
          h("a", { class: "btn small ghost", href: `/#/board/${d.date}/${d.ruleset}`, text: t("see_board") }),
          h("button", {
            type: "button", class: "btn small", text: t("play_practice"),
            onclick: () => startAndOpen({ ruleset: d.ruleset, mode: "practice", date: d.date, opponents: chosenOpponents() }),
          })))))
      : h("p", { text: t("no_revealed") }));
  } catch (err) {
    days.replaceChildren(h("p", { role: "alert", text: err.status === 0 ? t("offline_days") : errorText(err) }));
    if (err.status === 0) showOffline();
  }
  return () => {};
}

// ---------- profile ----------

function tokenSection(token) {
  const field = h("input", { type: "text", readonly: true, value: token, class: "token", id: "token-text", "aria-label": t("token_title") });
  const qr = h("div", { class: "qr", "data-testid": "qr" });
  const hidden = h("div", { class: "token-box", hidden: true },
    h("div", { class: "row" }, field,
      h("button", {
        type: "button", class: "btn small", text: t("copy_token"),
        onclick: async () => {
          if (await copyText(token)) toast(t("token_copied"));
          else { field.select(); toast(t("copy_failed")); }
        },
      })),
    qr);
  const show = h("button", {
    type: "button", class: "btn", "data-testid": "show-token", text: t("show_token"),
    onclick: async () => {
      hidden.hidden = false;
      show.hidden = true;
      try {
        qr.innerHTML = await api.importQrSvg();
        const svgNode = qr.querySelector("svg");
        if (svgNode) { svgNode.setAttribute("role", "img"); svgNode.setAttribute("aria-label", "QR"); }
      } catch { qr.textContent = ""; }
    },
  });
  // A leaked token is replaced: the old one stops working on every device at once.
  const rotate = h("button", {
    type: "button", class: "btn small ghost", "data-testid": "rotate-token", text: t("rotate_token"),
    onclick: async () => {
      if (!await confirmDialog(t("rotate_confirm"), t("rotate_yes"))) return;
      try {
        setToken((await api.rotateToken()).token);
        toast(t("token_rotated"));
        window.dispatchEvent(new HashChangeEvent("hashchange"));
      } catch (err) {
        toast(errorText(err));
      }
    },
  });
  return [h("p", { class: "muted", text: t("token_help") }), show, hidden, rotate];
}

function importForm() {
  const input = h("input", { type: "text", id: "import-token", autocomplete: "off", spellcheck: "false" });
  const note = h("p", { class: "muted", role: "status" });
  return h("form", {
    class: "panel",
    onsubmit: async (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      const outcome = await switchPlayer(token);
      note.textContent = outcomeText(outcome);
      if (outcome === "used") setTimeout(() => { location.hash = "#/profile"; window.dispatchEvent(new HashChangeEvent("hashchange")); }, 600);
    },
  },
  h("label", { for: "import-token", text: t("use_token") }),
  h("div", { class: "row" }, input, h("button", { type: "submit", class: "btn", text: t("use") })),
  note);
}

// The name behind a token, or null when the server does not recognise it.
async function playerName(token) {
  try {
    return (await api.getMe(token)).name;
  } catch {
    return null;
  }
}

// Play as the player of `token`: "used", "same" (already this player), "invalid", or
// "kept" when the person chose to keep the player this browser has. Replacing a player
// always asks first, and the replaced token stays among the previous ones.
export async function switchPlayer(token) {
  const current = getToken();
  if (current === token) return "same";
  const incoming = await playerName(token);
  if (incoming === null) return "invalid";
  if (current) {
    const mine = await playerName(current);
    const question = t("replace_player", { current: mine ?? t("this_player"), incoming });
    if (!await confirmDialog(question, t("replace_yes"))) return "kept";
  }
  replaceToken(token);
  return "used";
}

function outcomeText(outcome) {
  return {
    used: t("token_used"), same: t("token_same"), invalid: t("token_invalid"), kept: t("token_kept"),
  }[outcome];
}

// The players this browser was before, each with a way back to it.
async function previousSection() {
  const tokens = previousTokens();
  if (!tokens.length) return null;
  const names = await Promise.all(tokens.map(playerName));
  return h("section", { class: "panel", "data-testid": "previous-players" },
    h("h2", { text: t("previous_players") }),
    h("ul", { class: "day-list" }, tokens.map((token, i) => h("li", {},
      h("span", { text: names[i] ?? `${token.split(".")[0]} (${t("not_recognised")})` }),
      h("button", {
        type: "button", class: "btn small", text: t("switch_back"),
        onclick: async () => {
          const outcome = await switchPlayer(token);
          toast(outcomeText(outcome));
          if (outcome === "used") window.dispatchEvent(new HashChangeEvent("hashchange"));
        },
      })))));
}

export async function profilePage(root) {
  const token = getToken();
  if (!token) {
    root.replaceChildren(h("section", { class: "profile" },
      h("h1", { text: t("profile_title") }), h("p", { text: t("no_player") }), passkeySignIn(),
      importForm(), await previousSection()));
    return () => {};
  }
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let me;
  try {
    me = await api.getMe();
  } catch (err) {
    root.replaceChildren(h("section", { class: "profile" },
      h("h1", { text: t("profile_title") }), h("p", { role: "alert", text: errorText(err) }), passkeySignIn(),
      importForm(), await previousSection()));
    return () => {};
  }
  const stats = me.stats || {};
  const nameInput = h("input", { type: "text", id: "name", maxlength: 24, value: me.name || "", autocomplete: "nickname" });
  const nameNote = h("span", { class: "muted", role: "status" });
  const confirmBox = h("input", {
    type: "checkbox", id: "confirm-boxes", "data-testid": "confirm-setting", checked: confirmBoxes(),
    onchange: (event) => setConfirmBoxes(event.target.checked),
  });
  const statItem = (label, value) => h("div", { class: "stat" }, h("dt", { text: label }), h("dd", { text: value }));
  root.replaceChildren(h("section", { class: "profile" },
    h("h1", { text: t("profile_title") }),
    h("form", {
      class: "panel",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const saved = await api.renamePlayer(nameInput.value.trim());
          nameNote.textContent = t("name_saved", { name: saved.name || nameInput.value.trim() });
        } catch (err) {
          nameNote.textContent = errorText(err);
        }
      },
    },
    h("label", { for: "name", text: t("name") }),
    h("div", { class: "row" }, nameInput, h("button", { type: "submit", class: "btn", text: t("save") })),
    lengthNote(nameInput), nameNote),
    h("section", { class: "panel settings" },
      h("h2", { text: t("confirm_setting_title") }),
      h("label", { class: "check", for: "confirm-boxes" }, confirmBox, ` ${t("confirm_setting")}`)),
    await (await import("./reminders.js")).remindersSection(),
    h("h2", { text: t("stats") }),
    h("dl", { class: "stats" },
      statItem(t("games"), fmtNumber(stats.games)), statItem(t("streak"), fmtNumber(stats.current_streak)),
      statItem(t("longest"), fmtNumber(stats.longest_streak))),
    daysOfPlay(me.public_top),
    publicTopNote(me.public_top),
    rulesetStats(stats.by_ruleset || {}),
    installSection(),
    h("h2", { text: t("history") }),
    (me.history && me.history.length)
      ? h("ul", { class: "day-list" }, me.history.map((g) => h("li", {},
        h("span", {}, h("strong", { text: rulesetName(g.ruleset) }), ` · ${fmtDate(g.date)}`),
        h("span", { class: "row" }, h("strong", { text: g.total }),
          g.code ? h("a", { class: "btn small ghost", href: `/r/${g.code}`, text: t("see_result") }) : null))))
      : h("p", { class: "muted", text: t("no_history") }),
    await (await import("./passkeys.js")).passkeySection(),
    h("h2", { text: t("token_title") }),
    tokenSection(token),
    passkeySignIn(),
    importForm(),
    await previousSection()));
  return () => {};
}

// Your days of ranked play, since the first (they make you a regular of the public board).
function daysOfPlay(standing) {
  if (!standing || !standing.ranked_days) return null;
  return h("p", { "data-testid": "profile-days" }, h("strong", { text: `${t("days_played")}: ` }),
    t("days_since", { n: fmtNumber(standing.ranked_days), count: standing.ranked_days, date: fmtDate(standing.first_ranked_date) }));
}

// Whether your games show on the public board: provisional until your days of play.
function publicTopNote(standing) {
  if (!standing || standing.stands) return null;
  const lines = [];
  if (standing.provisional) {
    lines.push(t("provisional_note", { n: standing.provisional_days, count: standing.provisional_days }));
    lines.push(t("provisional_left", { n: standing.days_left, count: standing.days_left }));
  }
  if (standing.passkey_required && !standing.passkey) lines.push(t("no_passkey_note"));
  return h("p", { class: "provisional-note", "data-testid": "profile-provisional", text: lines.join(" ") });
}

// Averages and bests per ruleset: a Maxi Yatzy score is not comparable with a Yahtzee one.
function rulesetStats(byRuleset) {
  const rows = Object.entries(byRuleset).filter(([, v]) => v && v.games);
  if (!rows.length) return null;
  rows.sort(([a], [b]) => PRACTICE_RULESETS.indexOf(a) - PRACTICE_RULESETS.indexOf(b));
  return h("table", { class: "board stats-table", "data-testid": "ruleset-stats" },
    h("caption", { text: t("stats_by_game") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("ruleset") }), h("th", { scope: "col", class: "num", text: t("games") }),
      h("th", { scope: "col", class: "num", text: t("average") }), h("th", { scope: "col", class: "num", text: t("best") }))),
    h("tbody", {}, rows.map(([ruleset, v]) => h("tr", { "data-ruleset": ruleset },
      h("th", { scope: "row", text: rulesetName(ruleset) }),
      h("td", { class: "num", text: fmtNumber(v.games) }),
      h("td", { class: "num", text: fmtNumber(v.average, 1) }),
      h("td", { class: "num", text: fmtNumber(v.best) })))));
}

// Install the app (when the browser offers it): Daily Dice on the home screen, with
// Practice on random dice working offline.
function installSection() {
  const button = h("button", {
    type: "button", class: "btn", "data-testid": "install", text: t("install_app"),
    onclick: async () => { if (await promptInstall()) toast(t("installed")); },
  });
  const box = h("section", { class: "panel install", hidden: true },
    h("p", { text: t("install_help") }), button);
  onInstallable((can) => { box.hidden = !can; });
  return box;
}

export async function importPage(root, token) {
  history.replaceState(null, "", "/#/profile"); // the token leaves the address bar first
  toast(outcomeText(await switchPlayer(token)));
  return profilePage(root);
}

// ---------- a shared result ----------

function historyBlock(turns) {
  return h("ol", { class: "turns" }, turns.map((turn) => h("li", { class: "turn" },
    h("div", { class: "turn-head" },
      h("strong", { text: t("turn_n", { n: turn.turn }) }),
      h("span", {}, `${boxName(turn.box)}: `, h("strong", { text: turn.points }),
        turn.bonus ? ` (+${turn.bonus})` : "")),
    h("div", { class: "rolls" }, (turn.rolls || []).map((dice, i) =>
      miniDice(dice, (turn.holds || [])[i]))))));
}

export async function resultPage(root, code) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let result;
  try {
    result = await api.getResult(code);
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const playBox = h("div", { class: "row wrap" });
  const parts = [
    h("h1", {}, `${t("result_title")} · ${rulesetName(result.ruleset)}`),
    h("p", { class: "muted" }, [result.date ? fmtDate(result.date) : t("practice_mode"),
      result.player && result.player.name ? t("by", { name: shownName(result.player.name) }) : null].filter(Boolean).join(" · ")),
    h("p", { class: "final" }, h("span", { text: t("final_total") }),
      h("strong", { class: "final-total", "data-testid": "result-total", text: result.total })),
    result.rank ? h("p", { class: "rank", "data-testid": "result-rank", text: standingText(result, result.players, { today: false }) }) : null,
    reviewBlock(result.review),
    ceilingBlock(result.ceiling),
    later(() => import("./audit.js"), (m) => m.auditBlock(result)),
    playBox,
  ];
  const grid = h("div", { class: "game-grid over" },
    renderCard({ card: result.card, upper: result.upper, extra_bonus: result.extra_bonus, total: result.total, over: true }));
  if (result.history && result.history.length) grid.prepend(h("section", { class: "panel" }, historyBlock(result.history)));
  else grid.prepend(h("p", { class: "panel muted", text: t("hidden_until_reveal") }));
  root.replaceChildren(h("section", { class: "result" }, parts, grid));
  offerShare(result, playBox);
  offerPlay(result, playBox);
  return () => {};
}

// The player's own result (opened from Today, Profile or a board) offers Copy and Share.
async function offerShare(result, box) {
  if (!getToken()) return;
  let me;
  try { me = await api.getMe(); } catch { return; }
  if (!(me.history || []).some((g) => g.code === result.code)) return;
  const share = shareState(result.share_text || "", result.rank != null || result.mode !== "ranked");
  box.prepend(...[shareButtons(share)].flat().filter(Boolean));
  box.after(share.fallback);
}

async function offerPlay(result, box) {
  if (!result.date) {
    box.append(h("a", { class: "btn", href: "/#/practice", text: t("nav_practice") }));
    return;
  }
  let today = null;
  try { today = await api.getToday(); } catch { /* offer practice only */ }
  const set = today && (today.sets || []).find((s) => s.date === result.date && s.ruleset === result.ruleset);
  const open = today && today.open_dates.includes(result.date) && set && set.status === "open";
  if (open && !(set.played && set.played.over)) {
    box.append(h("button", {
      type: "button", class: "btn primary", "data-testid": "play-same", text: t("play_same"),
      onclick: () => startAndOpen({ ruleset: result.ruleset, date: result.date, mode: "ranked" }),
    }));
  } else if (result.revealed || (set && set.status === "revealed")) {
    box.append(h("button", {
      type: "button", class: "btn primary", "data-testid": "practice-same", text: t("practice_same"),
      onclick: () => startAndOpen({ ruleset: result.ruleset, date: result.date, mode: "practice" }),
    }));
  }
  box.append(h("a", { class: "btn", href: `/#/board/${result.date}/${result.ruleset}`, text: t("see_board") }));
}

// ---------- rules ----------

export async function rulesPage(root, only) {
  const { RULES_DOC, RULES_EXAMPLES } = await import("./rules.js");
  const doc = RULES_DOC[lang()] || RULES_DOC.en;
  const rulesets = Object.keys(RULES_EXAMPLES);
  const shown = rulesets.includes(only) ? [only] : rulesets;
  const section = (ruleset) => {
    const part = doc[ruleset] || RULES_DOC.en[ruleset] || { intro: "", boxes: {}, notes: [] };
    const examples = RULES_EXAMPLES[ruleset];
    return h("section", { class: "panel", id: `rules-${ruleset}`, "data-ruleset": ruleset },
      h("h2", { text: rulesetName(ruleset) }),
      h("p", { class: "muted", text: part.intro }),
      h("table", { class: "board rules-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", text: t("box") }), h("th", { scope: "col", text: t("points") }),
          h("th", { scope: "col", text: t("rules_example") }))),
        h("tbody", {}, Object.entries(examples).map(([box, [dice, points]]) =>
          h("tr", { "data-box": box },
            h("th", { scope: "row", text: boxName(box) }),
            h("td", { text: part.boxes[box] || "" }),
            h("td", { class: "rules-example" }, miniDice(dice), " = ", h("strong", { text: points })))))),
      (part.notes || []).map((note) => h("p", { text: note })));
  };
  root.replaceChildren(h("section", { class: "rules" },
    h("h1", { text: t("rules_title") }),
    h("ol", {}, t("rules_text").map((line) => h("li", { text: line }))),
    h("nav", { class: "tabs", "aria-label": t("rules_pick") },
      h("a", { class: shown.length > 1 ? "tab active" : "tab", href: "/#/rules", text: t("rules_all") }),
      rulesets.map((r) => h("a", {
        class: shown.length === 1 && shown[0] === r ? "tab active" : "tab", href: `/#/rules/${r}`, text: rulesetName(r),
      }))),
    shown.map(section)));
  return () => {};
}
