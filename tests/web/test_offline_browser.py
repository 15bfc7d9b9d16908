"""Offline Practice plays exactly the core's rules: random games in Chromium, checked
step by step against the core.

The browser plays with ``static/offline.js`` on the rules data the server generates
from the core (``/offline/rules.json``): random dice (a fifth of the rolls five or six
alike, so the joker, the extra bonus, Generala's served and double boxes come up often)
and random decisions, now and then a move the rules forbid. The test then replays every
game with the core's :class:`daily.game.Game` on the same dice and compares, after every
decision, what the page would show: turn, roll, rolls left, dice, the card, every choice
with its points, legality and reason, the upper section, the extra bonus and the total
(built by the same functions the server's state documents use), and each refusal's
reason.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

import pytest
from playwright.sync_api import Browser

from daily.errors import IllegalMoveError
from daily.game import Game
from daily.rules import RULESET_NAMES, get_ruleset
from daily.service.games.views import card_json, choices_json, upper_and_total
from daily.web.pwa import offline_rules

from .server import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]

#: Games per ruleset (Triple Yahtzee's are three times as long).
GAMES = {"triple-yahtzee": 120}
DEFAULT_GAMES = 300

PLAY = """async ([ruleset, games, seed]) => {
  const { LocalGame } = await import("/static/web/offline.js");
  const data = await (await fetch("/offline/rules.json")).json();
  const rules = data.rulesets[ruleset];
  let a = seed >>> 0;
  const rand = () => {  // mulberry32: the same games for the same seed
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  class Seeded extends LocalGame {
    fresh() {
      const n = this.rules.dice;
      const dice = rand() < 0.2 ? Array(n).fill(1 + Math.floor(rand() * 6))
        : Array.from({ length: n }, () => 1 + Math.floor(rand() * 6));
      this.slots = this.slots || [];
      this.slots.push(dice);
      return dice;
    }
  }
  const view = (s) => ({
    turn: s.turn, roll: s.roll, max_rolls: s.max_rolls, rolls_left: s.rolls_left, dice: s.dice,
    over: s.over, card: s.card.map((c) => c.points), extra_bonus: s.extra_bonus,
    extra_count: s.extra_count, upper: s.upper, total: s.total,
    choices: s.choices.map((c) =>
      [c.box, c.points, c.legal, c.why && [c.why.code, c.why.box], c.reason]),
  });
  const out = [];
  for (let g = 0; g < games; g += 1) {
    const game = new Seeded(rules);
    const steps = [view(game.state())];
    const actions = [];
    while (!game.over) {
      const state = game.state();
      const illegal = state.choices.filter((c) => !c.legal);
      let action;
      if (illegal.length && rand() < 0.3) action = ["s", pick(illegal).box];
      else if (state.rolls_left > 0 && rand() < 0.7) {
        const mask = Array.from(state.dice, () => (rand() < 0.5 ? "1" : "0")).join("");
        action = ["r", mask];  // a mask keeping every die is refused, as it should be
      } else action = ["s", pick(state.choices.filter((c) => c.legal)).box];
      try {
        if (action[0] === "r") game.reroll(action[1]); else game.score(action[1]);
        action.push(null);
      } catch (err) {
        action.push([err.code, err.detail.why || null]);
      }
      actions.push(action);
      steps.push(view(game.state()));
    }
    const last = game.state();
    out.push({ slots: game.slots, actions, steps, history: last.history });
  }
  return JSON.stringify(out);  // one string crosses to Python much faster than objects
}"""


def core_view(game: Game) -> dict[str, Any]:
    """What the page would show of the core's game, as the server's state builds it."""
    card = game.card
    upper, total = upper_and_total(card)
    over = game.over
    choices = [] if over else choices_json(game.choices().options)
    return {
        "turn": min(game.turn + 1, game.rules.turns), "roll": 0 if over else game.roll + 1,
        "max_rolls": 0 if over else game.max_rolls, "rolls_left": game.rolls_left,
        "dice": list(game.dice), "over": over, "card": [c["points"] for c in card_json(card)],
        "extra_bonus": card.extra_bonus, "extra_count": card.extra_count, "upper": upper,
        "total": total,
        "choices": [[c["box"], c["points"], c["legal"],
                     c["why"] and [c["why"]["code"], c["why"]["box"]], c["reason"]]
                    for c in choices],
    }


def replay_in_core(ruleset: str, played: dict[str, Any]) -> None:
    queue = deque(tuple(s) for s in played["slots"])
    game = Game(get_ruleset(ruleset), lambda turn, roll: queue.popleft())
    assert core_view(game) == played["steps"][0]
    for n, (kind, arg, refused) in enumerate(played["actions"], start=1):
        try:
            if kind == "r":
                game.reroll(arg)
            else:
                game.score(arg)
            outcome = None
        except IllegalMoveError as exc:
            outcome = ["illegal_move", exc.reason]
        assert outcome == refused, (n, kind, arg, outcome, refused)
        assert core_view(game) == played["steps"][n], (n, kind, arg)
    assert not queue and game.over
    assert len(played["history"]) == len(game.history)
    for shown, turn in zip(played["history"], game.history, strict=True):
        assert (shown["box"], shown["points"], shown["bonus"]) == (
            turn.box, turn.points, turn.bonus)
        assert [tuple(r) for r in shown["rolls"]] == list(turn.rolls)
        assert tuple(shown["holds"]) == turn.holds


def test_the_rules_data_is_the_cores() -> None:
    for name, data in offline_rules()["rulesets"].items():
        rules = get_ruleset(name)
        assert [b["id"] for b in data["boxes"]] == list(rules.box_ids)
        assert len(data["table"]) == len(rules.table)
        for roll, points in rules.table.items():
            assert data["table"]["".join(map(str, roll))] == list(points)


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_offline_practice_plays_the_cores_rules(
    chromium: Browser, live_server: LiveServer, ruleset: str
) -> None:
    context = chromium.new_context(base_url=live_server.url, service_workers="block")
    page = context.new_page()
    page.goto("/")
    games = GAMES.get(ruleset, DEFAULT_GAMES)
    seed = sum(map(ord, ruleset)) * 7919
    played = json.loads(page.evaluate(PLAY, [ruleset, games, seed]))
    context.close()
    assert len(played) == games
    refusals = 0
    for one in played:
        replay_in_core(ruleset, one)
        refusals += sum(1 for a in one["actions"] if a[2] is not None)
    assert refusals > 0  # the refusals were exercised too
    if ruleset == "yahtzee":  # the joker rule came up, with its reasons
        reasons = {c[3][0] for one in played for s in one["steps"] for c in s["choices"] if c[3]}
        assert {"joker_upper_open", "joker_lower_first"} <= reasons
