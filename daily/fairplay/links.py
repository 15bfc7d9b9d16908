"""Links that need no flagged scout: young players from the same network, and games whose
reveals cover the dice a top game profited from.

A scout need not look like one. Throwaway accounts that play plain-looking games still
show the day's dice, and the ranked game they serve follows them. So a game on its way
onto the public top is linked to:

* **young games from its network** (:func:`young_links`): the same day set's games of
  young players (provisional, or created in the last two days,
  :mod:`daily.service.players.creation`) started, or whose player was created, from the
  network (IPv4 /24, IPv6 /48, as a hash salted per day) the game was started from or
  its player created from, the same day;
* **covering games** (:func:`covering_games`): the day set's games of young players and
  its scouts, other players', that revealed every die the game *profited from*
  (:func:`profited_dice`: the dice rerolled at each of its tells, the decisions that lost
  in expectation and were exactly right for the dice that came), when it profited from
  at least :data:`COVER_MIN` dice.

Pure: the service keeps the young games of a board and reads the logs
(:mod:`daily.service.review.evidence`).

>>> from daily.movelog import MoveLog, Turn
>>> scout = MoveLog("yacht", (Turn(("00011", "00000"), "choice"),), seed=bytes(32))
>>> sorted(revealed_dice(scout))[:3]
[(0, 1, 0), (0, 1, 1), (0, 1, 2)]
>>> top = MoveLog("yacht", (Turn(("11100", "11110"), "choice"),), seed=bytes(32))
>>> sorted(profited_dice(top, [(1, 1)]))
[(0, 1, 3), (0, 1, 4)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from daily.movelog import MoveLog

#: A covering game must have revealed this share of the dice a game profited from.
COVER_SHARE = 1.0
#: A game is linked to covering games only when it profited from at least this many
#: dice (a single lucky reroll of one or two dice is what any game shows).
COVER_MIN = 4

Die = tuple[int, int, int]  # (turn, roll, position), 0-based; roll 0 is the first roll


@dataclass(frozen=True)
class YoungGame:
    """A young player's game of a day set: its id, its player, the networks it is known
    from (each ``"<day> <salted hash>"``: the network the game was started from, and the
    one the player was created from while it is remembered), when it finished, and why
    the player is young (``new``: created in the last two days; ``provisional``)."""

    game_id: str
    player_id: str
    networks: tuple[str, ...]
    at: float
    why: str

    def to_json(self) -> dict[str, Any]:
        """The stored form.

        >>> g = YoungGame("g_1", "p_1", ("2026-11-29 n1",), 5.0, "new")
        >>> YoungGame.from_json(g.to_json()) == g
        True
        """
        return {**asdict(self), "networks": list(self.networks)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> YoungGame:
        """Parse :meth:`to_json`'s form."""
        return cls(str(obj["game_id"]), str(obj["player_id"]),
                   tuple(str(n) for n in obj.get("networks") or ()), float(obj["at"]),
                   str(obj["why"]))


def young_links(game_id: str, player_id: str, networks: Iterable[str],
                young: Iterable[YoungGame]) -> list[YoungGame]:
    """The young games of other players known from one of the game's networks (the
    network its game was started from, or its player created from; the hashes are
    salted per day, so only networks of the same day compare).

    >>> y = [YoungGame("g_s", "p_s", ("d n1",), 1.0, "new"),
    ...      YoungGame("g_t", "p_t", ("d n2",), 1.0, "provisional"),
    ...      YoungGame("g_1", "p_1", ("d n1",), 1.0, "new")]
    >>> [g.game_id for g in young_links("g_1", "p_1", ["d n1"], y)]
    ['g_s']
    >>> young_links("g_1", "p_1", [], y)
    []
    """
    mine = set(networks)
    if not mine:
        return []
    return [g for g in young if mine.intersection(g.networks) and g.player_id != player_id
            and g.game_id != game_id]


def revealed_dice(log: MoveLog) -> frozenset[Die]:
    """The rerolled dice a game showed: ``(turn, roll, position)`` of every die it
    rerolled (the first roll of each turn shows to every game alike).

    >>> from daily.movelog import Turn
    >>> sorted(revealed_dice(MoveLog("yacht", (Turn(("11110",), "choice"),), seed=bytes(32))))
    [(0, 1, 4)]
    """
    return frozenset((t, k + 1, p) for t, turn in enumerate(log.turns)
                     for k, mask in enumerate(turn.holds)
                     for p, m in enumerate(mask) if m == "0")


def profited_dice(log: MoveLog, tells: Iterable[tuple[int, int]]) -> frozenset[Die]:
    """The dice a game profited from: at each tell ``(turn, roll)`` (1-based, as
    :class:`daily.fairplay.foresight.Tell` names it) that was a reroll, the dice it
    rerolled (a tell that chose a box profits from no die of its turn).

    >>> from daily.movelog import Turn
    >>> top = MoveLog("yacht", (Turn(("11100",), "choice"),), seed=bytes(32))
    >>> sorted(profited_dice(top, [(1, 1), (1, 2), (9, 1)]))
    [(0, 1, 3), (0, 1, 4)]
    """
    out: set[Die] = set()
    for turn, roll in tells:
        if not 1 <= turn <= len(log.turns):
            continue
        holds = log.turns[turn - 1].holds
        if 1 <= roll <= len(holds):
            out.update((turn - 1, roll, p) for p, m in enumerate(holds[roll - 1]) if m == "0")
    return frozenset(out)


def cover_share(profited: frozenset[Die], revealed: frozenset[Die]) -> float:
    """The share of the dice a game profited from that another game revealed.

    >>> cover_share(frozenset({(0, 1, 0), (0, 1, 1)}), frozenset({(0, 1, 1)}))
    0.5
    >>> cover_share(frozenset(), frozenset())
    0.0
    """
    return len(profited & revealed) / len(profited) if profited else 0.0


def covering_games(profited: frozenset[Die], player_id: str,
                   candidates: Iterable[tuple[str, str, frozenset[Die]]]
                   ) -> list[tuple[str, str, float]]:
    """The candidate games ``(game id, player id, revealed dice)`` of other players that
    revealed at least :data:`COVER_SHARE` of ``profited``, with their share; none when
    the game profited from fewer than :data:`COVER_MIN` dice.

    >>> dice = frozenset((0, 1, p) for p in range(5))
    >>> covering_games(dice, "p_1", [("g_s", "p_s", dice), ("g_1", "p_1", dice)])
    [('g_s', 'p_s', 1.0)]
    >>> covering_games(frozenset(list(dice)[:3]), "p_1", [("g_s", "p_s", dice)])
    []
    """
    if len(profited) < COVER_MIN:
        return []
    out = []
    for game_id, other, revealed in candidates:
        share = cover_share(profited, revealed)
        if other != player_id and share >= COVER_SHARE:
            out.append((game_id, other, round(share, 3)))
    return out
