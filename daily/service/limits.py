"""Rate-limit arithmetic: limits, the counters a request spends, and their Lua.

Every limited request spends two counters, both in one script call:

- its **budget**: ``read`` (GET and HEAD) or ``write`` (everything else: moves, hints,
  new players), kept per *verified* player when the request carries a token that
  authenticated, else per client IP. A forged or unknown token therefore spends only
  its sender's IP budget, never the player's whose id it names;
- the **IP ceiling**: every request from one address, verified or not, so one machine
  cannot multiply its budget by creating players. It is high enough for an office
  behind one NAT address whose players each have their own budgets.

Each counter lives for its limit's period from its first request; past a limit the
answer is a :class:`Refusal` with the seconds until that counter expires. If Redis
cannot be reached the request goes through (and a warning is logged): the limiter
never takes the game down.

This module knows nothing of Flask: :mod:`daily.service.http.ratelimit` is the hook
that counts each request, and a service whose Redis script spends a request's
counters in the same call (the move script of :mod:`daily.service.games.store`, the
creation of :mod:`daily.service.players.signup`) is handed them as a :class:`Pending`
argument by its view. On a Redis Cluster every counter has a slot of its own (an
address's counters cannot share a game's slot), so the limiter counts each counter
with a call of its own there and nothing is folded.

>>> parse_limit("600/minute")
Limit(count=600, seconds=60, text='600 per 1 minute')
>>> parse_limit("10 per 2 hours").seconds, parse_limit("off")
(7200, None)
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import redis

from daily.service import keymap
from daily.service.config import ConfigError

log = logging.getLogger(__name__)

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_LIMIT = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(?:(\d+)\s+)?(second|minute|hour|day)s?\s*$")
#: The two budgets a request may spend.
KINDS = ("read", "write")
#: Methods that only read (anything else spends the ``write`` budget).
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: A Lua function that spends ``n`` counters: ``KEYS[k0 + i]`` with limit
#: ``ARGV[a0 + 2i - 1]`` and window ``ARGV[a0 + 2i]`` (i = 1..n). It returns nil when the
#: request may go on, else ``{index of the exceeded counter (1-based), seconds until its
#: window ends}``; a counter over its limit stops the count there. The game move script
#: (:mod:`daily.service.games.store`) starts with it, so a move spends its limits and is
#: applied in one call.
SPEND_LUA = """
local function spend_limits(k0, a0, n)
  for i = 1, n do
    local key = KEYS[k0 + i]
    local window = ARGV[a0 + 2 * i]
    local count = redis.call('INCR', key)
    if count == 1 then redis.call('EXPIRE', key, window) end
    if count > tonumber(ARGV[a0 + 2 * i - 1]) then
      local ttl = redis.call('TTL', key)
      if ttl < 1 then
        redis.call('EXPIRE', key, window)
        ttl = tonumber(window)
      end
      return {i, ttl}
    end
  end
  return nil
