"""Where the day's dice could leak, each place checked through the API (the live server:
real gunicorn, two workers taking consecutive requests in turn; real Redis).

While a day is open nobody sees a die of it that they have not rolled: the computer
opponents and a challenge's rival show their boxes and points, not their dice (not even
to the owner of the game), until the day is revealed; a practice game on random dice
shows them as before. Result pages, challenges, groups, the board, the audit log,
analysis and error answers carry no dice of an open day, and a game's own state holds
only dice it has rolled (``docs/fairplay.md``, "Where the day's dice could leak").
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from daily import calendar
from daily.movelog import MoveLog
from daily.service.games.log_checks import revealed_slots
from tests.service.conftest import Player, play_out
from tests.service.live import FileClockControl

pytestmark = [pytest.mark.redis, pytest.mark.live]

DAY = "2026-11-29"
#: After the day's close (and its grace): revealed.
REVEALED = calendar.closes_at(dt.date.fromisoformat(DAY)) + dt.timedelta(minutes=10)
LEVELS = ["easy", "medium", "hard"]  # medium and hard: the heuristic player, no table
DICE_KEYS = ("rolls", "holds", "dice", "turn_rolls")


def dice_in(doc: Any, path: str = "") -> Iterator[str]:
    """The paths of every non-null dice field (rolls, holds, dice, turn_rolls) in ``doc``."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            here = f"{path}.{key}"
            if key in DICE_KEYS and value not in (None, []):
                yield here
            yield from dice_in(value, here)
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from dice_in(value, f"{path}[{i}]")


def others_without_dice(state: dict[str, Any]) -> None:
    """The opponents' and the rival's turns have boxes and points, and no dice."""
    sides = list(state["opponents"])
    rival = (state.get("challenge") or {}).get("rival")
    if rival:
        sides.append(rival)
    for side in sides:
        assert side["dice_hidden"] is True, side
        assert list(dice_in(side)) == [], side
        for turn in side["turns"]:
            assert {"rolls", "holds", "dice"} <= turn.keys()
            assert isinstance(turn["box"], str) and isinstance(turn["points"], int)


def start(player: Player, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = player.call("POST", "/games", body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def get(player: Player, game_id: str) -> dict[str, Any]:
    response = player.call("GET", f"/games/{game_id}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_ranked_opponents_show_boxes_and_points_until_the_reveal(
    player: Player, live_clock: FileClockControl
) -> None:
    state = start(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked",
                           "opponents": LEVELS})
    others_without_dice(state)
    seen: list[bytes] = []
    for done in range(1, 4):
        state = play_out(player, state, turns=1, seen=seen)
        assert [len(o["turns"]) for o in state["opponents"]] == [done] * 3
        others_without_dice(state)
        others_without_dice(get(player, state["id"]))
    for body in seen:  # every answer of a move: rolls and scores
        others_without_dice(json.loads(body))
    # A stale move's refusal carries the state: no opponent's dice there either.
    stale = player.call("POST", f"/games/{state['id']}/score",
                        {"box": "chance", "position": state["position"] + 5})
    assert stale.status_code == 409
    assert stale.get_json()["error"]["code"] == "stale_position"
    others_without_dice(stale.get_json()["state"])
    # Over, and the day still open: still boxes and points only, even for the owner.
    state = play_out(player, state)
    assert state["over"]
    others_without_dice(state)
    before = get(player, state["id"])
    others_without_dice(before)
    # The reveal: the whole turns, the same boxes and points, now with their dice.
    live_clock.set(REVEALED)
    after = get(player, state["id"])
    mine = after["history"]
    for old, new in zip(before["opponents"], after["opponents"], strict=True):
        assert new["dice_hidden"] is False and new["total"] == old["total"]
        assert len(new["turns"]) == 13
        for t, (was, now) in enumerate(zip(old["turns"], new["turns"], strict=True)):
            assert (now["box"], now["points"], now["bonus"]) == (
                was["box"], was["points"], was["bonus"])
            assert now["dice"] == now["rolls"][-1] and len(now["holds"]) == len(now["rolls"]) - 1
            assert now["rolls"][0] == mine[t]["rolls"][0]  # the same slot as yours


def test_an_unfinished_ranked_game_shows_its_opponents_dice_after_the_reveal(
    player: Player, live_clock: FileClockControl
) -> None:
    state = start(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked",
                           "opponents": ["easy"]})
    state = play_out(player, state, turns=2)
    others_without_dice(get(player, state["id"]))
    live_clock.set(REVEALED)
    after = get(player, state["id"])
    (easy,) = after["opponents"]
    assert easy["dice_hidden"] is False and len(easy["turns"]) == 2
    assert all(len(t["dice"]) == 5 and t["rolls"] for t in easy["turns"])


