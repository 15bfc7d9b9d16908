"""``daily serve`` survives its children: kill -9 of each one, under load, real processes.

One ``daily serve`` (embedded Valkey, results consumer, RQ worker, scheduler, gunicorn
with 2 workers)
serves four client threads the whole time. Each child in turn gets SIGKILL; the
supervisor logs it and starts it again; what it does works again afterwards; the web
server answers throughout (503 with Retry-After while Valkey is away, never a 500),
except for the moments its own master is dead. SIGTERM then stops everything.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from daily.service.results.leaderboard import Leaderboard
from daily.service.results.stream import ResultStream
from tests.ops.serving import Serve, alive, descendants, open_day_now, serve_env, start_serve
from tests.polling import wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@dataclass
class Outcome:
    at: float
    what: str
    status: int | None  # None: no HTTP answer at all
    retry_after: str | None = None


@dataclass
class Load:
    """Client threads calling the API until stopped; every outcome is kept."""

    port: int
    token: str
    outcomes: list[Outcome] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def call(self, method: str, path: str, body: dict | None = None) -> Outcome:
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            response.read()
            return Outcome(time.monotonic(), path, response.status,
                           response.getheader("Retry-After"))
        except OSError:
            return Outcome(time.monotonic(), path, None)
        finally:
            conn.close()

    def client(self, n: int) -> None:
        calls = [("GET", "/api/v1/today", None), ("GET", "/api/v1/players/me", None),
                 ("POST", "/api/v1/players", {"name": f"Load {n}"})]
        i = n
        while not self.stopping.is_set():
            method, path, body = calls[i % len(calls)]
            self.outcomes.append(self.call(method, path, body))
            i += 1
            time.sleep(0.02)

    def between(self, start: float, end: float) -> list[Outcome]:
        return [o for o in self.outcomes if start <= o.at <= end]


def new_player(serve: Serve, name: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=10)
    conn.request("POST", "/api/v1/players", body=json.dumps({"name": name}),
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 201
    return str(json.loads(response.read())["token"])


def healthy(load: Load) -> bool:
    return load.call("GET", "/api/v1/health").status == 200


def kill_and_wait_restart(serve: Serve, name: str) -> tuple[float, float]:
    """SIGKILL child ``name``; returns (kill time, time its new process was started)."""
    old = serve.pid_of(name)
    mark = len(serve.log())
    killed_at = time.monotonic()
    os.kill(old, signal.SIGKILL)
    serve.wait_for(rf"{name} killed by SIGKILL; restarting in", start=mark)
    serve.wait_for(rf"restarted {name} \(pid \d+", start=mark)
    new = serve.pid_of(name)
    assert new != old and alive(new) and not alive(old)
    return killed_at, time.monotonic()


def result_recorded(serve: Serve, n: int) -> None:
    """Append a result on the embedded Valkey; the (restarted) consumer records it."""
    conn = serve.redis()
    date, now = open_day_now()
    ResultStream(conn, prefix="ts:").add({
        "game_id": f"g_kill{n}", "player_id": f"p_kill{n}", "player_name": f"K{n}",
        "date": date, "ruleset": "yahtzee", "total": 200 + n,
        "finished_at": now, "code": f"DD-KILL{n}", "log": None,
    })
    board = Leaderboard(conn, date, "yahtzee", prefix="ts:")
    wait_until(lambda: board.standing(f"p_kill{n}") is not None,
               message=f"result {n} was not recorded after the restart")
    conn.close()


def test_every_child_killed_under_load_comes_back(tmp_path: Path) -> None:
    env = serve_env(tmp_path, DAILY_RATE_LIMIT="off")
    serve = start_serve(tmp_path, env, "--web-workers", "2")
    load = None
    threads: list[threading.Thread] = []
    try:
        load = Load(serve.port, new_player(serve, "Watcher"))
        threads = [threading.Thread(target=load.client, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        result_recorded(serve, 1)

        # The results consumer, the RQ worker and the scheduler: the web server does not
        # even notice.
        start = time.monotonic()
        kill_and_wait_restart(serve, "results")
        result_recorded(serve, 2)
        kill_and_wait_restart(serve, "worker")
        kill_and_wait_restart(serve, "scheduler")
        time.sleep(1)
        assert alive(serve.pid_of("scheduler"))
        quiet = load.between(start, time.monotonic())
        assert quiet and all(o.status is not None and o.status < 300 for o in quiet), [
            o for o in quiet if o.status is None or o.status >= 300][:5]

        # Valkey: the web server keeps answering (503 + Retry-After where Redis is
        # needed); back on the same port with its AOF, the same token still works.
        killed, _ = kill_and_wait_restart(serve, "valkey")
        wait_until(lambda: healthy(load), message="health did not recover after Valkey")
        recovered = time.monotonic()
        assert load.call("GET", "/api/v1/players/me").status == 200
        result_recorded(serve, 3)
        outage = load.between(killed, recovered)
        assert all(o.status is not None for o in outage), "the web server stopped answering"
        assert not [o for o in outage if o.status >= 500 and o.status != 503]
        unavailable = [o for o in outage if o.status == 503]
        assert all(o.retry_after for o in unavailable), unavailable[:3]

        # The gunicorn master: down only until it is started again.
        killed, _ = kill_and_wait_restart(serve, "web")
        wait_until(lambda: healthy(load), message="the web server did not come back")
        back = time.monotonic()
        time.sleep(3)
        later = load.between(back + 0.5, time.monotonic())
        assert later and all(o.status is not None and o.status < 300 for o in later)
        assert back - killed < 90

        everything = load.outcomes
        assert not [o for o in everything if o.status is not None and o.status >= 500
                    and o.status != 503], "a 5xx other than 503"
        load.stopping.set()
        for t in threads:
            t.join(15)
        assert serve.stop(signal.SIGTERM) == 0
    finally:
        if load is not None:
            load.stopping.set()
        for t in threads:
            t.join(15)
        serve.kill_everything()
    text = serve.log()
    for name in ("web", "scheduler", "worker", "results", "valkey"):
        assert f"{name} stopped" in text
    assert not descendants(serve.process.pid)


def test_restarts_back_off_one_shot_children_finish_and_stop_leaves_nothing() -> None:
    """The supervisor alone, on small real processes: a crashing child is restarted with
    growing delays and given up at its limit, a one-shot child is not restarted after
    success, and stop() ends children and the orphans they left (subreaper)."""
    from daily.service.ops.supervisor import ChildSpec, Supervisor, become_subreaper

    lines: list[str] = []
    supervisor = Supervisor(lines.append)
    become_subreaper()  # this test process adopts the orphan below
    env = dict(os.environ)
    crash = supervisor.start(ChildSpec("crash", ["sh", "-c", "exit 3"], env, max_restarts=2))
    once = supervisor.start(ChildSpec("once", ["true"], env, once=True))
    # A child that leaves an orphan in a session of its own, then keeps running.
    orphan_file = Path(f"/tmp/daily-orphan-{os.getpid()}")
    parent = supervisor.start(ChildSpec(
        "parent", ["sh", "-c", f"setsid sleep 300 & echo $! > {orphan_file}; exec sleep 300"],
        env))
    try:

        def both_finished() -> bool:
            supervisor.check()
            return crash.finished and once.finished

        wait_until(both_finished, message=lambda: str(lines))
        assert crash.restarts == 2 and once.restarts == 0
        delays = [float(x) for x in re.findall(r"crash exited with status 3; restarting in "
                                                r"([\d.]+) s", "\n".join(lines))]
        assert delays == [0.5, 1.0]
        assert "crash exited with status 3; giving up after 2 restarts" in lines
        assert "once finished" in lines
        wait_until(orphan_file.exists, message="no orphan started")
        orphan = int(orphan_file.read_text())
        assert alive(orphan) and parent.running
        supervisor.stop()
        assert not alive(parent.process.pid) and not alive(orphan)
    finally:
        orphan_file.unlink(missing_ok=True)
        supervisor.stop()
        become_subreaper(False)


def test_kill_9_of_the_supervisor_stops_its_children_in_order(tmp_path: Path) -> None:
    """The supervisor itself gets SIGKILL with clients calling: its watchdog stops the
    children in the supervisor's own order (the reverse of their start: scheduler,
    worker, results consumer, web server, Valkey last), so the requests in flight get
    their answers and nothing is left running."""
    env = serve_env(tmp_path, DAILY_RATE_LIMIT="off")
    serve = start_serve(tmp_path, env, "--web-workers", "1")
    load = None
    threads: list[threading.Thread] = []
    children: set[int] = set()
    try:
        load = Load(serve.port, new_player(serve, "Orphan"))
        threads = [threading.Thread(target=load.client, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        result_recorded(serve, 1)
        children = descendants(serve.process.pid)
        valkey = serve.pid_of("valkey")
        assert valkey in children
        killed = time.monotonic()
        serve.process.kill()
        serve.process.wait(10)
        wait_until(lambda: not any(alive(c) for c in children),
                   message=lambda: f"still alive: {[c for c in children if alive(c)]}\n"
                                   f"{serve.log()}")
        load.stopping.set()
        for t in threads:
            t.join(15)
        during = load.between(killed, time.monotonic())
        # Until the web server stops, it answers: never a 503 for a Redis stopped early.
        assert not [o for o in during if o.status is not None and o.status >= 500], during[:5]
    finally:
        if load is not None:
            load.stopping.set()
        for t in threads:
            t.join(15)
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
    text = serve.log()
    assert "the supervisor died: stopping its children, Valkey last" in text
    stops = re.findall(r"\(watchdog\): (\w+) stopped", text)
    assert stops[-1] == "valkey", stops
    assert stops == ["scheduler", "worker", "results", "web", "valkey"], stops
    after = text[text.index("the supervisor died"):]
    assert "Traceback" not in after and "ConnectionError" not in after