end
"""

# KEYS: the counters, in order.  ARGV: limit and window length of each key, in pairs.
# Returns {0, 0} when the request may go on, else {index of the exceeded key (1-based),
# seconds until its window ends}.
COUNT_SCRIPT = SPEND_LUA + """
local over = spend_limits(0, 0, #KEYS)
if over then return over end
return {0, 0}
"""


@dataclass(frozen=True)
class Limit:
    """``count`` requests per ``seconds``, and how people read it."""

    count: int
    seconds: int
    text: str


@dataclass(frozen=True)
class Limits:
    """The three limits of a deployment (``None``: that one is off)."""

    write: Limit | None
    read: Limit | None
    ip: Limit | None

    @property
    def off(self) -> bool:
        """Whether nothing is limited at all."""
        return self.write is None and self.read is None and self.ip is None


@dataclass(frozen=True)
class Refusal:
    """Why a request is over a limit, and for how long."""

    retry_after: int
    message: str


def parse_limit(text: str, field: str = "DAILY_RATE_LIMIT") -> Limit | None:
    """A limit from ``N/unit`` or ``N per [M] unit(s)``; ``None`` for ``off``.

    >>> parse_limit("many")
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_RATE_LIMIT: 'many' is not like 600/minute or off
    """
    if text.strip().lower() == "off":
        return None
    match = _LIMIT.match(text.lower())
    if not match or int(match.group(1)) < 1:
        raise ConfigError(f"{text!r} is not like 600/minute or off", field=field)
    count, many, unit = int(match.group(1)), int(match.group(2) or 1), match.group(3)
    plural = "s" if many > 1 else ""
    return Limit(count, many * PERIODS[unit], f"{count} per {many} {unit}{plural}")


def parse_limits(write: str, read: str, ip: str) -> Limits:
    """The limits from their three settings; ``write`` ``off`` switches every one off.

    >>> parse_limits("600/minute", "1200/minute", "off").ip is None
    True
    >>> parse_limits("off", "1200/minute", "6000/minute").off
    True
    """
    write_limit = parse_limit(write, "DAILY_RATE_LIMIT")
    if write_limit is None:
        return Limits(None, None, None)
    return Limits(
        write_limit,
        parse_limit(read, "DAILY_RATE_LIMIT_READS"),
        parse_limit(ip, "DAILY_RATE_LIMIT_IP"),
    )


def request_kind(method: str) -> str:
    """The budget a request of this HTTP method spends.

    >>> request_kind("GET"), request_kind("POST")
    ('read', 'write')
    """
    return "read" if method.upper() in READ_METHODS else "write"


class RateLimiter:
    """Counts requests per verified player or IP, and per IP, in Redis under ``prefix``."""

    def __init__(
        self, conn: redis.Redis, prefix: str, limits: Limits, *, cluster: bool = False
    ) -> None:
        self.limits = limits
        self.cluster = cluster
        self._prefix = prefix
        self._count = conn.register_script(COUNT_SCRIPT)

    def counters(
        self, ip: str, player: str | None, kind: str
    ) -> list[tuple[str, Limit, str]]:
        """The counters a request spends: ``(key, limit, who)`` in the script's order.

        ``player`` must be an identity the caller has verified (never the id claimed
        by an unchecked token).

        >>> limits = parse_limits("5/minute", "9/minute", "50/hour")
        >>> limiter = RateLimiter(redis.Redis(), "dd:", limits)
        >>> [key for key, _, _ in limiter.counters("10.0.0.1", "p_ada", "write")]
        ['dd:rl:write:player:p_ada', 'dd:rl:all:ip:10.0.0.1']
        >>> [key for key, _, _ in limiter.counters("10.0.0.1", None, "read")]
        ['dd:rl:read:ip:10.0.0.1', 'dd:rl:all:ip:10.0.0.1']
        """
        if kind not in KINDS:
            raise ValueError(f"kind is one of {KINDS}, not {kind!r}")
        found: list[tuple[str, Limit, str]] = []
        budget = self.limits.read if kind == "read" else self.limits.write
        if budget is not None:
            if player is not None:
                key = keymap.rate_budget(self._prefix, kind, "player", player)
                found.append((key, budget, "player"))
            else:
                key = keymap.rate_budget(self._prefix, kind, "ip", ip)
                found.append((key, budget, "address"))
        if self.limits.ip is not None:
            key = keymap.rate_ceiling(self._prefix, ip)
            found.append((key, self.limits.ip, "address in all"))
        return found

    def pending(self, ip: str, player: str | None, kind: str) -> Pending | None:
        """The counters of a request, to be spent later by a script of the request (the
        game move script), or by :meth:`spend` if the request never gets there.

        >>> limiter = RateLimiter(redis.Redis(), "dd:", parse_limits("5/minute", "off", "off"))
        >>> limiter.pending("10.0.0.1", None, "write").keys()
        ['dd:rl:write:ip:10.0.0.1']
        """
        counters = self.counters(ip, player, kind)
        return Pending(counters, kind) if counters else None

    def check(self, ip: str, player: str | None, kind: str) -> Refusal | None:
        """Count this request; a :class:`Refusal` if it is over a limit, else ``None``."""
        pending = self.pending(ip, player, kind)
        return self.spend(pending) if pending is not None else None

    def spend(self, pending: Pending) -> Refusal | None:
        """Spend ``pending`` now (one script call; on a cluster one per counter, since
        each counter has a slot of its own); a :class:`Refusal` when over a limit."""
        pending.spent = True
        try:
            if not self.cluster:
                index, wait = self._count(keys=pending.keys(), args=pending.args())
            else:
                index, wait = 0, 0
                for number, (key, limit, _) in enumerate(pending.counters, 1):
                    over, wait = self._count(keys=[key], args=[limit.count, limit.seconds])
                    if int(over):
                        index = number
                        break
        except redis.RedisError as exc:
            log.warning("rate limit not checked, Redis failed: %s", exc)
            return None
        return pending.refusal(int(index), int(wait)) if int(index) else None


@dataclass
class Pending:
    """The counters one request has to spend (:meth:`RateLimiter.pending`): ``spent``
    once a script has counted them, so that a request never counts twice."""

    counters: list[tuple[str, Limit, str]]
    kind: str
    spent: bool = False

    def keys(self) -> list[str]:
        """The counters' keys, in order."""
        return [key for key, _, _ in self.counters]

    def args(self) -> list[int]:
        """Limit and window of each counter, in pairs (the arguments of ``SPEND_LUA``)."""
        out: list[int] = []
        for _, limit, _ in self.counters:
            out += [limit.count, limit.seconds]
        return out

    def refusal(self, index: int, wait: int) -> Refusal:
        """The refusal for counter ``index`` (1-based) over its limit for ``wait`` s.

        >>> p = Pending([("k", Limit(3, 60, "3 per 1 minute"), "player")], "write")
        >>> p.refusal(1, 42).message
        '3 write requests per 1 minute per player'
        """
        _, limit, who = self.counters[index - 1]
        what = "requests" if who == "address in all" else f"{self.kind} requests"
        per = "address" if who.startswith("address") else "player"
        period = limit.text.split(" per ", 1)[1]
        return Refusal(wait, f"{limit.count} {what} per {period} per {per}")
