"""Noninterference: nothing a player sees depends on dice the game has not shown them.

Two live servers (real gunicorn, two workers each) serve two worlds that agree on the
dice of every slot the scripted play reveals and differ on every other slot. The same
requests, run against both (the script, then probes: stale, repeated and illegal
moves, and submitted logs that look past the revealed rolls, like the joker-rule
probe of issue 8), must give the same responses byte for byte once ids are
normalised; and no process may even ask for the dice of a slot not revealed.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from daily.service.config import load_config
from daily.service.days.keyring import init_keys
from tests.conftest import base_url
from tests.service.conftest import NOON
from tests.service.live import FileClockControl, HttpClient, start_gunicorn

pytestmark = [pytest.mark.redis, pytest.mark.live]

MASTER_HEX = "0d1ce" * 12 + "0d1c"
#: The scripted play: turn by turn, the rerolls' hold masks and the box (None: playing).
SCRIPT: list[tuple[list[str], str | None]] = [
    (["00000"], "yahtzee"),            # fills the yahtzee box: the joker rule is live
    (["10000", "11000"], "chance"),
    ([], "ones"),
    (["00011"], None),                 # turn 4, roll 2 is where the play stops
]
BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
         "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
         "chance"]


def revealed_slots() -> list[list[int]]:
    """Every slot the script shows: each turn's rolls, and the next turn's first."""
    slots = []
    for turn, (holds, _) in enumerate(SCRIPT):
        slots += [[turn, roll] for roll in range(len(holds) + 1)]
    return slots


@pytest.fixture
def worlds(redis_db: int, tmp_path: Path) -> Iterator[list[tuple[HttpClient, Path]]]:
    """Two live servers: the day's dice, and the day's dice changed off the script."""
    clock_file = tmp_path / "clock"
    FileClockControl(clock_file, NOON)
    agreed = {"real": "all", "other": revealed_slots()}
    with ExitStack() as stack:
        out = []
        for name, world in agreed.items():
            env = {
                "REDIS_URL": f"{base_url()}/{redis_db}",
                "DAILY_KEY_PREFIX": f"ni-{name}:",
                "DAILY_DATA_DIR": str(tmp_path / name),
                "DAILY_MASTER_SECRET": MASTER_HEX,
                "DAILY_PUBLIC_URL": "https://dice.example",
                "DAILY_RATE_LIMIT": "off",
                "DAILY_TEST_CLOCK_FILE": str(clock_file),
                "DAILY_TEST_SLOT_LOG": str(tmp_path / f"{name}.slots"),
                "DAILY_TEST_WORLD": json.dumps({"agreed": world}),
            }
            init_keys(load_config(env).keys_dir)
            server = stack.enter_context(start_gunicorn(env, tmp_path / name))
            out.append((server.client(), tmp_path / f"{name}.slots"))
        yield out


def _session(client: HttpClient) -> list[tuple[str, str, Any]]:
    """Run the script and the probes; returns (request, status, body bytes) of each."""
    seen: list[tuple[str, str, Any]] = []

    def call(method: str, path: str, body: Any = None, auth: bool = True) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if auth else {}
        response = client.open("/api/v1" + path, method, json=body, headers=headers)
        seen.append((f"{method} {path} {json.dumps(body)}", str(response.status_code),
                     response.data))
        return response.get_json()

    token = ""
    token = call("POST", "/players", {"name": "Probe"}, auth=False)["token"]
    state = call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29"})
    game = f"/games/{state['id']}"
    for holds, box in SCRIPT:
        for hold in holds:
            state = call("POST", f"{game}/roll", {"hold": hold, "position": state["position"]})
        if box is not None:
            state = call("POST", f"{game}/score", {"box": box, "position": state["position"]})
    at = state["position"]
    log = call("GET", game)["log"]  # a move answers without the log

    # Moves that must change nothing: stale, future, repeated, illegal.
    call("POST", f"{game}/roll", {"hold": "00000", "position": at - 1})
    call("POST", f"{game}/roll", {"hold": "00011", "position": at - 1})  # the retry
    call("POST", f"{game}/score", {"box": "sixes", "position": at + 1})
    call("POST", f"{game}/roll", {"hold": "11111", "position": at})
    call("POST", f"{game}/score", {"box": "ones", "position": at})
    call("POST", f"{game}/hint", {})
    # Logs: the game so far, the box of this turn, then everything past the revealed.
    call("POST", f"{game}/log", {"log": log})
    for box in BOXES:
        with_box = copy.deepcopy(log)
        with_box["turns"][-1]["category"] = box
        call("POST", f"{game}/log", {"log": with_box})
        rerolled = copy.deepcopy(with_box)
        rerolled["turns"][-1]["holds"].append("00000")  # an unplayed reroll, then the box
        call("POST", f"{game}/log", {"log": rerolled})
        nextturn = copy.deepcopy(with_box)
        nextturn["turns"].append({"holds": [], "category": box})
        call("POST", f"{game}/log", {"log": nextturn})
    blind = copy.deepcopy(log)
    blind["turns"][-1]["category"] = "twos"
    blind["turns"] += [{"holds": ["00000", "00000"], "category": b}
                       for b in BOXES if b not in ("yahtzee", "chance", "ones", "twos")]
    call("POST", f"{game}/log", {"log": blind})
    call("GET", game)
    return seen


_IDS = re.compile(rb'"(g|p)_[0-9a-z]{4,40}(\.[A-Za-z0-9_-]+)?"')


def _normalised(seen: list[tuple[str, str, Any]]) -> list[tuple[str, str, bytes]]:
    out = []
    for request, status, body in seen:
        request_text = re.sub(r"/games/g_[0-9a-z]+", "/games/ID", request)
        out.append((request_text, status, _IDS.sub(b'"ID"', body)))
    return out


def test_two_worlds_that_differ_only_in_hidden_dice_answer_alike(
    worlds: list[tuple[HttpClient, Path]],
) -> None:
    (real, real_slots), (other, other_slots) = worlds
    first = _normalised(_session(real))
    second = _normalised(_session(other))
    assert len(first) == len(second) > 40
    for a, b in zip(first, second, strict=True):
        assert a == b
    refusals = [(status, json.loads(body)["error"]["code"]) for _, status, body in first
                if status.startswith("4")]
    assert refusals.count(("403", "forbidden")) == 1
    assert refusals.count(("409", "stale_position")) == 2
    assert refusals.count(("409", "not_revealed")) == 2 * len(BOXES) + 1
    # Not one process asked for the dice of a slot the script did not reveal.
    allowed = {tuple(slot) for slot in revealed_slots()}
    for log in (real_slots, other_slots):
        asked = {tuple(map(int, line.split())) for line in log.read_text().splitlines()}
        assert asked and asked <= allowed, sorted(asked - allowed)
