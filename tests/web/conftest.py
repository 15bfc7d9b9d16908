"""Fixtures of the browser tests: the real app on a real port, real Chromium, real workers.

``live_server`` runs ``daily.service.app.create_app`` (API + web blueprint) with werkzeug
in a background thread, on the test's Redis database, with a known master secret so
the tests can recompute the day seed and replay the game with the core. ``chromium``
is Debian's browser driven by Playwright (it never downloads one of its own).
``run_results_worker`` runs a real results consumer process (``daily worker results
--burst``) on the results stream.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from .server import LiveServer, server_env

ROOT = Path(__file__).resolve().parents[2]
expect.set_options(timeout=10_000)  # CI runs the whole suite on 2 cores
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("DAILY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
@pytest.fixture
def live_server(
    request: pytest.FixtureRequest, redis_url: str, tmp_path: Path
) -> Iterator[LiveServer]:
    """The real app served over HTTP from a thread, torn down after the test.

    Indirect parametrization may override settings: ``{"DAILY_RATE_LIMIT": "20/minute"}``.
    """
    from daily.service.app import create_app
    from daily.service.config import load_config
    from daily.service.keys import init_keys

    data_dir = tmp_path / "data"
    env = {**server_env(redis_url, data_dir), **getattr(request, "param", {})}
    config = load_config(env)
    init_keys(config.keys_dir)
    app = create_app(config, {"TESTING": True})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(url=url, env={**env, "DAILY_PUBLIC_URL": url}, app=app)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture
def run_results_worker(live_server: LiveServer) -> Callable[[], None]:
    """Run a real results consumer process (``daily worker results --burst``)."""

    def run() -> None:
        env = {**os.environ, **live_server.env, "PYTHONPATH": str(ROOT)}
        subprocess.run(
            [sys.executable, "-m", "daily", "worker", "results", "--burst", "--quiet"],
            env=env, cwd=ROOT, check=True, timeout=60,
        )

    return run


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, shared by the browser tests of one worker."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"no Chromium at {CHROMIUM}; install it with `apt-get install chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=CHROMIUM_ARGS,
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def yahtzee_table() -> Any:
    """The strategy table of Yahtzee (solved once per test worker, about 10 s)."""
    from daily.rules import get_ruleset
    from daily.strategy.solver import solve

    return solve(get_ruleset("yahtzee"))
