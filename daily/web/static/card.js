// The score card, read-only (result page, end screen) or with the choices of the turn.
// Legal boxes, preview points and reasons are the server's; this only draws them.
import { boxName, reasonText, t } from "./i18n.js";
import { h } from "./ui.js";

const UPPER = new Set(["ones", "twos", "threes", "fours", "fives", "sixes"]);

// ---------- the score card (shared with the result page) ----------

function boxRow(entry, choice, interactive) {
  const name = boxName(entry.box);
  if (entry.points !== null && entry.points !== undefined) {
    return h("li", { class: "box filled", "data-box": entry.box },
      h("span", { class: "box-name", text: name }),
      h("span", { class: "box-points", text: entry.points, "aria-label": t("filled", { box: name, points: entry.points }) }));
  }
  if (!interactive || !choice) {
    return h("li", { class: "box open", "data-box": entry.box },
      h("span", { class: "box-name", text: name }), h("span", { class: "box-points empty", text: "–" }));
  }
  if (!choice.legal) {
    const why = reasonText(choice.why, choice.reason) || t("reason_joker");
    return h("li", { class: "box open" },
      h("button", {
        type: "button", class: "box-btn", disabled: true, "data-box": entry.box,
        "aria-label": t("disabled_box", { box: name, reason: why }),
      },
      h("span", { class: "box-name" }, name, h("small", { class: "reason", text: why })),
      h("span", { class: "box-points preview", text: "—" })));
  }
  const zero = choice.points === 0;
  return h("li", { class: "box open" },
    h("button", {
      type: "button", class: zero ? "box-btn zero" : "box-btn", "data-box": entry.box,
      "data-points": choice.points, tabindex: "-1",
      "aria-label": t("preview", { box: name, points: choice.points }),
    },
    h("span", { class: "box-name", text: name }),
    h("span", { class: "box-points preview", text: choice.points })));
}

// ---------- the three-column card of Triple Yahtzee ----------
// Box ids are "{column}.{box}"; columns count 1x, 2x and 3x. Each row is one box of the
// Yahtzee card, each cell one column, so the card fits a 360 px phone.

const WEIGHTS = [1, 2, 3];

function tripleCell(entry, choice, interactive) {
  const [col, base] = entry.box.split(".");
  const label = t("in_column", { box: boxName(base), n: col });
  if (entry.points !== null && entry.points !== undefined) {
    return h("td", { class: "cell filled", "data-box": entry.box, "aria-label": t("filled", { box: label, points: entry.points }), text: entry.points });
  }
  if (!interactive || !choice) {
    return h("td", { class: "cell open", "data-box": entry.box, text: "–" });
  }
  if (!choice.legal) {
    const why = reasonText(choice.why, choice.reason) || t("reason_joker");
    return h("td", { class: "cell open" }, h("button", {
      type: "button", class: "box-btn cell-btn", disabled: true, "data-box": entry.box,
      "aria-label": t("disabled_box", { box: label, reason: why }), text: "—",
    }));
  }
  return h("td", { class: "cell open" }, h("button", {
    type: "button", class: choice.points === 0 ? "box-btn cell-btn zero" : "box-btn cell-btn",
    "data-box": entry.box, "data-points": choice.points, tabindex: "-1",
    "aria-label": t("preview", { box: label, points: choice.points }),
  }, h("span", { class: "box-points preview", text: choice.points })));
}

export function columnTotals(card) {
  // What each column adds up to before its weight: upper, its 35 bonus at 63, lower.
  return WEIGHTS.map((weight, i) => {
    const cells = card.filter((e) => e.box.startsWith(`${i + 1}.`));
    const sum = (list) => list.reduce((acc, e) => acc + (e.points ?? 0), 0);
    const upper = sum(cells.filter((e) => UPPER.has(e.box.split(".")[1])));
    const bonus = upper >= 63 ? 35 : 0;
    const lower = sum(cells.filter((e) => !UPPER.has(e.box.split(".")[1])));
    return { weight, upper, bonus, lower, total: upper + bonus + lower };
  });
}

