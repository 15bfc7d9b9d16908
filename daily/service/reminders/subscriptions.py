"""The players' reminder subscriptions in Redis, and the schedule of their reminders.

A player has at most one subscription (the browser that turned reminders on last):
its push endpoint and keys (what ``PushSubscription.toJSON()`` gives), its
:class:`~daily.service.reminders.schedule.Plan` and the language of its texts, stored as
JSON at ``P push:sub:{<player>}`` for ``DAILY_PUSH_DAYS`` days after its last renewal
(the web client renews it when the player opens the app). ``P push:due`` holds
``"<player> <kind>"`` -> the epoch second its next reminder is due; the reminders job
takes the due ones with :meth:`Subscriptions.claim`, a compare-and-set on that score,
so two runs never send one reminder twice.

The endpoint must be on one of the push services of ``DAILY_PUSH_SERVICES``
(:func:`check_endpoint`): the server posts only where browsers' push services are.

>>> check_endpoint("https://fcm.googleapis.com/fcm/send/abc", ("https://fcm.googleapis.com",))
'https://fcm.googleapis.com/fcm/send/abc'
>>> check_endpoint("https://updates.push.services.mozilla.com/wpush/v2/x",
...                ("https://*.push.services.mozilla.com",))
'https://updates.push.services.mozilla.com/wpush/v2/x'
>>> check_endpoint("https://10.0.0.1/x", ("https://fcm.googleapis.com",))
Traceback (most recent call last):
...
daily.service.refusals.Forbidden: subscription.endpoint: is not on a push service this \
server sends to
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

import redis
from cryptography.hazmat.primitives.asymmetric import ec

from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.refusals import Forbidden, Invalid, Unavailable
from daily.service.reminders.schedule import KINDS, Kind, Plan, next_due
from daily.service.reminders.vapid import load_vapid_key

#: Take the due reminder ``ARGV[1]`` if its score is still ``ARGV[2]``: move it to
#: ``ARGV[3]`` (or remove it when that is empty). 1 if taken.
CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1])
else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""


def _default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def check_endpoint(endpoint: str, services: tuple[str, ...]) -> str:
    """``endpoint`` if it is on one of ``services`` (origins; ``*.`` in a host means any
    subdomain of it), else :class:`Invalid` naming ``subscription.endpoint``."""
    refused = Forbidden("is not on a push service this server sends to",
                        code="push_service_refused", field="subscription.endpoint")
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        port = parts.port or _default_port(parts.scheme)
    except ValueError:  # not a URL urllib can read (a stray bracket, a bad port)
        raise refused from None
    for service in services:
        allowed = urlsplit(service)
        pattern = (allowed.hostname or "").lower()
        wild = allowed.netloc.startswith("*.")
        if wild:
            pattern = allowed.netloc.split(":")[0].removeprefix("*.")
        same_host = host.endswith(f".{pattern}") if wild else host == pattern
        same_port = (allowed.port or _default_port(allowed.scheme)) == port
        if parts.scheme == allowed.scheme and same_host and same_port and not parts.username:
            return endpoint
    raise refused


def check_p256dh(value: str) -> str:
    """``value`` if it is a P-256 public key (base64url of its uncompressed point), else
    :class:`Invalid` naming ``subscription.keys.p256dh``.

    >>> check_p256dh("B" + "A" * 86)
    Traceback (most recent call last):
    ...
    daily.service.refusals.Invalid: subscription.keys.p256dh: is not a P-256 public key
    """
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise Invalid("is not a P-256 public key", field="subscription.keys.p256dh") from None
    return value


@dataclass(frozen=True)
class Subscription:
    """One player's subscription: where to push, with which keys, and the plan."""

    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    plan: Plan
    lang: str
    updated: str

    def to_stored(self) -> str:
        """The JSON kept in Redis."""
        return json.dumps({
            "endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth},
            "hour": self.plan.hour, "time_zone": self.plan.time_zone,
            "reminders": list(self.plan.kinds), "streak_hour": self.plan.streak_hour,
            "lang": self.lang, "updated": self.updated,
        }, separators=(",", ":"))

    @classmethod
    def from_stored(cls, player_id: str, raw: str | bytes) -> Subscription:
        """Read what :meth:`to_stored` wrote.

        >>> sub = Subscription("p_1", "https://push.example/1", "BA", "AA",
        ...                    Plan(9, "UTC", ("daily",)), "en", "2026-12-03T10:00:00Z")
        >>> Subscription.from_stored("p_1", sub.to_stored()) == sub
        True
        """
        doc = json.loads(raw)
        plan = Plan(doc["hour"], doc["time_zone"], tuple(doc["reminders"]), doc["streak_hour"])
        return cls(player_id, doc["endpoint"], doc["keys"]["p256dh"], doc["keys"]["auth"],
                   plan, doc["lang"], doc["updated"])

    def info(self) -> dict[str, Any]:
        """The ``subscription_info`` of pywebpush."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def to_json(self, expires: str | None) -> dict[str, Any]:
        """What ``GET /reminders/subscription`` shows (the push service, never the keys)."""
        parts = urlsplit(self.endpoint)
        return {
            "hour": self.plan.hour, "time_zone": self.plan.time_zone,
            "reminders": list(self.plan.kinds), "streak_hour": self.plan.streak_hour,
            "push_service": f"{parts.scheme}://{parts.netloc}", "updated": self.updated,
            "expires": expires,
        }


def _member(player_id: str, kind: Kind) -> str:
    return f"{player_id} {kind}"


class Subscriptions:
    """The subscriptions of one deployment (its Redis, key prefix and clock)."""

    def __init__(self, conn: redis.Redis, config: Config, clock: Clock) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self._claim = conn.register_script(CLAIM)

    def _key(self, player_id: str) -> str:
        return keymap.push_subscription(self.config.key_prefix, player_id)

    @property
    def _due(self) -> str:
        return keymap.push_due(self.config.key_prefix)

    def public_key(self) -> str:
        """The VAPID public key browsers subscribe with (:class:`Unavailable` before
        ``daily keys init`` made it)."""
        key = load_vapid_key(self.config)
        if key is None:
            raise Unavailable("reminders are not set up: run `daily keys init`")
        return key.public_b64url

    def get(self, player_id: str) -> Subscription | None:
        """The player's subscription, if any."""
        raw = self.conn.get(self._key(player_id))
        return Subscription.from_stored(player_id, raw) if raw else None

    def expires(self, player_id: str) -> str | None:
        """When the player's subscription goes unless renewed (ISO 8601)."""
        ttl = int(self.conn.ttl(self._key(player_id)))
        if ttl < 0:
            return None
        return iso(self.clock() + dt.timedelta(seconds=ttl))

    def put(self, player_id: str, endpoint: str, p256dh: str, auth: str, plan: Plan,
            lang: str) -> Subscription:
        """Keep (or replace) the player's subscription and schedule its reminders."""
        self.public_key()
        check_endpoint(endpoint, self.config.push_services)
        check_p256dh(p256dh)
        now = self.clock()
        sub = Subscription(player_id, endpoint, p256dh, auth, plan, lang, iso(now))
        with self.conn.pipeline(transaction=True) as pipe:
            pipe.set(self._key(player_id), sub.to_stored(), ex=self.config.push_days * 86400)
            for kind in KINDS:
                if kind in plan.kinds:
                    due = next_due(plan, kind, now).timestamp()
                    pipe.zadd(self._due, {_member(player_id, kind): due})
                else:
                    pipe.zrem(self._due, _member(player_id, kind))
            pipe.execute()
        return sub

    def delete(self, player_id: str, endpoint: str | None = None) -> bool:
        """Forget the player's subscription (only if it still has ``endpoint``, when
        given: a dead one is removed, not the new one of another browser); True if gone."""
        key = self._key(player_id)
        with self.conn.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None or (endpoint is not None and json.loads(raw)["endpoint"]
                                       != endpoint):
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    pipe.delete(key)
                    pipe.zrem(self._due, *(_member(player_id, k) for k in KINDS))
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue

    def due(self, now: dt.datetime, limit: int = 500) -> list[tuple[str, Kind, float]]:
        """Up to ``limit`` reminders due by ``now``: ``(player, kind, due)``."""
        rows = self.conn.zrangebyscore(self._due, "-inf", now.timestamp(), start=0,
                                       num=limit, withscores=True)
        out: list[tuple[str, Kind, float]] = []
        for member, score in cast("list[tuple[bytes, float]]", rows):
            player, _, name = member.decode().partition(" ")
            out.extend((player, kind, float(score)) for kind in KINDS if kind == name)
        return out

    def claim(self, player_id: str, kind: Kind, due: float, then: float | None) -> bool:
        """Take the reminder due at ``due``: reschedule it to ``then`` (None: drop it);
        False when another run took it first."""
        taken = self._claim(keys=[self._due],
                            args=[_member(player_id, kind), repr(due),
                                  "" if then is None else repr(then)])
        return bool(taken)
