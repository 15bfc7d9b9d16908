"""Request and response models of ``/api/v1/reminders`` (Web Push reminders, docs/api.md).

A browser subscribes with ``PushManager.subscribe()`` using the server's VAPID public
key (``GET /reminders/key``), then sends the subscription's endpoint and keys (the
``endpoint`` and ``keys`` of ``PushSubscription.toJSON()``) with the player's choice:
the local hour, the IANA time zone and which reminders.

>>> ReminderSettings.model_validate({"subscription": {"endpoint": "https://push.example/1",
...     "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}, "hour": 9,
...     "time_zone": "Europe/Rome", "reminders": ["daily"]}).time_zone
'Europe/Rome'
>>> try:
...     ReminderSettings.model_validate({"subscription": {"endpoint": "https://p.example/1",
...         "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}, "hour": 9,
...         "time_zone": "Europe/Atlantis", "reminders": ["daily"]})
... except ValueError as exc:
...     print(exc.errors()[0]["loc"], exc.errors()[0]["msg"])
('time_zone',) is not an IANA time zone such as Europe/Rome
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from daily.service.http.contract.bodies import Body
from daily.service.http.contract.fields import JSON_WHOLE, PATTERN_MEANINGS, omittable
from daily.service.http.contract.responses import Doc
from daily.service.reminders.schedule import time_zones

#: A push endpoint: an http(s) URL of printable ASCII.
ENDPOINT_PATTERN = "^https?://[!-~]+$"
#: The subscription's P-256 public key: 65 bytes in base64url (87 characters).
P256DH_PATTERN = "^[A-Za-z0-9_-]{87}=?$"
#: The subscription's authentication secret: 16 bytes in base64url (22 characters).
AUTH_PATTERN = "^[A-Za-z0-9_-]{22}(?:==)?$"
TIME_ZONE_PATTERN = "^[A-Za-z][A-Za-z0-9_+/-]{0,63}$"
PATTERN_MEANINGS[ENDPOINT_PATTERN] = "is an http(s) URL"
PATTERN_MEANINGS[P256DH_PATTERN] = "is a P-256 public key in base64url (87 characters)"
PATTERN_MEANINGS[AUTH_PATTERN] = "is 16 bytes in base64url (22 characters)"
PATTERN_MEANINGS[TIME_ZONE_PATTERN] = "is an IANA time zone such as Europe/Rome"


def _known_zone(name: str) -> str:
    if name not in time_zones():
        raise PydanticCustomError("time_zone", "is not an IANA time zone such as Europe/Rome")
    return name


def _distinct(kinds: list[str]) -> list[str]:
    if len(set(kinds)) != len(kinds):
        raise PydanticCustomError("distinct", "names each reminder at most once")
    return kinds


#: An IANA time zone of the server's database (the document lists them).
TimeZone = Annotated[str, Field(pattern=TIME_ZONE_PATTERN, examples=["Europe/Rome"],
                                description="an IANA time zone",
                                json_schema_extra={"enum": sorted(time_zones())}),
                     AfterValidator(_known_zone)]
Hour = Annotated[int, Field(ge=0, le=23, description="a local hour, 0 to 23"), JSON_WHOLE]
ReminderKind = Literal["daily", "streak"]


class PushKeys(Body):
    """The subscription's keys (``PushSubscription.toJSON().keys``)."""

    p256dh: Annotated[str, Field(pattern=P256DH_PATTERN)]
    auth: Annotated[str, Field(pattern=AUTH_PATTERN)]


class PushEndpoint(Body):
    """Where the browser's push service takes notifications for it."""

    endpoint: Annotated[str, Field(pattern=ENDPOINT_PATTERN, max_length=2048)]
    keys: PushKeys


class ReminderSettings(Body):
    """``PUT /reminders/subscription``: this browser's push subscription and what to be
    reminded of: ``daily`` ("today's dice are ready") at ``hour``, ``streak`` ("your
    streak ends tonight", only with a streak to lose) at ``streak_hour`` (default 20),
    both local times of ``time_zone``; never once you have played your local date."""

    subscription: PushEndpoint
    hour: Hour
    time_zone: TimeZone
    reminders: Annotated[list[ReminderKind], Field(min_length=1, max_length=2,
                                                    json_schema_extra={"uniqueItems": True}),
                         AfterValidator(_distinct)]
    streak_hour: Hour = omittable()


# ----- answers ---------------------------------------------------------------------


class VapidKeyDoc(Doc):
    """The server's VAPID public key: the ``applicationServerKey`` of
    ``PushManager.subscribe()`` (an uncompressed P-256 point, base64url)."""

    public_key: str
    reminders: list[str] = Field(description="the kinds of reminder there are")


class ReminderSubscription(Doc):
    """Your subscription (never its keys): when, where and until when."""

    hour: int
    time_zone: str
    reminders: list[str]
    streak_hour: int
    push_service: str = Field(description="the origin of the push endpoint")
    updated: str
    expires: str | None = Field(description="when it goes unless renewed")


class ReminderState(Doc):
    """Your reminders: the subscription, or null when they are off."""

    subscription: ReminderSubscription | None
