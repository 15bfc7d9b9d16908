// Playing together: computer opponents beside your card, you against them at the end,
// friend challenges (make one, take one, compare) and groups (boards, week, streaks).
// Every score and every turn shown comes from the server, which reveals an opponent's
// or a rival's turn only after your own turn of the same number is scored, and on the
// dice of a day still open only its box and points (their dice once the day closes).
import * as api from "./api.js";
import { boxName, fmtDate, fmtNumber, lang, playerName, rulesetName, t } from "./i18n.js";
import { getOpponents, getToken, setOpponents } from "./store.js";
import { confirmDialog, distinctNames, errorText, h, inviteBox, localDate, miniDice, toast } from "./ui.js";

export const LEVELS = ["easy", "medium", "hard"];

// ---------- choosing opponents ----------

export function opponentsPicker(idPrefix) {
  const chosen = new Set(getOpponents());
  // The choice is kept for the next games: say what it is now, beside the boxes.
  const now = h("p", { class: "opponents-now", "data-testid": "opponents-now", role: "status" });
  const say = () => {
    const levels = LEVELS.filter((l) => chosen.has(l)).map((l) => t(`level_${l}`));
    now.textContent = levels.length
      ? t("opponents_now", { levels: new Intl.ListFormat(lang() === "it" ? "it-IT" : "en-GB", { type: "conjunction" }).format(levels) })
      : t("opponents_none");
  };
  say();
  return h("fieldset", { class: "pick", "data-testid": "opponents-picker" },
    h("legend", { class: "muted", text: t("opponents") }),
    LEVELS.map((level) => h("label", {},
      h("input", {
        type: "checkbox", value: level, id: `${idPrefix}-${level}`, "data-level": level,
        checked: chosen.has(level),
        onchange: (event) => {
          if (event.target.checked) chosen.add(level); else chosen.delete(level);
          setOpponents(LEVELS.filter((l) => chosen.has(l)));
          say();
        },
      }),
      t(`level_${level}`))),
    now);
}

// The levels to send with a new game.
export function chosenOpponents() {
  return getOpponents().filter((l) => LEVELS.includes(l));
}

// ---------- beside the card ----------

// Turns shown beside the card while the game goes on (all of them once it is over).
const RECENT_TURNS = 6;

// On the dice of a day still open the server sends boxes and points only
// (side.dice_hidden): the card says why; once the day is revealed each turn shows the
// dice it ended with.
function sideCard(title, side, testid, over, note = null) {
  const turns = side.turns || [];
  const shown = over ? turns : [...turns].reverse().slice(0, RECENT_TURNS);
  const hidden = Boolean(side.dice_hidden);
  return h("article", { class: "opp-card", "data-testid": testid, "data-turns": turns.length, "data-total": side.total,
    "data-dice-hidden": hidden ? "1" : "0" },
    h("h3", {}, h("span", { text: title }), h("strong", { text: side.total })),
    note ? h("p", { class: "opp-note", text: note }) : null,
    hidden ? h("p", { class: "opp-note muted", "data-testid": "dice-hidden", text: t("dice_hidden_note") }) : null,
    turns.length
      ? h("ol", { class: over ? "all" : null }, shown.map((turn) => h("li", {},
        h("span", { text: `${turn.turn}. ${boxName(turn.box)}` }),
        Array.isArray(turn.dice) && turn.dice.length ? miniDice(turn.dice) : null,
        h("span", { text: turn.points + (turn.bonus ? ` +${turn.bonus}` : "") }))))
      : h("p", { class: "muted", text: t("opp_turn_hidden") }));
}

// An opponent's name: its level (a heuristic stand-in is not labelled: the note under
// the opponents and the notice on Today say the table is still being built).
export function opponentName(o) {
  return t(`level_${o.level}`);
}

// The computer opponents and the challenge's rival, up to your scored turns.
export function rivalsPanel(game) {
  const opponents = game.opponents || [];
  const cards = opponents.map((o) =>
    sideCard(opponentName(o), o, `opponent-${o.level}`, game.over));
  const rival = game.challenge && game.challenge.rival;
  if (rival) cards.unshift(sideCard(t("to_beat", { name: playerName(rival.name) }), rival, "rival", game.over));
  if (!cards.length) return null;
  // (Triple Yahtzee has no exact strategy at all: its opponents are always heuristic.)
  const standIn = game.ruleset === "triple-yahtzee" ? [] : opponents.filter((o) => o.heuristic);
  const levels = new Intl.ListFormat(lang() === "it" ? "it-IT" : "en-GB", { type: "conjunction" })
    .format(standIn.map((o) => t(`level_${o.level}`)));
  return h("section", { class: "opponents", "aria-label": t("opponents") },
    standIn.length ? h("p", { class: "opp-standin muted", "data-testid": "standin-note",
      text: t("standin_note", { game: rulesetName(game.ruleset), levels }) }) : null,
    cards);
}

