"""Submitting a whole move log: verified against what the server revealed (live
gunicorn, two workers)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from daily.movelog import MoveLog
from daily.replay import replay
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from tests.service.conftest import Player, play_out

pytestmark = [pytest.mark.redis, pytest.mark.live]


def ranked(player: Player, ruleset: str = "yahtzee") -> dict[str, Any]:
    response = player.call(
        "POST", "/games", {"ruleset": ruleset, "date": "2026-11-29", "mode": "ranked"}
    )
    assert response.status_code == 201
    return response.get_json()


def completed_log(state: dict[str, Any]) -> dict[str, Any]:
    """The game's log so far, finished blind: every open box in card order, no rerolls
    (a finished turn in progress keeps its holds)."""
    log = copy.deepcopy(state["log"])
    open_boxes = [c["box"] for c in state["card"] if c["points"] is None]
    turns = log["turns"]
    if turns and "category" not in turns[-1]:
        turns[-1]["category"] = open_boxes.pop(0)
    turns.extend({"holds": [], "category": box} for box in open_boxes)
    return log


def whole(player: Player, state: dict[str, Any]) -> dict[str, Any]:
    """The whole state of the game (with its log): a move answers without it."""
    return player.call("GET", f"/games/{state['id']}").get_json()


def submit(player: Player, game_id: str, log: Any) -> Any:
    return player.call("POST", f"/games/{game_id}/log", {"log": log})


def error_of(response: Any) -> dict[str, Any]:
    body = response.get_json()
    assert "error" in body, body
    return body["error"]


def test_a_consistent_log_finishes_the_game(service_config: Config, player: Player) -> None:
    state = play_out(player, ranked(player), turns=12)
    state = player.call("POST", f"/games/{state['id']}/roll",
                        {"hold": "11100", "position": state["position"]}).get_json()
    state = whole(player, state)
    log = completed_log(state)  # the last box, on the dice showing
    response = submit(player, state["id"], log)
    assert response.status_code == 200, response.get_json()
    final = response.get_json()
    assert final["over"] and final["result"]["code"].startswith("DD-")
    assert final["position"] == state["position"] + 1
    seed = Keyring.load(service_config).day_seed("yahtzee", "2026-11-29")
    assert final["total"] == replay(MoveLog.from_json(log), seed).total
    # Submitting the same log again is harmless; the same result comes back.
    again = submit(player, state["id"], log)
    assert again.status_code == 200
    assert again.get_json()["result"]["code"] == final["result"]["code"]
    # The text form is accepted as well.
    assert submit(player, state["id"], MoveLog.from_json(log).to_text()).status_code == 200


def test_a_log_past_what_was_revealed_is_refused(player: Player) -> None:
    """Decisions on dice never shown are refused before any rule is looked at."""
    state = whole(player, play_out(player, ranked(player), turns=4))
    blind = completed_log(state)  # boxes for turns whose dice were never shown
    error = error_of(submit(player, state["id"], blind))
    assert (error["status"], error["code"], error["field"]) == (409, "not_revealed", "log.turns")
    assert (error["turn"], error["roll"]) == (state["turn"] + 1, 1)
    rerolled = copy.deepcopy(state["log"])
    rerolled["turns"][-1]["holds"] = ["00000"]  # the second roll of this turn is hidden
    error = error_of(submit(player, state["id"], rerolled))
    assert (error["code"], error["turn"], error["roll"]) == ("not_revealed", state["turn"], 2)
    after = player.call("GET", f"/games/{state['id']}").get_json()
    assert after["position"] == state["position"] and not after["over"]


def test_a_finished_game_accepts_only_its_own_log(player: Player) -> None:
    final = play_out(player, ranked(player))
    assert submit(player, final["id"], final["log"]).status_code == 200
    tampered = copy.deepcopy(final["log"])
    first, second = tampered["turns"][0]["category"], tampered["turns"][1]["category"]
    tampered["turns"][0]["category"], tampered["turns"][1]["category"] = second, first
    error = error_of(submit(player, final["id"], tampered))
    assert error["status"] == 409 and error["code"] == "log_mismatch"
    assert (error["field"], error["turn"]) == ("log.turns.category", 1)
    assert f"the log fills {second!r} where the game filled {first!r}" in error["message"]


def test_a_changed_hold_is_rejected_with_turn_and_roll(player: Player) -> None:
    state = play_out(player, ranked(player), turns=2)
    for hold in ("11000", "11100"):
        state = player.call("POST", f"/games/{state['id']}/roll",
                            {"hold": hold, "position": state["position"]}).get_json()
    log = copy.deepcopy(whole(player, state)["log"])
    log["turns"][2]["holds"][1] = "00111"
    log["turns"][2]["category"] = "chance"
    error = error_of(submit(player, state["id"], log))
    assert error["code"] == "log_mismatch"
    assert (error["field"], error["turn"], error["roll"]) == ("log.turns.holds", 3, 3)
    assert "'00111' where the game rerolled with hold '11100'" in error["message"]
    # The game is untouched by the refused log.
    assert player.call("GET", f"/games/{state['id']}").get_json()["roll"] == 3


def test_forged_logs_are_rejected_precisely(player: Player) -> None:
    state = whole(player, play_out(player, ranked(player), turns=12))
    good = completed_log(state)
    cases: list[tuple[Any, int, str, str, dict[str, Any]]] = []

    other_day = dict(good, day="2026-11-30")
    # 409: the log is well formed (the document's schema) but does not fit this game
    cases.append((other_day, 409, "log_mismatch", "log.day", {}))
    other_rules = completed_log(state) | {"ruleset": "yatzy"}
    cases.append((other_rules, 409, "invalid_log", "log.turns.category", {}))
    with_seed = {k: v for k, v in good.items() if k != "day"} | {"seed": "00" * 32}
    cases.append((with_seed, 409, "log_mismatch", "log.day", {}))
    short = dict(good, turns=good["turns"][:5])
    cases.append((short, 409, "log_mismatch", "log.turns", {"turn": 6}))
    twice = copy.deepcopy(good)
    twice["turns"][12]["category"] = twice["turns"][11]["category"]
    cases.append((twice, 409, "illegal_move", "box", {"turn": 13}))
    past = copy.deepcopy(good)
    past["turns"][12]["holds"] = ["10000"]
    cases.append((past, 409, "not_revealed", "log.turns", {"turn": 13, "roll": 2}))
    # 422: the document's schema refuses it
    bad_mask = copy.deepcopy(good)
    bad_mask["turns"][2]["holds"] = ["1120"]
    cases.append((bad_mask, 422, "invalid_field", "log.turns.holds", {"turn": 3, "roll": 2}))
    cases.append(({"format": "daily-log/9"}, 422, "invalid_field", "log.format", {}))
    cases.append(("not a log", 422, "invalid_field", "log", {}))
    cases.append((17, 422, "invalid_field", "log", {}))
    cases.append((dict(good, total=999), 422, "invalid_field", "log.total", {}))

    for log, status, code, field, where in cases:
        response = submit(player, state["id"], log)
        error = error_of(response)
        assert (response.status_code, error["code"], error["field"]) == (status, code, field), (
            log if not isinstance(log, dict) else list(log), error
        )
        for key, value in where.items():
            assert error[key] == value, error
    assert player.call("GET", f"/games/{state['id']}").get_json()["over"] is False


def test_practice_log_needs_the_practice_seed(player: Player) -> None:
    state = player.call("POST", "/games", {"ruleset": "yacht", "mode": "practice"}).get_json()
    assert state["log"]["seed"] is None  # shown only once the game is over
    log = completed_log(state) | {"seed": "ab" * 32}
    log.pop("day", None)
    error = error_of(submit(player, state["id"], log))
    assert (error["code"], error["field"]) == ("log_mismatch", "log.seed")
    final = play_out(player, state)
    assert final["log"]["seed"] and len(final["log"]["seed"]) == 64
    assert submit(player, final["id"], final["log"]).status_code == 200
