// Game feel: which dice a roll changed (they tumble), the moments worth a fanfare
// (Yahtzee, Maxi Yatzy, a joker, the upper bonus) and the joker banner. Everything is
// read from two consecutive game states sent by the server; no score is computed here.
import { boxName, t } from "./i18n.js";
import { h } from "./ui.js";

const UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"];
// Boxes of five (or six) alike, with the moment each deserves.
const ALIKE_BOXES = {
  yahtzee: "moment_yahtzee", yatzy: "moment_yatzy", yacht: "moment_yacht",
  maxi_yatzy: "moment_maxi_yatzy", generala: "moment_generala",
};
// Rulesets whose extra five-alike follow the forced joker rule (docs/rules.md, Yahtzee).
const JOKER_RULESETS = new Set(["yahtzee"]);
const EXTRA_YAHTZEE_BONUS = 100;

// The indices of the dice the last move rolled (a set), or null when nothing rolled.
export function rolledDice(previous, game, holdsBefore) {
  if (!game || game.over || !(game.dice || []).length) return null;
  const n = game.dice.length;
  if (!previous || previous.id !== game.id || previous.turn !== game.turn) {
    return new Set(Array.from({ length: n }, (_, i) => i));
  }
  if (game.roll > previous.roll) {
    return new Set(Array.from({ length: n }, (_, i) => i).filter((i) => !(holdsBefore || [])[i]));
  }
  return null;
}

function filled(game, box) {
  const entry = (game.card || []).find((e) => e.box === box);
  return entry ? entry.points : undefined;
}

// The joker situation of the dice showing, or null: {kind, face, upper, points, extra}.
export function jokerOf(game) {
  if (!game || game.over || !JOKER_RULESETS.has(game.ruleset)) return null;
  const dice = game.dice || [];
  if (!dice.length || dice.some((d) => d !== dice[0])) return null;
  const held = filled(game, "yahtzee");
  if (held === null || held === undefined) return null; // the box is open: a plain Yahtzee
  const face = dice[0];
  const upper = UPPER[face - 1];
  const choices = game.choices || [];
  const upperChoice = choices.find((c) => c.box === upper);
  const lowerOpen = choices.some((c) => !UPPER.includes(c.box) && c.legal);
  let kind = "joker_scratch";
  if (upperChoice && upperChoice.legal) kind = "joker_upper";
  else if (lowerOpen) kind = "joker_lower";
  return { kind, face, upper, points: upperChoice ? upperChoice.points : 0, extra: held > 0 };
}

// The banner that says what the joker rule allows for this roll, and why.
export function jokerBanner(game) {
  const joker = jokerOf(game);
  if (!joker) return null;
  return h("section", { class: "joker-banner", "data-testid": "joker-banner", "data-kind": joker.kind, role: "note" },
    h("h2", { text: t("joker_title") }),
    h("p", { text: t(joker.kind, { box: boxName(joker.upper), upper: boxName(joker.upper), face: joker.face, points: joker.points }) }),
    h("p", { text: joker.extra ? t("joker_extra", { bonus: EXTRA_YAHTZEE_BONUS }) : t("joker_no_extra") }));
}

// What the move from `previous` to `game` deserves: {kind, lines} or null.
export function momentOf(previous, game) {
  const before = (previous.history || []).length;
  const turns = game.history || [];
  if (turns.length <= before) return null;
  const turn = turns[turns.length - 1];
  const lines = [];
  let kind = "alike";
  const joker = jokerOf(previous);
  if (ALIKE_BOXES[turn.box] && turn.points > 0) lines.push(t(ALIKE_BOXES[turn.box]));
  else if (joker && joker.kind === "joker_lower") {
    kind = "joker";
    lines.push(t("moment_joker", { points: turn.points, box: boxName(turn.box) }));
  }
  if (turn.bonus > 0) lines.push(t("moment_extra", { bonus: turn.bonus }));
  const bonusBefore = (previous.upper && previous.upper.bonus) || 0;
  const bonusNow = (game.upper && game.upper.bonus) || 0;
  if (bonusNow > bonusBefore) {
    if (!lines.length) kind = "bonus";
    lines.push(t("moment_bonus", { bonus: bonusNow }));
  }
  return lines.length ? { kind, lines } : null;
}

let momentTimer = null;
// Show a moment for a little while (announced politely to screen readers).
export function showMoment(moment) {
  document.querySelector(".moment")?.remove();
  const box = h("div", { class: `moment ${moment.kind}`, role: "status", "data-testid": "moment", "data-kind": moment.kind },
    moment.lines.map((line) => h("div", { text: line })));
  document.body.append(box);
  clearTimeout(momentTimer);
  momentTimer = setTimeout(() => box.remove(), 2600);
}
