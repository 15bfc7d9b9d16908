"""Scouts, and the ranked games they serve: evidence across the games of a day.

A scout is a game played to see the day's dice, not to score: it reveals far more dice
than it uses (every die it rerolls shows the day's die of that slot and position, and
is thrown away), it rerolls everything, or it stops short of the end once it has seen
enough. Its player (a throwaway) scores nothing; the game that gains is the ranked game
that follows it, played by another player from the same network or soon after.

This module reads a game's reveals from its move log (:func:`reveals_of`), says
whether they are a scout's (:func:`scout_kind`) and links the scouts of a day set to a
ranked game (:func:`linked_scouts`). Pure: the service keeps the sightings
(:mod:`daily.service.review.evidence`).

The lines are calibrated on honest play (``bench/evidence.py``: the strategy bots,
hard, medium at temperatures 1, 3 and 10, and easy, 300 games each of Yahtzee, Yatzy,
Yacht and Generala): they show 1.84 to 1.97 dice per die used on average, at most 2.31;
they rerolled every die in at most 35% of their rerolls. A scout that rerolls
everything shows 3 (Yahtzee: 5 + 5 + 5 dice a turn for 5 used); one that keeps one
die, 2.6.

>>> import datetime as dt
>>> from daily.movelog import MoveLog, Turn
>>> day = dt.date(2026, 11, 29)
>>> scout = MoveLog("yahtzee", (Turn(("00000", "00000"), None),), day=day)
>>> reveals_of(scout).ratio, scout_kind(reveals_of(scout))
(3.0, None)
>>> boxes = ("ones", "twos", "threes", "fours", "fives", "sixes", "three_kind",
...          "four_kind", "full_house", "small_straight", "large_straight", "yahtzee")
>>> short = MoveLog("yahtzee", tuple(Turn(("00000", "00000"), b) for b in boxes), day=day)
>>> reveals_of(short).complete, scout_kind(reveals_of(short))
(False, 'unfinished')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from daily.movelog import MoveLog

#: Dice revealed per die used from which a game is a scout's (honest play: at most 2.31).
REVEAL_UNUSED = 2.5
#: Share of rerolls that rerolled every die from which a game is a scout's.
REROLL_ALL = 0.9
#: An unfinished game is a scout's only once it has shown this share of the day's dice.
MIN_REVEALED = 1 / 3
#: A scout is linked to the ranked games finished within this many seconds after it
#: (from any network); from the same network, to those of the whole day set.
LINK_WINDOW = 900.0


@dataclass(frozen=True)
class Reveals:
    """What a game showed of the day's dice, from its move log."""

    dice: int  # dice of a roll
    turns: int  # turns begun
    revealed: int  # dice shown: every first roll, and every rerolled die
    rerolls: int
    rerolled_all: int  # rerolls that rerolled every die
    complete: bool
    capacity: int  # dice of the whole day: turns x rolls x dice

    @property
    def ratio(self) -> float:
        """Dice shown per die used (the dice of each turn begun are used once)."""
        return self.revealed / (self.dice * self.turns) if self.turns else 0.0

    @property
    def share_all(self) -> float:
        """Share of the rerolls that rerolled every die."""
        return self.rerolled_all / self.rerolls if self.rerolls else 0.0

    @property
    def shown(self) -> float:
        """Share of the day's dice the game showed."""
        return self.revealed / self.capacity if self.capacity else 0.0


def reveals_of(log: MoveLog) -> Reveals:
    """The reveals of a game (finished or not) from its move log.

    >>> from daily.movelog import MoveLog, Turn
    >>> r = reveals_of(MoveLog("yacht", (Turn(("11000", "11100"), "full_house"),),
    ...                        seed=bytes(32)))
    >>> r.revealed, r.rerolls, r.rerolled_all, round(r.ratio, 2)
    (10, 2, 0, 2.0)
    """
    rules = log.rules
    n = rules.dice
    revealed = rerolls = everything = 0
    for turn in log.turns:
        revealed += n
        for mask in turn.holds:
            rerolls += 1
            fresh = mask.count("0")
            revealed += fresh
            everything += fresh == n
    return Reveals(n, len(log.turns), revealed, rerolls, everything, log.complete,
                   rules.turns * rules.rolls_per_turn * n)


def scout_kind(reveals: Reveals) -> str | None:
    """``rerolls_everything``, ``reveals_unused`` (a finished game), ``unfinished`` (a
    game left before its end that showed at least :data:`MIN_REVEALED` of the day's
    dice the way a scout does), or None: not a scout's.

    >>> scout_kind(Reveals(5, 13, 195, 26, 26, True, 195))
    'rerolls_everything'
    >>> scout_kind(Reveals(5, 13, 169, 26, 0, True, 195))
    'reveals_unused'
    >>> scout_kind(Reveals(5, 13, 126, 20, 1, True, 195))
    """
    everything = reveals.rerolls >= reveals.turns and reveals.share_all >= REROLL_ALL
    unused = reveals.ratio >= REVEAL_UNUSED
    if not (everything or unused):
        return None
    if not reveals.complete:
        return "unfinished" if reveals.shown >= MIN_REVEALED else None
    return "rerolls_everything" if everything else "reveals_unused"


@dataclass(frozen=True)
class Sighting:
    """A scout of a day set: its game, its player, the salted hash of its player's
    network (None when unknown), when it was played (its finish, or its start when
    unfinished) and its kind (:func:`scout_kind`)."""

    game_id: str
    player_id: str
    network: str | None
    at: float
    kind: str
    ratio: float

    def to_json(self) -> dict[str, Any]:
        """The stored form.

        >>> s = Sighting("g_1", "p_1", None, 5.0, "unfinished", 2.91234)
        >>> s.to_json()["ratio"], Sighting.from_json(s.to_json()).kind
        (2.912, 'unfinished')
        """
        return {**asdict(self), "ratio": round(self.ratio, 3)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Sighting:
        """Parse :meth:`to_json`'s form."""
        net = obj.get("network")
        return cls(str(obj["game_id"]), str(obj["player_id"]),
                   str(net) if net is not None else None, float(obj["at"]),
                   str(obj["kind"]), float(obj.get("ratio") or 0.0))


def linked_scouts(
    game_id: str, player_id: str, network: str | None, finished_at: float,
    scouts: Iterable[Sighting], window: float = LINK_WINDOW,
) -> list[tuple[Sighting, str]]:
    """The scouts a ranked game follows, each with how it is linked: ``network`` (its
    player came from the same network, any time before the game's finish) or ``window``
    (played within ``window`` seconds before it). A game is never its own scout.

    >>> s = Sighting("g_s", "p_s", "n1", 100.0, "unfinished", 2.9)
    >>> [how for _, how in linked_scouts("g_1", "p_1", "n1", 9000.0, [s])]
    ['network']
    >>> [how for _, how in linked_scouts("g_1", "p_1", "n2", 1000.0, [s])]
    ['window']
    >>> linked_scouts("g_1", "p_1", None, 9000.0, [s])
    []
    """
    out = []
    for scout in scouts:
        if scout.game_id == game_id or scout.player_id == player_id or scout.at >= finished_at:
            continue
        if network is not None and scout.network == network:
            out.append((scout, "network"))
        elif finished_at - scout.at <= window:
            out.append((scout, "window"))
    return out
