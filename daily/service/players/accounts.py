"""Anonymous players: an id, a display name and a secret token of which only a hash
is stored.

A token reads ``<player id>.<secret>``; the server keeps SHA-256 of the secret and
compares in constant time (``hmac.compare_digest``). A player has a first token (in the
account) and one more per passkey sign-in, each browser its own
(:mod:`daily.service.players.devices`). Display names are checked by the
API contract (:data:`daily.service.http.contract.fields.Name`) before they get here.

>>> new_player_id().startswith("p_")
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.players.devices import DeviceTokens
from daily.service.refusals import Conflict
from daily.service.results.stats import record_keys
from daily.service.shards import random_id


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
    return "p_" + random_id(16)


@dataclass(frozen=True)
class NewAccount:
    """A new player's account before it is stored: the player, the token (shown once),
    the account's key and its fields (the token's hash, never the token)."""

    player: Player
    token: str
    key: str
    fields: dict[str, str]


class TrustedTokens:
    """Tokens this process verified, trusted for ``seconds`` without asking Redis.

    Keyed by the SHA-256 of the whole token (the token itself is not kept), and only
    for the UTC day of the check (the first check of a day renews the account). The
    bound matters: a token revoked or rotated in another process keeps working here
    for at most ``seconds``; here it stops at once (:meth:`forget`). ``seconds`` 0
    trusts nothing. At most :attr:`size` tokens; past that the table starts afresh.

    >>> trusted = TrustedTokens(2)
    >>> trusted.keep("p_1.s", Player("p_1", "Ada", ""), "2026-11-30")
    >>> trusted.get("p_1.s", "2026-11-30").name, trusted.get("p_1.s", "2026-12-01")
    ('Ada', None)
    >>> trusted.forget("p_1"); trusted.get("p_1.s", "2026-11-30") is None
    True
    """

    size = 100_000

    def __init__(self, seconds: float, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.monotonic = monotonic
        self._tokens: dict[bytes, tuple[float, str, Player]] = {}
        self._of_player: dict[str, set[bytes]] = {}

    def get(self, token: str, today: str) -> Player | None:
        """The player of ``token`` if it was verified less than ``seconds`` ago today."""
        if self.seconds <= 0:
            return None
        found = self._tokens.get(hashlib.sha256(token.encode()).digest())
        if found is None or found[0] <= self.monotonic() or found[1] != today:
            return None
        return found[2]

    def keep(self, token: str, player: Player, today: str) -> None:
        """Trust ``token`` (just verified, or just made) for ``seconds`` from now."""
        if self.seconds <= 0:
            return
        if len(self._tokens) >= self.size:
            self._tokens.clear()
            self._of_player.clear()
        key = hashlib.sha256(token.encode()).digest()
        self._tokens[key] = (self.monotonic() + self.seconds, today, player)
        self._of_player.setdefault(player.id, set()).add(key)

    def forget(self, player_id: str) -> None:
        """Stop trusting the player's tokens in this process (rotated, revoked, renamed)."""
        for key in self._of_player.pop(player_id, ()):
            self._tokens.pop(key, None)


