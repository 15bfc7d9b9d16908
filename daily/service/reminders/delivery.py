"""One reminder sent: its texts in the player's language, encrypted and signed by
``pywebpush`` (RFC 8291 ``aes128gcm``, RFC 8292 VAPID), and what the push service said.

The payload is JSON ``{"format": "daily-reminder/1", "kind", "date", "streak", "title",
"body", "url"}``; the service worker (``static/sw.js``) shows ``title`` and ``body`` and
opens ``url`` on a click. It says nothing about the day's dice.

>>> import datetime as dt
>>> from daily.service.reminders.schedule import Reminder
>>> payload(Reminder("streak", dt.date(2026, 12, 3), 4), "it")["body"]
'Hai una serie di 4 giorni: gioca oggi per non perderla.'
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any, Literal

import requests
from pywebpush import WebPushException, webpush

from daily.service.reminders.schedule import Reminder
from daily.service.reminders.subscriptions import Subscription
from daily.service.reminders.vapid import VapidKey

log = logging.getLogger(__name__)

PAYLOAD_FORMAT = "daily-reminder/1"
#: Seconds a push service keeps an undelivered reminder (the phone was off).
TTL = 4 * 3600
TIMEOUT = 10

TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "daily": ("Today's dice are ready", "The same dice for everyone: play today's game."),
        "streak": ("Your streak ends tonight",
                   "You have a {n}-day streak: play today to keep it."),
    },
    "it": {
        "daily": ("I dadi di oggi sono pronti",
                  "Gli stessi dadi per tutti: gioca la partita di oggi."),
        "streak": ("La tua serie finisce stanotte",
                   "Hai una serie di {n} giorni: gioca oggi per non perderla."),
    },
}

Outcome = Literal["sent", "gone", "failed"]


def payload(item: Reminder, lang: str) -> dict[str, Any]:
    """The notification's JSON document, in ``lang`` (English if unknown)."""
    title, body = TEXTS.get(lang, TEXTS["en"])[item.kind]
    return {"format": PAYLOAD_FORMAT, "kind": item.kind, "date": item.date.isoformat(),
            "streak": item.streak, "title": title, "body": body.format(n=item.streak),
            "url": "/#/"}


@dataclass
class Sender:
    """Sends reminders with one VAPID key and contact, over one HTTP session."""

    key: VapidKey
    contact: str
    session: requests.Session

    @classmethod
    def make(cls, key: VapidKey, contact: str) -> Sender:
        """A sender whose session follows no redirect (it posts only where it was told)."""
        session = requests.Session()
        session.max_redirects = 0
        return cls(key, contact, session)

    def send(self, sub: Subscription, item: Reminder) -> Outcome:
        """Push ``item`` to ``sub``: ``sent``, ``gone`` (404 or 410: the subscription is
        dead) or ``failed`` (anything else; logged without the endpoint's secret path)."""
        data = json.dumps(payload(item, sub.lang), separators=(",", ":"))
        try:
            webpush(sub.info(), data, vapid_private_key=self.key.signer(),
                    vapid_claims={"sub": self.contact}, ttl=TTL, timeout=TIMEOUT,
                    headers={"Urgency": "normal", "Topic": item.kind},
                    requests_session=self.session)
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                return "gone"
            log.warning("reminder to %s of %s failed: HTTP %s", sub.player_id,
                        sub.endpoint.split("/")[2], status)
            return "failed"
        except (requests.RequestException, ValueError) as exc:
            log.warning("reminder to %s of %s failed: %s", sub.player_id,
                        sub.endpoint.split("/")[2], type(exc).__name__)
            return "failed"
        return "sent"
