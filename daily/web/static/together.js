// Playing together: computer opponents beside your card, you against them at the end,
// friend challenges (make one, take one, compare) and groups (boards, week, streaks).
// Every score and every turn shown comes from the server, which reveals an opponent's
// or a rival's turn only after your own turn of the same number is scored.
import * as api from "./api.js";
import { boxName, fmtDate, fmtNumber, playerName, rulesetName, t } from "./i18n.js";
import { getOpponents, setOpponents } from "./store.js";
import { copyText, errorText, h, localDate, toast } from "./ui.js";

export const LEVELS = ["easy", "medium", "hard"];

// ---------- choosing opponents ----------

export function opponentsPicker(idPrefix) {
  const chosen = new Set(getOpponents());
  return h("fieldset", { class: "pick", "data-testid": "opponents-picker" },
    h("legend", { class: "muted", text: t("opponents") }),
    LEVELS.map((level) => h("label", {},
      h("input", {
        type: "checkbox", value: level, id: `${idPrefix}-${level}`, "data-level": level,
        checked: chosen.has(level),
        onchange: (event) => {
          if (event.target.checked) chosen.add(level); else chosen.delete(level);
          setOpponents(LEVELS.filter((l) => chosen.has(l)));
        },
      }),
      t(`level_${level}`))));
}

// The levels to send with a new game.
export function chosenOpponents() {
  return getOpponents().filter((l) => LEVELS.includes(l));
}

// ---------- beside the card ----------

function sideCard(title, side, testid) {
  const turns = side.turns || [];
  return h("article", { class: "opp-card", "data-testid": testid, "data-turns": turns.length, "data-total": side.total },
    h("h3", {}, h("span", { text: title }), h("strong", { text: side.total })),
    turns.length
      ? h("ol", {}, [...turns].reverse().slice(0, 13).map((turn) => h("li", {},
        h("span", { text: `${turn.turn}. ${boxName(turn.box)}` }),
        h("span", { text: turn.points + (turn.bonus ? ` +${turn.bonus}` : "") }))))
      : h("p", { class: "muted", text: t("opp_turn_hidden") }));
}

