"""Fair play in the browser: the proof-of-work of a new player, the review notice, the
ceiling line, in English and Italian."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Browser, expect

from daily.service import keymap
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stats import record_game
from daily.service.review.queue import ReviewQueue

from .player import play_game, state
from .server import LiveServer
from .test_browser import api_get, new_page, token_of

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]

#: The proof-of-work on (about 16,000 hashes: a few tens of milliseconds), and room for
#: two new players an hour from the test's one address.
POW = {"DAILY_PLAYER_POW_BITS": "14", "DAILY_PLAYER_LIMIT": "2/hour"}
#: Every text the "preparing your player" note showed, recorded as the page changes it.
RECORD_PREPARING = """
window.__preparing = [];
document.addEventListener("DOMContentLoaded", () => {
  const note = document.getElementById("preparing");
  new MutationObserver(() => {
    if (!note.hidden && note.textContent) window.__preparing.push(note.textContent);
  }).observe(note, { attributes: true, childList: true, characterData: true, subtree: true });
});
"""


@pytest.mark.parametrize("live_server", [POW], indirect=True)
def test_a_newcomer_solves_the_proof_of_work_and_plays(
    chromium: Browser, live_server: LiveServer
) -> None:
    context, page = new_page(chromium, live_server)
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    page.add_init_script(RECORD_PREPARING)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()  # creates the player: solves the challenge
    page.wait_for_selector("section.game")
    token = token_of(page)
    assert token and live_server.redis.exists(
        keymap.account(live_server.prefix, token.split(".")[0]))
    # solved off the page's thread, while the page said what it was doing
    assert [url for url in workers if url.endswith("/pow-worker.js")], workers
    assert "Preparing your player…" in page.evaluate("window.__preparing")
    expect(page.get_by_test_id("preparing")).to_be_hidden()
    play_game(page)
    game = api_get(live_server, f"/games/{state(page)['id']}", token)
    assert game["over"] and game["mode"] == "ranked" and game["result"]["code"]
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()

    # In Italian; then the address has made its two players this hour and says so.
    it_context, it_page = new_page(chromium, live_server, locale="it-IT")
    it_page.add_init_script(RECORD_PREPARING)
    it_page.goto("/")
    it_page.get_by_test_id("play-yahtzee").click()
    it_page.wait_for_selector("section.game")
    assert "Preparazione del tuo giocatore…" in it_page.evaluate("window.__preparing")
    third, third_page = new_page(chromium, live_server, locale="it-IT")
    third_page.goto("/")
    third_page.get_by_test_id("play-yahtzee").click()
    expect(third_page.locator("#banner")).to_contain_text(
        "Troppi nuovi giocatori dalla tua rete in questo momento: riprova tra")
    expect(third_page.get_by_test_id("preparing")).to_be_hidden()
    assert third_page.evaluate("localStorage.getItem('dd.token')") is None
    assert it_page.errors == [] and third_page.errors == []  # type: ignore[attr-defined]
    it_context.close()
    third.close()


def test_review_notice_and_ceiling(
    chromium: Browser, live_server: LiveServer
) -> None:
    context, page = new_page(chromium, live_server)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game")
    token = token_of(page)
    assert token and live_server.redis.exists(
        keymap.account(live_server.prefix, token.split(".")[0]))
    play_game(page)
    game_id = state(page)["id"]
    game = api_get(live_server, f"/games/{game_id}", token)
    log = game["log"]
    result = Result.from_json({
        "game_id": game["id"], "player_id": token.split(".")[0], "player_name": "x",
        "date": game["date"], "ruleset": "yahtzee", "total": game["total"],
        "finished_at": 1764400000.0, "code": game["result"]["code"], "log": log,
    })
    # What the results worker does for a flagged game (the detection itself is tested in
    # tests/fairplay and end to end in tests/service/test_fairplay_attack.py).
    ReviewQueue(live_server.redis, live_server.prefix).hold(result, {
        "method": "foresight-llr/1", "flagged": True, "decisions": 30,
        "optimal_in_hindsight": 29, "reason": "29 of 30 decisions were exactly the best",
        "ceiling": 346,
    })
    review = page.get_by_test_id("review")
    expect(review).to_contain_text("Under review", timeout=15_000)
    expect(review).to_contain_text("29 of your 30 decisions")
    assert page.errors == []  # type: ignore[attr-defined]

    # The result page in Italian, once the ceiling is known.
    live_server.redis.set(keymap.ceiling(live_server.prefix, game["date"], "yahtzee"),
                          json.dumps({"ceiling": 346}))
    it_context, it_page = new_page(chromium, live_server, locale="it-IT")
    it_page.goto(f"/r/{game['result']['code']}")
    expect(it_page.get_by_test_id("review")).to_contain_text("In revisione")
    expect(it_page.get_by_test_id("review")).to_contain_text("29 delle tue 30 decisioni")

    # A game on its way into the top waits for an operator: pending review.
    queue = ReviewQueue(live_server.redis, live_server.prefix)
    entry = queue.get(game_id)
    queue.conn.hset(queue.key(game["date"], "yahtzee"), game_id,
                    json.dumps({**entry.to_json(), "state": "pending"}))
    it_page.reload()
    expect(it_page.get_by_test_id("review")).to_contain_text("In attesa di revisione")
    expect(it_page.get_by_test_id("review")).to_contain_text(
        f"Il tuo {game['total']} entrerebbe in cima alla classifica")
    page.goto(f"/r/{game['result']['code']}")
    expect(page.get_by_test_id("review")).to_contain_text("Pending review")
    expect(page.get_by_test_id("review")).to_contain_text("appears there once an operator")
    assert page.errors == [] and it_page.errors == []  # type: ignore[attr-defined]
    context.close()
    it_context.close()


def test_ceiling_on_the_board(chromium: Browser, live_server: LiveServer) -> None:
    context, page = new_page(chromium, live_server)
    page.goto("/")
    date = page.evaluate("fetch('/api/v1/today').then(r => r.json())")["open_dates"][0]
    live_server.redis.set(keymap.ceiling(live_server.prefix, date, "yahtzee"),
                          json.dumps({"ceiling": 346}))
    page.goto(f"/#/board/{date}/yahtzee")
    expect(page.get_by_test_id("ceiling")).to_have_text("Perfect game with foresight: 346")
    context.close()


def test_a_provisional_player_is_told_in_plain_words(
    chromium: Browser, live_server: LiveServer
) -> None:
    """A new player's game counts for them, is left out of the public top where others
    stand, and the board and the profile say why, in English and Italian."""
    context, page = new_page(chromium, live_server)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game")
    token = token_of(page)
    play_game(page)
    game = api_get(live_server, f"/games/{state(page)['id']}", token)
    conn, prefix = live_server.redis, live_server.prefix
    mine = Result.from_json({
        "game_id": game["id"], "player_id": token.split(".")[0], "player_name": "Eve",
        "date": game["date"], "ruleset": "yahtzee", "total": game["total"],
        "finished_at": time.time(), "code": game["result"]["code"], "log": game["log"],
    })
    # What the results worker does (tested end to end in tests/service/test_provisional.py),
    # and a veteran with a passkey and seven days of play.
    board = Leaderboard(conn, game["date"], "yahtzee", prefix=prefix)
    board.record(mine)
    record_game(conn, mine, prefix=prefix)
    veteran = Result.from_json({**mine.to_json(), "game_id": "g_veteran", "player_id": "p_vet",
                                "player_name": "Ada", "code": "", "log": None})
    board.record(veteran)
    for k in range(8):
        record_game(conn, Result.from_json({**veteran.to_json(), "game_id": f"g_vet_{k}",
                                            "finished_at": time.time() - 86400 * k}),
                    prefix=prefix)
    conn.hset(keymap.passkeys(prefix, "p_vet"), "Y3JlZA", "{}")

    page.goto(f"/#/board/{game['date']}/yahtzee")
    note = page.get_by_test_id("board-provisional")
    expect(note).to_contain_text("provisional: on the public board after 7 days of play")
    expect(note).to_contain_text("no passkey: add a passkey")  # the browser has none
    expect(page.get_by_test_id("board-left-out")).to_contain_text(
        "1 game of a provisional player")
    top = page.locator("table.board").last
    expect(top).to_contain_text("Ada")
    expect(top).not_to_contain_text("Eve")
    expect(page.locator("table.board tr.me [data-mark='provisional']")).to_have_text(
        "provisional")  # your own row, around you
    page.goto("/#/profile")
    expect(page.get_by_test_id("profile-provisional")).to_contain_text("6 more days of play")
    expect(page.get_by_test_id("profile-days")).to_contain_text("Days of play: 1, on")
    page.goto("/#/")
    expect(page.get_by_test_id("home-provisional")).to_have_text(
        "provisional: on the public board after 7 days of play")
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()

    it_context, it_page = new_page(chromium, live_server, locale="it-IT")
    it_page.add_init_script(f"localStorage.setItem('dd.token', {json.dumps(json.dumps(token))})")
    it_page.goto("/#/profile")
    expect(it_page.get_by_test_id("profile-provisional")).to_contain_text(
        "provvisorio: nella classifica pubblica dopo 7 giorni di gioco")
    it_page.goto(f"/#/board/{game['date']}/yahtzee")
    expect(it_page.get_by_test_id("board-left-out")).to_contain_text(
        "1 partita di un giocatore provvisorio")
    assert it_page.errors == []  # type: ignore[attr-defined]
    it_context.close()
