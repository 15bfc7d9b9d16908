"""``daily serve`` smoke test: the embedded stack starts, answers, works and stops on Ctrl-C."""

from __future__ import annotations

import gzip
import json
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import redis
from rq import Worker

from daily.service.results.leaderboard import Leaderboard
from daily.service.results.stream import ResultStream
from tests.ops.serving import ROOT, descendants, open_day_now, serve_env, start_serve
from tests.polling import PROCESS_TIMEOUT, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_serve_starts_works_and_stops_on_ctrl_c(tmp_path) -> None:
    serve = start_serve(tmp_path, serve_env(tmp_path), "--web-workers", "1")
    try:
        with urllib.request.urlopen(f"{serve.base}/api/v1/health", timeout=5) as r:
            assert r.status == 200
            health = json.loads(r.read())
        assert (health["status"], health["redis"]) == ("ok", "ok")

        # The embedded Valkey wants its password; the results consumer records a result
        # appended on it.
        port = int(re.findall(r"embedded Valkey on 127\.0\.0\.1:(\d+)", serve.log())[-1])
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=port).set("intruder", "1")
        conn = serve.redis()
        date, now = open_day_now()
        ResultStream(conn, prefix="ts:").add({
            "game_id": "g_smoke", "player_id": "p_smoke", "player_name": "Smoke",
            "date": date, "ruleset": "yahtzee", "total": 222,
            "finished_at": now, "code": "DD-SMOKE", "log": None,
        })
        board = Leaderboard(conn, date, "yahtzee", prefix="ts:")
        wait_until(board.players, message="the embedded consumer did not record it")
        conn.close()

        # Text answers are compressed (gzip or brotli, as the client accepts), the page
        # and its scripts too; an answer carrying a token never (BREACH).
        for path in ("/", "/static/web/i18n.js", "/api/v1/openapi.json"):
            request = urllib.request.Request(f"{serve.base}{path}",
                                             headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request, timeout=5) as r:
                assert r.headers["Content-Encoding"] == "gzip", path
                assert "Accept-Encoding" in r.headers["Vary"], path
                assert gzip.decompress(r.read()), path
        request = urllib.request.Request(
            f"{serve.base}/api/v1/players", data=json.dumps({"name": "Zed" * 8}).encode(),
            headers={"Accept-Encoding": "gzip, br", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as r:
            assert r.status == 201 and r.headers["Content-Encoding"] is None
            assert json.loads(r.read())["token"]

        # valkey, results, worker, scheduler, gunicorn (+ their children), the watchdog
        assert len(descendants(serve.process.pid)) >= 6
        assert serve.stop(signal.SIGINT) == 0  # Ctrl-C
    finally:
        serve.kill_everything()
    text = serve.log()
    for name in ("web", "scheduler", "worker", "results", "valkey"):
        assert f"{name} stopped" in text
    assert "Traceback" not in text
    # Quiet: one ready line, no line per request, none per job or rollover.
    assert text.count("ready on http://127.0.0.1:") == 1
    assert "GET /" not in text and "POST /" not in text
    assert "Enqueued job" not in text and "Job OK" not in text
    data = tmp_path / "data"
    assert (data / "keys" / "master.secret").exists()
    # The password and every file of the embedded server are the owner's only.
    redis_dir = data / "redis"
    aof = list((redis_dir / "appendonly").iterdir())
    assert aof
    for path in [redis_dir / "password", *aof]:
        assert path.stat().st_mode & 0o077 == 0, (path, oct(path.stat().st_mode))
    password = (redis_dir / "password").read_text().strip()
    assert password not in text  # never in the log


def test_serve_with_redis_url_uses_that_redis_and_stops_on_sigterm(redis_url, tmp_path):
    env = serve_env(tmp_path, REDIS_URL=redis_url)
    # Keys come from `daily keys init` here (only the embedded mode makes them itself).
    assert subprocess.run([sys.executable, "-m", "daily", "keys", "init"], env=env,
                          cwd=ROOT, capture_output=True, timeout=PROCESS_TIMEOUT).returncode == 0
    serve = start_serve(tmp_path, env, "--web-workers", "1", "--host", "127.0.0.1")
    try:
        with urllib.request.urlopen(f"{serve.base}/api/v1/health", timeout=5) as r:
            assert json.loads(r.read())["redis"] == "ok"
        # The worker registered itself on the given Redis.
        conn = redis.Redis.from_url(redis_url)
        wait_until(lambda: Worker.count(connection=conn) == 1,
                   message="no RQ worker registered on REDIS_URL")
        conn.close()
        assert serve.stop(signal.SIGTERM) == 0
    finally:
        serve.kill_everything()
    text = serve.log()
    assert "embedded Valkey" not in text and "valkey stopped" not in text
    assert "worker stopped" in text and "Traceback" not in text


@pytest.mark.parametrize(("args", "field"), [
    (["--port", "0"], "--port"),
    (["--web-workers", "0"], "--web-workers"),
    (["--host", ""], "--host"),
])
def test_serve_refuses_bad_flags_in_one_line(args, field, tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "daily", "serve", *args],
                          env=serve_env(tmp_path), cwd=ROOT, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT)
    assert done.returncode == 2
    assert field in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_first_start_serves_at_once_and_builds_tables_in_the_background(tmp_path) -> None:
    """A first start answers its page before any table is built: the tables of
    DAILY_TABLES_AT_START (Yacht here, the smallest) build in the background after the
    ready line, then the engine compiles once; DAILY_TABLES_IN_BACKGROUND (Generala here,
    small: the build runs at a low priority, which a loaded machine starves; Maxi Yatzy
    takes minutes) builds too, with its progress in /api/v1/health; hints of a table
    not built yet answer 503 table_not_ready; the par jobs of the closed days wait for
    their table: a normal start logs no traceback."""
    home = tmp_path / "home"  # where gunicorn would put its control socket (~/.gunicorn)
    env = serve_env(tmp_path, DAILY_TABLES_AT_START="yacht", DAILY_TABLES_IN_BACKGROUND="generala",
                    DAILY_PAR_JOBS="on", DAILY_RULESETS="yahtzee,maxi-yatzy", HOME=str(home),
                    DAILY_WARM_AT_START="on")
    serve = start_serve(tmp_path, env, "--web-workers", "1")
    seen: list[dict] = []
    try:
        at_ready = serve.log()
        assert "yacht strategy table ready" not in at_ready  # the page did not wait

        def generala_ready() -> bool:
            with urllib.request.urlopen(f"{serve.base}/api/v1/health", timeout=5) as r:
                tables = json.loads(r.read())["tables"]
            seen.append(tables)
            return bool(tables["generala"]["state"] == "ready")

        wait_until(generala_ready, 480, 0.2, lambda: str(seen[-3:]))
        serve.wait_for("generala table build finished")
        serve.wait_for(r"strategy engine compiled in [\d.]+ s")
        serve.wait_for("first-start preparation finished")
        assert serve.stop() == 0
    finally:
        serve.kill_everything()
    log = serve.log()
    assert "first start: building the yacht strategy tables in the background" in log
    assert log.index("ready on") < log.index("yacht strategy table ready in")
    assert re.search(r"yacht strategy table ready in \d+\.\d s", log)
    assert re.search(r"generala strategy table: 100% after \d+ s", log)  # progress lines
    assert not (home / ".gunicorn").exists()  # everything stays in the data directory
    assert seen[-1]["yacht"] == {"state": "ready"}
    building = [t["generala"] for t in seen if t["generala"]["state"] == "building"]
    assert building, seen[:3]
    assert all(0 <= b["percent"] <= 100 for b in building)
    assert seen[-1]["maxi-yatzy"] == {"state": "missing"}  # nobody asked to build it
    assert seen[-1]["yahtzee"] == {"state": "missing"}  # a daily set whose table is not built
    assert "Traceback" not in log
    assert not list((serve.data_dir / "tables").glob("*.progress"))


def test_serve_logs_a_line_per_request_only_with_access_log(tmp_path) -> None:
    """--access-log: gunicorn's line per request (off by default: test above)."""
    serve = start_serve(tmp_path, serve_env(tmp_path), "--web-workers", "1", "--access-log")
    try:
        for _ in range(3):
            with urllib.request.urlopen(f"{serve.base}/api/v1/health", timeout=5) as r:
                assert r.status == 200
        serve.wait_for(r'"GET /api/v1/health HTTP/1\.1" 200')
        assert serve.stop() == 0
    finally:
        serve.kill_everything()
    assert serve.log().count("GET /api/v1/health") >= 3


def test_serve_adds_up_the_metrics_of_both_web_workers(redis_url, tmp_path) -> None:
    """With its default two web workers, `daily serve` gives them a fresh multiprocess
    directory (<data>/metrics): /metrics counts the requests every worker answered."""
    import threading

    env = serve_env(tmp_path, REDIS_URL=redis_url)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    metrics_dir = tmp_path / "data" / "metrics"
    metrics_dir.mkdir(parents=True)
    (metrics_dir / "counter_1.db").write_bytes(b"figures of an earlier run")
    assert subprocess.run([sys.executable, "-m", "daily", "keys", "init"], env=env,
                          cwd=ROOT, capture_output=True, timeout=PROCESS_TIMEOUT).returncode == 0
    serve = start_serve(tmp_path, env, "--host", "127.0.0.1")
    # /keys, which only this test asks for: the start's readiness probes ask /health, and
    # one that timed out on a loaded machine is still counted later by its worker.
    line = 'daily_http_requests_total{endpoint="/api/v1/keys",method="GET",status="200"}'

    def keys_count() -> float:
        with urllib.request.urlopen(f"{serve.base}/metrics", timeout=10) as r:
            text = r.read().decode()
        found = [row.rpartition(" ")[2] for row in text.splitlines()
                 if row.rpartition(" ")[0] == line]
        return float(found[0]) if found else 0.0

    def hit(times: int) -> None:
        for _ in range(times):
            with urllib.request.urlopen(f"{serve.base}/api/v1/keys", timeout=10) as r:
                assert r.status == 200

    try:
        assert not (metrics_dir / "counter_1.db").exists()  # emptied at start
        web = serve.pid_of("web")
        workers = descendants(web)
        assert len(workers) == 2, workers
        assert keys_count() == 0
        sent = 0
        def answered_keys(pid: int) -> bool:  # the worker's own file names the endpoint
            own = metrics_dir / f"counter_{pid}.db"
            return own.exists() and b"/api/v1/keys" in own.read_bytes()

        # Parallel clients until both workers have answered some (their own files).
        while not all(answered_keys(pid) for pid in workers):
            assert sent < 400, (sent, sorted(p.name for p in metrics_dir.iterdir()))
            threads = [threading.Thread(target=hit, args=(5,)) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            sent += 20
        assert keys_count() == sent
        assert serve.stop(signal.SIGTERM) == 0
    finally:
        serve.kill_everything()


def test_serve_keeps_the_operators_metrics_directory(tmp_path) -> None:
    """PROMETHEUS_MULTIPROC_DIR set by the operator is the web workers' as it is (not
    emptied); unset, it is <data>/metrics, emptied."""
    from daily.service.config import load_config
    from daily.service.ops.embedded import EmbeddedStack

    stack = EmbeddedStack(load_config({"DAILY_DATA_DIR": str(tmp_path / "data")}))
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "counter_7.db").write_bytes(b"kept")
    assert stack._metrics_dir({"PROMETHEUS_MULTIPROC_DIR": str(theirs)}) == str(theirs)
    assert (theirs / "counter_7.db").exists()
    ours = stack._metrics_dir({})
    assert ours == str((tmp_path / "data" / "metrics").resolve())
    assert list(Path(ours).iterdir()) == []