def test_practice_opponents_show_their_dice_as_before(player: Player) -> None:
    state = start(player, {"ruleset": "yahtzee", "mode": "practice", "opponents": LEVELS})
    state = play_out(player, state, turns=2)
    for opponent in state["opponents"]:
        assert opponent["dice_hidden"] is False
        assert all(len(t["dice"]) == 5 and t["rolls"] for t in opponent["turns"])


def finished_ranked(player: Player, **body: Any) -> dict[str, Any]:
    state = start(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked", **body})
    return play_out(player, state)


def test_a_challenge_on_an_open_day_shows_the_rival_without_dice(
    make_player: Any, live_clock: FileClockControl
) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    code = finished_ranked(ada)["result"]["code"]
    made = ada.call("POST", "/challenges", {"code": code}).get_json()
    state = start(bob, {"challenge": made["code"], "opponents": ["easy"]})
    assert state["mode"] == "ranked" and state["challenge"]["rival"]["name"] == "Ada"
    others_without_dice(state)
    state = play_out(bob, state, turns=2)
    assert len(state["challenge"]["rival"]["turns"]) == 2
    others_without_dice(state)
    state = play_out(bob, state)
    others_without_dice(get(bob, state["id"]))
    # The challenge page: entries with totals; the comparison (for finished entries
    # only) has boxes and points, and no dice.
    for viewer in (bob, ada):
        view = viewer.call("GET", f"/challenges/{made['code']}").get_json()
        assert list(dice_in(view)) == []
        assert len(view["comparison"]) == 13
        for turn in view["comparison"]:
            assert all({"box", "points"} <= p.keys() for p in turn["players"])
    anonymous = bob.client.get(f"/api/v1/challenges/{made['code']}").get_json()
    assert list(dice_in(anonymous)) == [] and "comparison" not in anonymous
    page = bob.client.get(f"/c/{made['code']}")  # the link preview's page and card
    assert page.status_code == 200 and b"rolls" not in page.data
    assert bob.client.get(f"/c/{made['code']}/card.png").status_code == 200
    live_clock.set(REVEALED)
    rival = get(bob, state["id"])["challenge"]["rival"]
    assert rival["dice_hidden"] is False and all(t["dice"] for t in rival["turns"])


def test_result_pages_cards_and_proofs_show_no_dice_of_an_open_day(
    player: Player, live_clock: FileClockControl
) -> None:
    code = finished_ranked(player, opponents=["easy"])["result"]["code"]
    client = player.client
    result = client.get(f"/api/v1/results/{code}").get_json()
    assert result["revealed"] is False and "history" not in result and "log" not in result
    assert list(dice_in(result)) == []
    page = client.get(f"/r/{code}")
    assert page.status_code == 200
    assert b"rolls" not in page.data and b'"dice"' not in page.data
    card = client.get(f"/r/{code}/card.png")
    assert card.status_code == 200 and card.headers["Content-Type"] == "image/png"
    for path in (f"/days/{DAY}/yahtzee/log", f"/results/{code}/proof"):
        refused = client.get(f"/api/v1{path}")
        assert refused.status_code == 409, (path, refused.get_json())
        assert list(dice_in(refused.get_json())) == []
    live_clock.set(REVEALED)
    result = client.get(f"/api/v1/results/{code}").get_json()
    assert result["revealed"] is True and len(result["history"]) == 13
    # The link preview and the PNG card never draw dice: the same once they are public.
    assert client.get(f"/r/{code}/card.png").data == card.data
    assert meta_tags(client.get(f"/r/{code}").data) == meta_tags(page.data) != []


def meta_tags(html: bytes) -> list[str]:
    """The OpenGraph and Twitter tags of a page (what a link preview shows)."""
    return re.findall(r'<meta (?:property|name)="(?:og|twitter):[^>]*>', html.decode())


def test_hints_and_analysis_of_an_open_day_are_refused_without_dice(player: Player) -> None:
    state = start(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked",
                           "opponents": ["easy"]})
    for method, path in (("POST", "hint"), ("GET", "analysis")):
        refused = player.call(method, f"/games/{state['id']}/{path}",
                              {} if method == "POST" else None)
        assert refused.status_code == 403, refused.get_json()
        assert list(dice_in(refused.get_json())) == []
    state = play_out(player, state)
    refused = player.call("GET", f"/games/{state['id']}/analysis")
    assert refused.status_code == 403 and list(dice_in(refused.get_json())) == []


