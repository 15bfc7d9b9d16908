"""What creating an anonymous player costs: limits per address and network, proof-of-work.

A scout needs one new player per day set, so player creation is where a farm of
thousands of players becomes expensive while one newcomer notices nothing:

* at most ``DAILY_PLAYER_LIMIT`` new players per IP address and
  ``DAILY_PLAYER_NET_LIMIT`` per network (IPv4 /24, IPv6 /48), counted in one Redis
  script call (both counters share the network's hash tag); past either, the
  :class:`~daily.service.refusals.RateLimited` refusal names the limit and says how long to
  wait (429 with ``Retry-After`` at the edge);
* with ``DAILY_PLAYER_POW_BITS`` = ``b`` > 0, a proof-of-work: ``GET
  /players/challenge`` hands out a one-time challenge, bound to the network it was
  handed to and valid :data:`CHALLENGE_SECONDS`; ``POST /players`` must send
  ``{"pow": {"challenge", "nonce"}}`` such that SHA-256(``challenge:nonce``) starts
  with ``b`` zero bits (``2**b`` hashes on average). A challenge is 32 hex digits: its
  expiry (8), 8 random digits and a MAC (16) of both and of the client's network,
  keyed with the day's random salt, which never leaves Redis. Handing one out stores
  nothing (no memory for a flood of requests to fill); answering it checks the MAC in
  constant time and the expiry, then marks it used (``SET NX`` until it expires): a
  challenge works once, only within its lifetime and only from its network, so
  challenges cannot be stockpiled ahead of time nor handed out to a farm elsewhere.

Each new player's network is remembered for two days as a hash salted with a random
salt of the day (never the address), with a count of the players created from it that
day, which the fair-play review counts next to a checked game: statistics, not
punishment (:func:`players_from_network`).

>>> network_of("203.0.113.77"), network_of("2001:db8:1:2::5")
('203.0.113.0/24', '2001:db8:1::/48')
>>> leading_zero_bits(bytes([0, 0, 0x1f]))
19
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import ipaddress
import secrets
import time
from typing import Any

import redis

from daily.service import keymap
from daily.service.config import Config
from daily.service.limits import Limit, parse_limit
from daily.service.refusals import Invalid, RateLimited

#: A challenge must be answered within this many seconds.
CHALLENGE_SECONDS = 300
#: New players per network are counted per UTC day, and origins kept, this long.
NETWORK_COUNT_SECONDS = 2 * 86400
#: How long a process keeps using a day's salt it has read. A salt never changes while
#: Redis keeps it; should Redis lose it, every process takes up the new one within this.
SALT_CACHE_SECONDS = 60.0

# KEYS: counters (ip, net)   ARGV: ip limit, ip window, net limit, net window
# (a negative limit: that counter is off). Returns {0, 0}, or {1 for the address or 2
# for the network, seconds until that counter's window ends}.
_COUNT = """
local limits = {{tonumber(ARGV[1]), ARGV[2]}, {tonumber(ARGV[3]), ARGV[4]}}
for i, key in ipairs(KEYS) do
  if limits[i][1] >= 0 then
    local n = redis.call('INCR', key)
    if n == 1 then redis.call('EXPIRE', key, limits[i][2]) end
    if n > limits[i][1] then
      local ttl = redis.call('TTL', key)
      if ttl < 1 then
        redis.call('EXPIRE', key, limits[i][2])
        ttl = tonumber(limits[i][2])
      end
      return {i, ttl}
    end
  end
end
return {0, 0}
"""



def network_of(ip: str) -> str:
    """The network an address belongs to for the limits: IPv4 /24, IPv6 /48."""
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return "unknown"
    if addr.version == 6 and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    bits = 24 if addr.version == 4 else 48
    return str(ipaddress.ip_network(f"{addr}/{bits}", strict=False))


def leading_zero_bits(digest: bytes) -> int:
    """How many zero bits a digest starts with."""
    count = 0
    for byte in digest:
        if byte == 0:
            count += 8
            continue
        return count + 8 - byte.bit_length()
    return count


def pow_ok(challenge: str, nonce: str, bits: int) -> bool:
    """Whether SHA-256(``challenge:nonce``) starts with ``bits`` zero bits.

    >>> pow_ok("abc", "0", 0)
    True
    """
    digest = hashlib.sha256(f"{challenge}:{nonce}".encode()).digest()
    return leading_zero_bits(digest) >= bits


def solve_pow(challenge: str, bits: int) -> str:
    """A nonce for a challenge (what the web client does in JavaScript).

    >>> pow_ok("abc", solve_pow("abc", 8), 8)
    True
    """
    nonce = 0
    while not pow_ok(challenge, str(nonce), bits):
        nonce += 1
    return str(nonce)


def challenge_hash(challenge: str) -> str:
    """What Redis keeps of a used challenge (its SHA-256).

    >>> len(challenge_hash("00" * 16))
    64
    """
    return hashlib.sha256(challenge.encode()).hexdigest()


def _mac(salt: str, head: str, network: str) -> str:
    """The 16 hex digits that bind a challenge's head (expiry and random) to a network."""
    return hmac.new(salt.encode(), f"pow|{head}|{network}".encode(),
                    hashlib.sha256).hexdigest()[:16]


