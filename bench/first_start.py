"""A first start, timed: the first page, and the first ranked game until it is ranked.

Starts ``daily serve`` on a free port in a fresh data directory (no strategy tables, no
keys, no Valkey data: a first start) with the default configuration, and measures:

- ``first_page``: seconds from the start of ``daily serve`` until ``/`` answers 200;
- ``ready_line``: seconds until it prints ``ready on URL``;
- ``first_ranked``: a new player plays a whole ranked Yahtzee game through the API at
  once (the best-scoring box every turn, no rerolls); seconds from its finish until the
  player is on the day's board (``GET /api/v1/leaderboards/<date>/yahtzee`` shows ``me``);
- ``tables_ready``: seconds until ``/api/v1/health`` shows the Yahtzee and Yatzy tables
  ready (the background preparation), when ``--wait-tables`` is given.

The numba cache of a fresh clone is cold; a second run of this script on the same
checkout finds it warm (numba caches the kernels next to the sources, in
``__pycache__``): ``--cold`` removes those cache files first (``*.nbi``/``*.nbc`` under
``daily/``), so that every run is a first start of a fresh clone.

The machine may be shared: the load average at the start and at the end is in the
result (``machine``), and so is a baseline measured in the same run, the seconds of
``python -c "import flask"`` (``baseline_import_flask``, the median of three), so that
the figures can be read as ratios to it.

Usage::

    .venv/bin/python bench/first_start.py --cold [--wait-tables]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    from daily.service.ops.embedded import free_port as pick

    return pick()


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api/v1{path}", data=data, headers=headers,
                                     method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def page_status(base: str) -> int | None:
    try:
        with urllib.request.urlopen(f"{base}/", timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


def clear_numba_cache() -> int:
    """Remove numba's cache files of the checkout (a fresh clone has none)."""
    removed = 0
    for pattern in ("*.nbi", "*.nbc"):
        for path in (ROOT / "daily").rglob(pattern):
            path.unlink()
            removed += 1
    return removed


def play_ranked(base: str) -> tuple[str, str, str]:
    """A new player's whole ranked Yahtzee game; returns (token, date, game id)."""
    today = call(base, "GET", "/today")
    date = today["open_dates"][-1]
    token = call(base, "POST", "/players", {"name": "First"})["token"]
    state = call(base, "POST", "/games", {"ruleset": "yahtzee", "date": date,
                                          "mode": "ranked"}, token)
    while not state["over"]:
        legal = [c for c in state["choices"] if c["legal"]]
        box = max(legal, key=lambda c: c["points"])["box"]
        state = call(base, "POST", f"/games/{state['id']}/score",
                     {"box": box, "position": state["position"]}, token)
    return token, date, state["id"]


class Timeline:
    """The log's lines with the seconds (since ``started``) at which each appeared."""

    def __init__(self, path: Path, started: float) -> None:
        self.path, self.started = path, started
        self.lines: list[str] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        seen = 0
        while not self.stopping.is_set():
            text = self.path.read_text(errors="replace") if self.path.exists() else ""
            new = text.splitlines()
            if text and not text.endswith("\n"):
                new = new[:-1]  # a line still being written
            at = time.monotonic() - self.started
            self.lines.extend(f"{at:7.2f} {line}" for line in new[seen:])
            seen = len(new)
            time.sleep(0.05)

    def stop(self) -> list[str]:
        time.sleep(0.2)
        self.stopping.set()
        self.thread.join()
        return self.lines


def baseline_seconds() -> float:
    """The median of three runs of ``python -c "import flask"`` (a process start and the
    web stack's import), the same run's yardstick of the machine's speed."""
    times = []
    for _ in range(3):
        started = time.monotonic()
        subprocess.run([sys.executable, "-c", "import flask"], check=True)
        times.append(time.monotonic() - started)
    return sorted(times)[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold", action="store_true",
                        help="remove numba's cache files first (a fresh clone's state)")
    parser.add_argument("--wait-tables", action="store_true",
                        help="also time the Yahtzee and Yatzy tables' background build")
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    removed = clear_numba_cache() if args.cold else 0
    uptime_start = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    baseline = baseline_seconds()
    work = Path(tempfile.mkdtemp(prefix="daily-first-start-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DAILY_") and k != "REDIS_URL"}
    env.update(DAILY_DATA_DIR=str(work / "data"), PYTHONPATH=str(ROOT))
    log_path = work / "serve.log"
    base = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daily", "serve", "--port", str(port)],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )
    timeline = Timeline(log_path, started)
    figures: dict[str, benchjson.Figure] = {
        "baseline_import_flask": benchjson.figure(round(baseline, 3), "s")}
    try:
        deadline = started + args.timeout
        while page_status(base) != 200:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"daily serve did not answer:\n{log_path.read_text()}")
            time.sleep(0.05)
        figures["first_page"] = benchjson.figure(round(time.monotonic() - started, 2), "s")
        while "ready on" not in log_path.read_text(errors="replace"):
            if time.monotonic() > deadline:
                raise SystemExit("no ready line")
            time.sleep(0.05)
        figures["ready_line"] = benchjson.figure(round(time.monotonic() - started, 2), "s")
        token, date, _game = play_ranked(base)
        finished = time.monotonic()
        figures["first_game_finished"] = benchjson.figure(round(finished - started, 2), "s")
        while call(base, "GET", f"/leaderboards/{date}/yahtzee", token=token)["me"] is None:
            if time.monotonic() > deadline:
                raise SystemExit("the first ranked game was never ranked")
            time.sleep(0.05)
        figures["first_ranked"] = benchjson.figure(round(time.monotonic() - finished, 2),
                                                   "s after its finish")
        if args.wait_tables:
            while True:
                tables = call(base, "GET", "/health")["tables"]
                if all(tables.get(n, {}).get("state") == "ready" for n in ("yahtzee", "yatzy")):
                    break
                if time.monotonic() > deadline:
                    raise SystemExit("the tables were not built")
                time.sleep(0.5)
            figures["tables_ready"] = benchjson.figure(round(time.monotonic() - started, 1),
                                                       "s")
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
    lines = timeline.stop()
    uptime_end = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    for name, fig in figures.items():
        print(f"{name}: {fig['value']} {fig['unit']}")
    print(f"log lines: {len(lines)}; uptime at start: {uptime_start}; at end: {uptime_end}")
    benchjson.record("first_start", figures, notes=(
        "daily serve on a fresh data directory (no tables, keys or data) with the default"
        " configuration; numba cache files removed first: "
        f"{'yes' if args.cold else 'no'} ({removed} removed). The machine is shared with"
        " other engineers' work: see the load averages. details.log: the first lines of"
        " the log, each with the seconds since the start at which it appeared."
    ), details={"uptime_start": uptime_start, "uptime_end": uptime_end,
                "log_lines": len(lines), "log": lines[:80]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
