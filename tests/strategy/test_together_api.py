"""Computer opponents, friend challenges, groups and link previews through the JSON API
(the live server: real gunicorn, two workers taking consecutive requests in turn; real
Redis, the real Yahtzee strategy table)."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from PIL import Image

from daily.dice import SlotCache
from daily.movelog import MoveLog
from daily.service import keymap
from daily.service.config import Config
from daily.service.social.challenges import Challenge
from daily.strategy.bots import play_bots
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.fileformat import save_table
from tests.service import conftest as service_fixtures

service_config = service_fixtures.service_config
clock = service_fixtures.clock
client = service_fixtures.client
player = service_fixtures.player
make_player = service_fixtures.make_player
Player = service_fixtures.Player
play_out = service_fixtures.play_out
live_env = service_fixtures.live_env
live_server = service_fixtures.live_server
live_config = service_fixtures.live_config
live_clock = service_fixtures.live_clock
live_client = service_fixtures.live_client

pytestmark = [pytest.mark.redis, pytest.mark.live]
DAY = "2026-11-29"


@pytest.fixture
def tables(service_config: Config, yahtzee_table: StrategyTable) -> StrategyTable:
    save_table(yahtzee_table, service_config.tables_dir)
    return yahtzee_table


def started(player: Player, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = player.call("POST", "/games", body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


# ----- computer opponents ---------------------------------------------------------------


def test_opponents_play_the_same_dice_and_are_shown_only_after_your_turn(
    player: Player, tables: StrategyTable
) -> None:
    state = started(player, {"ruleset": "yahtzee", "mode": "practice",
                             "opponents": ["easy", "medium", "hard"]})
    assert [o["level"] for o in state["opponents"]] == ["easy", "medium", "hard"]
    assert all(o["turns"] == [] and o["total"] == 0 for o in state["opponents"])
    seen: list[bytes] = []
    done = 0
    while not state["over"]:
        state = play_out(player, state, turns=1, seen=seen)
        done += 1
        for opponent in state["opponents"]:
            assert len(opponent["turns"]) == done  # never a turn past your own
            assert [t["turn"] for t in opponent["turns"]] == list(range(1, done + 1))
    # Each bot's final total is what the bots score on this game's dice, computed apart.
    seed = MoveLog.from_json(state["log"]).seed
    assert seed is not None
    expected = play_bots(tables, seed)
    got = {o["level"]: o["total"] for o in state["opponents"]}
    assert got == expected
    assert all(o["over"] for o in state["opponents"])
    hard = next(o for o in state["opponents"] if o["level"] == "hard")
    assert hard["expected"] == 254.6
    # The share text names the opponents the player chose, with their totals.
    first = state["result"]["share_text"].splitlines()[0]
    assert first.endswith(f" · vs. easy bot {got['easy']}, medium bot {got['medium']}, "
                          f"hard bot {got['hard']}"), first
    # Each bot's first roll is the game's first roll slot: the same dice as the player's.
    slots = SlotCache(seed, 5)
    for opponent in state["opponents"]:
        assert opponent["turns"][0]["rolls"][0] == list(slots(0, 0))


def test_ranked_opponents_never_show_a_later_slot(player: Player, tables: StrategyTable) -> None:
    state = started(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked",
                             "opponents": ["hard"]})
    for _ in range(4):
        before = state
        state = play_out(player, state, turns=1)
        shown = state["opponents"][0]["turns"]
        done = state["turn"] - 1  # the turns the player filled
        assert len(shown) == done == before["turn"]
        body = json.dumps(state["opponents"])
        # the dice of turn t+1 (the player's next turn) are the first roll shown now
        assert all(t["turn"] <= done for t in shown)
        assert f'"turn": {done + 1}' not in body
    # Resuming the ranked game keeps its opponents.
    again = started(player, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked"}, 200)
    assert again["id"] == state["id"] and len(again["opponents"][0]["turns"]) == 4


@pytest.mark.parametrize(("opponents", "message"), [
    (["impossible"], "'easy', 'medium' or 'hard'"), (["hard", "hard"], "at most once"),
    ("hard", "a valid list"),
])
def test_bad_opponents_are_refused_naming_the_field(
    player: Player, tables: StrategyTable, opponents: Any, message: str
) -> None:
    response = player.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice",
                                              "opponents": opponents})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["field"] == "opponents" and message in error["message"]


def test_without_its_table_a_heuristic_player_stands_in_for_the_whole_game(
    player: Player, tables: Any, service_config: Config, yatzy_table: StrategyTable
) -> None:
    body = {"ruleset": "yatzy", "mode": "practice", "opponents": ["easy", "hard"]}
    state = started(player, body)  # no Yatzy table yet
    assert {o["level"]: o["heuristic"] for o in state["opponents"]} == {
        "easy": False, "hard": True}
    # The stand-in's expected score is the heuristic player's measured mean.
    assert [o["expected"] for o in state["opponents"]] == [201.21, 240.36]
    state = play_out(player, state, turns=1)
    first = [o["turns"] for o in state["opponents"]]
    # The table arrives mid-game: this game keeps its stand-in, a new one gets the bot.
    save_table(yatzy_table, service_config.tables_dir)
    state = play_out(player, state, turns=1)
    assert [o["heuristic"] for o in state["opponents"]] == [False, True]
    assert [o["turns"][:1] for o in state["opponents"]] == first
    fresh = started(player, body)
    assert [o["heuristic"] for o in fresh["opponents"]] == [False, False]
    assert fresh["opponents"][1]["expected"] == round(yatzy_table.expected, 1)


def test_triple_yahtzee_opponents_are_the_lookahead_player(
    player: Player, service_config: Config, plain_yahtzee_table: StrategyTable
) -> None:
    """Triple Yahtzee's bots: the engine's lookahead player on the one-column table
    (easy: its greedy form); without that table a 409 naming the build."""
    body = {"ruleset": "triple-yahtzee", "mode": "practice", "opponents": ["easy", "hard"]}
    refused = player.call("POST", "/games", body)
    assert refused.status_code == 409
    error = refused.get_json()["error"]
    assert error["code"] == "opponents_unavailable" and error["field"] == "opponents"
    assert "daily strategy build" in error["message"]
    save_table(plain_yahtzee_table, service_config.tables_dir)
    state = started(player, body)
    assert [(o["level"], o["heuristic"], o["total"]) for o in state["opponents"]] == [
        ("easy", True, 0), ("hard", True, 0)]
    state = play_out(player, state, turns=2)
    for opponent in state["opponents"]:
        assert len(opponent["turns"]) == 2 and opponent["total"] >= 0


# ----- friend challenges ------------------------------------------------------------------


def test_a_challenge_gives_everyone_the_same_dice_and_compares_the_games(
    make_player: Any, tables: StrategyTable, redis_client: Any, service_config: Config
) -> None:
    ada, bob, cy = make_player("Ada"), make_player("Bob"), make_player("Cy")
    response = ada.call("POST", "/challenges", {"ruleset": "yahtzee"})
    assert response.status_code == 201
    made = response.get_json()
    assert re.fullmatch(r"CH-[0-9A-HJKMNP-TV-Z]{8}", made["code"])
    assert made["url"] == f"https://dice.example/c/{made['code']}"
    bodies: list[bytes] = []
    a = started(ada, {"challenge": made["code"].lower()})  # typed in lower case
    b = started(bob, {"challenge": made["code"], "blind": True})
    assert a["dice"] == b["dice"] and a["mode"] == b["mode"] == "practice"
    assert a["log"]["seed"] is None
    a = play_out(ada, a, seen=bodies)
    # Cy plays with the score to beat: Ada's card, turn by turn after Cy's own turns.
    c = started(cy, {"challenge": made["code"]})
    assert c["challenge"]["rival"]["name"] == "Ada" and c["challenge"]["rival"]["turns"] == []
    c = play_out(cy, c, turns=3, seen=bodies)
    rival = c["challenge"]["rival"]
    assert [t["turn"] for t in rival["turns"]] == [1, 2, 3]
    assert rival["turns"] == a["history"][:3]
    # Bob (blind) sees no rival; taking the challenge again resumes the same game.
    assert b["challenge"]["rival"] is None
    assert started(bob, {"challenge": made["code"]}, 200)["id"] == b["id"]
    # Before finishing, Bob sees totals only; after, the comparison with the analysis.
    view = bob.call("GET", f"/challenges/{made['code']}").get_json()
    assert {e["name"]: e["finished"] for e in view["entries"]} == {
        "Ada": True, "Bob": False, "Cy": False}
    assert "comparison" not in view
    b = play_out(bob, b, seen=bodies)
    view = bob.call("GET", f"/challenges/{made['code']}").get_json()
    assert [e["total"] for e in view["entries"][:2]] == sorted([a["total"], b["total"]],
                                                               reverse=True)
    turns = view["comparison"]
    assert len(turns) == 13 and {p["name"] for p in turns[0]["players"]} == {"Ada", "Bob"}
    assert all(p["loss"] is not None and p["loss"] >= 0 for t in turns for p in t["players"])
    assert max(p["gained"] for p in turns[0]["players"]) == 0
    # The challenge's seed never left the server; its games' dice are not public.
    assert b["log"]["seed"] is None
    stored = redis_client.get(keymap.challenge(service_config.key_prefix, made["code"]))
    seed = Challenge.loads(stored).seed
    assert seed and all(seed.encode() not in body for body in bodies)
    result = bob.client.get(f"/api/v1/results/{a['result']['code']}").get_json()
    assert result["revealed"] is False and "history" not in result
    assert bob.call("POST", f"/games/{b['id']}/hint", {}).status_code == 403


def test_a_challenge_from_a_result_code_keeps_the_options(make_player: Any, tables: Any) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    options = {"joker": False, "extra_yahtzee_bonus": False}
    a = play_out(ada, started(ada, {"ruleset": "yahtzee", "mode": "practice",
                                    "options": options}))
    made = ada.call("POST", "/challenges", {"code": a["result"]["code"]}).get_json()
    again = ada.call("POST", "/challenges", {"code": a["result"]["code"]}).get_json()
    assert again["code"] == made["code"]  # one challenge per result
    b = started(bob, {"challenge": made["code"]})
    assert b["options"] == a["options"] and b["dice"] == a["history"][0]["rolls"][0]
    assert b["challenge"]["rival"]["name"] == "Ada"
    view = bob.client.get(f"/api/v1/challenges/{made['code']}").get_json()
    assert [e["name"] for e in view["entries"]] == ["Ada", "Bob"]


def test_a_daily_result_code_is_a_challenge_that_is_your_ranked_game(
    make_player: Any, tables: Any
) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    a = play_out(ada, started(ada, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked"}))
    code = a["result"]["code"]
    b = started(bob, {"challenge": code})
    # While the day is open the challenge is Bob's one ranked game of the day, no other.
    assert b["mode"] == "ranked" and b["date"] == DAY
    assert started(bob, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked"}, 200)["id"] \
        == b["id"]
    assert b["challenge"]["rival"]["turns"] == []
    practice = bob.call("POST", "/games", {"ruleset": "yahtzee", "date": DAY,
                                           "mode": "practice"})
    assert practice.status_code == 409  # still no practice route on an open day
    view = bob.client.get(f"/api/v1/challenges/{code}").get_json()
    assert view["date"] == DAY and len(view["entries"]) == 2
    # A player who finished the day's ranked game already takes it with that game.
    cy = make_player("Cy")
    c = play_out(cy, started(cy, {"ruleset": "yahtzee", "date": DAY, "mode": "ranked"}))
    taken = started(cy, {"challenge": code}, 200)
    assert taken["id"] == c["id"] and taken["over"]
    view = cy.client.get(f"/api/v1/challenges/{code}").get_json()
    assert len(view["entries"]) == 3


@pytest.mark.parametrize(("body", "field"), [
    ({"ruleset": "chess"}, "ruleset"), ({"code": "DD-ZZZZZZZZZZ"}, "code"),
    ({"ruleset": "yahtzee", "colour": 1}, "colour"), ({"code": "DD-U"}, "code"),
])
def test_bad_challenges_are_refused_naming_the_field(
    player: Player, body: dict[str, Any], field: str
) -> None:
    response = player.call("POST", "/challenges", body)
    assert 400 <= response.status_code < 500
    assert response.get_json()["error"]["field"] == field


def test_an_unknown_challenge_is_a_404(player: Player) -> None:
    response = player.call("POST", "/games", {"challenge": "CH-00000000"})
    assert response.status_code == 404
    assert response.get_json()["error"]["field"] == "challenge"
    assert response.get_json()["error"]["code"] == "unknown_challenge"
    response = player.call("POST", "/games", {"challenge": "CH-UUUU"})
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "bad_challenge_code"
    assert player.call("GET", "/challenges/CH-00000000").get_json()["error"]["code"] == (
        "unknown_challenge")


# ----- groups -------------------------------------------------------------------------------


def test_groups_boards_week_and_streaks(make_player: Any, clock: Any) -> None:
    ada, bob, eve = make_player("Ada"), make_player("Bob"), make_player("Eve")
    response = ada.call("POST", "/groups", {"name": "  Friday   club "})
    assert response.status_code == 201
    group = response.get_json()
    assert group["name"] == "Friday club" and re.fullmatch(r"G-[0-9A-Z]{6}", group["code"])
    joined = bob.call("POST", f"/groups/{group['code'].lower()}/members", {}).get_json()
    assert sorted(m["name"] for m in joined["members"]) == ["Ada", "Bob"]
    for p in (ada, bob):
        for day in ("2026-11-28", DAY):
            play_out(p, started(p, {"ruleset": "yahtzee", "date": day, "mode": "ranked"}))
    a_today = ada.call("GET", "/players/me").get_json()
    assert a_today
    view = ada.call("GET", f"/groups/{group['code']}?date={DAY}").get_json()
    board = next(b for b in view["boards"] if b["ruleset"] == "yahtzee")
    assert {r["name"] for r in board["rows"]} == {"Ada", "Bob"}
    assert board["rows"][0]["rank"] == 1
    assert board["rows"][0]["total"] >= board["rows"][1]["total"]
    week = next(s for s in view["week"]["standings"] if s["ruleset"] == "yahtzee")
    assert view["week"]["from"] == "2026-11-23" and all(r["days"] == 2 for r in week["rows"])
    assert {s["name"]: s["streak"] for s in view["streaks"]} == {"Ada": 2, "Bob": 2}
    # Every member carries their public id (names that collide get a tag from it).
    assert {m["id"] for m in view["members"]} == {s["id"] for s in view["streaks"]} == {
        ada.id, bob.id}
    assert [g["name"] for g in ada.call("GET", "/groups").get_json()["groups"]] == ["Friday club"]
    # Only members see it; leaving takes you out.
    refused = eve.call("GET", f"/groups/{group['code']}")
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "not_in_group"
    # The invite link: anyone with it sees the group's name and size, and may join.
    assert group["url"].endswith(f"/g/{group['code']}")
    invite = eve.client.get(f"/api/v1/groups/{group['code'].lower()}/invite").get_json()
    assert invite == {"code": group["code"], "name": "Friday club", "url": group["url"],
                      "members": 2, "member": False, "inviter": "Ada"}  # who made it
    assert ada.call("GET", f"/groups/{group['code']}/invite").get_json()["member"] is True
    page = eve.client.get(f"/g/{group['code']}")
    assert page.status_code == 200 and b'og:title" content="Join Friday club' in page.data
    assert eve.client.get(f"/g/{group['code']}/card.png").status_code == 200
    assert eve.client.get("/g/G-000000").status_code == 404
    assert bob.call("DELETE", f"/groups/{group['code']}/members/me").status_code == 204
    assert bob.call("GET", "/groups").get_json()["groups"] == []
    gone = bob.call("DELETE", f"/groups/{group['code']}/members/me")
    assert gone.status_code == 404 and gone.get_json()["error"]["code"] == "not_in_group"
    bad = ada.call("POST", "/groups", {"name": ""}).get_json()["error"]
    assert (bad["field"], bad["code"]) == ("name", "bad_group_name")
    # As a player's name: no control, bidi or zero-width character.
    for name in ("Club\u202eevil", "Fri\u200bday", "tab\there", "x\u2066y"):
        refused = ada.call("POST", "/groups", {"name": name})
        assert refused.status_code == 422, name
        assert refused.get_json()["error"]["code"] == "bad_group_name"
    unknown = ada.call("POST", "/groups/G-000000/members", {})
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "unknown_group"
    bad = ada.call("POST", "/groups/G-V5QAZPX/members", {}).get_json()["error"]
    assert (bad["field"], bad["code"]) == ("code", "bad_group_code")


# ----- link previews ------------------------------------------------------------------------


def test_result_and_challenge_pages_carry_link_previews(
    player: Player, tables: Any, service_config: Config
) -> None:
    final = play_out(player, started(player, {"ruleset": "yahtzee", "date": DAY,
                                              "mode": "ranked"}))
    code = final["result"]["code"]
    page = player.client.get(f"/r/{code}", headers={"Accept-Language": "it"}).get_data(True)
    image = re.search(r'<meta property="og:image" content="([^"]+)">', page)
    assert image and image.group(1) == f"https://dice.example/r/{code}/card.png?lang=it"
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert f"{final['total']} punti" in page
    png = player.client.get(f"/r/{code}/card.png")
    assert png.mimetype == "image/png"
    assert Image.open(io.BytesIO(png.data)).size == (1200, 630)
    # Drawn once, kept on disk by what it shows: both workers answer the kept file, with
    # an ETag and a max-age the proxy in front honours (tests/ops/test_nginx_errors.py).
    assert png.headers["Cache-Control"] == "public, max-age=300"
    assert "Accept-Language" in png.headers["Vary"]
    kept = sorted(service_config.cards_dir.glob("*.png"))
    assert png.data in [p.read_bytes() for p in kept]
    again = player.client.get(f"/r/{code}/card.png")
    assert again.data == png.data and again.worker != png.worker
    assert sorted(service_config.cards_dir.glob("*.png")) == kept  # read, not drawn again
    etag = png.headers["ETag"]
    assert player.client.get(f"/r/{code}/card.png",
                             headers={"If-None-Match": etag}).status_code == 304
    italian = player.client.get(f"/r/{code}/card.png?lang=it")
    assert italian.data != png.data
    assert "Accept-Language" not in italian.headers.get("Vary", "")
    assert player.client.get("/r/DD-0000000000/card.png").status_code == 404
    made = player.call("POST", "/challenges", {"code": code}).get_json()
    page = player.client.get(f"/c/{made['code']}").get_data(True)
    assert f'content="https://dice.example/c/{made["code"]}/card.png?lang=en"' in page
    assert player.client.get(f"/c/{made['code']}/card.png").mimetype == "image/png"
    assert player.client.get("/c/CH-00000000").status_code == 404
    # The share text follows the request's language, without a legend.
    it = player.client.get(f"/api/v1/games/{final['id']}",
                           headers={**player.headers, "Accept-Language": "it"})
    text = it.get_json()["result"]["share_text"]
    assert f"{final['total']} punti" in text and "60%" not in text and len(text.splitlines()) == 3