// The computer opponents and the challenge's rival, up to your scored turns.
export function rivalsPanel(game) {
  const cards = (game.opponents || []).map((o) =>
    sideCard(t(`level_${o.level}`), o, `opponent-${o.level}`));
  const rival = game.challenge && game.challenge.rival;
  if (rival) cards.unshift(sideCard(t("to_beat", { name: playerName(rival.name) }), rival, "rival"));
  if (!cards.length) return null;
  return h("section", { class: "opponents", "aria-label": t("opponents") }, cards);
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
  for (const o of game.opponents || []) line(t(`level_${o.level}`), o.total, `versus-${o.level}`);
  if (!rows.length) return null;
  const par = (game.opponents || []).map((o) => h("li", { "data-testid": `par-${o.level}` },
    o.expected != null
      ? t("par_expected", { level: t(`level_${o.level}`), expected: fmtNumber(o.expected, 1), total: o.total })
      : t("par_expected_unknown", { level: t(`level_${o.level}`), total: o.total })));
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
        out.replaceChildren(
          h("p", { text: t("challenge_made", { code: made.code }) }),
          h("p", {}, h("a", { href: made.url, "data-testid": "challenge-url", class: "code-big", text: made.code })),
          h("button", {
            type: "button", class: "btn small", text: t("copy_result"),
            onclick: async () => { if (await copyText(made.url)) toast(t("copied")); },
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

export async function challengePage(root, code, startAndOpen) {
  root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
  let view;
  try {
    view = await api.getChallenge(code);
  } catch (err) {
    root.replaceChildren(h("div", { class: "panel" },
      h("p", { role: "alert", text: err.status === 404 ? t("not_found") : errorText(err) }),
      h("a", { class: "btn", href: "/#/", text: t("back_home") })));
    return () => {};
  }
  const mine = (view.entries || []).find((e) => e.you);
  const take = (blind) => startAndOpen({ challenge: view.code, blind, opponents: chosenOpponents() });
  const parts = [
    h("h1", { text: t("challenge_title", { code: view.code }) }),
    h("p", { class: "muted" }, `${rulesetName(view.ruleset)} · ${view.date ? fmtDate(view.date) : t("practice_mode")}`),
    h("p", { text: t("challenge_intro") }),
  ];
  if (!mine || !mine.finished) {
    parts.push(h("div", { class: "panel" },
      opponentsPicker("challenge-opp"),
      h("div", { class: "row wrap" },
        h("button", { type: "button", class: "btn primary", "data-testid": "challenge-beat", text: t("challenge_beat"), onclick: () => take(false) }),
        h("button", { type: "button", class: "btn", "data-testid": "challenge-blind", text: t("challenge_blind"), onclick: () => take(true) }))));
  }
  const entries = view.entries || [];
  parts.push(h("h2", { text: t("challenge_entries") }),
    entries.length
      ? h("table", { class: "board", "data-testid": "challenge-entries" },
        h("tbody", {}, entries.map((e) => h("tr", { class: e.you ? "me" : null },
          h("td", {}, playerName(e.name), e.you ? h("strong", { class: "you", text: ` (${t("you")})` }) : null),
          h("td", { class: "num", text: e.finished ? e.total : `${e.total} · ${t("turn_n", { n: e.turns_done })}` })))))
      : h("p", { text: t("challenge_none") }));
  if (view.comparison) {
    const names = view.comparison[0].players.map((p) => p);
    parts.push(h("h2", { text: t("challenge_compare") }),
      h("table", { class: "compare", "data-testid": "challenge-compare" },
        h("thead", {}, h("tr", {}, h("th", { text: "#" }),
          names.map((p) => h("th", { text: playerName(p.name) })))),
        h("tbody", {}, view.comparison.map((turn) => h("tr", {},
          h("td", { text: turn.turn }),
          turn.players.map((p) => h("td", { class: p.gained === 0 ? "best" : null },
            `${boxName(p.box)} ${p.points}`,
            p.loss ? h("small", { class: "muted", text: ` (−${fmtNumber(p.loss, 1)})` }) : null)))))));
  } else if (mine && !mine.finished) {
    parts.push(h("p", { class: "muted", text: t("challenge_hidden") }));
  }
  root.replaceChildren(h("section", { class: "challenge", "data-code": view.code }, parts));
  return () => {};
}

// A form to open a challenge by its code (practice page).
export function challengeForm() {
  const input = h("input", { type: "text", id: "challenge-code", autocomplete: "off", spellcheck: "false", placeholder: "CH-…" });
  return h("form", {
    class: "panel",
    onsubmit: (event) => {
      event.preventDefault();
      const code = input.value.trim();
      if (code) location.hash = `#/challenge/${encodeURIComponent(code)}`;
    },
  },
  h("label", { for: "challenge-code", text: t("challenge_join") }),
  h("div", { class: "row" }, input, h("button", { type: "submit", class: "btn", text: t("challenge_open") })));
}

// ---------- groups ----------

export function groupsSection() {
  const list = h("div", { "data-testid": "groups" });
  const name = h("input", { type: "text", id: "group-name", maxlength: 40, autocomplete: "off" });
  const code = h("input", { type: "text", id: "group-join", autocomplete: "off", spellcheck: "false", placeholder: "G-…" });
  const note = h("p", { class: "muted", role: "status" });
  const refresh = async () => {
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
  const act = (run) => async (event) => {
    event.preventDefault();
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
    list,
    h("div", { class: "row wrap" },
      h("form", { class: "panel", onsubmit: act(() => api.createGroup(name.value.trim())) },
        h("label", { for: "group-name", text: t("group_name") }),
        h("div", { class: "row" }, name, h("button", { type: "submit", class: "btn", "data-testid": "group-create", text: t("group_create") }))),
      h("form", { class: "panel", onsubmit: act(() => api.joinGroup(code.value.trim())) },
        h("label", { for: "group-join", text: t("group_join") }),
        h("div", { class: "row" }, code, h("button", { type: "submit", class: "btn", "data-testid": "group-join-btn", text: t("challenge_open") })))),
    note);
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
        h("p", { role: "alert", text: again.status === 404 ? t("not_found") : errorText(again) }),
        h("a", { class: "btn", href: "/#/", text: t("back_home") })));
      return () => {};
    }
  }
  const name = (row) => `${playerName(row.name)}${row.you ? ` (${t("you")})` : ""}`;
  const parts = [
    h("h1", { text: view.name }),
    h("p", {}, t("group_invite", { code: "" }), h("strong", { class: "code-big", "data-testid": "group-code", text: view.code })),
    h("p", { class: "muted", text: `${t("group_members")}: ${view.members.map((m) => playerName(m.name)).join(", ")}` }),
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
