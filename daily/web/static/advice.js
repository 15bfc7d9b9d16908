// The strategy engine's actions in words: hints during practice, analysis after it.
import * as api from "./api.js";
import { boxName, fmtNumber, t } from "./i18n.js";
import { hintRefusal } from "./notes.js";
import { h, miniDice } from "./ui.js";

// An action in words; `explain` says why a 0 can be the best choice (giving up a box).
export function adviceText(action, { explain = false } = {}) {
  if (action.kind === "keep") {
    return action.kept && action.kept.length
      ? t("advice_keep", { dice: action.kept.join("-") }) : t("advice_reroll_all");
  }
  if (explain && action.points === 0) return t("advice_scratch", { box: boxName(action.box) });
  return t("advice_box", { points: action.points, box: boxName(action.box) });
}

// The analysis of a finished practice game (GET /games/{id}/analysis), on request.
export function analysisBlock(game) {
  const out = h("div", { class: "analysis", "data-testid": "analysis" });
  const button = h("button", {
    type: "button", class: "btn small ghost", "data-testid": "analyse", text: t("analyse"),
    onclick: async () => {
      button.disabled = true;
      out.replaceChildren(h("p", { class: "advice-pending", role: "status" },
        h("span", { class: "spinner", "aria-hidden": "true" }), t("analysis_pending")));
      try {
        const report = await api.analysis(game.id);
        button.hidden = true;
        // (replaceChildren would write a null out as the text "null")
        out.replaceChildren(...analysisView(report).filter(Boolean));
      } catch (err) {
        button.disabled = false;
        out.replaceChildren(h("p", { class: "muted", text: await hintRefusal(err, game.ruleset) }));
      }
    },
  });
  return h("section", { class: "analysis-box", "aria-label": t("analyse") }, button, out);
}

function analysisView(report) {
  const decisions = (report.decisions || []).length;
  const mistakes = report.mistakes || [];
  return [
    report.heuristic ? h("p", { class: "muted", "data-testid": "heuristic", text: t("heuristic_note") }) : null,
    h("p", { text: t("analysis_summary", {
      good: report.optimal_decisions ?? decisions - mistakes.length, all: decisions,
      loss: fmtNumber(report.expected_loss, 1), best: fmtNumber(report.optimal_expected, 1),
    }) }),
    // Every decision that cost points, costliest first: its dice, the choice, the best.
    mistakes.length ? h("h3", { text: t("mistakes_title", { n: mistakes.length }) }) : null,
    mistakes.length
      ? h("ol", { class: "mistakes", "data-testid": "mistakes" }, mistakes.map((m) => h("li", { class: "mistake" },
        h("div", { class: "mistake-head" },
          h("strong", { text: t("turn_roll", { turn: m.turn, roll: m.roll }) }), " ",
          miniDice(m.dice || []), " ",
          h("span", { class: "mistake-cost", text: t("mistake_cost", { loss: fmtNumber(m.loss, 1) }) })),
        h("p", { text: t("mistake_row", { chosen: adviceText(m.chosen), best: adviceText(m.best, { explain: true }) }) }))))
      : h("p", { text: t("no_mistakes") }),
  ];
}
