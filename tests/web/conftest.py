"""Fixtures of the browser tests: the live server, real Chromium, real workers.

``live_server`` is the service as it runs in production: real gunicorn with two worker
processes taking consecutive requests in turn (:func:`tests.service.live.start_gunicorn`,
the browser's requests included: no keep-alive), on the test's Redis database (flushed
before every test), with a known master secret so the tests recompute the day seed and
replay the game with the core. One server serves the whole session; a test asks for
another configuration by indirect parametrization (``{"DAILY_RATE_LIMIT":
"24/minute"}``), and gets a server of that configuration, started once per module.
Tests change what the server sees only from outside: its Redis, its data directory, its
clock (``live_server.clock``, a file every worker reads; the real time unless a test
sets it). ``chromium`` is Debian's browser driven by Playwright (it never downloads one
of its own). ``run_results_worker`` runs a real results consumer process (``daily
worker results --burst``) on the results stream.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from daily.service.config import load_config
from daily.service.days.keyring import init_keys
from daily.service.ops.embedded import free_port
from tests.conftest import base_url
from tests.polling import PROCESS_TIMEOUT
from tests.service.live import FileClockControl, start_gunicorn

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


def _serve(
    stack: ExitStack, redis_db: int, tmp: Path, overrides: dict[str, str]
) -> LiveServer:
    """Start a live server with ``overrides`` on the test database; stops with ``stack``."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **server_env(f"{base_url()}/{redis_db}", tmp / "data"),
        "DAILY_PUBLIC_URL": url,
        "DAILY_TEST_CLOCK_FILE": str(tmp / "clock"),
        # A browser takes its time between requests (it draws, the test clicks): the
        # worker that answered rests until the other has answered, up to a second.
        "DAILY_TEST_HANDOFF": "1",
        **overrides,
    }
    init_keys(load_config(env).keys_dir)
    clock = FileClockControl(tmp / "clock", None)
    stack.enter_context(start_gunicorn(env, tmp, port=port))
    return LiveServer(url=url, env=env, clock=clock)


@pytest.fixture(scope="session")
def web_server(
    redis_db: int, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """The live server of the default test configuration, for the session."""
    with ExitStack() as stack:
        yield _serve(stack, redis_db, tmp_path_factory.mktemp("web"), {})


@pytest.fixture(scope="module")
def web_variants(
    redis_db: int, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[dict[str, str]], LiveServer]]:
    """Live servers of other configurations: one per distinct set of overrides and
    module, stopped at the end of the module."""
    with ExitStack() as stack:
        started: dict[tuple[tuple[str, str], ...], LiveServer] = {}

        def variant(overrides: dict[str, str]) -> LiveServer:
            key = tuple(sorted(overrides.items()))
            if key not in started:
                tmp = tmp_path_factory.mktemp("web-variant")
                started[key] = _serve(stack, redis_db, tmp, overrides)
            return started[key]

        yield variant


@pytest.fixture
def live_server(request: pytest.FixtureRequest, redis_url: str) -> Iterator[LiveServer]:
    """The live server for one test, on a clean Redis database, at the real time.

    Indirect parametrization may override settings: ``{"DAILY_RATE_LIMIT": "20/minute"}``.
    """
    overrides = getattr(request, "param", None)
    if overrides:
        server = request.getfixturevalue("web_variants")(overrides)
    else:
        server = request.getfixturevalue("web_server")
    server.clock.real()
    yield server
    server.clock.real()


@pytest.fixture
def run_results_worker(live_server: LiveServer) -> Callable[[], None]:
    """Run a real results consumer process (``daily worker results --burst``)."""

    def run() -> None:
        env = {**os.environ, **live_server.env, "PYTHONPATH": str(ROOT)}
        subprocess.run(
            [sys.executable, "-m", "daily", "worker", "results", "--burst", "--quiet"],
            env=env, cwd=ROOT, check=True, timeout=PROCESS_TIMEOUT,
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
def yahtzee_table(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The strategy table of Yahtzee (solved once per test run, about 10 s, and shared by
    the run's workers: :func:`tests.strategy.conftest.shared_table`)."""
    from daily.rules import get_ruleset
    from tests.strategy.conftest import shared_table

    return shared_table(tmp_path_factory, get_ruleset("yahtzee"))