// ---------- the end screen: you against them, par explained, challenge a friend ----------

export function versusBlock(game) {
  const rows = [];
  const you = game.total ?? 0;
  const line = (name, them, testid) => {
    const verdict = you > them ? "win" : you < them ? "loss" : "tie";
    const word = { win: t("you_won"), loss: t("you_lost"), tie: t("you_tied") }[verdict];
    rows.push(h("li", { "data-testid": testid, "data-verdict": verdict },
      h("span", { text: t("you_vs", { you, name, them }) }),
      h("span", { class: verdict, text: word })));
  };
  const rival = game.challenge && game.challenge.rival;
  if (rival && rival.over) line(playerName(rival.name), rival.total, "versus-rival");
  for (const o of game.opponents || []) line(opponentName(o), o.total, `versus-${o.level}`);
  if (!rows.length) return null;
  const par = (game.opponents || []).map((o) => h("li", { "data-testid": `par-${o.level}` },
    o.expected != null
      ? t("par_expected", { level: opponentName(o), expected: fmtNumber(o.expected, 1), total: o.total })
      : t("par_expected_unknown", { level: opponentName(o), total: o.total })));
  return h("section", { class: "versus-box" },
    h("ul", { class: "versus", "data-testid": "versus" }, rows),
    par.length ? h("ul", { class: "muted par-explained" }, par) : null);
}

export function challengeButton(game) {
  const code = game.result && game.result.code;
  if (!code) return null;
  const out = h("div", { class: "challenge-made" });
  const button = h("button", {
    type: "button", class: "btn", "data-testid": "make-challenge", text: t("challenge"),
    onclick: async () => {
      button.disabled = true;
      try {
        const made = await api.createChallenge({ code });
        const game_ = rulesetName(game.ruleset);
        out.replaceChildren(
          h("p", { text: t("challenge_made", { code: made.code }) }),
          h("p", {}, h("a", { href: made.url, "data-testid": "challenge-url", class: "code-big", text: made.code })),
          inviteBox(made.url, {
            title: t("challenge_title", { code: made.code }),
            text: t("challenge_share_text", { game: game_, total: game.total }),
            testid: "challenge-invite",
          }));
      } catch (err) {
        button.disabled = false;
        out.append(h("p", { role: "alert", text: errorText(err) }));
      }
    },
  });
  out.append(button);
  return out;
}

// ---------- the challenge page ----------

// How the viewer's finished game did against each other finished entry, in words.
function verdicts(entries) {
  const me = entries.find((e) => e.you && e.finished);
  if (!me) return null;
  const others = entries.filter((e) => !e.you && e.finished);
  if (!others.length) return null;
  return h("ul", { class: "verdicts", "data-testid": "verdict" }, others.map((o) => {
    const by = Math.abs(me.total - o.total);
    const name = playerName(o.name);
    const [key, cls] = me.total > o.total ? ["verdict_won", "win"]
      : me.total < o.total ? ["verdict_lost", "loss"] : ["verdict_tied", "tie"];
    return h("li", { class: cls, "data-verdict": cls }, t(key, { name, by, you: me.total, them: o.total }));
  }));
}

function comparisonTable(comparison) {
  const names = comparison[0].players;
  const figures = comparison.some((turn) => turn.players.some((p) => p.loss !== null && p.loss !== undefined));
  return [
    h("table", { class: "compare", "data-testid": "challenge-compare" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "#" }),
        names.map((p) => h("th", { scope: "col", text: p.you ? `${playerName(p.name)} (${t("you")})` : playerName(p.name) })))),
      h("tbody", {}, comparison.map((turn) => h("tr", {},
        h("td", { text: turn.turn }),
        turn.players.map((p) => h("td", { class: p.gained === 0 ? "best" : null },
          `${boxName(p.box)} ${p.points}`,
          p.loss ? h("small", { class: "muted", text: ` (−${fmtNumber(p.loss, 1)})` }) : null)))))),
    h("div", { class: "legend muted", "data-testid": "compare-legend" },
      h("p", {}, h("span", { class: "legend-best", text: t("legend_best_mark") }), ` ${t("legend_best")}`),
      h("p", { text: figures ? t("legend_loss") : t("legend_no_figures") })),
  ];
}

