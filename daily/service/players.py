"""Anonymous players: an id, a display name and a secret token of which only a hash
is stored.

A token reads ``<player id>.<secret>``; the server keeps SHA-256 of the secret and
compares in constant time (``hmac.compare_digest``). Display names are checked by the
API contract (:data:`daily.service.contract.fields.Name`) before they get here.

>>> new_player_id().startswith("p_")
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

import redis

from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config

#: How long a verified token is trusted by one process without asking Redis again.
AUTH_CACHE_SECONDS = 30.0
AUTH_CACHE_SIZE = 10_000
_ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"


@dataclass(frozen=True)
class Player:
    """A player as the API shows it (never the token)."""

    id: str
    name: str
    created: str

    def to_json(self) -> dict[str, Any]:
        """The public form.

        >>> Player("p_1", "Ada", "2026-11-29T10:00:00Z").to_json()
        {'id': 'p_1', 'name': 'Ada'}
        """
        return {"id": self.id, "name": self.name}


def hash_secret(secret: str) -> str:
    """The stored form of a token's secret part.

    >>> len(hash_secret("abc"))
    64
    """
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_player_id() -> str:
    """A fresh random player id (``p_`` and 16 base32 characters, 80 bits).

    >>> new_player_id().startswith("p_")
    True
    """
    return "p_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(16))


class Players:
    """Creating, authenticating and renaming players in Redis."""

    def __init__(self, conn: redis.Redis, config: Config, clock: Clock) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self._auth_cache: dict[str, tuple[Player, float]] = {}

    def _key(self, player_id: str) -> str:
        return keymap.account(self.config.key_prefix, player_id)

    def create(self, name: str | None = None) -> tuple[Player, str]:
        """A new player and its token (shown once, never stored)."""
        player_id = new_player_id()
        if name is None:
            name = f"Player {secrets.randbelow(9000) + 1000}"
        secret = secrets.token_urlsafe(32)
        created = iso(self.clock())
        self.conn.hset(
            self._key(player_id),
            mapping={"name": name, "token_hash": hash_secret(secret), "created": created},
        )
        return Player(player_id, name, created), f"{player_id}.{secret}"

    def get(self, player_id: str) -> Player | None:
        """The player with this id, if any."""
        name, created = self.conn.hmget(self._key(player_id), ["name", "created"])
        if name is None:
            return None
        return Player(player_id, name.decode(), (created or b"").decode())

    def authenticate(self, token: str) -> Player | None:
        """The player a token belongs to, or ``None`` (constant-time comparison).

        A successful check is remembered in this process for :data:`AUTH_CACHE_SECONDS`
        (keyed by the hash of the whole token), which saves a Redis round trip on most
        calls; failures are never cached.
        """
        player_id, sep, secret = token.partition(".")
        if not sep or not player_id.startswith("p_") or len(player_id) > 40 or not secret:
            return None
        token_hash = hash_secret(token)
        now = time.monotonic()
        cached = self._auth_cache.get(token_hash)
        if cached is not None and cached[1] > now:
            return cached[0]
        stored, name, created = self.conn.hmget(
            self._key(player_id), ["token_hash", "name", "created"]
        )
        expected = stored.decode() if stored else hash_secret("") + "x"
        if not hmac.compare_digest(hash_secret(secret), expected) or name is None:
            return None
        player = Player(player_id, name.decode(), (created or b"").decode())
        if len(self._auth_cache) >= AUTH_CACHE_SIZE:
            self._auth_cache.clear()
        self._auth_cache[token_hash] = (player, now + AUTH_CACHE_SECONDS)
        return player

    def rename(self, player: Player, name: str) -> Player:
        """Give ``player`` a new display name."""
        self.conn.hset(self._key(player.id), "name", name)
        self._auth_cache.clear()
        return Player(player.id, name, player.created)

    def names(self, player_ids: list[str]) -> dict[str, str]:
        """Display names of several players at once (missing ones left out)."""
        pipe = self.conn.pipeline(transaction=False)
        for pid in player_ids:
            pipe.hget(self._key(pid), "name")
        return {
            pid: raw.decode() for pid, raw in zip(player_ids, pipe.execute(), strict=True) if raw
        }


