"""The operator's demo clock: a whole day, open -> close -> reveal -> verify, in seconds.

``daily serve --demo-day-minutes 0.2`` (a day passes in 12 real seconds): a player
plays the oldest open date's Yahtzee set; the day closes, the rollover freezes and
archives it and seals its signed results log, the seed is revealed, and ``daily
verify-day`` checks the signed descriptor, the seed, every roll of that game and the
whole day's log (the README's walk-through). The demo is marked in
``/api/v1/health`` (which the web client shows) and refused with a real Redis.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.ops.serving import ROOT, Serve, serve_env, start_serve
from tests.polling import PROCESS_TIMEOUT, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def call(serve: Serve, method: str, path: str, body: Any = None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{serve.base}/api/v1{path}", data=data,
                                     headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def sealed_head(serve: Serve, date: str, timeout: float) -> dict[str, Any]:
    """The day's signed head, once the rollover has sealed its log (409 until then)."""

    def head() -> dict[str, Any] | None:
        try:
            return call(serve, "GET", f"/days/{date}/yahtzee/head")
        except urllib.error.HTTPError as exc:
            assert exc.code == 409, exc.code
            return None

    return wait_until(head, timeout, 0.5, "the demo day's results log was not sealed")


def test_a_demo_day_opens_closes_reveals_and_verifies(tmp_path: Path) -> None:
    # The day jobs on: the ceiling job reads the demo clock (the day is revealed on it).
    env = serve_env(tmp_path, DAILY_ROLLOVER_INTERVAL="1", DAILY_RULESETS="yahtzee",
                    DAILY_PAR_JOBS="on")
    serve = start_serve(tmp_path, env, "--web-workers", "1", "--demo-day-minutes", "0.2")
    try:
        health = call(serve, "GET", "/health")
        assert health["demo"]["day_minutes"] == 0.2
        today = call(serve, "GET", "/today")
        date = today["open_dates"][0]  # the open date that closes first
        token = call(serve, "POST", "/players", {"name": "Demo"})["token"]
        state = call(serve, "POST", "/games",
                     {"ruleset": "yahtzee", "date": date, "mode": "ranked"}, token)
        while not state["over"]:  # score the best box at once, every turn
            legal = [c for c in state["choices"] if c["legal"]]
            box = max(legal, key=lambda c: c["points"])["box"]
            state = call(serve, "POST", f"/games/{state['id']}/score",
                         {"box": box, "position": state["position"]}, token)
        code = state["result"]["code"]

        # The demo clock runs on: the day closes, is rolled over and revealed.
        archive = serve.data_dir / "demo" / "archive" / date / "yahtzee.jsonl"
        wait_until(
            lambda: archive.exists() and call(serve, "GET", f"/days/{date}/yahtzee").get("seed"),
            PROCESS_TIMEOUT, 0.5, "the demo day did not close and reveal")
        assert json.loads(archive.read_text().splitlines()[1])["total"] == state["total"]
        (tmp_path / "day.json").write_text(json.dumps(call(serve, "GET", f"/days/{date}/yahtzee")))
        (tmp_path / "keys.json").write_text(json.dumps(call(serve, "GET", "/keys")))
        (tmp_path / "game.json").write_text(json.dumps(call(serve, "GET", f"/results/{code}")))
        # The same rollover sealed the day's results log: the README's audit of the day.
        head = sealed_head(serve, date, 60)
        (tmp_path / "head.json").write_text(json.dumps(head))
        with urllib.request.urlopen(f"{serve.base}/api/v1/days/{date}/yahtzee/log",
                                    timeout=10) as response:
            (tmp_path / "log.jsonl").write_bytes(response.read())
        # The demo's local witness cosigns the day's checkpoint (the cosign job).
        (witness,) = call(serve, "GET", "/keys")["witnesses"]

        def cosigned() -> bytes | None:
            with urllib.request.urlopen(
                    f"{serve.base}/api/v1/days/{date}/yahtzee/checkpoint", timeout=10) as answer:
                body = answer.read()
            return body if body.count("\u2014".encode()) == 2 else None

        (tmp_path / "checkpoint.txt").write_bytes(
            wait_until(cosigned, interval=0.5,
                       message="the demo witness did not cosign the checkpoint"))
        tiles = serve.data_dir / "demo" / "archive" / "tlog" / date / "yahtzee"
        wait_until(lambda: (tiles / f"tile/0/000.p/{head['size']}").exists(), interval=0.5,
                   message="the tiles of the demo day were not written")
        verify = subprocess.run(
            [sys.executable, "-m", "daily", "verify-day", date, "yahtzee",
             "--descriptor", str(tmp_path / "day.json"), "--keys", str(tmp_path / "keys.json"),
             "--game", str(tmp_path / "game.json"), "--head", str(tmp_path / "head.json"),
             "--log", str(tmp_path / "log.jsonl"),
             "--checkpoint", str(tmp_path / "checkpoint.txt"), "--witness", witness],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
        )
        assert verify.returncode == 0, verify.stdout + verify.stderr
        assert f"results log of {head['size']} leaves" in verify.stdout, verify.stdout
        assert "cosigned by 1 of 1 witnesses" in verify.stdout, verify.stdout
        # The revealed demo day gets its public ceiling (the job ran on the demo clock).
        ceiling = wait_until(
            lambda: call(serve, "GET", f"/leaderboards/{date}/yahtzee")["ceiling"], interval=0.5,
            message="the demo day's ceiling job did not store its ceiling")
        assert ceiling >= state["total"]
        assert serve.stop() == 0
    finally:
        serve.kill_everything()
    log = serve.log()
    assert "DEMO CLOCK: a day lasts 0.2 min" in log
    assert "Traceback" not in log and "is not revealed yet" not in log
    # The demo has keys of its own: the real data directory has none.
    assert (serve.data_dir / "demo" / "keys" / "master.secret").exists()
    assert not (serve.data_dir / "keys").exists()


@pytest.mark.parametrize("production", [
    {"REDIS_URL": "redis://127.0.0.1:6379/0"},
    {"DAILY_MASTER_SECRET": "00" * 32},
])
def test_the_production_configuration_refuses_a_demo_clock(production, tmp_path) -> None:
    env = serve_env(tmp_path, **production)
    done = subprocess.run([sys.executable, "-m", "daily", "serve", "--demo-day-minutes", "2"],
                          env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT)
    assert done.returncode == 2, done.stderr
    assert "--demo-day-minutes" in done.stderr and "refused" in done.stderr
    assert "Traceback" not in done.stderr
    # A worker or web process given the clock directly refuses it too (production keys,
    # or a data directory that is not a demo's).
    env["DAILY_DEMO_CLOCK"] = "1,1,2"
    worker = subprocess.run([sys.executable, "-m", "daily", "worker", "--burst"],
                            env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=PROCESS_TIMEOUT)
    assert worker.returncode == 2
    assert "DAILY_DEMO_CLOCK" in worker.stderr and "Traceback" not in worker.stderr