def test_another_players_game_and_bad_logs_answer_without_dice(make_player: Any) -> None:
    ada, eve = make_player("Ada"), make_player("Eve")
    state = start(ada, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked",
                        "opponents": LEVELS})
    state = play_out(ada, state, turns=2)
    for method, path, body in (
        ("GET", "", None), ("POST", "/roll", {"hold": "00000", "position": state["position"]}),
        ("POST", "/log", {"log": get(ada, state["id"])["log"]}),
    ):
        refused = eve.call(method, f"/games/{state['id']}{path}", body)
        assert refused.status_code == 403, refused.get_json()
        assert list(dice_in(refused.get_json())) == []
    # A submitted log that looks past the dice shown: refused, and no dice in the answer.
    log = get(ada, state["id"])["log"]
    log["turns"] = log["turns"] + [{"holds": ["00000", "00000"], "box": "chance"}]
    refused = ada.call("POST", f"/games/{state['id']}/log", {"log": log})
    assert refused.status_code in (409, 422), refused.get_json()
    assert list(dice_in(refused.get_json()["error"])) == []


def test_groups_boards_and_profiles_show_totals_only(make_player: Any) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    group = ada.call("POST", "/groups", {"name": "Friday club"}).get_json()
    bob.call("POST", f"/groups/{group['code']}/members", {})
    finished_ranked(ada, opponents=["easy"])
    finished_ranked(bob)
    for viewer in (ada, bob):
        view = viewer.call("GET", f"/groups/{group['code']}?date={DAY}").get_json()
        assert list(dice_in(view)) == []
        assert sorted(r["name"] for r in view["boards"][0]["rows"]) == ["Ada", "Bob"]
        me = viewer.call("GET", "/players/me").get_json()
        assert list(dice_in(me)) == []
    board = ada.client.get(f"/api/v1/leaderboards/{DAY}/yahtzee").get_json()
    assert list(dice_in(board)) == []
    today = ada.call("GET", "/today").get_json()
    assert list(dice_in(today)) == []


def test_a_games_own_state_holds_only_dice_it_rolled(player: Player, slot_log: Any) -> None:
    """No precomputed next roll: every answer's dice are of slots the log revealed, and no
    server process even computed another slot (no opponents here: a bot's game is
    computed whole, on the server)."""
    state = start(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked"})
    for _ in range(3):
        state = play_out(player, state, turns=1)
        full = get(player, state["id"])
        shown = revealed_slots(MoveLog.from_json(full["log"]), over=False)
        assert slot_log() <= set(shown), (slot_log(), shown)
        assert len(full["turn_rolls"]) == full["roll"] and full["dice"] == full["turn_rolls"][-1]
        for turn in full["history"]:
            assert len(turn["rolls"]) == len(turn["holds"]) + 1
        assert not any(key in full for key in ("next", "next_roll", "slots", "seed"))
        assert full["log"].get("seed") is None