export async function challengePage(root, code, startAndOpen) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let view;
  try {
    view = await api.getChallenge(code);
  } catch (err) {
    root.replaceChildren(h("div", { class: "panel" },
      h("p", { role: "alert", "data-testid": "challenge-error", text: errorText(err) }),
      h("a", { class: "btn", href: "/#/practice", text: t("nav_practice") })));
    return () => {};
  }
  const game = rulesetName(view.ruleset);
  const entries = view.entries || [];
  const mine = entries.find((e) => e.you);
  // A challenge on a day set still open is the viewer's one ranked game of that set.
  let set = null;
  if (view.date) {
    try {
      const today = await api.getToday();
      set = (today.sets || []).find((x) => x.date === view.date && x.ruleset === view.ruleset) || null;
    } catch { /* without it, the warning below still says what taking it means */ }
  }
  const dayOpen = Boolean(view.date) && (set ? set.status === "open" : false);
  const played = set && set.played;
  const take = async (blind) => {
    if (dayOpen && !mine && !played) {
      const ok = await confirmDialog(t("challenge_today_confirm", { game }), t("challenge_today_yes"));
      if (!ok) return;
    }
    startAndOpen({ challenge: view.code, blind, opponents: chosenOpponents() });
  };
  const parts = [
    h("h1", { text: t("challenge_title", { code: view.code }) }),
    h("p", { class: "muted" }, `${game} · ${view.date ? fmtDate(view.date) : t("practice_mode")}`),
    h("p", { text: t("challenge_intro") }),
  ];
  if (!mine || !mine.finished) {
    const panel = h("div", { class: "panel" });
    if (dayOpen && played && played.over) {
      panel.append(h("p", { "data-testid": "challenge-today", text: t("challenge_today_played", { game, total: played.total }) }),
        h("button", { type: "button", class: "btn primary", "data-testid": "challenge-mine", text: t("challenge_add_mine"), onclick: () => take(true) }));
    } else if (dayOpen && played) {
      panel.append(h("p", { "data-testid": "challenge-today", text: t("challenge_today_resume", { game }) }),
        h("button", { type: "button", class: "btn primary", "data-testid": "challenge-beat", text: t("resume"), onclick: () => take(false) }));
    } else {
      if (dayOpen) {
        panel.append(h("p", { class: "warn-note", role: "note", "data-testid": "challenge-today", text: t("challenge_today_warning", { game }) }));
      }
      panel.append(opponentsPicker("challenge-opp"),
        h("div", { class: "row wrap" },
          h("button", { type: "button", class: "btn primary", "data-testid": "challenge-beat", text: t("challenge_beat"), onclick: () => take(false) }),
          h("button", { type: "button", class: "btn", "data-testid": "challenge-blind", text: t("challenge_blind"), onclick: () => take(true) })));
    }
    parts.push(panel);
  }
  parts.push(h("h2", { text: t("challenge_entries") }),
    entries.length
      ? h("table", { class: "board", "data-testid": "challenge-entries" },
        h("tbody", {}, entries.map((e) => h("tr", { class: e.you ? "me" : null },
          h("td", {}, playerName(e.name), e.you ? h("strong", { class: "you", text: ` (${t("you")})` }) : null),
          h("td", { class: "num", text: e.finished ? e.total : `${e.total} · ${t("turn_n", { n: e.turns_done })}` })))))
      : h("p", { text: t("challenge_none") }));
  const verdict = verdicts(entries);
  if (view.comparison) {
    parts.push(h("h2", { text: t("challenge_compare") }), verdict, ...comparisonTable(view.comparison));
  } else if (mine && !mine.finished) {
    parts.push(h("p", { class: "muted", text: t("challenge_hidden") }));
  }
  parts.push(h("h2", { text: t("challenge_invite") }),
    inviteBox(view.url, { title: t("challenge_title", { code: view.code }), text: t("challenge_invite_text", { game }), testid: "challenge-invite" }));
  root.replaceChildren(h("section", { class: "challenge", "data-code": view.code }, parts.filter(Boolean)));
  return () => {};
}

const CODE_FORMS = {
  challenge: /^\s*((ch|dd)-?)?[-\s]*([0-9a-tv-z][-\s]*){1,12}$/i,
  group: /^\s*(g-?)?[-\s]*([0-9a-tv-z][-\s]*){6}$/i,
};

