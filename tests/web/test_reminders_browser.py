"""Reminders from the Profile in headless Chromium, then sent by the real job.

Headless Chromium has no push service (``PushManager.subscribe()`` fails with
"Registration failed - permission denied"), so the page's ``PushManager`` is given a
subscription made here: an endpoint on the local push receiver
(:mod:`tests.reminders.push_receiver`) and keys whose private half the test holds.
Everything else is real: the permission asked only on the click, the service worker
registered, ``PUT /reminders/subscription`` with the browser's time zone, the job in a
real RQ worker process posting the reminder, which the receiver checks (VAPID) and
decrypts, and *Turn off reminders* deleting the subscription.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, expect
from rq import Queue

from daily.service import keymap
from daily.service.config import load_config
from daily.service.connections import DAYS_QUEUE
from daily.service.ops.embedded import free_port
from daily.service.reminders.vapid import load_vapid_key
from tests.reminders.push_receiver import running_receiver

from .server import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow, pytest.mark.spawns]
ROOT = Path(__file__).resolve().parents[2]
RECEIVER_PORT = free_port()
PUSH = {"DAILY_PUSH_SERVICES": f"http://127.0.0.1:{RECEIVER_PORT}",
        "DAILY_PUSH_CONTACT": "mailto:ops@dice.example"}

#: The page's PushManager hands out the subscription the test wrote in ``window.__sub``,
#: and ``Notification.requestPermission`` counts its calls.
FAKE_PUSH = """
(() => {
  window.__permissionAsked = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = () => { window.__permissionAsked += 1; return ask(); };
  const made = () => {
    const s = window.__sub;
    if (!s) return null;
    return { endpoint: s.endpoint, options: { applicationServerKey: window.__serverKey },
             toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
             unsubscribe: async () => { window.__unsubscribed = true; return true; } };
  };
  PushManager.prototype.subscribe = async function (options) {
    window.__serverKey = options.applicationServerKey.buffer || options.applicationServerKey;
    return made();
  };
  PushManager.prototype.getSubscription = async function () { return made(); };
})();
"""


def new_player(server: LiveServer, name: str = "Ada") -> str:
    request = urllib.request.Request(server.url + "/api/v1/players",
                                     data=json.dumps({"name": name}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.loads(response.read())["token"])


@pytest.mark.parametrize("live_server", [PUSH], indirect=True)
def test_the_profile_turns_reminders_on_and_the_job_delivers_one(
    chromium: Browser, live_server: LiveServer, tmp_path: Path,
) -> None:
    key = load_vapid_key(load_config(live_server.env))
    assert key is not None
    with running_receiver(key.public_b64url, RECEIVER_PORT) as receiver:
        device = receiver.browser("phone")
        context = chromium.new_context(base_url=live_server.url, locale="en-GB",
                                       timezone_id="Europe/Rome", service_workers="allow")
        context.grant_permissions(["notifications"])
        context.add_init_script(FAKE_PUSH)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        token = new_player(live_server)
        page.goto("/")
        page.evaluate("(t) => localStorage.setItem('dd.token', JSON.stringify(t))", token)
        page.goto("/#/profile")
        section = page.get_by_test_id("reminders")
        expect(section).to_contain_text("Times are in your time zone: Europe/Rome.")
        toggle = page.get_by_test_id("reminders-toggle")
        expect(toggle).to_have_text("Turn on reminders")
        assert page.evaluate("window.__permissionAsked") == 0  # not before the click

        hour = dt.datetime.now(ZoneInfo("Europe/Rome")).hour
        page.get_by_test_id("reminder-hour").select_option(str(hour))
        page.uncheck("#reminder-streak")
        page.evaluate("(s) => { window.__sub = s; }", device.subscription())
        toggle.click()
        expect(page.get_by_test_id("reminders-status")).to_have_text("Reminders are on.")
        expect(toggle).to_have_text("Turn off reminders")
        assert page.evaluate("window.__permissionAsked") == 1
        player = token.split(".")[0]
        stored = json.loads(live_server.redis.get(keymap.push_subscription(
            live_server.prefix, player)))
        assert (stored["endpoint"], stored["time_zone"], stored["hour"], stored["reminders"]) == (
            device.endpoint, "Europe/Rome", hour, ["daily"])

        # The job, in a real worker, sends the day's reminder to the receiver.
        due = live_server.redis.zscore(keymap.push_due(live_server.prefix), f"{player} daily")
        assert due is not None
        now = dt.datetime.fromtimestamp(due + 1, dt.UTC).isoformat()
        Queue(DAYS_QUEUE, connection=live_server.redis).enqueue(
            "workers.reminders.send_reminders", now)
        env = {**os.environ, **live_server.env, "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, "-m", "rq.cli", "worker", "--burst", "--quiet",
                        "--url", env["REDIS_URL"], DAYS_QUEUE],
                       env=env, cwd=ROOT, check=True, timeout=60)
        assert receiver.errors == []
        [message] = receiver.messages
        assert message["payload"]["title"] == "Today's dice are ready"

        # Off again: the subscription goes, in the server and in the browser.
        page.reload()
        expect(toggle).to_have_text("Turn off reminders")
        page.evaluate("(s) => { window.__sub = s; }", device.subscription())  # the browser's
        toggle.click()
        expect(page.get_by_test_id("reminders-status")).to_have_text("Reminders are off.")
        assert live_server.redis.get(keymap.push_subscription(live_server.prefix, player)) is None
        assert page.evaluate("window.__unsubscribed") is True
        assert errors == []
        context.close()


def test_the_reminders_section_speaks_italian(chromium: Browser, live_server: LiveServer) -> None:
    context = chromium.new_context(base_url=live_server.url, locale="it-IT",
                                   service_workers="block")
    page = context.new_page()
    page.goto("/")
    page.evaluate("(t) => localStorage.setItem('dd.token', JSON.stringify(t))",
                  new_player(live_server, "Bea"))
    page.goto("/#/profile")
    section = page.get_by_test_id("reminders")
    expect(section.get_by_role("heading")).to_have_text("Promemoria")
    expect(page.get_by_test_id("reminders-toggle")).to_have_text("Attiva i promemoria")
    context.close()
