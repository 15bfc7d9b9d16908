// Service notes above every page, from /api/v1/health: the operator's demo clock (so
// nobody mistakes a demonstration for the real competition) and strategy tables still
// being built ("Maxi Yatzy hints ready in about 4 min").
import { rulesetName, t } from "./i18n.js";
import { h } from "./ui.js";

let timer = null;

function demoTime(iso) {
  return String(iso || "").replace("T", " ").slice(0, 16);
}

export async function showServiceNotes(el = document.getElementById("service-note")) {
  clearTimeout(timer);
  let health;
  try {
    const response = await fetch("/api/v1/health", { headers: { Accept: "application/json" } });
    health = await response.json();
  } catch {
    return;
  }
  const lines = [];
  if (health.demo) {
    lines.push(h("p", {
      class: "demo", "data-testid": "demo-note",
      text: t("demo_note", { minutes: health.demo.day_minutes, now: demoTime(health.demo.now) }),
    }));
  }
  let building = false;
  for (const [name, table] of Object.entries(health.tables || {})) {
    if (table.state !== "building") continue;
    building = true;
    const eta = table.eta_seconds;
    const text = eta === null || eta === undefined
      ? t("hints_building", { game: rulesetName(name) })
      : t("hints_ready_in", { game: rulesetName(name), minutes: Math.max(1, Math.ceil(eta / 60)) });
    lines.push(h("p", { "data-testid": `table-${name}`, text }));
  }
  el.replaceChildren(...lines);
  el.className = health.demo ? "service-note demo" : "service-note";
  el.hidden = lines.length === 0;
  if (health.demo || building) {
    timer = setTimeout(() => showServiceNotes(el), health.demo ? 5000 : 30000);
  }
}
