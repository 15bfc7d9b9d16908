"""Who stands on the public top of a day's board: the one rule, and the public top.

Every game on a board counts for its player (rank, percentile, histogram, groups,
challenges, streaks); the *public top* of the board (the ``top`` list of
``GET /leaderboards/<date>/<ruleset>``) shows only the games whose player stands on it.
The profile, the public top and the close-time re-check of the final top all ask
:func:`standing_rule` (through :class:`PublicStanding`), the one place of the rule:

* **provisional**: the player has fewer than ``DAILY_PROVISIONAL_DAYS`` (7) days of
  ranked play (:func:`daily.service.results.stats.play_day`: days of the service clock
  with a ranked game finished, the dates open at one moment counting once). For a
  game, the days are counted up to the close of its date (the day of play of
  ``min(now, closes_at(date))``), so a closed board's top never changes as its players
  play on, and a rebuild gives the same answer.
* **no passkey**: ``DAILY_PUBLIC_TOP_REQUIRES_PASSKEY`` is on (the default) and the
  player has no passkey (their ``passkeys:{<player>}`` hash is empty or missing), at the
  time of asking.
* **cleared**: an operator cleared the game (``daily review clear-top``, or ``daily
  review clear`` of a game held by the fair-play check): it stands whatever the two
  conditions say.
* **unchecked**: the game was ranked before its fair-play check ran (the first seconds
  of a results consumer, :mod:`daily.service.review.postponed`): it stands nowhere on
  the public top, not even under the exemption below, until the check has passed.

A game stands on the public top when it is cleared or neither provisional nor without a
passkey. The public top (:meth:`PublicStanding.public_top`) lists the best ``limit``
standing games in board order, with their board ranks (the rank a player sees counts
every game, so the public top may skip ranks), and counts the games it left out: the
games that do not stand and are ranked above its last row (all of those read, when the
top is shorter than ``limit``).

The new-deployment exemption: when none of the board's games stands (every player is
new, or nobody has a passkey yet), the top lists the best games as they are, each
marked (``provisional``, ``no_passkey``) and the answer says so (``top_open``). The
board is read at most :data:`SCAN_LIMIT` rows deep to fill a top: a board whose first
:data:`SCAN_LIMIT` games are all marked is treated as having none that stands.

Redis keys (``P`` = prefix)::

    P lb:{D:R}:cleared    SET  game ids an operator cleared for the public top
    P lb:{D:R}:unchecked  SET  game ids ranked before their fair-play check

>>> standing_rule(3, True, False, provisional_days=7, passkey_required=True).marks
('provisional',)
>>> standing_rule(9, False, False, provisional_days=7, passkey_required=True).marks
('no_passkey',)
>>> standing_rule(9, False, False, provisional_days=7, passkey_required=False).eligible
True
>>> standing_rule(0, False, True, provisional_days=7, passkey_required=True).eligible
True
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import redis
from redis.cluster import RedisCluster

from daily import calendar
from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.connections import as_text
from daily.service.refusals import NotFound
from daily.service.results.leaderboard import Entry, Leaderboard
from daily.service.results.stats import play_day, record_keys

if TYPE_CHECKING:
    from daily.service.config import Config

#: The marks of a game that does not stand on the public top.
PROVISIONAL = "provisional"
NO_PASSKEY = "no_passkey"
MARKS = (PROVISIONAL, NO_PASSKEY)
#: Rows of a board read at most to fill its public top.
SCAN_LIMIT = 2000


@dataclass(frozen=True)
class TopStanding:
    """Whether a game (or a player, for the profile) stands on the public top, and why
    not."""

    ranked_days: int
    provisional: bool
    no_passkey: bool
    cleared: bool = False
    #: Ranked before its fair-play check: never on the public top until checked.
    unchecked: bool = False

    @property
    def eligible(self) -> bool:
        """The game stands on the public top.

        >>> TopStanding(9, False, False, unchecked=True).eligible
        False
        """
        if self.unchecked:
            return False
        return self.cleared or not (self.provisional or self.no_passkey)

    @property
    def marks(self) -> tuple[str, ...]:
        """Why it does not stand (empty when it does).

        >>> TopStanding(0, True, True).marks
        ('provisional', 'no_passkey')
        >>> TopStanding(0, True, True, cleared=True).marks
        ()
        """
        if self.eligible or self.unchecked:  # an unchecked game is not shown at all
            return ()
        return tuple(m for m, on in ((PROVISIONAL, self.provisional),
                                     (NO_PASSKEY, self.no_passkey)) if on)


def standing_rule(
    ranked_days: int, has_passkey: bool, cleared: bool, *, provisional_days: int,
    passkey_required: bool,
) -> TopStanding:
    """The rule of the public top (see the module docstring): provisional below
    ``provisional_days`` days of play, without a passkey when one is required; a cleared
    game stands whatever.

    >>> standing_rule(7, True, False, provisional_days=7, passkey_required=True).eligible
    True
    >>> standing_rule(6, True, False, provisional_days=7, passkey_required=True).eligible
    False
    """
    return TopStanding(
        ranked_days=ranked_days,
        provisional=ranked_days < provisional_days,
        no_passkey=passkey_required and not has_passkey,
        cleared=cleared,
    )


@dataclass(frozen=True)
class Policy:
    """The configured thresholds of the rule.

    >>> Policy(0, False).gated, Policy(7, True).gated
    (False, True)
    """

    provisional_days: int
    passkey_required: bool

    @classmethod
    def from_config(cls, config: Config) -> Policy:
        """``DAILY_PROVISIONAL_DAYS`` and ``DAILY_PUBLIC_TOP_REQUIRES_PASSKEY``."""
        return cls(config.provisional_days, config.public_top_requires_passkey)

    @property
    def gated(self) -> bool:
        """Whether any game can be kept off the public top at all."""
        return self.provisional_days > 0 or self.passkey_required


@dataclass
class PublicTop:
    """A board's public top: its rows with their standing, what it left out, and
    whether the new-deployment exemption holds (``open``: nothing stands, every game
    shows, marked)."""

    rows: list[tuple[Entry, TopStanding]] = field(default_factory=list)
    left_out: list[TopStanding] = field(default_factory=list)
    open: bool = False

    @property
    def entries(self) -> list[Entry]:
        """The rows' board entries, in board order."""
        return [entry for entry, _ in self.rows]

    def counts(self) -> dict[str, int]:
        """``{"games", "provisional", "no_passkey"}``: the games left out, and how many
        of them for each mark (a game may have both).

        >>> PublicTop(left_out=[TopStanding(0, True, True), TopStanding(9, False, True)]
        ...           ).counts()
        {'games': 2, 'provisional': 1, 'no_passkey': 2}
        """
        return {
            "games": len(self.left_out),
            PROVISIONAL: sum(1 for s in self.left_out if s.provisional),
            NO_PASSKEY: sum(1 for s in self.left_out if s.no_passkey),
        }


