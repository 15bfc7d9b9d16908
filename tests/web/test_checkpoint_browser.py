"""The result page checks the day's C2SP checkpoint in the browser: the results key's
signature, the witnesses the page is configured with, and the last checkpoint it saw of
the day set (localStorage). The operator's fork (another root at the same size, signed
with the real results key) shows as a failure, in English and in Italian."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from playwright.sync_api import Browser, expect

from daily import calendar
from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
from daily.audit.c2sp.cosignature import witness_vkey
from daily.audit.c2sp.note import parse_note
from daily.service.audit.checkpoints import deployment_name
from tests.polling import PROCESS_TIMEOUT

from .server import LiveServer
from .test_browser import api_call, new_page


def _sealed_result(server: LiveServer, run_results_worker: Any) -> tuple[str, str]:
    """A ranked game of the first day to close, and that day sealed: (code, date)."""
    token = api_call(server, "POST", "/players", {"name": "Ada"})["token"]
    date = api_call(server, "GET", "/today")["open_dates"][0]
    game = api_call(server, "POST", "/games",
                    {"ruleset": "yahtzee", "date": date, "mode": "ranked"}, token)
    while not game["over"]:
        box = max((c for c in game["choices"] if c["legal"]), key=lambda c: c["points"])
        game = api_call(server, "POST", f"/games/{game['id']}/score",
                        {"box": box["box"], "position": game["position"]}, token)
    run_results_worker()
    after = calendar.books_close_at(dt.date.fromisoformat(date)) + dt.timedelta(minutes=5)
    server.clock.set(after)
    env = {**os.environ, **server.env, "PYTHONPATH": str(Path(__file__).parents[2]),
           "DAILY_RULESETS": "yahtzee", "DAILY_PAR_JOBS": "off"}
    subprocess.run([sys.executable, "-c", "import sys; from workers.rollover import rollover;"
                    " rollover(sys.argv[1])", after.isoformat()], env=env, check=True,
                    timeout=PROCESS_TIMEOUT)
    return game["result"]["code"], date


def test_the_checkpoint_its_witnesses_and_a_fork_in_the_browser(
    chromium: Browser, live_server: LiveServer, run_results_worker: Any
) -> None:
    code, date = _sealed_result(live_server, run_results_worker)
    path = f"/api/v1/days/{date}/yahtzee/checkpoint"
    with urllib.request.urlopen(live_server.url + path) as answer:
        genuine = parse_note(answer.read())
    size = int(genuine.text.split("\n")[1])
    pem = (live_server.data_dir / "keys" / "results.key").read_bytes()
    key = serialization.load_pem_private_key(pem, password=None)
    assert isinstance(key, Ed25519PrivateKey)
    name = deployment_name(live_server.env.get("DAILY_PUBLIC_URL") or None)
    fork = sign_checkpoint(name, key, Checkpoint(f"{name}/{date}/yahtzee", size, bytes(32)))

    # The genuine checkpoint checks; the browser remembers it.
    context, page = new_page(chromium, live_server)
    page.goto(f"/r/{code}")
    audit = page.get_by_test_id("audit")
    expect(audit).to_have_attribute("data-state", "ok")
    stored = page.evaluate(f"() => localStorage.getItem('dd.checkpoint.{date}.yahtzee')")
    assert json.loads(stored)["size"] == size

    # The operator's fork, served to the same browser: a failure.
    page.route("**/checkpoint?size=*", lambda route: route.fulfill(
        body=fork.encode(), content_type="text/plain; charset=utf-8"))
    page.reload()
    expect(audit).to_have_attribute("data-state", "fork")
    expect(audit).to_contain_text("The day's log FORKED")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()

    # In Italian: a browser that saw another root at this size before is shown the fork.
    context, page = new_page(chromium, live_server, locale="it-IT")
    seen = json.dumps({"size": size, "root": "00" * 32})
    context.add_init_script(
        f"localStorage.setItem('dd.checkpoint.{date}.yahtzee', {json.dumps(seen)})")
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "fork")
    expect(page.get_by_test_id("audit")).to_contain_text("Il registro del giorno è BIFORCATO")
    context.close()

    # A page configured with a witness requires its cosignature (here: none collected).
    vkey = str(witness_vkey("witness.example/w1", Ed25519PrivateKey.generate()))
    context, page = new_page(chromium, live_server)

    def with_witness(route: Any) -> None:
        keys = route.fetch().json()
        route.fulfill(json={**keys, "witnesses": [vkey]})

    page.route("**/api/v1/keys", with_witness)
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "unwitnessed")
    expect(page.get_by_test_id("audit")).to_contain_text("NOT cosigned by the 1 witnesses")
    context.close()


def test_a_grown_checkpoint_is_consistent_and_a_rewritten_one_is_a_fork(
    chromium: Browser, live_server: LiveServer, run_results_worker: Any
) -> None:
    """The log grows after the close (a re-review appends a decision leaf): the page,
    which remembers the smaller checkpoint, asks the consistency proof from it to the
    newer one and checks it; a browser that remembers another history at the smaller
    size is shown the fork, in English and in Italian."""
    from daily.service.config import load_config
    from daily.service.results.result import Result
    from daily.service.review.queue import ReviewQueue

    conn, prefix = live_server.redis, live_server.prefix
    date = api_call(live_server, "GET", "/today")["open_dates"][0]
    opens = calendar.opens_at(dt.date.fromisoformat(date)).timestamp()
    held = Result.from_json({
        "game_id": "g_000900", "player_id": "p_000900", "player_name": "Held", "date": date,
        "ruleset": "yahtzee", "total": 120, "finished_at": opens + 90, "code": "DD-000900",
        "log": {"format": "daily-log/1", "ruleset": "yahtzee", "day": date, "turns": []}})
    assert ReviewQueue(conn, prefix).hold(held, {"reason_code": "scout_link"})
    code, _ = _sealed_result(live_server, run_results_worker)
    slot = f"dd.checkpoint.{date}.yahtzee"

    context, page = new_page(chromium, live_server)
    page.goto(f"/r/{code}")
    audit = page.get_by_test_id("audit")
    expect(audit).to_have_attribute("data-state", "ok")
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{slot}')"))["size"] == 2
    smaller = page.evaluate(f"() => localStorage.getItem('{slot}')")

    # The re-review after the close: the held game cleared, the log sealed again.
    config = load_config(live_server.env)
    ReviewQueue(conn, prefix).decide(held.game_id, "cleared", archive_dir=config.archive_dir)
    env = {**os.environ, **live_server.env, "PYTHONPATH": str(Path(__file__).parents[2]),
           "DAILY_RULESETS": "yahtzee"}
    subprocess.run([sys.executable, "-c", "import sys; from workers.seal import seal_day;"
                    " print(seal_day(sys.argv[1], 'yahtzee'))", date], env=env, check=True,
                   timeout=60)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.reload()
    expect(audit).to_have_attribute("data-state", "ok")
    assert any("/consistency?from=2&to=3" in url for url in asked), asked
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{slot}')"))["size"] == 3
    assert not page.errors  # type: ignore[attr-defined]
    context.close()

    # Another history of 2 leaves (a root the operator rewrote): the proof to 3 fails.
    forked = json.dumps({**json.loads(smaller), "root": "00" * 32})
    for locale, text in (("en-US", "The day's log FORKED"),
                         ("it-IT", "Il registro del giorno è BIFORCATO")):
        context, page = new_page(chromium, live_server, locale=locale)
        context.add_init_script(f"localStorage.setItem('{slot}', {json.dumps(forked)})")
        page.goto(f"/r/{code}")
        expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "fork")
        expect(page.get_by_test_id("audit")).to_contain_text(text)
        context.close()
