"""``/reminders``: the VAPID public key, and your Web Push subscription
(:mod:`daily.service.reminders.subscriptions`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from daily.service.extensions import current
from daily.service.http.contract.notifications import (
    ReminderSettings,
    ReminderState,
    ReminderSubscription,
    VapidKeyDoc,
)
from daily.service.http.contract.operations import operation
from daily.service.http.parsing import request_lang
from daily.service.players.accounts import Player
from daily.service.reminders.schedule import KINDS, STREAK_HOUR, Plan
from daily.service.reminders.subscriptions import Subscriptions

bp = Blueprint("reminders", __name__)


def _subscriptions() -> Subscriptions:
    return current(Subscriptions)


@bp.get("/reminders/key")
@operation(VapidKeyDoc, needs_redis=False, errors=(503,))
def key() -> dict[str, Any]:
    """The VAPID public key to subscribe with (``applicationServerKey``)."""
    return {"public_key": _subscriptions().public_key(), "reminders": list(KINDS)}


@bp.get("/reminders/subscription")
@operation(ReminderState, auth="required")
def show(player: Player) -> dict[str, Any]:
    """Your reminders: when, in which time zone, which ones (null: off)."""
    subs = _subscriptions()
    sub = subs.get(player.id)
    return {"subscription": sub.to_json(subs.expires(player.id)) if sub else None}


@bp.put("/reminders/subscription")
@operation(ReminderSubscription, auth="required", body=ReminderSettings, body_required=True,
           errors=(403,))
def put(player: Player, body: ReminderSettings) -> dict[str, Any]:
    """Turn reminders on for this browser, or change them; renews the subscription.

    A player has one subscription: this browser's replaces another's. The endpoint must
    be on a browser's push service (403 ``push_service_refused`` otherwise).
    """
    plan = Plan(body.hour, body.time_zone, tuple(body.reminders),
                body.streak_hour if body.streak_hour is not None else STREAK_HOUR)
    subs = _subscriptions()
    sub = subs.put(player.id, body.subscription.endpoint, body.subscription.keys.p256dh,
                   body.subscription.keys.auth, plan, request_lang())
    return sub.to_json(subs.expires(player.id))


@bp.delete("/reminders/subscription")
@operation(None, auth="required", statuses=(204,))
def delete(player: Player) -> tuple[str, int]:
    """Turn reminders off (no reminder goes after this answer)."""
    _subscriptions().delete(player.id)
    return "", 204
