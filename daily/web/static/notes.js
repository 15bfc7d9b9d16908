// Service notes above the page, from /api/v1/health: the operator's demo clock (on every
// page, so nobody mistakes a demonstration for the real competition) and a strategy
// table still being built, only where it concerns the viewer: on the play screen of a
// game whose hints need it. The hint box and the note say the same thing, from the same
// table object (/health's `tables[ruleset]`, which a refused hint also carries), and
// the note follows the build while it lasts, so its estimate moves.
import { rulesetName, t } from "./i18n.js";
import { errorText, h } from "./ui.js";

let timer = null;
let focus = null; // the ruleset whose table concerns the page, if any
let tables = {};
let demo = null;

function demoTime(iso) {
  return String(iso || "").replace("T", " ").slice(0, 16);
}

// Minutes to go in steps that do not flicker: to the minute up to 10, then to 5.
export function etaMinutes(seconds) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes <= 10 ? minutes : Math.ceil(minutes / 5) * 5;
}

// What a table's state means for hints, in words: "Maxi Yatzy hints are being prepared:
// ready in about 4 min (62%)", or null when the table is ready.
export function tableText(ruleset, table) {
  const game = rulesetName(ruleset);
  if (!table || table.state === "ready") return null;
  if (table.state === "building") {
    const done = typeof table.percent === "number" ? ` (${Math.floor(table.percent)}%)` : "";
    const eta = table.eta_seconds;
    return eta === null || eta === undefined
      ? t("hints_building", { game }) + done
      : t("hints_ready_in", { game, minutes: etaMinutes(eta) }) + done;
  }
  return t("hints_missing", { game });
}

// One answer serves the callers of the same moment (a page's notes and its build notice
// ask at once): a second request within HEALTH_SHARED_MS reuses the first.
const HEALTH_SHARED_MS = 2000;
let lastHealth = null;

export function fetchHealth() {
  const now = Date.now();
  if (lastHealth && now - lastHealth.at < HEALTH_SHARED_MS) return lastHealth.answer;
  const answer = (async () => {
    try {
      const response = await fetch("/api/v1/health", { headers: { Accept: "application/json" }, cache: "no-store" });
      return await response.json();
    } catch {
      return null;
    }
  })();
  lastHealth = { at: now, answer };
  return answer;
}

function draw(el) {
  const lines = [];
  if (demo) {
    lines.push(h("p", {
      class: "demo", "data-testid": "demo-note",
      text: t("demo_note", { minutes: demo.day_minutes, now: demoTime(demo.now) }),
    }));
  }
  const text = focus ? tableText(focus, tables[focus]) : null;
  if (text) lines.push(h("p", { "data-testid": `table-${focus}`, text }));
  el.replaceChildren(...lines);
  el.className = demo ? "service-note demo" : "service-note";
  el.hidden = lines.length === 0;
}

// Show the notes that concern this page: `ruleset` names the game whose hints it offers.
export async function showServiceNotes(ruleset = null, el = document.getElementById("service-note")) {
  clearTimeout(timer);
  focus = ruleset;
  const health = await fetchHealth();
  if (!health) return;
  demo = health.demo || null;
  tables = health.tables || {};
  draw(el);
  const building = focus && tables[focus] && tables[focus].state === "building";
  if (demo || building) {
    timer = setTimeout(() => showServiceNotes(focus, el), building ? 10000 : 5000);
  }
}

// A table's state as a refused hint carried it: the note says the same at once.
export function noteTable(ruleset, table, el = document.getElementById("service-note")) {
  if (!table) return;
  tables = { ...tables, [ruleset]: table };
  if (focus === ruleset) draw(el);
}

// The state of a ruleset's table, as /health says it now.
export async function tableState(ruleset) {
  const health = await fetchHealth();
  return (health && health.tables && health.tables[ruleset]) || null;
}

// Why a hint or an analysis is not there: the strategy table it needs is being built
// (the same words as the note above the page, from the same table object), or the
// error in words.
export async function hintRefusal(err, ruleset) {
  if (err.code === "table_not_ready" || (err.status === 503 && err.code === "unavailable")) {
    const table = (err.detail && err.detail.table) || await tableState(ruleset) || { state: "missing" };
    noteTable(ruleset, table);
    return tableText(ruleset, table) || t("hint_retry");
  }
  if ([404, 405, 501].includes(err.status)) return t("hints_off");
  return errorText(err);
}
