"""The test bootstrap on a machine without Redis: the suite starts the embedded Valkey.

A nested pytest run (two xdist workers) with ``DAILY_TEST_REDIS_URL`` unset and the
default address pointed at a port where nothing listens (as on a fresh machine with no
Redis on 6379) runs Redis-backed tests on the Valkey it started, and stops it after.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from daily.service.ops.embedded import free_port
from tests.ops.serving import ROOT
from tests.polling import PROCESS_TIMEOUT

pytestmark = pytest.mark.slow


def valkey_processes() -> set[int]:
    """Live Valkey servers started by a test bootstrap (their --dir names them)."""
    found = set()
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if b"daily-test-valkey-" in cmdline.read_bytes():
                found.add(int(cmdline.parent.name))
        except OSError:
            continue
    return found


def test_no_redis_on_the_machine_starts_the_embedded_valkey() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAILY_TEST_", "PYTEST_"))}
    env["DAILY_TEST_REDIS_DEFAULT"] = f"redis://127.0.0.1:{free_port()}"  # nothing there
    before = valkey_processes()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-n", "2", "-p", "no:cacheprovider",
         "tests/service/test_players_and_ops.py::test_health_metrics_and_openapi",
         "tests/service/test_players_and_ops.py::test_health_reports_a_dead_redis"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "2 passed" in run.stdout
    assert "started the embedded Valkey at redis://127.0.0.1:" in run.stderr
    assert valkey_processes() == before  # stopped at the end of the run