// A form to open a challenge by its code (practice page); a code not in its form is
// answered at once, in words.
export function challengeForm() {
  const input = h("input", { type: "text", id: "challenge-code", autocomplete: "off", spellcheck: "false", placeholder: "CH-…" });
  const note = h("p", { class: "form-error", role: "alert", "data-testid": "challenge-form-error" });
  return h("form", {
    class: "panel",
    onsubmit: (event) => {
      event.preventDefault();
      const code = input.value.trim();
      if (!code) return;
      if (!CODE_FORMS.challenge.test(code)) {
        note.textContent = errorText({ code: "bad_challenge_code", status: 422 });
        return;
      }
      note.textContent = "";
      location.hash = `#/challenge/${encodeURIComponent(code)}`;
    },
  },
  h("label", { for: "challenge-code", text: t("challenge_join") }),
  h("div", { class: "row" }, input, h("button", { type: "submit", class: "btn", text: t("challenge_open") })),
  note);
}

// ---------- groups ----------

export function groupsSection() {
  const list = h("div", { "data-testid": "groups" });
  const name = h("input", { type: "text", id: "group-name", maxlength: 40, autocomplete: "off" });
  const code = h("input", { type: "text", id: "group-join", autocomplete: "off", spellcheck: "false", placeholder: "G-…" });
  const note = h("p", { class: "form-error", role: "alert", "data-testid": "group-error" });
  const refresh = async () => {
    if (!getToken()) { // nobody to ask about: a visitor is in no group yet
      list.replaceChildren(h("p", { class: "muted", text: t("no_groups") }));
      return;
    }
    try {
      const { groups } = await api.getGroups();
      list.replaceChildren(groups.length
        ? h("ul", { class: "groups-list" }, groups.map((g) => h("li", {},
          h("a", { href: `/#/group/${g.code}`, "data-testid": `group-${g.code}`, text: g.name }),
          h("span", { class: "muted", text: t("players_n", { n: fmtNumber(g.members), count: g.members }) }))))
        : h("p", { class: "muted", text: t("no_groups") }));
    } catch (err) {
      list.replaceChildren(h("p", { class: "muted", text: err.code === "unauthorized" ? t("no_groups") : errorText(err) }));
    }
  };
  const act = (run, check) => async (event) => {
    event.preventDefault();
    const problem = check();
    if (problem) { note.textContent = errorText({ code: problem, status: 422 }); return; }
    note.textContent = "";
    try {
      await api.ensurePlayer();
      const group = await run();
      location.hash = `#/group/${group.code}`;
    } catch (err) {
      note.textContent = errorText(err);
    }
  };
  refresh();
  return h("section", { class: "groups", "aria-labelledby": "groups-title" },
    h("h2", { id: "groups-title", text: t("groups") }),
    h("p", { class: "muted", text: t("groups_intro") }),
    list,
    h("div", { class: "row wrap" },
      h("form", { class: "panel", onsubmit: act(() => api.createGroup(name.value.trim()),
        () => (name.value.trim() ? null : "bad_group_name")) },
      h("label", { for: "group-name", text: t("group_name") }),
      h("div", { class: "row" }, name, h("button", { type: "submit", class: "btn", "data-testid": "group-create", text: t("group_create") }))),
      h("form", { class: "panel", onsubmit: act(() => api.joinGroup(code.value.trim()),
        () => (CODE_FORMS.group.test(code.value) ? null : "bad_group_code")) },
      h("label", { for: "group-join", text: t("group_join") }),
      h("div", { class: "row" }, code, h("button", { type: "submit", class: "btn", "data-testid": "group-join-btn", text: t("challenge_open") })))),
    note);
}

