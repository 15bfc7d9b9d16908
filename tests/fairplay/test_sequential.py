"""The foresight record's sequential test (:mod:`daily.fairplay.history.sequential`) and the
links that need no flagged scout (:mod:`daily.fairplay.links`): pure logic."""

from __future__ import annotations

import math

from daily.fairplay.history.sequential import DRIFT, KEPT, LINE, cusum, cusum_path, persistent
from daily.fairplay.links import (
    COVER_MIN,
    YoungGame,
    covering_games,
    profited_dice,
    revealed_dice,
    young_links,
)
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset

SEED = bytes(range(32))


def test_an_honest_season_with_its_lucky_games_is_never_held() -> None:
    # 200 games: 0 in most (the honest model explains them), a game at honest play's
    # 99th centile (2.5) every 20 games and its worst of 40,000 (8.5) once.
    season = [2.5 if k % 20 == 0 else 0.0 for k in range(200)]
    season[100] = 8.5
    assert max(cusum_path(season)) < LINE
    assert not any(persistent(season[:n]) for n in range(1, 201))


def test_a_cheater_under_every_one_game_line_is_held_within_days() -> None:
    # The gambling cheater of bench/fairplay.py: about 2.3 a day, far under the one-game
    # lines (about 10 for the ordinary test).
    days = [2.3] * 30
    first = next(n for n in range(1, 31) if persistent(days[:n]))
    assert first == math.ceil(LINE / (2.3 - DRIFT))
    assert first <= 14


def test_one_game_alone_crosses_only_above_the_line_plus_the_drift() -> None:
    assert not persistent([LINE + DRIFT - 0.01])
    assert persistent([LINE + DRIFT])


def test_the_sum_falls_back_and_only_the_latest_games_count() -> None:
    cheat = [DRIFT + 2.0] * 8  # 16: at the line
    assert persistent(cheat)
    assert not persistent([*cheat, 0.0])
    assert cusum(cheat + [0.0] * 16) == 0.0
    # a record longer than KEPT: the games before the latest KEPT are not read
    assert not persistent(cheat + [0.0] * KEPT) and persistent([0.0] * KEPT + cheat)


def _log(holds: list[tuple[str, ...]]) -> MoveLog:
    """A Yahtzee log of the seed's dice with these holds, each turn scored in the first
    open box."""
    rules = get_ruleset("yahtzee")
    game = Game.from_seed(rules, SEED)
    for turn in range(rules.turns):
        for hold in holds[turn % len(holds)]:
            game.reroll(hold)
        game.score(game.choices().legal()[0].box)
    return MoveLog.of_game(game, seed=SEED)


def test_a_split_scout_pair_covers_the_dice_a_game_profited_from() -> None:
    top = _log([("10000", "11100")])
    # tells: the first reroll of turns 1 to 3 (1-based, as the check names them)
    profited = profited_dice(top, [(1, 1), (2, 1), (3, 1)])
    assert len(profited) == 12 >= COVER_MIN  # positions 2 to 5 of three first rerolls
    low, high = _log([("00111", "00111")]), _log([("11000", "11000")])
    assert revealed_dice(low) | revealed_dice(high) >= profited
    both = [("g_low", "p_low", revealed_dice(low)), ("g_high", "p_high", revealed_dice(high)),
            ("g_all", "p_all", revealed_dice(low) | revealed_dice(high)),
            ("g_top", "p_top", revealed_dice(top))]
    assert covering_games(profited, "p_top", both) == [("g_all", "p_all", 1.0)]
    # a game that never rerolled showed nothing of the rerolls
    keeper = _log([()])
    assert revealed_dice(keeper) == frozenset()
    assert covering_games(profited, "p_top", [("g_k", "p_k", revealed_dice(keeper))]) == []
    # a tell that chose a box profits from no die of its turn
    assert profited_dice(top, [(1, 3)]) == frozenset()


def test_a_young_game_links_through_any_network_of_the_same_day() -> None:
    scout = YoungGame("g_s", "p_s", ("2026-11-29 aa", "2026-11-28 bb"), 1.0, "new")
    other = YoungGame("g_o", "p_o", ("2026-11-30 aa",), 1.0, "provisional")  # another salt
    assert young_links("g_1", "p_1", ["2026-11-29 aa"], [scout, other]) == [scout]
    assert young_links("g_1", "p_1", ["2026-11-28 bb"], [scout]) == [scout]
    assert young_links("g_1", "p_s", ["2026-11-29 aa"], [scout]) == []
    assert young_links("g_1", "p_1", ["2026-11-29 zz"], [scout, other]) == []
