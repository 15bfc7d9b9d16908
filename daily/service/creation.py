"""What creating an anonymous player costs: limits per address and network, proof-of-work.

A scout needs one new player per day set, so player creation is where thousands of
scouts become expensive while one newcomer notices nothing:

* at most ``DAILY_PLAYER_LIMIT`` new players per IP address (default ``30/hour``) and
  ``DAILY_PLAYER_NET_LIMIT`` per network (IPv4 /24, IPv6 /48; default ``300/hour``),
  counted in one Redis script call; past either, 429 with ``Retry-After``;
* with ``DAILY_PLAYER_POW_BITS`` = ``b`` > 0, a proof-of-work: ``GET
  /players/challenge`` hands out a one-time challenge (valid :data:`CHALLENGE_SECONDS`),
  and ``POST /players`` must send ``{"pow": {"challenge", "nonce"}}`` such that
  SHA-256(``challenge:nonce``) starts with ``b`` zero bits: ``2**b`` hashes on average
  (18 bits: about a second in a browser, about 0.3 s of a CPU core natively).

Each new player's network is remembered (as a salted hash, never the address) with a
count of the players created from it that day, which the fair-play review shows next
to a held game: statistics, not punishment.

>>> network_of("203.0.113.77"), network_of("2001:db8:1:2::5")
('203.0.113.0/24', '2001:db8:1::/48')
>>> leading_zero_bits(bytes([0, 0, 0x1f]))
19
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from typing import Any

import redis
from werkzeug.exceptions import TooManyRequests

from daily.service import keymap
from daily.service.config import Config
from daily.service.domain import Invalid
from daily.service.ratelimit import Limit, parse_limit

#: A challenge must be answered within this many seconds.
CHALLENGE_SECONDS = 300
#: New players per network are counted per UTC day and kept this long.
NETWORK_COUNT_SECONDS = 2 * 86400

# KEYS: counters (ip, net)   ARGV: ip limit, ip window, net limit, net window
_COUNT = """
local limits = {{tonumber(ARGV[1]), ARGV[2]}, {tonumber(ARGV[3]), ARGV[4]}}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, limits[i][2]) end
  if limits[i][1] >= 0 and n > limits[i][1] then
    local ttl = redis.call('TTL', key)
    if ttl < 1 then ttl = 1 end
    return {i, ttl}
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


class CreationGuard:
    """The limits and the proof-of-work of player creation, on one Redis connection."""

    def __init__(self, conn: redis.Redis, config: Config) -> None:
        self.conn = conn
        self.prefix = config.key_prefix
        self.per_ip: Limit | None = parse_limit(config.player_limit)
        self.per_net: Limit | None = parse_limit(config.player_net_limit)
        self.bits = config.player_pow_bits
        self._count = conn.register_script(_COUNT)

    def challenge(self) -> dict[str, Any]:
        """A one-time challenge (``bits`` 0 means none is needed)."""
        token = secrets.token_hex(16)
        if self.bits:
            self.conn.set(keymap.pow_challenge(self.prefix, token), "1", ex=CHALLENGE_SECONDS,
                          nx=True)
        return {"challenge": token, "bits": self.bits, "expires_in": CHALLENGE_SECONDS}

    def admit(self, ip: str, body: Mapping[str, Any], *, limits: bool = True) -> None:
        """Let a creation through, or raise the refusal that says why not.

        ``limits=False`` skips the counts (the app's rate limits are switched off).
        """
        if self.bits:
            self._check_pow(body.get("pow"))
        if not limits or (self.per_ip is None and self.per_net is None):
            return
        ip_limit = self.per_ip or Limit(-1, 1, "")
        net_limit = self.per_net or Limit(-1, 1, "")
        which, wait = self._count(
            keys=[keymap.rate_new_player(self.prefix, "ip", ip),
                  keymap.rate_new_player(self.prefix, "net", network_of(ip))],
            args=[ip_limit.count, ip_limit.seconds, net_limit.count, net_limit.seconds],
        )
        if int(which):
            scope = "address" if int(which) == 1 else "network"
            text = (ip_limit if int(which) == 1 else net_limit).text
            raise TooManyRequests(f"too many new players from this {scope}: {text}",
                                  retry_after=int(wait))

    def _check_pow(self, raw: Any) -> None:
        if not isinstance(raw, Mapping):
            raise Invalid(f"a new player needs a proof-of-work of {self.bits} bits: GET"
                          " /api/v1/players/challenge, then send pow.challenge and pow.nonce",
                          field="pow")
        challenge, nonce = raw.get("challenge"), raw.get("nonce")
        if not (isinstance(challenge, str) and isinstance(nonce, str)
                and 0 < len(challenge) <= 64 and 0 < len(nonce) <= 64):
            raise Invalid("pow.challenge and pow.nonce are short strings", field="pow")
        if not pow_ok(challenge, nonce, self.bits):
            raise Invalid(f"the proof-of-work needs {self.bits} leading zero bits",
                          field="pow.nonce")
        if not self.conn.delete(keymap.pow_challenge(self.prefix, challenge)):
            raise Invalid("unknown, used or expired challenge; ask for a new one",
                          field="pow.challenge")

    def remember(self, player_id: str, ip: str, day: str) -> None:
        """Note the new player's network (salted hash) and count it for the day."""
        net = _net_digest(network_of(ip), self.prefix)
        count = keymap.network_count(self.prefix, day, net)
        with self.conn.pipeline(transaction=False) as pipe:
            pipe.hset(keymap.player_origin(self.prefix), player_id, f"{day} {net}")
            pipe.incr(count)
            pipe.expire(count, NETWORK_COUNT_SECONDS)
            pipe.execute()


def _net_digest(network: str, salt: str) -> str:
    return hmac.new(salt.encode(), network.encode(), hashlib.sha256).hexdigest()[:16]


def players_from_network(conn: redis.Redis, prefix: str, player_id: str) -> int | None:
    """How many players were created from this player's network on its creation day."""
    origin = conn.hget(keymap.player_origin(prefix), player_id)
    if origin is None:
        return None
    day, net = (origin.decode() if isinstance(origin, bytes) else origin).split(" ")
    count = conn.get(keymap.network_count(prefix, day, net))
    return int(count) if count is not None else None