class Players:
    """Creating, authenticating, renaming and re-keying players in Redis.

    An account is a hash ``P account:ID`` with ``name``, ``token_hash``, ``created`` and
    ``seen`` (the last UTC date it authenticated). It expires after
    ``config.player_days`` days without use: the first successful authentication of a
    UTC day moves ``seen`` and the expiry of the account and of the player's statistics
    (one pipelined write per player per day), so an active player never expires and a
    forgotten one does not stay for ever.

    ``token_hash`` is the player's first token; each passkey sign-in adds one of its
    own (:class:`~daily.service.players.devices.DeviceTokens`), so signing in on one
    browser signs out none of the others.
    """

    def __init__(self, conn: redis.Redis, config: Config, clock: Clock) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self.trusted = TrustedTokens(config.auth_cache_seconds)
        self.devices = DeviceTokens(conn, config, clock)

    @property
    def ttl_seconds(self) -> int:
        """How long an unused account is kept."""
        return self.config.player_days * 86400

    def _key(self, player_id: str) -> str:
        return keymap.account(self.config.key_prefix, player_id)

    def create(
        self, name: str | None = None, also: Callable[[Any, str], None] | None = None
    ) -> tuple[Player, str]:
        """A new player and its token (shown once, never stored).

        ``also(pipeline, player_id)`` queues more writes of the new player's, sent with
        the account in one transaction (one round trip); on a cluster, whose keys of one
        transaction share a slot, in a pipeline of their own just after.
        (:mod:`daily.service.players.signup` writes it with the limits, in one script call.)
        """
        account = self.new_account(name)
        with self.conn.pipeline() as pipe:
            pipe.hset(account.key, mapping=dict[Any, Any](account.fields))
            pipe.expire(account.key, self.ttl_seconds)
            if also is not None and not self.config.redis_cluster:
                also(pipe, account.player.id)
            pipe.execute()
        if also is not None and self.config.redis_cluster:
            with self.conn.pipeline(transaction=False) as pipe:
                also(pipe, account.player.id)
                pipe.execute()
        return self.welcome(account)

    def new_account(self, name: str | None = None) -> NewAccount:
        """A new player's account, not stored yet (:meth:`create` stores it; then
        :meth:`welcome`)."""
        player_id = new_player_id()
        if name is None:
            name = f"Player {secrets.randbelow(9000) + 1000}"
        secret = secrets.token_urlsafe(32)
        now = self.clock()
        created = iso(now)
        fields = {"name": name, "token_hash": hash_secret(secret), "created": created,
                  "seen": now.date().isoformat()}
        return NewAccount(Player(player_id, name, created), f"{player_id}.{secret}",
                          self._key(player_id), fields)

    def welcome(self, account: NewAccount) -> tuple[Player, str]:
        """The player and token of ``account``, just stored; this process trusts the
        token from now on (:class:`TrustedTokens`)."""
        self.trusted.keep(account.token, account.player, account.fields["seen"])
        return account.player, account.token

    def get(self, player_id: str) -> Player | None:
        """The player with this id, if any."""
        name, created = self.conn.hmget(self._key(player_id), ["name", "created"])
        if name is None:
            return None
        return Player(player_id, as_text(name), as_text(created or b""))

    def authenticate(self, token: str) -> Player | None:
        """The player a token belongs to, or ``None`` (constant-time comparison).

        The player's first token costs one ``HMGET``, a browser's own token one
        ``HGETALL`` more; neither is asked if this process verified the same token
        less than ``DAILY_AUTH_CACHE_SECONDS`` ago on the same UTC day
        (:class:`TrustedTokens`): a rotated or revoked token stops working at once in
        the process that rotated or revoked it, and within that bound in every other.
        """
        player_id, sep, secret = token.partition(".")
        if not sep or not player_id.startswith("p_") or len(player_id) > 40 or not secret:
            return None
        today = self.clock().date().isoformat()
        trusted = self.trusted.get(token, today)
        if trusted is not None:
            return trusted
        key = self._key(player_id)
        stored, name, created, seen = self.conn.hmget(
            key, ["token_hash", "name", "created", "seen"]
        )
        expected = as_text(stored) if stored else hash_secret("") + "x"
        hashed = hash_secret(secret)
        first = hmac.compare_digest(hashed, expected)
        if name is None:
            return None
        device = None
        if not first:
            device = self.devices.find(player_id, hashed)
            if device is None:
                return None
        if seen is None or as_text(seen) != today or (device is not None and device.used != today):
            with self.conn.pipeline(transaction=False) as pipe:
                pipe.hset(key, "seen", today)
                if device is not None:
                    self.devices.touch(pipe, player_id, device, today)
                for one in (key, keymap.passkeys(self.config.key_prefix, player_id),
                            self.devices.key(player_id),
                            *record_keys(player_id, prefix=self.config.key_prefix)):
                    pipe.expire(one, self.ttl_seconds)
                pipe.execute()
        player = Player(player_id, as_text(name), as_text(created or b""))
        self.trusted.keep(token, player, today)
        return player

    def rename(self, player: Player, name: str) -> Player:
        """Give ``player`` a new display name."""
        self.conn.hset(self._key(player.id), "name", name)
        self.trusted.forget(player.id)
        return Player(player.id, name, player.created)

    def rotate(self, player: Player, token: str) -> str:
        """A new token for the browser of ``token``, which stops working at once; the
        player's other browsers keep theirs.

        Only the holder of ``token`` can rotate it: the swap happens only if its hash
        is still stored (a 409 ``conflict`` otherwise, when another rotation or a
        revocation came first).
        """
        secret = secrets.token_urlsafe(32)
        old_hash = hash_secret(token.partition(".")[2])
        self.trusted.forget(player.id)
        if not (self._swap_hash(player.id, old_hash, hash_secret(secret))
                or self.devices.replace(player.id, old_hash, hash_secret(secret))):
            raise Conflict("the token changed meanwhile", field="Authorization")
        return f"{player.id}.{secret}"

    def revoke(self, player: Player, token: str) -> None:
        """Make ``token`` useless for good (this browser signs out); the player's other
        tokens and passkeys stay, and the name stays on the boards. A player with no
        other token and no passkey cannot be acted as any more."""
        old_hash = hash_secret(token.partition(".")[2])
        self.trusted.forget(player.id)
        if not (self._swap_hash(player.id, old_hash, None)
                or self.devices.replace(player.id, old_hash, None)):
            raise Conflict("the token changed meanwhile", field="Authorization")

    def revoke_all(self, player: Player) -> None:
        """Sign out everywhere: every token of ``player`` stops working (at once in this
        process, within ``DAILY_AUTH_CACHE_SECONDS`` in the others). The passkeys stay:
        signing in with one makes a new token."""
        self.trusted.forget(player.id)
        with self.conn.pipeline(transaction=False) as pipe:  # two slots on a cluster
            pipe.hdel(self._key(player.id), "token_hash")
            pipe.delete(self.devices.key(player.id))
            pipe.execute()

    def sign_in(self, player_id: str) -> tuple[Player, str] | None:
        """A new token of its own for a browser whose player proved who they are
        another way (a passkey); the player's other tokens keep working. ``None``: no
        such player."""
        player = self.get(player_id)
        if player is None:
            return None
        secret = secrets.token_urlsafe(32)
        self.devices.add(player_id, hash_secret(secret))
        return player, f"{player_id}.{secret}"

    def _swap_hash(self, player_id: str, old_hash: str, new_hash: str | None) -> bool:
        key = self._key(player_id)
        with self.conn.pipeline() as pipe:
            try:
                pipe.watch(key)
                stored = pipe.hget(key, "token_hash")
                if stored is None or not hmac.compare_digest(as_text(stored), old_hash):
                    return False
                pipe.multi()
                if new_hash is None:
                    pipe.hdel(key, "token_hash")
                else:
                    pipe.hset(key, "token_hash", new_hash)
                pipe.execute()
            except redis.WatchError:
                return False
        return True

    def names(self, player_ids: list[str]) -> dict[str, str]:
        """Display names of several players at once (missing ones left out)."""
        pipe = self.conn.pipeline(transaction=False)
        for pid in player_ids:
            pipe.hget(self._key(pid), "name")
        return {
            pid: as_text(raw) for pid, raw in zip(player_ids, pipe.execute(), strict=True) if raw
        }
