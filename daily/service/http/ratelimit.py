"""Rate limits keyed on verified identities: fixed windows, counted in one Redis call.

Every limited request spends two counters, both in one script call:

- its **budget**: ``read`` (GET and HEAD) or ``write`` (everything else: moves, hints,
  new players), kept per *verified* player when the request carries a token that
  authenticated, else per client IP. A forged or unknown token therefore spends only
  its sender's IP budget, never the player's whose id it names;
- the **IP ceiling**: every request from one address, verified or not, so one machine
  cannot multiply its budget by creating players. It is high enough for an office
  behind one NAT address whose players each have their own budgets.

Each counter lives for its limit's period from its first request; past a limit the
answer is 429 with ``Retry-After``, the seconds until that counter expires. If Redis
cannot be reached the request goes through (and a warning is logged): the limiter
never takes the game down.

This module is the one seam between the limits and the rest of the service:
:func:`install_rate_limits` counts every request in a Flask hook, with the identity the
request's token verifies (checked once per request, before the limits are counted).
A game move, a hint, a ranked start and (one-call creations) a new player do not count
in a call of their own: the hook leaves their counters with the request, and the Redis
script the request makes (the move script of :mod:`daily.service.games.store`, the
creation of :mod:`daily.service.players.signup`) takes them with
:func:`counters_to_fold` and spends them in the same call; a request that never
reaches its script (refused before it: 401, 422, a move refused on the process's copy)
spends them once its answer is ready, and gets 429 instead when over a limit. The
services themselves take no rate-limit objects. On a Redis Cluster every counter has a
slot of its own (an address's counters cannot share a game's slot), so the limiter
counts each counter with a call of its own there and nothing is folded.

>>> parse_limit("600/minute")
Limit(count=600, seconds=60, text='600 per 1 minute')
>>> parse_limit("10 per 2 hours").seconds, parse_limit("off")
(7200, None)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass

import redis
from flask import Flask, Response, g, has_app_context, request
from werkzeug.exceptions import TooManyRequests

from daily.service import keymap
from daily.service.config import ConfigError
from daily.service.http.error_handlers import ApiError, handle_http_error
from daily.service.http.parsing import bearer_token, verified_player
from daily.service.services import current_services

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


def too_many_requests(refusal: Refusal) -> TooManyRequests:
    """The 429 of a request over a rate limit (counted by the hook, not a script).

    >>> too_many_requests(Refusal(9, "600 per 1 minute")).retry_after
    9
    """
    return TooManyRequests(refusal.message, retry_after=refusal.retry_after)


#: Where the hook leaves a request's counters for its script (in Flask's ``g``).
_FOLDED = "daily_rate_counters"


def fold_into_script(pending: Pending | None) -> None:
    """Leave ``pending``, the counters of the request being served, to the Redis script
    the request makes (:func:`counters_to_fold`); the hook spends them after the answer
    if no script took them."""
    setattr(g, _FOLDED, pending)


def counters_to_fold() -> Pending | None:
    """The rate-limit counters of the request being served that its Redis script is to
    spend in the same call, unless spent already (``None`` outside a request, on a
    cluster, or for a request whose hook counted it). The script's caller marks them
    ``spent`` once the script answered.

    >>> counters_to_fold() is None
    True
    """
    if not has_app_context():
        return None
    pending: Pending | None = g.get(_FOLDED)
    return pending if pending is not None and not pending.spent else None


def spend_folded_now() -> None:
    """Spend this request's folded counters now, if its script has not (429 when over
    a limit): for a request that writes before any such script (a practice start, a
    challenge's), so that a refused request has changed nothing."""
    pending = counters_to_fold()
    if pending is None:
        return
    refusal = current_services().limiter.spend(pending)
    if refusal is not None:
        raise too_many_requests(refusal)


def _verified_id() -> str | None:
    """The id of the player whose token this request carries, if the token checks out.

    A malformed header or an unknown token gives ``None`` here (the request is then
    counted against its IP); the view answers 401 if it needs a player.
    """
    try:
        token = bearer_token()
        player = verified_player(token) if token is not None else None
    except ApiError:
        return None
    except redis.RedisError as exc:
        log.warning("token not checked for the rate limit, Redis failed: %s", exc)
        return None
    return player.id if player is not None else None


def install_rate_limits(
    app: Flask, limiter: RateLimiter, *, unlimited: Iterable[str], folded: Iterable[str],
) -> None:
    """Count every request of ``app`` but those of the ``unlimited`` endpoints (probes,
    scrapers, static files); leave the counters of the ``folded`` endpoints to the
    request's script (:func:`counters_to_fold`) on a single server, and spend them after
    the answer when no script took them. ``RATELIMIT_ENABLED`` false in the app's config
    (tests) switches the limits off.

    >>> app = Flask(__name__)
    >>> limiter = RateLimiter(redis.Redis(), "dd:", parse_limits("off", "off", "off"))
    >>> install_rate_limits(app, limiter, unlimited=(), folded=())  # off: no hook at all
    >>> dict(app.before_request_funcs)
    {}
    """
    if limiter.limits.off:
        return
    skip = frozenset(unlimited)
    fold = frozenset(() if limiter.cluster else folded)
    config = app.config

    @app.before_request
    def _rate_limit() -> None:
        if not config.get("RATELIMIT_ENABLED", True):
            return
        req = request._get_current_object()  # type: ignore[attr-defined]
        endpoint = req.endpoint
        if endpoint in skip:
            return
        ip = req.remote_addr or "unknown"
        kind = request_kind(req.method)
        if endpoint in fold:
            fold_into_script(limiter.pending(ip, _verified_id(), kind))
            return
        refusal = limiter.check(ip, _verified_id(), kind)
        if refusal is not None:
            raise too_many_requests(refusal)

    @app.after_request
    def _spend_unspent(response: Response) -> Response:
        pending = counters_to_fold()
        if pending is None:
            return response
        refusal = limiter.spend(pending)
        if refusal is None:
            return response
        return handle_http_error(too_many_requests(refusal))
