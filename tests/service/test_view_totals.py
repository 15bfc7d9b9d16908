"""The state document's card, upper section and total, from their shortcuts (one column
without sums over columns, the card's boxes zipped with their ids), equal the card's
own properties on every variant."""

from __future__ import annotations

import random

from daily.card import Card
from daily.rules import RULESET_NAMES, get_ruleset
from daily.service.games.views import card_json, upper_and_total, upper_json


def test_upper_total_and_card_match_the_cards_properties() -> None:
    rng = random.Random(11)
    checked = 0
    for name in RULESET_NAMES:
        rules = get_ruleset(name)
        for _ in range(200):
            scores = tuple(rng.choice((None, 0, 3, 12, 18, 30, 50)) for _ in rules.boxes)
            card = Card(rules, scores, rng.choice((0, 100)), 0)
            assert upper_and_total(card) == (upper_json(card), card.total)
            assert card_json(card) == [{"box": b, "points": p} for b, p in card.as_dict().items()]
            checked += 1
    assert checked == 200 * len(RULESET_NAMES)
