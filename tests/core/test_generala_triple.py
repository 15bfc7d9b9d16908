"""Generala and Triple Yahtzee in the core: boxes, served points, columns, options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daily.card import Card
from daily.errors import IllegalMoveError, LogFormatError, RulesetError
from daily.game import Game
from daily.movelog import MoveLog, Turn, parse_log
from daily.replay import replay
from daily.rules import get_ruleset
from daily.rules.placement import placements

from .helpers import play_script, scripted

GENERALA = get_ruleset("generala")
TRIPLE = get_ruleset("triple-yahtzee")


def _card(rules, **filled):
    scores = [None] * len(rules.boxes)
    for box, pts in filled.items():
        scores[rules.box_index(box.replace("__", "."))] = pts
    return scores


@pytest.mark.parametrize(
    ("dice", "box", "later", "served"),
    [
        ((1, 2, 3, 4, 5), "escalera", 20, 25),
        ((2, 3, 4, 5, 6), "escalera", 20, 25),
        ((3, 4, 5, 6, 1), "escalera", 20, 25),
        ((1, 2, 4, 5, 6), "escalera", 0, 0),
        ((4, 4, 4, 6, 6), "full", 30, 35),
        ((4, 4, 4, 4, 4), "full", 0, 0),
        ((4, 4, 4, 4, 2), "poker", 40, 45),
        ((4, 4, 4, 4, 4), "poker", 40, 45),
        ((4, 4, 4, 4, 4), "generala", 50, 60),
        ((5, 5, 6, 6, 1), "fives", 10, 10),
    ],
)
def test_generala_boxes_later_and_served(dice, box, later, served):
    i = GENERALA.box_index(box)
    key = tuple(sorted(dice))
    assert GENERALA.table[key][i] == later
    assert GENERALA.served_table[key][i] == served


def test_generala_options():
    assert len(GENERALA.boxes) == 11 and GENERALA.upper_bonus == 0
    low = get_ruleset("generala", {"ace_high": False})
    assert low.table[(1, 3, 4, 5, 6)][low.box_index("escalera")] == 0
    ten = get_ruleset("generala", {"double_generala": False})
    assert ten.box_ids[-1] == "generala" and ten.turns == 10
    forty = get_ruleset("generala", {"generala_points": "40-50"})
    i = forty.box_index("generala")
    assert (forty.table[(2,) * 5][i], forty.served_table[(2,) * 5][i]) == (40, 50)
    with pytest.raises(RulesetError, match="option 'generala_points' of generala is '60-70'"):
        get_ruleset("generala", {"generala_points": "60-70"})


def test_served_only_on_the_first_roll():
    # turn 0 deals a full house; rerolls deal 1s, so after "11100" the dice are 4 4 4 1 1
    game = Game(GENERALA, scripted([(4, 4, 4, 6, 6)] * 11))
    assert game.choices().get("full").points == 35
    assert game.score("full") == 35
    game.reroll("11100")
    assert game.dice == (4, 4, 4, 1, 1)
    assert game.choices().get("escalera").points == 0
    assert game.choices().get("ones").points == 2
    assert game.score("ones") == 2
    assert [r.points for r in game.history] == [35, 2]


def test_full_made_on_a_reroll_is_not_served():
    def slots(turn, roll):
        return (2, 2, 2, 3, 3) if roll else (2, 2, 2, 5, 6)
    game = Game(GENERALA, slots)
    game.reroll("11100")
    assert game.dice == (2, 2, 2, 3, 3)
    assert game.score("full") == 30


def test_doble_generala_needs_points_in_generala():
    alike = (3,) * 5
    assert placements(GENERALA, _card(GENERALA), alike).get("doble_generala").points == 0
    assert placements(GENERALA, _card(GENERALA, generala=0), alike).get(
        "doble_generala").points == 0
    turn = placements(GENERALA, _card(GENERALA, generala=50), alike, first_roll=True)
    assert turn.get("doble_generala").points == 100 and all(p.legal for p in turn.options)


def test_highest_generala_total_is_370():
    plan = [((6,) * 5, "generala")] + [((f,) * 5, b) for f, b in enumerate(
        ["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
    plan += [((2, 3, 4, 5, 6), "escalera"), ((6, 6, 6, 5, 5), "full"),
             ((6, 6, 6, 6, 1), "poker"), ((6,) * 5, "doble_generala")]
    game = play_script(GENERALA, plan)
    assert game.over and game.card.total == 370


def test_served_generala_wins_ends_the_game():
    rules = get_ruleset("generala", {"served_generala_wins": True})
    game = Game(rules, scripted([(1, 2, 3, 4, 6), (5,) * 5]))
    game.score("escalera")
    game.score("generala")
    assert game.over and game.won_outright and game.card.total == 60
    with pytest.raises(IllegalMoveError, match="game is over, a served Generala won it"):
        game.score("ones")
    plain = Game(GENERALA, scripted([(1, 2, 3, 4, 6), (5,) * 5]))
    plain.score("escalera")
    plain.score("generala")
    assert not plain.over and not plain.won_outright


def test_triple_has_39_weighted_boxes():
    assert TRIPLE.turns == 39 and TRIPLE.box_ids[13] == "2.ones"
    assert TRIPLE.weights == (1, 2, 3) and not TRIPLE.joker
    card = Card.empty(TRIPLE)
    card = card.fill(TRIPLE.box_index("1.chance"), 20, 0)
    card = card.fill(TRIPLE.box_index("3.full_house"), 25, 0)
    assert card.total == 20 + 3 * 25
    for face, name in enumerate(["ones", "twos", "threes", "fours", "fives", "sixes"], 1):
        card = card.fill(TRIPLE.box_index(f"2.{name}"), 3 * face, 0)
    assert card.column(1).bonus == 35
    assert card.total == 20 + 75 + 2 * (63 + 35)
    assert card.upper_bonus == 70 and card.upper_to_go == 2 * 63


def test_highest_triple_total_is_2250():
    plan = []
    for col in (1, 2, 3):
        plan += [((f,) * 5, f"{col}.{b}") for f, b in enumerate(
            ["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
        plan += [((6, 6, 6, 6, 6), f"{col}.three_of_a_kind"),
                 ((6, 6, 6, 6, 6), f"{col}.four_of_a_kind"),
                 ((6, 6, 6, 5, 5), f"{col}.full_house"),
                 ((2, 3, 4, 5, 6), f"{col}.small_straight"),
                 ((2, 3, 4, 5, 6), f"{col}.large_straight"),
                 ((6,) * 5, f"{col}.yahtzee"),
                 ((6,) * 5, f"{col}.chance")]
    game = play_script(TRIPLE, plan)
    assert game.over and game.card.total == 2250 and game.card.extra_bonus == 0


def test_triple_no_joker_by_default_five_alike_scores_normally():
    scores = _card(TRIPLE, **{"1__yahtzee": 50})
    turn = placements(TRIPLE, scores, (4,) * 5)
    assert turn.bonus == 0 and all(p.legal for p in turn.options)
    assert turn.get("1.full_house").points == 0


def test_triple_joker_applies_per_column():
    rules = get_ruleset("triple-yahtzee", {"joker": True})
    scores = _card(rules, **{"1__yahtzee": 50, "2__yahtzee": 0})
    turn = placements(rules, scores, (4,) * 5)
    legal = {p.box for p in turn.legal()}
    # column 1 and 2: the fours box is forced; column 3 (yahtzee open) is free
    assert {"1.fours", "2.fours"} <= legal and "1.chance" not in legal
    assert "2.full_house" not in legal and "3.full_house" in legal
    assert turn.get("3.full_house").points == 0
    bonus = {p.box: p.bonus for p in turn.options}
    assert bonus["1.fours"] == 100 and bonus["2.fours"] == 0 and bonus["3.ones"] == 0
    game = Game(rules, scripted([(4,) * 5] * 3))
    game.score("1.yahtzee")
    game.score("1.fours")
    assert game.card.extra_bonus == 100 and game.card.total == 50 + 20 + 100


def test_triple_log_round_trips_and_replays():
    log = MoveLog("triple-yahtzee", (Turn(("11000",), "3.chance"), Turn((), "2.yahtzee"),
                                      Turn(("10000", "11000"), None)), seed=bytes(32))
    text = log.to_text()
    assert parse_log(text) == log
    assert MoveLog.from_json(log.dumps()) == log
    result = replay(log).to_json()
    assert [t["box"] for t in result["turns"]] == ["3.chance", "2.yahtzee"]
    assert result["columns"][2]["weight"] == 3
    assert result["total"] == 3 * result["turns"][0]["points"] + 2 * result["turns"][1]["points"]


def test_generala_log_options_in_text_form():
    log = MoveLog("generala", (Turn((), "full"),), (("generala_points", "40-50"),),
                  seed=bytes(32))
    assert log.to_text().split("~")[2] == "generala_points=40-50"
    assert parse_log(log.to_text()) == log
    with pytest.raises(LogFormatError, match=r"turn 1: triple-yahtzee has no box '4\.ones'"):
        MoveLog.from_json({"format": "daily-log/1", "ruleset": "triple-yahtzee",
                           "seed": "00" * 32, "turns": [{"holds": [], "category": "4.ones"}]})


SEEDS_DIR = Path(__file__).resolve().parents[2] / "seeds"
RULESET_VECTORS = json.loads((SEEDS_DIR / "logs-v1-generala-triple.json").read_text())


def test_the_vector_file_covers_both_rulesets_and_their_options():
    assert RULESET_VECTORS["format"] == "daily-log/1"
    seen = {(v["log"]["ruleset"], tuple(sorted(v["log"]["options"]))) for v in
            RULESET_VECTORS["vectors"]}
    assert ("generala", ("ace_high", "generala_points")) in seen
    assert ("triple-yahtzee", ("joker",)) in seen
    assert any(v["served"] for v in RULESET_VECTORS["vectors"])
    assert any(v["extra_bonus"] for v in RULESET_VECTORS["vectors"])


@pytest.mark.parametrize("vector", RULESET_VECTORS["vectors"],
                         ids=lambda v: v["log"]["ruleset"])
def test_generala_and_triple_vectors_replay_to_their_known_totals(vector):
    log = MoveLog.from_json(vector["log"])
    assert MoveLog.from_text(vector["text"]) == log
    result = replay(log).to_json()
    assert result["complete"]
    for key in ("total", "boxes", "upper_bonus", "extra_bonus"):
        assert result[key] == vector[key], key
    rules = log.rules
    if "columns" in vector:
        assert result["columns"] == vector["columns"]
        assert result["total"] == sum(c["total"] * c["weight"] for c in vector["columns"]) + \
            vector["extra_bonus"]
    else:
        assert result["total"] == sum(vector["boxes"].values())
    served = [t["turn"] for t in result["turns"] if not t["holds"] and rules.served and
              t["points"] != rules.table[tuple(sorted(t["dice"]))][rules.box_index(t["box"])]]
    assert served == vector["served"]


def test_share_text_of_triple_has_its_columns_apart():
    from daily.service.games.codes import share_text

    card = Card.empty(TRIPLE).fill(TRIPLE.box_index("3.yahtzee"), 50, 0)
    lines = share_text(card, date="2026-11-29", url="https://d.example/r/DD-1").splitlines()
    assert len(lines) == 3 and " · 150 points · " in lines[0]
    columns = lines[1].split(" ")
    assert [len(c) for c in columns] == [13, 13, 13] and columns[2][11] == "🟩"
    served = Card.empty(GENERALA).fill(GENERALA.box_index("full"), 35, 0)
    assert share_text(served, date=None, url="u").splitlines()[1].split(" ")[1][1] == "🟩"
