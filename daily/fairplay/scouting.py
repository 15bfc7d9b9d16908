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

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
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
#: Mean expected loss per decision (points of final score against the best decision in
#: expectation, given what was kept) from which a finished game that holds the same
#: positions at most rerolls (:data:`BLIND_SAME`) is a scout's by how it plays
#: (:func:`plays_blind`, which gives the calibration).
BLIND_LOSS = 1.5
#: Share of the rerolls holding the same positions from which a game is position-blind.
BLIND_SAME = 0.6
#: Two games of one day set are copies when at least this share of their turns took the
#: same decisions (the same holds and box; the dice are the day's, so they are the same).
COPY_SHARE = 0.9
#: The turns of a log are cut into this many bands of consecutive turns to index it: a
#: copy that differs in fewer turns than this shares at least one band.
COPY_BANDS = 4


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
    same_mask: int = 0  # rerolls that held the game's most common hold mask

    @property
    def share_same(self) -> float:
        """Share of the rerolls that held the same positions (the game's most common
        hold mask): what a split scout does at every reroll, whatever the dice."""
        return self.same_mask / self.rerolls if self.rerolls else 0.0

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
    masks: Counter[str] = Counter()
    for turn in log.turns:
        revealed += n
        for mask in turn.holds:
            rerolls += 1
            fresh = mask.count("0")
            revealed += fresh
            everything += fresh == n
            masks[mask] += 1
    same = masks.most_common(1)[0][1] if masks else 0
    return Reveals(n, len(log.turns), revealed, rerolls, everything, log.complete,
                   rules.turns * rules.rolls_per_turn * n, same)


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


def plays_blind(reveals: Reveals, expected_loss: float, decisions: int) -> bool:
    """Whether a finished game is a scout's by how it plays: its decisions are far from
    optimal play in expected value, given what it kept (at least :data:`BLIND_LOSS`
    points a decision on average), and it rerolled the same positions whatever the dice
    (in at least :data:`BLIND_SAME` of its rerolls). A split scout (two accounts, each
    rerolling a disjoint half of the positions at every reroll) shows about 2 dice per
    die used, as honest play does, so :func:`scout_kind` does not see it.

    Calibrated on honest play (``bench/evidence.py``, ``bench/results/evidence-yahtzee.json``,
    300 days): a beginner can lose more in expectation than a split scout (the medium bot
    at temperature 10: 4.7 points a decision on average), but no honest bot held its most
    common positions in more than 42% of its rerolls; a split scout, in all of them,
    losing at least 1.74 points a decision. No honest game of the 1,500 plays blind; all
    600 split scouts do.

    >>> split = Reveals(5, 13, 130, 26, 0, True, 195, 26)
    >>> beginner = Reveals(5, 13, 140, 26, 1, True, 195, 6)
    >>> plays_blind(split, 90.0, 39), plays_blind(beginner, 190.0, 39)
    (True, False)
    >>> plays_blind(split, 10.0, 39), plays_blind(split, 0.0, 0)
    (False, False)
    """
    return (decisions > 0 and reveals.complete and reveals.share_same >= BLIND_SAME
            and expected_loss / decisions >= BLIND_LOSS)


def decisions_of(log: MoveLog) -> tuple[str, ...]:
    """A game's decisions turn by turn (its holds and its box), the form two games of one
    day set are compared in: on the same day's dice, the same decisions are the same game.

    >>> from daily.movelog import MoveLog, Turn
    >>> decisions_of(MoveLog("yacht", (Turn(("11000",), "full_house"),), seed=bytes(32)))
    ('11000|full_house',)
    """
    return tuple(",".join(turn.holds) + "|" + (turn.box or "") for turn in log.turns)


def copy_bands(decisions: Sequence[str], bands: int = COPY_BANDS) -> list[str]:
    """The index keys of a game's decisions: one short hash per band of consecutive
    turns (:data:`COPY_BANDS`), each naming its band. Two games that share a key took
    the same decisions over a whole band: the candidates for :func:`copy_share`.

    >>> keys = copy_bands(("a", "b", "c", "d", "e"))
    >>> len(keys), keys[0].startswith("0:"), copy_bands(()) == []
    (4, True, True)
    """
    n = len(decisions)
    if n == 0:
        return []
    bands = min(bands, n)
    out = []
    for b in range(bands):
        part = "\n".join(decisions[b * n // bands:(b + 1) * n // bands])
        out.append(f"{b}:" + hashlib.blake2b(part.encode(), digest_size=8).hexdigest())
    return out


def copy_share(a: Sequence[str], b: Sequence[str]) -> float:
    """The share of turns two games played the same way (turn by turn; a shorter log's
    missing turns differ).

    >>> copy_share(("x", "y", "z"), ("x", "y", "w")), copy_share((), ())
    (0.6666666666666666, 0.0)
    """
    n = max(len(a), len(b))
    if n == 0:
        return 0.0
    return sum(x == y for x, y in zip(a, b, strict=False)) / n


def is_copy(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two games of one day set are copies (:data:`COPY_SHARE`).

    >>> turns = tuple(str(k) for k in range(13))
    >>> is_copy(turns, turns[:12] + ("other",)), is_copy(turns, turns[:11] + ("a", "b"))
    (True, False)
    """
    return copy_share(a, b) >= COPY_SHARE