function renderTripleCard(state, interactive) {
  const choices = new Map((state.choices || []).map((c) => [c.box, c]));
  const card = state.card || [];
  const byBox = new Map(card.map((e) => [e.box, e]));
  const bases = card.filter((e) => e.box.startsWith("1.")).map((e) => e.box.slice(2));
  const live = interactive && !state.over;
  const row = (base) => h("tr", { class: UPPER.has(base) ? "upper" : "lower" },
    h("th", { scope: "row", class: "row-name", text: boxName(base) }),
    WEIGHTS.map((_, i) => {
      const entry = byBox.get(`${i + 1}.${base}`);
      return tripleCell(entry, choices.get(entry.box), live);
    }));
  const totals = columnTotals(card);
  const sumRow = (key, pick, cls) => h("tr", { class: `sum ${cls}` },
    h("th", { scope: "row", class: "row-name", text: t(key) }),
    totals.map((c) => h("td", { class: "cell", text: pick(c) })));
  const upperBases = bases.filter((b) => UPPER.has(b));
  const lowerBases = bases.filter((b) => !UPPER.has(b));
  return h("section", { class: "card triple", "aria-label": t("card"), "data-testid": "triple-card" },
    h("h2", { class: "sr-only", text: t("card") }),
    h("table", { class: "triple-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "row-name", text: t("box") }),
        WEIGHTS.map((w, i) => h("th", { scope: "col", class: "cell", text: `${i + 1} ×${w}` })))),
      h("tbody", {},
        upperBases.map(row),
        sumRow("upper_bonus", (c) => (c.bonus ? `+${c.bonus}` : `${c.upper}/63`), "bonus"),
        lowerBases.map(row),
        sumRow("column_total", (c) => c.total, "col-total"),
        sumRow("column_weighted", (c) => c.total * c.weight, "col-weighted"))),
    state.extra_bonus
      ? h("div", { class: "box sum" },
        h("span", { class: "box-name", text: t("extra_bonus", { n: state.extra_count || 1 }) }),
        h("span", { class: "box-points", text: state.extra_bonus }))
      : null,
    h("div", { class: "box total" },
      h("span", { class: "box-name", text: t("total") }),
      h("span", { class: "box-points", "data-testid": "total", text: state.total ?? 0 })));
}

export function renderCard(state, { interactive = false } = {}) {
  if ((state.card || []).some((e) => e.box.includes("."))) return renderTripleCard(state, interactive);
  const choices = new Map((state.choices || []).map((c) => [c.box, c]));
  const rows = (state.card || []).map((entry) => ({ entry, upper: UPPER.has(entry.box) }));
  const upper = state.upper || null;
  const list = (items) => h("ul", { class: "boxes" },
    items.map(({ entry }) => boxRow(entry, choices.get(entry.box), interactive && !state.over)));
  const upperItems = rows.filter((r) => r.upper);
  const lowerItems = rows.filter((r) => !r.upper);
  let progress = null;
  if (upper && upper.threshold) {
    const pct = Math.min(100, Math.round((100 * upper.total) / upper.threshold));
    const won = upper.bonus > 0 || upper.total >= upper.threshold;
    const upperDone = upperItems.every(({ entry }) => entry.points !== null && entry.points !== undefined);
    const status = won ? `✓ ${t("bonus_won")}`
      : (state.over || upperDone) ? t("bonus_missed")
        : t("to_go", { n: upper.to_go ?? Math.max(0, upper.threshold - upper.total) });
    progress = h("div", { class: "upper-progress", "data-testid": "upper-progress" },
      h("div", { class: "progress-text" },
        h("span", { text: t("upper_progress", { total: upper.total, threshold: upper.threshold }) }),
        h("strong", { "data-testid": "bonus-status", text: status })),
      h("div", { class: "meter", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": upper.threshold, "aria-valuenow": upper.total, "aria-label": t("upper_bonus") },
        meterFill(pct)),
      h("div", { class: "box sum" },
        h("span", { class: "box-name", text: `${t("upper_bonus")} (+${upper.bonus_value})` }),
        h("span", { class: "box-points", text: upper.bonus })));
  }
  const extra = state.extra_bonus
    ? h("div", { class: "box sum" },
      h("span", { class: "box-name", text: t("extra_bonus", { n: state.extra_count || 1 }) }),
      h("span", { class: "box-points", text: state.extra_bonus }))
    : null;
  // Two columns on wide screens: the upper section (with its bonus) beside the lower one.
  return h("section", { class: "card", "aria-label": t("card"), "data-boxes": rows.length },
    h("h2", { class: "sr-only", text: t("card") }),
    h("div", { class: "card-upper" }, list(upperItems), progress),
    h("div", { class: "card-lower" }, list(lowerItems), extra),
    h("div", { class: "box total" },
      h("span", { class: "box-name", text: t("total") }),
      h("span", { class: "box-points", "data-testid": "total", text: state.total ?? 0 })));
}

// The filled part of a meter; its width is set through the CSSOM (the CSP allows no
// inline style attribute).
function meterFill(pct) {
  const fill = h("span");
  fill.style.width = `${pct}%`;
  return fill;
}
