// Offline Practice: a game on random dice played in the browser, with no server.
//
// It holds no hand-written rule. Every ruleset's rules come as data generated from the
// game core (GET /offline/rules.json, daily/web/pwa.py): the points of every box for
// every sorted roll (and on a turn's first roll where served combinations score more),
// the boxes' columns and joker points and the ruleset's flags. This module is the
// generic client of that data: it looks points up, applies the flags as the core's
// placement rules name them (daily/rules/placement.py: forced order, the joker,
// doble_generala, the columns of Triple Yahtzee) and builds the same state document as
// the server (docs/api.md, "The game state"), so the play screen draws both alike.
// tests/web/test_offline_browser.py plays thousands of random games of every ruleset
// with it in Chromium and checks every state against the core.

const FACE_WORDS = ["1s", "2s", "3s", "4s", "5s", "6s"];

const sortedKey = (dice) => [...dice].sort((a, b) => a - b).join("");

function rawPoints(rules, dice, firstRoll) {
  const key = sortedKey(dice);
  return (firstRoll && rules.served ? rules.served : rules.table)[key];
}

// For a five-alike roll: whether the joker applies in `column`, and its extra bonus.
function columnContext(rules, scores, column) {
  const yi = rules.column_yahtzee[column];
  if (yi === null || scores[yi] === null) return [false, 0];
  const bonus = scores[yi] === 50 ? rules.extra_yahtzee_bonus : 0;
  return [Boolean(rules.joker), bonus];
}

function jokerReasons(rules, scores, face, column) {
  const open = rules.columns[column].filter((i) => scores[i] === null);
  const matching = rules.column_upper[column][face - 1];
  const word = FACE_WORDS[face - 1];
  const upper = rules.boxes[matching].id;
  const out = new Map();
  if (scores[matching] === null) {
    const why = { code: "joker_upper_open", box: upper,
      text: `joker rule: five ${word} must go in the ${upper} box while it is open` };
    for (const i of open) if (i !== matching) out.set(i, why);
    return out;
  }
  if (open.some((i) => !rules.boxes[i].upper)) {
    const why = { code: "joker_lower_first", box: upper,
      text: `joker rule: with the ${upper} box filled, five ${word} must go in an open lower box` };
    for (const i of open) if (rules.boxes[i].upper) out.set(i, why);
  }
  return out;
}

function forbidden(rules, scores, face, jokers) {
  if (rules.forced_order) {
    const open = scores.map((s, i) => (s === null ? i : -1)).filter((i) => i >= 0);
    const why = { code: "forced_order", box: rules.boxes[open[0]].id,
      text: "forced order: fill the boxes top to bottom" };
    return new Map(open.slice(1).map((i) => [i, why]));
  }
  const out = new Map();
  jokers.forEach((joker, column) => {
    if (joker) for (const [i, why] of jokerReasons(rules, scores, face, column)) out.set(i, why);
  });
  return out;
}

function points(rules, scores, raw, index, joker) {
  const box = rules.boxes[index];
  if (joker && !box.upper && box.joker_points !== null) return box.joker_points;
  if (index === rules.double_index) {
    const gi = rules.yahtzee_index;
    return gi !== null && scores[gi] ? raw[index] : 0;
  }
  return raw[index];
}

// Every open box for `dice`: {box, index, points, legal, why, bonus}.
export function placements(rules, scores, dice, firstRoll = false) {
  const raw = rawPoints(rules, dice, firstRoll);
  const alike = dice.every((d) => d === dice[0]);
  const context = rules.weights.map((_, c) => (alike ? columnContext(rules, scores, c) : [false, 0]));
  const reasons = forbidden(rules, scores, dice[0], context.map(([j]) => j));
  const out = [];
  scores.forEach((s, i) => {
    if (s !== null) return;
    const [joker, bonus] = context[rules.boxes[i].column];
    const why = reasons.get(i) || null;
    out.push({ box: rules.boxes[i].id, index: i, points: points(rules, scores, raw, i, joker),
      legal: !why, why, bonus });
  });
  return out;
}

// The card's columns, upper section and total, as the core counts them (daily/card.py).
function columnTotals(rules, scores, column) {
  const sum = (list) => list.reduce((acc, i) => acc + (scores[i] || 0), 0);
  const upper = sum(rules.column_upper[column]);
  const lower = sum(rules.column_lower[column]);
  const bonus = rules.upper_bonus && upper >= rules.upper_bonus_threshold ? rules.upper_bonus : 0;
  return { upper, bonus, lower, weight: rules.weights[column] };
}

export function cardSummary(rules, scores, extraBonus) {
  const columns = rules.weights.map((_, c) => columnTotals(rules, scores, c));
  const threshold = rules.upper_bonus_threshold;
  const upper = {
    total: columns.reduce((a, c) => a + c.upper * c.weight, 0),
    threshold,
    bonus: columns.reduce((a, c) => a + c.bonus * c.weight, 0),
    bonus_value: rules.upper_bonus,
    to_go: columns.reduce((a, c) => a + Math.max(0, threshold - c.upper), 0),
  };
  const total = columns.reduce((a, c) => a + (c.upper + c.bonus + c.lower) * c.weight, 0) + extraBonus;
  return { upper, total };
}

