"""The README's five API calls, run as written (curl and jq) against a live server.

The walk-through plays a whole ranked Yahtzee game; this test runs the README's shell
block with only the server's address and the day changed (the live server's clock stands
on 2026-11-29), so a change of the API that breaks the walk-through fails here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.polling import PROCESS_TIMEOUT
from tests.service.live import LiveServer

pytestmark = [pytest.mark.redis, pytest.mark.live]

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough() -> str:
    """The first ``sh`` block under the README's "Through the API" heading."""
    text = README.read_text()
    section = text.split("### Through the API", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, "README.md: no sh block under 'Through the API'"
    return match.group(1)


def test_the_readme_walkthrough_plays_a_game(live_server: LiveServer, live_client: Any):
    """``live_client`` empties the server's Redis database and sets its clock."""
    for tool in ("curl", "jq", "bash"):
        assert shutil.which(tool), f"the README's walk-through needs {tool}"
    script = walkthrough()
    assert "API=http://127.0.0.1:8000/api/v1\n" in script
    assert "DAY=$(date -u +%F)" in script
    script = script.replace("http://127.0.0.1:8000", live_server.url.rstrip("/"))
    script = script.replace("DAY=$(date -u +%F)", "DAY=2026-11-29")
    calls = re.findall(r"curl -s (?:-X (\w+) )?\"?\$API/(\w+)", script)
    assert [path for _, path in calls] == [
        "players", "games", "games", "games", "results", "leaderboards"]
    done = subprocess.run(["bash", "-eu", "-o", "pipefail", "-c", script],
                          capture_output=True, text=True, timeout=PROCESS_TIMEOUT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # the share text's three lines: game, date, score and rank; the grid; the link
    assert re.fullmatch(r"Daily Dice · Yahtzee · 2026-11-29 · \d+ points · "
                        r"(rank not known yet|rank \d+ of \d+|tied \d+\w\w of \d+)",
                        lines[0]), done.stdout
    assert re.fullmatch(r"[🟩🟨⬛]+ [🟩🟨⬛]+", lines[1]), done.stdout
    assert re.fullmatch(r"https://dice\.example/r/DD-[0-9A-Z]{10}", lines[-1]), done.stdout