def cleared_key(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The games of a board an operator cleared for the public top.

    >>> cleared_key("dd:", "2026-11-29", "kniffel")
    'dd:lb:{2026-11-29:yahtzee}:cleared'
    """
    return keymap.board(prefix, parse_date(date), canonical_name(ruleset), "cleared")


def mark_cleared(conn: Any, prefix: str, date: dt.date | str, ruleset: str,
                 game_ids: Iterable[str]) -> None:
    """Remember that an operator cleared these games of a board (idempotent)."""
    ids = list(game_ids)
    if ids:
        conn.sadd(cleared_key(prefix, date, ruleset), *ids)


# KEYS: the players' played keys (n), their passkeys keys (n, when required), the board's
# cleared set, its unchecked set   ARGV: until-ordinal n required(0|1) game ids...
#   -> {days per player, passkeys per player (or empty), cleared per game, unchecked per game}
_JUDGE = """
local n, required = tonumber(ARGV[2]), ARGV[3] == '1'
local days, passkeys, cleared, unchecked = {}, {}, {}, {}
for i = 1, n do days[i] = redis.call('ZCOUNT', KEYS[i], '-inf', ARGV[1]) end
if required then
  for i = 1, n do passkeys[i] = redis.call('HLEN', KEYS[n + i]) end
end
for j = 4, #ARGV do
  cleared[j - 3] = redis.call('SISMEMBER', KEYS[#KEYS - 1], ARGV[j])
  unchecked[j - 3] = redis.call('SISMEMBER', KEYS[#KEYS], ARGV[j])
end
return {days, passkeys, cleared, unchecked}
"""


def unchecked_key(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The games of a board ranked before their fair-play check
    (:mod:`daily.service.review.postponed`).

    >>> unchecked_key("dd:", "2026-11-29", "yahtzee")
    'dd:lb:{2026-11-29:yahtzee}:unchecked'
    """
    return keymap.board(prefix, parse_date(date), canonical_name(ruleset), "unchecked")


class PublicStanding:
    """The rule on one Redis connection, for boards and players."""

    def __init__(self, conn: redis.Redis, prefix: str, policy: Policy) -> None:
        self.conn = conn
        self.prefix = prefix
        self.policy = policy

    def _rule(self, days: int, passkey: bool, cleared: bool) -> TopStanding:
        return standing_rule(days, passkey, cleared,
                             provisional_days=self.policy.provisional_days,
                             passkey_required=self.policy.passkey_required)

    def of_games(
        self, date: dt.date | str, ruleset: str, games: Sequence[tuple[str, str]],
        now: dt.datetime,
    ) -> dict[str, TopStanding]:
        """The standing of games ``(game id, player id)`` of one board, by game id (one
        round trip; when only the fair-play check can keep a game off the top,
        ``ranked_days`` is not read: 0)."""
        if not games:
            return {}
        ids = [game for game, _ in games]
        unchecked_set = unchecked_key(self.prefix, date, ruleset)
        if not self.policy.gated:
            waiting = self.conn.smismember(unchecked_set, ids)
            return {game: TopStanding(0, False, False, unchecked=bool(u))
                    for game, u in zip(ids, waiting, strict=True)}
        day = parse_date(date)
        until = play_day(min(now, calendar.closes_at(day))).toordinal()
        players = sorted({player for _, player in games})
        required = self.policy.passkey_required
        played = [record_keys(p, prefix=self.prefix)[3] for p in players]
        passkeys = [keymap.passkeys(self.prefix, p) for p in players] if required else []
        cleared_set = cleared_key(self.prefix, day, ruleset)
        if isinstance(self.conn, RedisCluster):  # keys in many slots: a pipeline per node
            with self.conn.pipeline(transaction=False) as pipe:
                for key in played:
                    pipe.zcount(key, "-inf", until)
                for key in passkeys:
                    pipe.hlen(key)
                pipe.smismember(cleared_set, ids)
                pipe.smismember(unchecked_set, ids)
                replies = pipe.execute()
            counts, lengths = replies[:len(players)], replies[len(players):-2]
            done, waiting = replies[-2], replies[-1]
        else:  # one round trip, however long the page
            script = self.conn.register_script(_JUDGE)
            counts, lengths, done, waiting = script(
                keys=[*played, *passkeys, cleared_set, unchecked_set],
                args=[until, len(players), int(required), *ids])
        days = {p: int(c) for p, c in zip(players, counts, strict=True)}
        passkey = ({p: int(n) > 0 for p, n in zip(players, lengths, strict=True)} if required
                   else dict.fromkeys(players, True))
        return {game: replace(self._rule(days[player], passkey[player], bool(c)),
                              unchecked=bool(u))
                for (game, player), c, u in zip(games, done, waiting, strict=True)}

    def of_player(self, player_id: str, now: dt.datetime) -> dict[str, Any]:
        """The profile's ``public_top``: the player's days of play and whether their
        games stand on the public top (``{"ranked_days", "first_ranked_date",
        "provisional", "provisional_days", "days_left", "passkey", "passkey_required",
        "stands"}``)."""
        key = record_keys(player_id, prefix=self.prefix)[3]
        with self.conn.pipeline(transaction=False) as pipe:
            pipe.zcount(key, "-inf", play_day(now).toordinal())
            pipe.zrange(key, 0, 0)
            pipe.hlen(keymap.passkeys(self.prefix, player_id))
            days, first, passkeys = pipe.execute()
        standing = self._rule(int(days), int(passkeys) > 0, False)
        return {
            "ranked_days": int(days),
            "first_ranked_date": as_text(first[0]) if first else None,
            "provisional": standing.provisional,
            "provisional_days": self.policy.provisional_days,
            "days_left": max(self.policy.provisional_days - int(days), 0),
            "passkey": int(passkeys) > 0,
            "passkey_required": self.policy.passkey_required,
            "stands": standing.eligible,
        }

    def public_top(self, board: Leaderboard, limit: int, now: dt.datetime) -> PublicTop:
        """The board's public top of ``limit`` rows (see the module docstring)."""
        out = PublicTop()
        if limit <= 0:
            return out
        if not self.policy.gated and not self.conn.scard(
                unchecked_key(self.prefix, board.date, board.ruleset)):
            top = board.top(limit)
            verdicts = self.of_games(board.date, board.ruleset,
                                     [(e.game_id, e.player_id) for e in top], now)
            out.rows = [(e, verdicts[e.game_id]) for e in top]
            return out
        marked: list[tuple[Entry, TopStanding]] = []
        chunk = min(max(limit + 10, 50), SCAN_LIMIT)  # a few more rows than the top
        start = 1
        while len(out.rows) < limit and start <= SCAN_LIMIT:
            page = board.page(start, min(chunk, SCAN_LIMIT - start + 1))
            if not page:
                break
            verdicts = self.of_games(board.date, board.ruleset,
                                     [(e.game_id, e.player_id) for e in page], now)
            for entry in page:
                verdict = verdicts[entry.game_id]
                if verdict.eligible:
                    out.rows.append((entry, verdict))
                    if len(out.rows) == limit:
                        break
                elif verdict.unchecked:  # not shown at all, not even by the exemption
                    out.left_out.append(verdict)
                else:
                    marked.append((entry, verdict))
            start += len(page)
        if not out.rows and marked:  # nothing stands: the new-deployment exemption
            out.rows, out.open = marked[:limit], True
            return out
        out.left_out += [verdict for _, verdict in marked]
        return out

    def clear(self, date: dt.date | str, ruleset: str, game_id: str) -> bool:
        """An operator clears a game of a board for the public top; False if it was
        already. :class:`daily.service.refusals.NotFound` when the game is not on the board."""
        board = Leaderboard(self.conn, date, ruleset, prefix=self.prefix)
        if self.conn.zscore(board.key("rank"), game_id) is None:
            raise NotFound(
                f"game {game_id} is not on the board of {board.date} {board.ruleset}",
                field="game_id")
        return bool(self.conn.sadd(cleared_key(self.prefix, board.date, board.ruleset),
                                   game_id))
