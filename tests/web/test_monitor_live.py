"""``daily monitor`` (a process of its own) follows a live deployment through the C2SP
tiles its jobs write: the live gunicorn answers the day list and the keys, the tiles the
job ``workers.cosign.write_tiles`` wrote beside the archive are served as static files
(as nginx serves ``/tlog/``). A day sealed, then grown by a re-review, is followed; tiles
of another history, with a checkpoint signed by the deployment's own results key, are a
fork: one line, exit 1."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily import calendar
from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
from daily.audit.c2sp.tiles import tiles
from daily.audit.merkle import MerkleTree
from daily.service.audit.checkpoints import deployment_name
from daily.service.config import load_config
from daily.service.results.result import Result
from daily.service.review.queue import ReviewQueue
from tests.polling import PROCESS_TIMEOUT

from .server import LiveServer
from .test_browser import api_call
from .test_checkpoint_browser import _sealed_result

ROOT = Path(__file__).resolve().parents[2]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_: object) -> None:
        return None


@pytest.fixture
def tlog(live_server: LiveServer) -> Iterator[tuple[Path, str]]:
    """The deployment's tiles folder, served over HTTP as nginx serves ``/tlog/``."""
    folder = load_config(live_server.env).archive_dir / "tlog"
    folder.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield folder, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _job(server: LiveServer, code: str, *args: str) -> str:
    env = {**os.environ, **server.env, "PYTHONPATH": str(ROOT), "DAILY_RULESETS": "yahtzee"}
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=PROCESS_TIMEOUT)
    return done.stdout


def _write_tiles(server: LiveServer, date: str) -> int:
    """Run the tiles job for the day set's latest head; its size."""
    size = int(api_call(server, "GET", f"/days/{date}/yahtzee/head")["size"])
    _job(server, "import sys; from workers.cosign import write_tiles;"
                 " write_tiles(sys.argv[1], 'yahtzee', int(sys.argv[2]))", date, str(size))
    return size


def _monitor(server: LiveServer, tiles_url: str, state: Path, date: str
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "daily", "monitor", server.url, "--dir", str(state),
         "--tiles", tiles_url, "--days", "3", "--today", date],
        cwd=ROOT, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_the_monitor_follows_the_tiles_and_reports_a_fork(
    live_server: LiveServer, run_results_worker: Any, tlog: tuple[Path, str], tmp_path: Path
) -> None:
    folder, tiles_url = tlog
    conn, prefix = live_server.redis, live_server.prefix
    date = api_call(live_server, "GET", "/today")["open_dates"][0]
    opens = calendar.opens_at(dt.date.fromisoformat(date)).timestamp()
    held = Result.from_json({
        "game_id": "g_000901", "player_id": "p_000901", "player_name": "Held", "date": date,
        "ruleset": "yahtzee", "total": 120, "finished_at": opens + 90, "code": "DD-000901",
        "log": {"format": "daily-log/1", "ruleset": "yahtzee", "day": date, "turns": []}})
    assert ReviewQueue(conn, prefix).hold(held, {"reason_code": "scout_link"})
    _sealed_result(live_server, run_results_worker)
    size = _write_tiles(live_server, date)
    state = tmp_path / "state"
    seen = state / f"{date}.yahtzee.checkpoint"

    done = _monitor(live_server, tiles_url, state, date)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == f"ok {date} yahtzee: size {size}, cosigned by no witness, " \
                          "1 tiles read\n", done.stdout

    # The re-review after the close appends a decision leaf and signs a later head.
    config = load_config(live_server.env)
    ReviewQueue(conn, prefix).decide(held.game_id, "cleared", archive_dir=config.archive_dir)
    _job(live_server, "import sys; from workers.seal import seal_day;"
                      " seal_day(sys.argv[1], 'yahtzee')", date)
    later = _write_tiles(live_server, date)
    assert later == size + 1
    done = _monitor(live_server, tiles_url, state, date)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ok {date} yahtzee: size {later}," in done.stdout, done.stdout
    genuine = seen.read_bytes()

    # The operator serves another history: its own tiles and a checkpoint of a larger
    # tree, signed with the deployment's real results key.
    key = serialization.load_pem_private_key(
        (config.keys_dir / "results.key").read_bytes(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    lines = [b'{"rewritten":%d}' % i for i in range(later + 1)]
    tree = MerkleTree.of_leaves(lines)
    day_tiles = folder / date / "yahtzee"
    shutil.rmtree(day_tiles)
    for path, data in tiles(tree, lines, len(lines)):
        (day_tiles / path).parent.mkdir(parents=True, exist_ok=True)
        (day_tiles / path).write_bytes(data)
    name = deployment_name(live_server.url)
    note = sign_checkpoint(name, key, Checkpoint(f"{name}/{date}/yahtzee", len(lines),
                                                 tree.root()))
    (day_tiles / "checkpoint").write_bytes(note.encode())
    done = _monitor(live_server, tiles_url, state, date)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith(f"daily: fork: {date} yahtzee: the checkpoint of size "
                                  f"{later + 1}"), done.stderr
    assert f"not consistent with the one seen of size {later}" in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert seen.read_bytes() == genuine  # what it saw is kept

