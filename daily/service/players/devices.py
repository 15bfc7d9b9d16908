"""The tokens of the browsers a player signed in with a passkey, one per sign-in.

A passkey sign-in gives the browser a token of its own, so signing in on a phone does
not sign out the laptop. The player's first token (made with the player, or its
rotation) stays in the account (``token_hash``: every token made before this module
keeps working); the others are the hash ``P tokens:{<player>}``: SHA-256 of the
token's secret -> JSON ``{"created", "used"}`` (the time it was made, the last UTC day
it was used). Like the account, the hash expires ``DAILY_PLAYER_DAYS`` days after the
player's last day of use, and so does each token in it: one unused that long stops
working even while the player's other browsers keep the account alive. A player keeps
at most :data:`MAX_DEVICES` of them; the next sign-in drops the least recently used.

A token is found by comparing its hash with every stored one in constant time
(``hmac.compare_digest``), never by looking the hash up.

>>> Device.from_stored("ab", b'{"created": "2026-12-03T12:00:00Z", "used": "2026-12-03"}').used
'2026-12-03'
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
from dataclasses import dataclass
from typing import Any

import redis

from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.refusals import Conflict

#: The most browsers a player can have signed in with a passkey at once.
MAX_DEVICES = 10

# Moves a token's day of use only if the token is still there (not rotated or revoked
# meanwhile): one key, so one slot on a cluster.
_TOUCH = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
return 0
"""


@dataclass(frozen=True)
class Device:
    """One stored token: the hash of its secret, when it was made and last used."""

    hash: str
    created: str
    used: str

    @classmethod
    def from_stored(cls, field: bytes | str, raw: bytes | str) -> Device:
        """A stored entry (the hash field and its JSON)."""
        data = json.loads(raw)
        return cls(as_text(field), str(data["created"]), str(data["used"]))

    def to_stored(self) -> str:
        """The JSON of the entry.

        >>> Device("ab", "2026-12-03T12:00:00Z", "2026-12-03").to_stored()
        '{"created": "2026-12-03T12:00:00Z", "used": "2026-12-03"}'
        """
        return json.dumps({"created": self.created, "used": self.used})


class DeviceTokens:
    """The per-browser tokens of players, in Redis."""

    def __init__(self, conn: redis.Redis, config: Config, clock: Clock) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock

    def key(self, player_id: str) -> str:
        """The hash of a player's browser tokens."""
        return keymap.device_tokens(self.config.key_prefix, player_id)

    def _oldest_day(self) -> str:
        """The last day of use a live token may have."""
        return (self.clock().date() - dt.timedelta(days=self.config.player_days)).isoformat()

    def _entries(self, stored: dict[Any, Any]) -> list[Device]:
        return [Device.from_stored(field, raw) for field, raw in stored.items()]

    def find(self, player_id: str, token_hash: str) -> Device | None:
        """The live token of ``player_id`` whose secret hashes to ``token_hash``."""
        found = None
        for device in self._entries(self.conn.hgetall(self.key(player_id))):
            if hmac.compare_digest(device.hash, token_hash) and found is None:
                found = device
        if found is None or found.used < self._oldest_day():
            return None
        return found

    def touch(self, pipe: Any, player_id: str, device: Device, today: str) -> None:
        """Queue on ``pipe``: ``device`` was used ``today`` (unless it is gone by then)."""
        pipe.eval(_TOUCH, 1, self.key(player_id), device.hash,
                  Device(device.hash, device.created, today).to_stored())

    def add(self, player_id: str, token_hash: str) -> None:
        """Keep a new token; tokens unused too long go, and the least recently used
        ones past :data:`MAX_DEVICES` - 1."""
        key = self.key(player_id)
        now = self.clock()
        fresh = Device(token_hash, iso(now), now.date().isoformat())
        with self.conn.pipeline() as pipe:
            try:
                pipe.watch(key)
                kept = sorted(self._entries(pipe.hgetall(key)),
                              key=lambda d: (d.used, d.created), reverse=True)
                oldest = self._oldest_day()
                drop = [d.hash for d in kept if d.used < oldest]
                drop += [d.hash for d in kept if d.used >= oldest][MAX_DEVICES - 1:]
                pipe.multi()
                if drop:
                    pipe.hdel(key, *drop)
                pipe.hset(key, fresh.hash, fresh.to_stored())
                pipe.expire(key, self.config.player_days * 86400)
                pipe.execute()
            except redis.WatchError:
                raise Conflict("the player changed meanwhile: try again") from None

    def replace(self, player_id: str, old_hash: str, new_hash: str | None) -> bool:
        """Swap the token hashed ``old_hash`` for a new one (``None``: drop it); false
        if it is not (or no longer) there."""
        key = self.key(player_id)
        now = self.clock()
        with self.conn.pipeline() as pipe:
            try:
                pipe.watch(key)
                found = None
                for device in self._entries(pipe.hgetall(key)):
                    if hmac.compare_digest(device.hash, old_hash) and found is None:
                        found = device
                if found is None:
                    return False
                pipe.multi()
                pipe.hdel(key, found.hash)
                if new_hash is not None:
                    pipe.hset(key, new_hash,
                              Device(new_hash, iso(now), now.date().isoformat()).to_stored())
                pipe.execute()
            except redis.WatchError:
                return False
        return True
