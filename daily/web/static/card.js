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

export function renderCard(state, { interactive = false } = {}) {
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
    progress = h("div", { class: "upper-progress", "data-testid": "upper-progress" },
      h("div", { class: "progress-text" },
        h("span", { text: t("upper_progress", { total: upper.total, threshold: upper.threshold }) }),
        h("strong", { text: won ? `✓ ${t("bonus_won")}` : t("to_go", { n: upper.to_go ?? Math.max(0, upper.threshold - upper.total) }) })),
      h("div", { class: "meter", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": upper.threshold, "aria-valuenow": upper.total, "aria-label": t("upper_bonus") },
        h("span", { style: `width:${pct}%` })),
      h("div", { class: "box sum" },
        h("span", { class: "box-name", text: `${t("upper_bonus")} (+${upper.bonus_value})` }),
        h("span", { class: "box-points", text: upper.bonus })));
  }
  const extra = state.extra_bonus
    ? h("div", { class: "box sum" },
      h("span", { class: "box-name", text: t("extra_bonus", { n: state.extra_count || 1 }) }),
      h("span", { class: "box-points", text: state.extra_bonus }))
    : null;
  return h("section", { class: "card", "aria-label": t("card") },
    h("h2", { class: "sr-only", text: t("card") }),
    list(upperItems), progress, list(lowerItems), extra,
    h("div", { class: "box total" },
      h("span", { class: "box-name", text: t("total") }),
      h("span", { class: "box-points", "data-testid": "total", text: state.total ?? 0 })));
}