// A random die 1..6 from the browser's cryptographic source (no modulo bias).
export function cryptoDie() {
  const buffer = new Uint8Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    if (buffer[0] < 252) return (buffer[0] % 6) + 1;
  }
}

// A game in progress. `die()` draws one die; the record (`toJSON`) is what is kept in
// localStorage and what a reload restores.
export class LocalGame {
  constructor(rules, record, die = cryptoDie) {
    this.rules = rules;
    this.die = die;
    const n = rules.boxes.length;
    this.record = record || {
      id: `local-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
      ruleset: rules.ruleset, scores: Array(n).fill(null), extra_bonus: 0, extra_count: 0,
      turn: 0, bank: 0, turns: n, holds: [], rolls: [], history: [], position: 0,
    };
    if (!record) this.startTurn();
  }

  get over() { return this.record.turn >= this.record.turns; }

  get maxRolls() {
    return this.rules.rolls_per_turn + (this.rules.saved_rolls ? this.record.bank : 0);
  }

  get rollsLeft() { return this.over ? 0 : this.maxRolls - 1 - this.record.holds.length; }

  get dice() { return this.over ? [] : this.record.rolls[this.record.rolls.length - 1]; }

  fresh() { return Array.from({ length: this.rules.dice }, () => this.die()); }

  startTurn() {
    const r = this.record;
    r.holds = [];
    r.rolls = r.turn < r.turns ? [this.fresh()] : [];
  }

  choices() { return placements(this.rules, this.record.scores, this.dice, this.record.holds.length === 0); }

  // Keep the dice marked "1" and roll the others; the same refusals as the core's game.
  reroll(mask) {
    const r = this.record;
    if (this.over) throw refusal("game_over");
    if (typeof mask !== "string" || mask.length !== this.rules.dice || /[^01]/.test(mask)) throw refusal("invalid_field");
    if (!mask.includes("0")) throw refusal("illegal_move", { code: "keeps_every_die" });
    if (r.holds.length + 1 >= this.maxRolls) throw refusal("illegal_move", { code: "no_rolls_left", max_rolls: this.maxRolls });
    const fresh = this.fresh();
    const dice = this.dice.map((d, i) => (mask[i] === "1" ? d : fresh[i]));
    r.holds.push(mask);
    r.rolls.push(dice);
    r.position += 1;
    return dice;
  }

  score(box) {
    const r = this.record;
    if (this.over) throw refusal("game_over");
    const index = this.rules.boxes.findIndex((b) => b.id === box);
    if (index < 0) throw refusal("invalid_field");
    if (r.scores[index] !== null) throw refusal("illegal_move", { code: "box_filled", box });
    const firstRoll = r.holds.length === 0;
    const place = this.choices().find((c) => c.index === index);
    if (!place.legal) throw refusal("illegal_move", { code: place.why.code, box: place.why.box });
    r.scores[index] = place.points;
    if (place.bonus) { r.extra_bonus += place.bonus; r.extra_count += 1; }
    r.history.push({
      turn: r.history.length + 1, rolls: r.rolls, holds: r.holds, dice: [...this.dice],
      box, points: place.points, bonus: place.bonus,
    });
    if (this.rules.saved_rolls) r.bank += this.rules.rolls_per_turn - 1 - r.holds.length;
    r.turn += 1;
    r.position += 1;
    if (this.rules.served_wins && firstRoll && place.points && index === this.rules.yahtzee_index) {
      r.turns = r.turn; // a served Generala ends the game at once
    }
    this.startTurn();
    return place.points;
  }

  // The state document, as the server writes it for a practice game.
  state() {
    const r = this.record;
    const rules = this.rules;
    const over = this.over;
    const { upper, total } = cardSummary(rules, r.scores, r.extra_bonus);
    return {
      id: r.id, local: true, mode: "practice", ruleset: rules.ruleset, options: rules.options,
      date: null, position: r.position,
      turn: Math.min(r.turn + 1, rules.boxes.length), turns: rules.boxes.length,
      roll: over ? 0 : r.holds.length + 1, max_rolls: over ? 0 : this.maxRolls,
      rolls_left: this.rollsLeft, dice: [...this.dice], turn_rolls: over ? [] : r.rolls.map((d) => [...d]),
      over,
      card: rules.boxes.map((b, i) => ({ box: b.id, points: r.scores[i] })),
      choices: over ? [] : this.choices().map((c) => ({
        box: c.box, points: c.points, legal: c.legal,
        reason: c.why ? c.why.text : null, why: c.why ? { code: c.why.code, box: c.why.box } : null,
      })),
      extra_bonus: r.extra_bonus, extra_count: r.extra_count, upper, total,
      history: r.history.map((t) => ({
        turn: t.turn, rolls: t.rolls.map((d) => [...d]), holds: [...t.holds], dice: [...t.dice],
        box: t.box, points: t.points, bonus: t.bonus,
      })),
      result: over ? { total, code: null, share_text: "", url: null } : null,
      opponents: [], challenge: null,
    };
  }

  toJSON() { return this.record; }
}

function refusal(code, why = null) {
  const err = new Error(code);
  err.status = code === "game_over" || code === "illegal_move" ? 409 : 422;
  err.code = code;
  err.detail = why ? { why } : {};
  return err;
}
