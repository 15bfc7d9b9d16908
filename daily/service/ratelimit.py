"""Rate limits per IP and per player: fixed windows, both counted in one Redis call.

A request from an IP, and from a player when it carries a token, increments a counter
that lives for the limit's period from its first request (``DAILY_RATE_LIMIT``, e.g.
``600/minute``); past the limit the answer is 429 with ``Retry-After``, the seconds
until that counter expires. If Redis cannot be reached the
request goes through (and a warning is logged): the limiter never takes the game down.

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

# KEYS: one counter per scope.  ARGV: limit, window length.  Returns -1 when the
# request may go on, else the seconds until the exceeded window ends.
_COUNT = """
local limit = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, ARGV[2]) end
  if n > limit then
    local ttl = redis.call('TTL', key)
    if ttl < 1 then ttl = 1 end
    return ttl
  end
end
return -1
"""


@dataclass(frozen=True)
class Limit:
    """``count`` requests per ``seconds``, and how people read it."""

    count: int
    seconds: int
    text: str


def parse_limit(text: str) -> Limit | None:
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
        raise ConfigError(f"{text!r} is not like 600/minute or off", field="DAILY_RATE_LIMIT")
    count, many, unit = int(match.group(1)), int(match.group(2) or 1), match.group(3)
    plural = "s" if many > 1 else ""
    return Limit(count, many * PERIODS[unit], f"{count} per {many} {unit}{plural}")


class RateLimiter:
    """Counts requests per IP and per player in Redis under ``prefix``."""

    def __init__(self, conn: redis.Redis, prefix: str, limit: Limit | None) -> None:
        self.limit = limit
        self._prefix = prefix
        self._count = conn.register_script(_COUNT)

    def retry_after(self, ip: str, player: str | None) -> int | None:
        """Seconds to wait if this request is over a limit, else ``None`` (and counted)."""
        if self.limit is None:
            return None
        keys = [keymap.rate_ip(self._prefix, ip)]
        if player is not None:
            keys.append(keymap.rate_player(self._prefix, player))
        try:
            wait = int(self._count(keys=keys, args=[self.limit.count, self.limit.seconds]))
        except redis.RedisError as exc:
            log.warning("rate limit not checked, Redis failed: %s", exc)
            return None
        return None if wait < 0 else wait
