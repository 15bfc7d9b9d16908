"""The links that need no flagged scout (pure parts of :mod:`daily.fairplay.scouting`):
copies of a game's decisions, and the split scout seen by how it holds its dice."""

from __future__ import annotations

from daily.fairplay.scouting import (
    BLIND_SAME,
    copy_bands,
    decisions_of,
    is_copy,
    plays_blind,
    reveals_of,
    scout_kind,
)
from daily.game import Game
from daily.movelog import MoveLog, Turn
from daily.rules import get_ruleset

SEED = bytes(range(32))


def split_scout_log(rerolled: set[int]) -> MoveLog:
    rules = get_ruleset("yahtzee")
    game = Game.from_seed(rules, SEED)
    hold = "".join("0" if i in rerolled else "1" for i in range(rules.dice))
    while not game.over:
        if game.rolls_left > 0:
            game.reroll(hold)
        else:
            game.score(game.choices().legal()[0].box)
    return MoveLog.of_game(game, seed=SEED)


def test_a_copy_that_differs_in_one_turn_shares_a_band_and_is_a_copy() -> None:
    log = split_scout_log({0, 1})
    mine = decisions_of(log)
    other = (*mine[:6], "11111|" + "changed", *mine[7:])
    assert len(mine) == 13 and is_copy(mine, other)
    assert set(copy_bands(mine)) & set(copy_bands(other))
    # Two turns different is not a copy; neither is another ruleset's shorter log.
    assert not is_copy(mine, (*mine[:5], "a", "b", *mine[7:]))
    assert not is_copy(mine, mine[:11])


def test_split_scouts_hold_the_same_positions_and_show_what_honest_play_shows() -> None:
    for half in ({0, 1}, {2, 3, 4}):
        reveals = reveals_of(split_scout_log(half))
        assert reveals.share_same == 1.0 >= BLIND_SAME
        assert 1.8 <= reveals.ratio <= 2.3  # the reveals alone: honest-looking
        assert scout_kind(reveals) is None
        assert plays_blind(reveals, 2.0 * 39, 39)  # lost 2 points a decision
        assert not plays_blind(reveals, 0.5 * 39, 39)  # played well: not blind


def test_an_unfinished_game_never_plays_blind() -> None:
    log = MoveLog("yahtzee", (Turn(("00111", "00111"), None),), seed=SEED)
    assert not plays_blind(reveals_of(log), 100.0, 2)
