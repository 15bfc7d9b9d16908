"""Reminders: opt-in Web Push notifications ("today's dice are ready", "your streak ends
tonight") at the player's chosen hour in their time zone.

- :mod:`~daily.service.reminders.vapid`: the service's VAPID key (``<data>/keys/vapid.key``);
- :mod:`~daily.service.reminders.schedule`: who is due when (pure logic);
- :mod:`~daily.service.reminders.subscriptions`: the players' subscriptions in Redis;
- :mod:`~daily.service.reminders.delivery`: one notification sent through ``pywebpush``;
- :mod:`~daily.service.reminders.routes`: ``/reminders`` (the VAPID key, your subscription).

The job that sends them is :func:`workers.reminders.send_reminders`, enqueued by the
scheduler (:mod:`daily.service.ops.scheduler`) every ``DAILY_REMINDER_INTERVAL`` seconds.
"""
