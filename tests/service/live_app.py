"""The app as the live test server runs it: the real factory, with test-only hooks.

Loaded by gunicorn (``tests.service.live_app:create()``) in the fixtures of
:mod:`tests.service.live`. What it adds is for tests only and lives only here:

- the clock is read from ``DAILY_TEST_CLOCK_FILE`` (ISO 8601, or ``now`` for the real
  time) at every call, so a test moves time for every worker process at once;
- each response says which worker process served it (``X-Worker-Pid``, added around the
  whole WSGI app);
- with ``DAILY_TEST_WORLD`` = ``{"agreed": [[turn, roll], ...]}`` the dice of every day
  slot *not* listed are changed (each face ``f`` becomes ``7 - f``; ``"all"`` changes
  none): two servers that differ only there are two worlds that agree on the listed
  slots (the noninterference test). Every day slot a game asks for is appended to
  ``DAILY_TEST_SLOT_LOG`` (``turn roll`` lines);
- with ``DAILY_TEST_LOG_LEVEL`` (e.g. ``DEBUG``) the app's log records of that level and
  above go to the server's output (tests read it for secrets that must not be there).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from pathlib import Path
from typing import Any

from flask import Flask

from daily.dice import SlotSource
from daily.service.app import create_app
from daily.service.config import load_config
from daily.service.days.seeds import DaySeeds
from daily.service.extensions import of
from daily.service.games.flow import GameService


class FileClock:
    """The time written in a file (shared by every worker process); ``now``: the real
    time."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> dt.datetime:
        text = self.path.read_text().strip()
        if text == "now":
            return dt.datetime.now(dt.UTC)
        return dt.datetime.fromisoformat(text)


class OtherWorld(DaySeeds):
    """The day's dice on the agreed slots, other dice everywhere else; logs each slot."""

    def __init__(
        self, base: DaySeeds, agreed: set[tuple[int, int]] | None, log: Path | None
    ) -> None:
        super().__init__(base.config)
        self.agreed = agreed
        self.log = log

    def slots(self, ruleset: str, date: dt.date | str, count: int) -> SlotSource:  # type: ignore[override]
        real = super().slots(ruleset, date, count)

        def source(turn: int, roll: int) -> tuple[int, ...]:
            if self.log is not None:
                with self.log.open("a") as out:
                    out.write(f"{turn} {roll}\n")
            dice = real(turn, roll)
            if self.agreed is None or (turn, roll) in self.agreed:
                return dice
            return tuple(7 - d for d in dice)

        return source


def create() -> Flask:
    """The real app, with the hooks above."""
    level = os.environ.get("DAILY_TEST_LOG_LEVEL")
    if level:
        logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    clock = FileClock(Path(os.environ["DAILY_TEST_CLOCK_FILE"]))
    app = create_app(load_config(), {"CLOCK": clock})
    world = os.environ.get("DAILY_TEST_WORLD")
    if world:
        games = of(app, GameService)
        listed = json.loads(world)["agreed"]
        agreed = None if listed == "all" else {(t, r) for t, r in listed}
        log = os.environ.get("DAILY_TEST_SLOT_LOG")
        games.seeds = OtherWorld(games.seeds, agreed, Path(log) if log else None)

    app.wsgi_app = WorkerPid(app.wsgi_app)  # type: ignore[method-assign]
    return app


class WorkerPid:
    """WSGI middleware: every answer says which process served it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        def start(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            return start_response(status, [*headers, ("X-Worker-Pid", str(os.getpid()))], *rest)

        return self.inner(environ, start)