// A group's invite link opened: the group's name, and Join (or Open, for a member).
export async function groupInvitePage(root, code) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let invite;
  try {
    invite = await api.getGroupInvite(code);
  } catch (err) {
    root.replaceChildren(h("div", { class: "panel" },
      h("p", { role: "alert", "data-testid": "invite-error", text: errorText(err) }),
      h("a", { class: "btn", href: "/#/", text: t("back_home") })));
    return () => {};
  }
  const note = h("p", { class: "form-error", role: "alert" });
  const join = async () => {
    try {
      await api.ensurePlayer();
      await api.joinGroup(invite.code);
      toast(t("group_joined", { name: invite.name }));
      location.href = `/#/group/${invite.code}`;
    } catch (err) {
      note.textContent = errorText(err);
    }
  };
  root.replaceChildren(h("section", { class: "group-invite panel", "data-code": invite.code },
    h("h1", { text: t("invite_title", { name: invite.name }) }),
    invite.inviter ? h("p", { "data-testid": "invite-from", text: t("invite_from", { name: playerName(invite.inviter) }) }) : null,
    h("p", { text: t("invite_text", { n: fmtNumber(invite.members), count: invite.members }) }),
    invite.member
      ? h("a", { class: "btn primary big", href: `/#/group/${invite.code}`, "data-testid": "invite-open", text: t("invite_open") })
      : h("button", { type: "button", class: "btn primary big", "data-testid": "invite-join", text: t("invite_join"), onclick: join }),
    note));
  return () => {};
}

function ranked(rows, columns, caption, testid) {
  return h("table", { class: "board", "data-testid": testid },
    h("caption", { text: caption }),
    h("thead", {}, h("tr", {}, columns.map(([label, , num]) => h("th", { scope: "col", class: num ? "num" : null, text: label })))),
    h("tbody", {}, rows.map((row) => h("tr", { class: row.you ? "me" : null },
      columns.map(([, value, num]) => h("td", { class: num ? "num" : null, text: value(row) }))))));
}

export async function groupPage(root, code, date) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let view;
  try {
    view = await api.getGroup(code, date || localDate());
  } catch (err) {
    try { view = await api.getGroup(code); } catch (again) {
      root.replaceChildren(h("div", { class: "panel" },
        h("p", { role: "alert", "data-testid": "group-error", text: errorText(again) }),
        h("a", { class: "btn", href: "/#/", text: t("back_home") })));
      return () => {};
    }
  }
  const everyone = [...view.members, ...view.streaks,
    ...view.boards.flatMap((b) => b.rows), ...view.week.standings.flatMap((w) => w.rows)];
  const names = distinctNames([...new Map(everyone.map((m) => [m.id, m.name])).entries()], playerName);
  const shown = (row) => names.get(row.id) ?? playerName(row.name);
  const name = (row) => `${shown(row)}${row.you ? ` (${t("you")})` : ""}`;
  const parts = [
    h("h1", { text: view.name }),
    h("p", { class: "muted" }, t("group_code_line"), " ", h("strong", { class: "code-big", "data-testid": "group-code", text: view.code })),
    h("p", { class: "muted group-members", text: `${t("group_members")}: ${view.members.map(shown).join(", ")}` }),
    h("h2", { text: `${t("group_board")} · ${fmtDate(view.date)}` }),
  ];
  for (const board of view.boards) {
    parts.push(board.rows.length
      ? ranked(board.rows, [[t("rank"), (r) => r.rank], [t("player"), name], [t("score"), (r) => r.total, true]],
        rulesetName(board.ruleset), `group-board-${board.ruleset}`)
      : h("p", { class: "muted", text: `${rulesetName(board.ruleset)}: ${t("no_players")}` }));
  }
  parts.push(h("h2", { text: `${t("group_week")} · ${fmtDate(view.week.from)} – ${fmtDate(view.week.to)}` }));
  for (const standing of view.week.standings) {
    if (standing.rows.length) {
      parts.push(ranked(standing.rows, [[t("rank"), (r) => r.rank], [t("player"), name],
        [t("group_days"), (r) => r.days, true], [t("group_total"), (r) => r.total, true]],
      rulesetName(standing.ruleset), `group-week-${standing.ruleset}`));
    }
  }
  parts.push(ranked(view.streaks, [[t("player"), name], [t("group_streak"), (r) => r.streak, true]],
    t("group_streak"), "group-streaks"));
  parts.push(h("h2", { text: t("group_invite_title") }),
    inviteBox(view.url || `${location.origin}/g/${view.code}`, {
      title: t("invite_title", { name: view.name }), text: t("group_invite_text", { name: view.name }),
      testid: "group-invite",
    }));
  parts.push(h("button", {
    type: "button", class: "btn ghost", "data-testid": "group-leave", text: t("group_leave"),
    onclick: async () => {
      try {
        await api.leaveGroup(view.code);
        toast(t("group_left"));
        location.hash = "#/";
      } catch (err) { toast(errorText(err)); }
    },
  }));
  root.replaceChildren(h("section", { class: "group", "data-code": view.code }, parts));
  return () => {};
}