class CreationGuard:
    """The limits and the proof-of-work of player creation, on one Redis connection.

    The proof-of-work is asked for whenever ``DAILY_PLAYER_POW_BITS`` is above 0.

    >>> from daily.service.config import load_config
    >>> guard = CreationGuard(redis.Redis(), load_config({"DAILY_PLAYER_LIMIT": "5/hour"}))
    >>> guard.per_ip.text, guard.per_net.text, guard.bits
    ('5 per 1 hour', '300 per 1 hour', 0)
    """

    def __init__(self, conn: redis.Redis, config: Config) -> None:
        self.conn = conn
        self.prefix = config.key_prefix
        self.per_ip: Limit | None = parse_limit(config.player_limit, "DAILY_PLAYER_LIMIT")
        self.per_net: Limit | None = parse_limit(config.player_net_limit,
                                                 "DAILY_PLAYER_NET_LIMIT")
        self.limits = self.per_ip is not None or self.per_net is not None
        self.bits = config.player_pow_bits
        self._count = conn.register_script(_COUNT)
        self.salt_seconds = SALT_CACHE_SECONDS
        self._salts: dict[str, tuple[str, float]] = {}  # day -> salt, when it was read

    def challenge(self, ip: str, now: dt.datetime) -> dict[str, Any]:
        """A one-time challenge for a client at ``ip`` (``bits`` 0: none is needed).

        Nothing is stored: the challenge carries its expiry and its MAC.
        """
        head = f"{int(now.timestamp()) + CHALLENGE_SECONDS:08x}{secrets.token_hex(4)}"
        if not self.bits:
            return {"challenge": head + secrets.token_hex(8), "bits": 0,
                    "expires_in": CHALLENGE_SECONDS}
        mac = _mac(self._salt(now.date().isoformat()), head, network_of(ip))
        return {"challenge": head + mac, "bits": self.bits, "expires_in": CHALLENGE_SECONDS}

    def admit(self, ip: str, now: dt.datetime, proof: tuple[str, str] | None,
              *, limits: bool = True) -> None:
        """Let a creation through, or raise the refusal that says why not.

        ``proof`` is the ``(challenge, nonce)`` the client sent; the proof-of-work is
        checked first, so that a refused creation has cost its sender the work.
        ``limits=False`` skips the counts (the app's rate limits are switched off).
        """
        self.prove(ip, now, proof)
        if limits and self.limits:
            self._check_limits(ip)

    def prove(self, ip: str, now: dt.datetime, proof: tuple[str, str] | None) -> None:
        """Check the proof-of-work when one is asked for (and mark its challenge used),
        else nothing; raise the refusal that says what is wrong with it."""
        if self.bits:
            self._check_pow(ip, now, proof)

    def _check_limits(self, ip: str) -> None:
        network = network_of(ip)
        ip_limit = self.per_ip or Limit(-1, 1, "")
        net_limit = self.per_net or Limit(-1, 1, "")
        which, wait = self._count(
            keys=[keymap.rate_new_player(self.prefix, network, ip),
                  keymap.rate_new_player(self.prefix, network)],
            args=[ip_limit.count, ip_limit.seconds, net_limit.count, net_limit.seconds],
        )
        if int(which):
            raise self.refusal("address" if int(which) == 1 else "network", int(wait))

    def counters(self, ip: str) -> list[tuple[str, Limit, str]]:
        """The creation counters of ``ip`` that are on, ``(key, limit, scope)``, in the
        order :meth:`admit` counts them (for a script that spends them itself:
        ``spend_limits`` of :mod:`daily.service.http.ratelimit`, then :meth:`refusal`).

        >>> from daily.service.config import load_config
        >>> guard = CreationGuard(redis.Redis(), load_config({"DAILY_PLAYER_LIMIT": "5/hour",
        ...     "DAILY_PLAYER_NET_LIMIT": "off", "DAILY_KEY_PREFIX": "dd:"}))
        >>> guard.counters("203.0.113.7")  # doctest: +NORMALIZE_WHITESPACE
        [('dd:rl:new:{203.0.113.0/24}:ip:203.0.113.7',
          Limit(count=5, seconds=3600, text='5 per 1 hour'), 'address')]
        """
        network = network_of(ip)
        found = []
        if self.per_ip is not None:
            found.append((keymap.rate_new_player(self.prefix, network, ip), self.per_ip,
                          "address"))
        if self.per_net is not None:
            found.append((keymap.rate_new_player(self.prefix, network), self.per_net,
                          "network"))
        return found

    def refusal(self, scope: str, wait: int) -> RateLimited:
        """The refusal of a creation over the limit of ``scope`` (``address`` or
        ``network``) for ``wait`` more seconds."""
        limit = self.per_ip if scope == "address" else self.per_net
        name = "DAILY_PLAYER_LIMIT" if scope == "address" else "DAILY_PLAYER_NET_LIMIT"
        return RateLimited(
            f"too many new players from this {scope}: {limit.text if limit else 'off'}"
            f" ({name}); keep your token to play again",
            code="too_many_players", retry_after=wait,
            detail={"limit": "players_per_" + scope},
        )

    def _check_pow(self, ip: str, now: dt.datetime, proof: tuple[str, str] | None) -> None:
        if proof is None:
            raise Invalid(
                f"a new player needs a proof-of-work of {self.bits} bits: GET"
                " /api/v1/players/challenge, then send pow.challenge and pow.nonce",
                code="pow_required", field="pow")
        challenge, nonce = proof
        stale = Invalid("unknown, used or expired challenge, or one handed to another"
                        " network; ask for a new one", code="pow_stale", field="pow.challenge")
        head, mac = challenge[:16], challenge[16:]
        try:
            expires = int(head[:8], 16)
        except ValueError:
            raise stale from None
        left = expires - int(now.timestamp())
        network = network_of(ip)
        # A challenge handed out just before midnight was keyed with the previous day's
        # salt: both are tried (constant-time comparisons).
        day = now.date()
        salts = [self._salt(day.isoformat()),
                 self._salt((day - dt.timedelta(days=1)).isoformat(), make=False)]
        known = [hmac.compare_digest(mac, _mac(salt, head, network)) for salt in salts if salt]
        if not any(known) or not 0 < left <= CHALLENGE_SECONDS:
            raise stale
        if not pow_ok(challenge, nonce, self.bits):
            raise Invalid(
                f"SHA-256 of 'challenge:nonce' does not start with {self.bits} zero bits",
                code="pow_wrong", field="pow.nonce")
        used = keymap.pow_used(self.prefix, challenge_hash(challenge))
        if not self.conn.set(used, "1", nx=True, ex=left):
            raise stale

    def remember(self, pipe: Any, player_id: str, ip: str, day: str) -> None:
        """Queue on ``pipe`` (the new player's own pipeline) the note of its network
        (salted hash) and the count of the day's players from that network."""
        origin, note, count = self.note(player_id, ip, day)
        pipe.set(origin, note, ex=NETWORK_COUNT_SECONDS)
        pipe.incr(count)
        pipe.expire(count, NETWORK_COUNT_SECONDS)

    def note(self, player_id: str, ip: str, day: str) -> tuple[str, str, str]:
        """What :meth:`remember` writes, each for :data:`NETWORK_COUNT_SECONDS`: the
        key of the player's origin, the origin (the day and the network's salted hash),
        and the key of the count it adds one to."""
        net = self._net_digest(network_of(ip), day)
        return (keymap.player_origin(self.prefix, player_id), f"{day} {net}",
                keymap.network_count(self.prefix, day, net))

    def network_note(self, ip: str, day: str) -> str:
        """``"<day> <salted hash>"`` of the network of ``ip`` (the form of a player's
        origin), to compare with the same day's notes; the address is not kept."""
        return f"{day} {self._net_digest(network_of(ip), day)}"

    def _net_digest(self, network: str, day: str) -> str:
        """A network's hash, salted with the day's random salt."""
        return hmac.new(self._salt(day).encode(), network.encode(),
                        hashlib.sha256).hexdigest()[:24]

    def _salt(self, day: str, *, make: bool = True) -> str:
        """The day's random salt (made on first need unless ``make`` is false: then ""
        if there is none; it never leaves Redis and this process). A salt read less
        than ``salt_seconds`` ago is not read again."""
        now = time.monotonic()
        kept = self._salts.get(day)
        if kept is not None and now - kept[1] < self.salt_seconds:
            return kept[0]
        key = keymap.network_salt(self.prefix, day)
        salt = self.conn.get(key)
        if salt is None and not make:
            return ""
        if salt is None:
            fresh = secrets.token_hex(16)
            made = self.conn.set(key, fresh, nx=True, ex=NETWORK_COUNT_SECONDS)
            salt = fresh if made else (self.conn.get(key) or fresh)
        text = _text(salt)
        fresh_enough = {d: v for d, v in self._salts.items() if now - v[1] < self.salt_seconds}
        self._salts = {**fresh_enough, day: (text, now)}
        return text


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def players_from_network(conn: redis.Redis, prefix: str, player_id: str) -> int | None:
    """How many players were created from this player's network on its creation day
    (None once that is forgotten, after two days, or for a player created without it)."""
    origin = conn.get(keymap.player_origin(prefix, player_id))
    if origin is None:
        return None
    day, net = _text(origin).split(" ")
    count = conn.get(keymap.network_count(prefix, day, net))
    return int(count) if count is not None else None
