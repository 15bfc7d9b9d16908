"""The game state machine: totals, joker corners, forced order, saved rolls."""

from __future__ import annotations

import pytest

from daily.errors import IllegalMoveError, LogFormatError
from daily.game import Game
from daily.rules import get_ruleset
from daily.rules.placement import placements

from .helpers import play_script, scripted

ALIKE = {f: (f,) * 5 for f in range(1, 7)}


def test_highest_yahtzee_total_is_1575():
    plan = [(ALIKE[6], "yahtzee")]
    plan += [(ALIKE[f], name) for f, name in enumerate(
        ["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
    plan += [(ALIKE[6], box) for box in (
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "chance")]
    game = play_script(get_ruleset("yahtzee"), plan)
    assert game.over
    assert game.card.extra_count == 12 and game.card.extra_bonus == 1200
    assert game.card.upper_bonus == 35
    assert game.card.total == 1575


def test_highest_yatzy_total_is_374():
    plan = [((f,) * 5, name) for f, name in enumerate(
        ["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
    plan += [
        ((6, 6, 1, 2, 3), "one_pair"),
        ((6, 6, 5, 5, 1), "two_pairs"),
        ((6, 6, 6, 1, 2), "three_of_a_kind"),
        ((6, 6, 6, 6, 1), "four_of_a_kind"),
        ((1, 2, 3, 4, 5), "small_straight"),
        ((2, 3, 4, 5, 6), "large_straight"),
        ((6, 6, 6, 5, 5), "full_house"),
        ((6, 6, 6, 6, 6), "chance"),
        ((6, 6, 6, 6, 6), "yatzy"),
    ]
    game = play_script(get_ruleset("yatzy"), plan)
    assert game.card.upper_bonus == 50
    assert game.card.total == 374


def test_highest_maxi_yatzy_total_is_649():
    plan = [((f,) * 6, name) for f, name in enumerate(
        ["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
    plan += [
        ((6, 6, 1, 2, 3, 4), "one_pair"),
        ((6, 6, 5, 5, 1, 2), "two_pairs"),
        ((6, 6, 5, 5, 4, 4), "three_pairs"),
        ((6, 6, 6, 1, 2, 3), "three_of_a_kind"),
        ((6, 6, 6, 6, 1, 2), "four_of_a_kind"),
        ((6, 6, 6, 6, 6, 1), "five_of_a_kind"),
        ((6, 6, 6, 5, 5, 1), "full_house"),
        ((6, 6, 6, 5, 5, 5), "villa"),
        ((6, 6, 6, 6, 5, 5), "tower"),
        ((1, 2, 3, 4, 5, 5), "small_straight"),
        ((2, 3, 4, 5, 6, 6), "large_straight"),
        ((1, 2, 3, 4, 5, 6), "full_straight"),
        ((6,) * 6, "chance"),
        ((6,) * 6, "maxi_yatzy"),
    ]
    game = play_script(get_ruleset("maxi-yatzy"), plan)
    assert game.card.upper_bonus == 100
    assert game.card.total == 649


def _card(rules, **filled):
    scores = [None] * len(rules.boxes)
    for box, pts in filled.items():
        scores[rules.box_index(box)] = pts
    return scores


class TestJoker:
    rules = get_ruleset("yahtzee")

    def test_open_yahtzee_box_means_free_choice(self):
        turn = placements(self.rules, _card(self.rules), ALIKE[6])
        assert all(p.legal for p in turn.options) and turn.bonus == 0 and not turn.joker
        assert turn.get("full_house").points == 0
        assert turn.get("sixes").points == 30

    def test_matching_upper_box_is_forced(self):
        turn = placements(self.rules, _card(self.rules, yahtzee=50), ALIKE[3])
        assert [p.box for p in turn.legal()] == ["threes"]
        assert turn.bonus == 100
        assert "must go in the threes box" in turn.get("chance").reason

    def test_no_bonus_when_yahtzee_box_holds_zero_but_joker_still_forced(self):
        turn = placements(self.rules, _card(self.rules, yahtzee=0), ALIKE[3])
        assert turn.bonus == 0
        assert [p.box for p in turn.legal()] == ["threes"]

    def test_lower_boxes_take_joker_values(self):
        turn = placements(self.rules, _card(self.rules, yahtzee=50, fours=12), ALIKE[4])
        legal = {p.box: p.points for p in turn.legal()}
        assert legal == {
            "three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 25,
            "small_straight": 30, "large_straight": 40, "chance": 20,
        }
        assert not turn.get("ones").legal

    def test_upper_zero_when_lower_section_full(self):
        lower_full = {b: 0 for b in ("three_of_a_kind", "four_of_a_kind", "full_house",
                                     "small_straight", "large_straight", "chance")}
        turn = placements(self.rules, _card(self.rules, yahtzee=50, fives=15, **lower_full),
                          ALIKE[5])
        legal = {p.box: p.points for p in turn.legal()}
        assert legal == {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "sixes": 0}
        assert turn.bonus == 100

    def test_joker_off_scores_normally(self):
        rules = get_ruleset("yahtzee", {"joker": False})
        turn = placements(rules, _card(rules, yahtzee=50), ALIKE[2])
        assert all(p.legal for p in turn.options)
        assert turn.get("full_house").points == 0
        assert turn.bonus == 100

    def test_no_extra_bonus_option(self):
        rules = get_ruleset("yahtzee", {"extra_yahtzee_bonus": False})
        assert placements(rules, _card(rules, yahtzee=50), ALIKE[2]).bonus == 0

    def test_game_refuses_a_box_the_joker_forbids(self):
        game = Game(self.rules, scripted([ALIKE[2], ALIKE[2]] + [(1, 2, 3, 4, 6)] * 11))
        game.score("yahtzee")
        with pytest.raises(IllegalMoveError, match="turn 2: box 'chance' is not allowed: joker"):
            game.score("chance")
        assert game.score("twos") == 10
        assert game.card.extra_bonus == 100

    def test_yatzy_has_no_joker_or_extra_bonus(self):
        rules = get_ruleset("yatzy")
        turn = placements(rules, _card(rules, yatzy=50), ALIKE[2])
        assert all(p.legal for p in turn.options) and turn.bonus == 0


def test_forced_order_allows_only_the_next_box():
    rules = get_ruleset("yatzy", {"forced_order": True})
    game = Game(rules, scripted([(6, 6, 6, 6, 6)] * 15))
    with pytest.raises(IllegalMoveError, match="forced order"):
        game.score("yatzy")
    assert game.score("ones") == 0
    assert [p.box for p in game.choices().legal()] == ["twos"]


def test_rolls_are_limited_and_counted():
    game = Game.from_seed(get_ruleset("yahtzee"), bytes(32))
    assert (game.roll, game.rolls_left) == (0, 2)
    game.reroll("00000")
    game.reroll("10000")
    assert game.rolls_left == 0
    with pytest.raises(IllegalMoveError, match=r"turn 1, roll 4: no rolls left"):
        game.reroll("00000")


def test_bad_masks_say_turn_and_roll():
    game = Game.from_seed(get_ruleset("yahtzee"), bytes(32))
    with pytest.raises(LogFormatError) as err:
        game.reroll("0110")
    assert str(err.value) == "turn 1, roll 2: hold mask '0110' has 4 positions, the game has 5 dice"
    with pytest.raises(LogFormatError, match="may only hold"):
        game.reroll("01x10")
    with pytest.raises(IllegalMoveError, match="keeps every die"):
        game.reroll("11111")


def test_kept_dice_keep_value_and_position():
    seed = bytes(32)
    game = Game.from_seed(get_ruleset("yahtzee"), seed)
    first = game.dice
    from daily.dice import slot_dice

    fresh = slot_dice(seed, 0, 1, 5)
    after = game.reroll("10101")
    assert after == (first[0], fresh[1], first[2], fresh[3], first[4])


def test_saved_rolls_bank_unused_rolls():
    rules = get_ruleset("maxi-yatzy", {"saved_rolls": True})
    game = Game.from_seed(rules, bytes(32))
    game.score(game.choices().legal()[0].box)  # used 1 of 3 rolls: 2 banked
    assert game.bank == 2 and game.max_rolls == 5 and game.rolls_left == 4
    for mask in ("000000", "000000", "000000", "000000"):
        game.reroll(mask)
    assert game.roll == 4 and game.rolls_left == 0
    game.score(game.choices().legal()[0].box)
    assert game.bank == 0


def test_without_saved_rolls_nothing_is_banked():
    game = Game.from_seed(get_ruleset("maxi-yatzy"), bytes(32))
    game.score("chance")
    assert game.max_rolls == 3


def test_card_totals_and_upper_progress():
    rules = get_ruleset("yahtzee")
    game = play_script(rules, [((4, 4, 4, 6, 6), "fours"), ((6, 6, 6, 6, 1), "sixes")])
    assert game.card.upper_total == 36 and game.card.upper_to_go == 27
    assert game.card.total == 36
    with pytest.raises(IllegalMoveError, match="already filled"):
        game.score("fours")
