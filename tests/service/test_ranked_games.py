"""Whole ranked games through the HTTP API (live gunicorn, two workers), and the
fair-play rules around them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from daily.movelog import MoveLog
from daily.replay import replay
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from daily.service.results.result import Result
from daily.service.results.stream import ResultStream
from tests.service.conftest import Player, play_out

pytestmark = [pytest.mark.redis, pytest.mark.live]


def start(player: Player, ruleset: str, date: str = "2026-11-29", mode: str = "ranked") -> Any:
    return player.call("POST", "/games", {"ruleset": ruleset, "date": date, "mode": mode})


@pytest.mark.parametrize(("ruleset", "dice", "boxes"), [("yahtzee", 5, 13), ("maxi-yatzy", 6, 20)])
def test_whole_ranked_game_is_verified_by_replay(
    service_config: Config, redis_client: Any, player: Player, ruleset: str, dice: int,
    boxes: int,
) -> None:
    response = start(player, ruleset)
    assert response.status_code == 201
    state = response.get_json()
    assert state["mode"] == "ranked" and state["date"] == "2026-11-29"
    assert (state["turn"], state["roll"], state["turns"]) == (1, 1, boxes)
    assert len(state["dice"]) == dice and state["result"] is None
    assert len(state["card"]) == boxes and all(c["points"] is None for c in state["card"])

    final = play_out(player, state)
    assert final["over"] and final["choices"] == [] and final["dice"] == []
    assert all(c["points"] is not None for c in final["card"])
    assert len(final["history"]) == boxes

    # The server's total is the core's replay of the log on the day's dice.
    seed = Keyring.load(service_config).day_seed(ruleset, "2026-11-29")
    log = MoveLog.from_json(final["log"])
    assert log.complete and log.day.isoformat() == "2026-11-29"
    assert replay(log, seed).total == final["total"] == final["result"]["total"]

    result = final["result"]
    assert re.fullmatch(r"DD-[0-9A-HJKMNP-TV-Z]{10}", result["code"])
    assert result["url"] == f"https://dice.example/r/{result['code']}"
    assert result["share_text"].endswith(result["url"])
    assert f"{final['total']} points" in result["share_text"]
    assert result["rank"] is None  # the worker has not put it on the board yet

    # The finish appended exactly one result to the results stream.
    stream = ResultStream(redis_client, prefix=service_config.key_prefix)
    entries = [e for key in stream.stream_keys() for e in redis_client.xrange(key)]
    assert len(entries) == 1 and stream.unapplied("2026-11-29") == 1
    appended = Result.from_json(entries[0][1][b"r"])
    assert (appended.game_id, appended.total) == (final["id"], final["total"])
    assert appended.player_id == player.id and MoveLog.from_text(appended.log) == log


def test_second_start_resumes_then_refuses(player: Player) -> None:
    first = start(player, "yahtzee").get_json()
    moved = player.call(
        "POST", f"/games/{first['id']}/roll", {"hold": "11000", "position": 0}
    ).get_json()

    # "Abandon" and start again: the same game, at the same position, same dice.
    again = start(player, "yahtzee")
    assert again.status_code == 200
    resumed = again.get_json()
    assert resumed["id"] == first["id"]
    assert (resumed["dice"], resumed["roll"]) == (moved["dice"], 2)

    final = play_out(player, resumed)
    refused = start(player, "yahtzee")
    assert refused.status_code == 409
    error = refused.get_json()["error"]
    assert error["code"] == "already_ranked" and error["field"] == "date"
    assert final["result"]["code"] in error["message"]

    # Practising on random dice is still allowed; the day's dice are not.
    assert start(player, "yahtzee", mode="practice").status_code == 409  # not revealed
    practice = player.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice"})
    assert practice.status_code == 201 and practice.get_json()["mode"] == "practice"


def test_each_set_and_each_player_has_its_own_game(player: Player, make_player: Any) -> None:
    yahtzee = start(player, "yahtzee").get_json()
    maxi = start(player, "maxi-yatzy").get_json()
    other_day = start(player, "yahtzee", "2026-11-30").get_json()
    assert len({yahtzee["id"], maxi["id"], other_day["id"]}) == 3
    bob = make_player("Bob")
    bobs = start(bob, "yahtzee").get_json()
    assert bobs["id"] != yahtzee["id"]
    assert bobs["dice"] == yahtzee["dice"]  # the same dice for everyone


def test_other_players_cannot_see_or_play_a_game(player: Player, make_player: Any) -> None:
    game = start(player, "yahtzee").get_json()
    eve = make_player("Eve")
    for method, path, body in [
        ("GET", f"/games/{game['id']}", None),
        ("POST", f"/games/{game['id']}/roll", {"hold": "00000", "position": 0}),
        ("POST", f"/games/{game['id']}/score", {"box": "chance", "position": 0}),
    ]:
        response = eve.call(method, path, body)
        assert response.status_code == 403, (path, response.get_json())
        assert response.get_json()["error"]["code"] == "forbidden"
    # Eve's attempt did not move Ada's game.
    assert player.call("GET", f"/games/{game['id']}").get_json()["dice"] == game["dice"]


def test_ranked_dice_come_only_after_every_preceding_decision(
    player: Player, slot_log: Any
) -> None:
    """The server computes a slot's dice only when the game reaches that slot: no
    worker process even asks for the dice of a slot beyond the game's position."""
    state = start(player, "yahtzee").get_json()
    assert slot_log() == {(0, 0)}
    reached = {(0, 0)}
    for _ in range(4):
        if state["rolls_left"]:
            state = player.call(
                "POST", f"/games/{state['id']}/roll",
                {"hold": "10000", "position": state["position"]},
            ).get_json()
            reached.add((state["turn"] - 1, state["roll"] - 1))
            assert slot_log() == reached
        box = next(c["box"] for c in state["choices"] if c["legal"])
        state = player.call("POST", f"/games/{state['id']}/score",
                            {"box": box, "position": state["position"]}).get_json()
        reached.add((state["turn"] - 1, 0))
        assert slot_log() == reached
        # Nothing in the state goes beyond the slots reached; the answer of a score is
        # the lighter one: the turn it filled, the whole history only on GET.
        assert "history" not in state and "log" not in state
        assert state["last_turn"]["box"] == box and state["last_turn"]["turn"] == state["turn"] - 1
        assert state["turn_rolls"] == [state["dice"]]


def test_the_day_seed_never_appears_in_any_response(
    service_config: Config, player: Player
) -> None:
    seeds = Keyring.load(service_config)
    secrets_hex = [
        seeds.day_seed(r, d).hex() for r in ("yahtzee", "maxi-yatzy")
        for d in ("2026-11-28", "2026-11-29", "2026-11-30")
    ]
    seen: list[bytes] = []
    state = start(player, "maxi-yatzy").get_json()
    final = play_out(player, state, seen=seen)
    code = final["result"]["code"]
    for path in ("/today", f"/results/{code}", f"/games/{final['id']}",
                 "/leaderboards/2026-11-29/maxi-yatzy", "/players/me", "/openapi.json"):
        seen.append(player.call("GET", path).data)
    bad = player.call("POST", f"/games/{final['id']}/log", {"log": {"format": "x"}})
    seen.append(bad.data)
    text = b"\n".join(seen).decode().lower()
    for seed_hex in secrets_hex:
        assert seed_hex not in text
    assert "seed" not in final["log"]
