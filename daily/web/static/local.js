// Offline Practice games: kept in this browser (localStorage), played by offline.js on
// the rules generated from the core. The play screen uses them through the same three
// calls as a server game: get, roll and score. offline.js loads with the first of them.

const KEY = "dd.local";
const KEPT = 5; // finished local games kept for their end screen
let rulesData = null;

async function rulesOf(ruleset) {
  if (!rulesData) {
    const response = await fetch("/offline/rules.json");
    if (!response.ok) throw Object.assign(new Error("offline rules"), { status: 0, code: "network" });
    rulesData = await response.json();
  }
  const rules = rulesData.rulesets[ruleset];
  if (!rules) throw Object.assign(new Error("ruleset"), { status: 404, code: "not_found" });
  return rules;
}

function readAll() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function save(game) {
  const all = readAll();
  all[game.record.id] = { ruleset: game.rules.ruleset, record: game.record, at: Date.now() };
  const ids = Object.keys(all).sort((a, b) => all[b].at - all[a].at);
  for (const id of ids.slice(KEPT + 1)) delete all[id];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch { /* full storage: the game goes on in this tab */ }
}

export const isLocal = (id) => typeof id === "string" && id.startsWith("local-");

async function load(id) {
  const saved = readAll()[id];
  if (!saved) throw Object.assign(new Error("no local game"), { status: 404, code: "not_found" });
  const { LocalGame } = await import("./offline.js");
  return new LocalGame(await rulesOf(saved.ruleset), saved.record);
}

// A new offline game of `ruleset`; its id.
export async function startLocal(ruleset) {
  const { LocalGame } = await import("./offline.js");
  const game = new LocalGame(await rulesOf(ruleset));
  save(game);
  return game.record.id;
}

// The unfinished offline game of a ruleset, if any (to resume).
export function unfinishedLocal(ruleset) {
  const all = readAll();
  const found = Object.values(all).filter((g) => g.ruleset === ruleset && g.record.turn < g.record.turns);
  found.sort((a, b) => b.at - a.at);
  return found.length ? found[0].record.id : null;
}

// The moves of a local game, named as the API's: a move names its position, and a move
// at a position the game left is answered with the game as it stands.
export const localGames = {
  get: async (id) => (await load(id)).state(),
  roll: async (id, hold, position) => {
    const game = await load(id);
    if (position !== game.record.position) return game.state();
    game.reroll(hold);
    save(game);
    return game.state();
  },
  score: async (id, box, position) => {
    const game = await load(id);
    if (position !== game.record.position) return game.state();
    game.score(box);
    save(game);
    return game.state();
  },
};
