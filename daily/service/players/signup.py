"""A new player in one Redis call: the request's rate limits, the creation limits, the
account and the note of its network.

Creating a player the long way costs three round trips: the request's limits (the
edge's script, :mod:`daily.service.limits`), the creation limits per address and
network (:class:`daily.service.players.creation.CreationGuard`) and a transaction with the
account and the network note (:meth:`daily.service.players.accounts.Players.create`). On a
single server :class:`NewPlayers` makes them one call of :data:`_CREATE`: it spends
the counters in the same order (the request's, then the address's and the network's)
with ``spend_limits``, stops at the first one over its limit, and writes the account
and the note only when none is. The proof-of-work, when one is asked for, is checked
before (it may need Redis to mark its challenge used: the app then has the request's
limits spent before the view runs, so that a refused request keeps its challenge). A
refusal is the one the long
way gives: the request's own 429 (``rate_limited``) or ``too_many_players``.

On a cluster the keys live in different slots: the long way, as before.
"""

from __future__ import annotations

import datetime as dt

import redis

from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.limits import SPEND_LUA, Pending
from daily.service.players.accounts import Player, Players
from daily.service.players.creation import NETWORK_COUNT_SECONDS, CreationGuard
from daily.service.refusals import RateLimited

# KEYS: account, origin, network count, then the counters (n): the request's, the
#       creation limits'
# ARGV: n, limit/window pairs (2n), name, token hash, created, seen, account ttl,
#       origin, network-count ttl
# -> {'limited', counter, seconds} | {'ok'}
_CREATE = SPEND_LUA + """
local n = tonumber(ARGV[1])
local over = spend_limits(3, 1, n)
if over then return {'limited', over[1], over[2]} end
local a = 2 * n + 1
redis.call('HSET', KEYS[1], 'name', ARGV[a + 1], 'token_hash', ARGV[a + 2],
           'created', ARGV[a + 3], 'seen', ARGV[a + 4])
redis.call('EXPIRE', KEYS[1], ARGV[a + 5])
redis.call('SET', KEYS[2], ARGV[a + 6], 'EX', ARGV[a + 7])
redis.call('INCR', KEYS[3])
redis.call('EXPIRE', KEYS[3], ARGV[a + 7])
return {'ok'}
"""


class NewPlayers:
    """Creates players (see the module): in one script call on a single server, the
    long way on a cluster.

    >>> from daily.service.config import load_config
    >>> config = load_config({"REDIS_URL": "redis://127.0.0.1:6379/15"})
    >>> conn = redis.Redis.from_url(config.redis_url)
    >>> players = Players(conn, config, lambda: dt.datetime.now(dt.UTC))
    >>> NewPlayers(conn, config, players, CreationGuard(conn, config)).one_call
    True
    """

    def __init__(self, conn: redis.Redis, config: Config, players: Players,
                 guard: CreationGuard) -> None:
        self.players = players
        self.guard = guard
        self._create = None if config.redis_cluster else conn.register_script(_CREATE)

    @property
    def one_call(self) -> bool:
        """Whether a creation is one script call (a single server)."""
        return self._create is not None

    def create(
        self, name: str | None, ip: str, now: dt.datetime, proof: tuple[str, str] | None,
        *, limits: bool, counters: Pending | None = None,
    ) -> tuple[Player, str]:
        """A new player and its token, created from ``ip`` at ``now`` with the
        proof-of-work ``proof`` (``(challenge, nonce)``, if sent). ``limits``: whether
        the creation limits count; the request's own unspent rate-limit ``counters``
        (its view hands them) are spent in the same call. Raises :class:`RateLimited`
        over a limit, or the proof-of-work's refusal."""
        day = now.date().isoformat()
        if self._create is None:
            self.guard.admit(ip, now, proof, limits=limits)
            return self.players.create(
                name, also=lambda pipe, player_id: self.guard.remember(pipe, player_id, ip, day))
        self.guard.prove(ip, now, proof)
        spend = counters if counters is not None and not counters.spent else None
        own = spend.counters if spend is not None else []
        counters = Pending(own + (self.guard.counters(ip) if limits else []),
                           spend.kind if spend is not None else "write")
        account = self.players.new_account(name)
        origin, note, count = self.guard.note(account.player.id, ip, day)
        fields = account.fields
        reply = self._create(
            keys=[account.key, origin, count, *counters.keys()],
            args=[len(counters.counters), *counters.args(), fields["name"],
                  fields["token_hash"], fields["created"], fields["seen"],
                  self.players.ttl_seconds, note, NETWORK_COUNT_SECONDS],
        )
        if spend is not None:
            spend.spent = True
        if as_text(reply[0]) == "limited":
            index, wait = int(reply[1]), int(reply[2])
            if index > len(own):  # an address's or a network's creation limit
                raise self.guard.refusal(counters.counters[index - 1][2], wait)
            refusal = counters.refusal(index, wait)
            raise RateLimited(refusal.message, retry_after=refusal.retry_after)
        return self.players.welcome(account)
