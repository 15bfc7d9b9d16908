"""No dice of an open day on any screen before the player rolls them, in real headless
Chromium: the computer opponents of a ranked game show boxes and points, and a word why,
until the day closes; then their whole turns, with die faces. The result page, and what
the browser keeps (the service worker's cache, localStorage), hold none of them either.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from daily import calendar
from tests.ops.serving import Serve, serve_env, start_serve
from tests.polling import PROCESS_TIMEOUT, wait_until

from .player import play_game, play_turn, state
from .server import LiveServer
from .test_browser import api_get, new_page, token_of

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]

LEVELS = ("easy", "medium", "hard")  # medium and hard: the heuristic player (no table)
HIDDEN_EN = "Boxes and points only: their dice are shown when the day closes."
HIDDEN_IT = "Solo caselle e punti: i loro dadi si vedono quando il giorno si chiude."


def opponent_faces(page: Page) -> dict[str, int]:
    """Die faces drawn on each opponent's card."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.opp-card')]
            .map(c => [c.dataset.testid, c.querySelectorAll('.face').length]))"""
    )


def hidden_cards(page: Page) -> None:
    """Every opponent's card: turns with boxes and points, no die face, the word why."""
    cards = page.locator(".opp-card")
    expect(cards).to_have_count(3)
    for level in LEVELS:
        card = page.get_by_test_id(f"opponent-{level}")
        expect(card).to_have_attribute("data-dice-hidden", "1")
    assert set(opponent_faces(page).values()) == {0}, opponent_faces(page)


def test_opponents_dice_are_hidden_until_the_day_closes(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, service_workers="allow")
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    for level in LEVELS:
        page.locator(f"#home-opp-{level}").check()
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game", timeout=120_000)
    for done in range(1, 4):
        play_turn(page)
        hidden_cards(page)
        for level in LEVELS:
            card = page.get_by_test_id(f"opponent-{level}")
            expect(card).to_have_attribute("data-turns", str(done))
            expect(card.get_by_test_id("dice-hidden")).to_have_text(HIDDEN_EN)
    page.locator("#lang").click()  # in Italian, the same word
    expect(page.get_by_test_id("opponent-easy").get_by_test_id("dice-hidden")).to_have_text(
        HIDDEN_IT)
    page.locator("#lang").click()
    page.screenshot(path=artifacts / "opponents-dice-hidden.png", full_page=True)
    play_game(page)
    hidden_cards(page)  # over, the day open: still hidden
    game_id = state(page)["id"]
    token = token_of(page)
    game = api_get(live_server, f"/games/{game_id}", token)
    code = game["result"]["code"]
    # Nothing the browser keeps has an opponent's dice: the service worker caches no
    # answer of the API, and localStorage holds the token, holds, preferences and the
    # player's own signed receipts (their own result: card and total, no dice).
    cached = page.evaluate(
        """async () => { const out = [];
            for (const name of await caches.keys()) {
              for (const r of await (await caches.open(name)).keys()) out.push(r.url); }
            return out; }""")
    assert cached and not [url for url in cached if "/api/" in url], cached
    stored = page.evaluate("() => ({...localStorage})")
    assert set(stored) <= {"dd.token", "dd.holds", "dd.lang", "dd.games", "dd.opponents",
                           "dd.receipts"}
    assert not [word for word in ("turns", "rolls", "dice") if word in json.dumps(stored)]
    # The result page of the open day: no dice.
    page.goto(f"/r/{code}")
    expect(page.get_by_text("The dice stay hidden until the day is revealed.")).to_be_visible()
    assert page.locator("section.result .face").count() == 0

    # The day closes: the same game shows each opponent's whole turns, with their dice.
    day = dt.date.fromisoformat(game["date"])
    live_server.clock.set(calendar.closes_at(day) + dt.timedelta(minutes=10))
    page.goto(f"/#/play/{game_id}")
    page.wait_for_selector("section.game[data-over='1']")
    revealed = api_get(live_server, f"/games/{game_id}", token)
    for opponent in revealed["opponents"]:
        card = page.get_by_test_id(f"opponent-{opponent['level']}")
        expect(card).to_have_attribute("data-dice-hidden", "0")
        expect(card.get_by_test_id("dice-hidden")).to_have_count(0)
        faces = card.locator(".face").evaluate_all("els => els.map(e => +e.dataset.face)")
        assert faces == [d for turn in opponent["turns"] for d in turn["dice"]]
        assert len(faces) == 13 * 5
    page.screenshot(path=artifacts / "opponents-dice-revealed.png", full_page=True)
    page.goto(f"/r/{code}")
    expect(page.locator("section.result .face").first).to_be_visible()
    assert json.dumps(revealed["opponents"]).count('"dice": null') == 0
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def demo_call(serve: Serve, method: str, path: str, body: Any = None,
              token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{serve.base}/api/v1{path}", data=data,
                                     headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.spawns
def test_on_the_demo_clock_the_opponents_dice_appear_when_the_day_closes(
    chromium: Browser, tmp_path: Path, artifacts: Path
) -> None:
    """``daily serve --demo-day-minutes 0.5`` (a day passes in 30 real seconds): a ranked
    game with the three opponents on the newest open date shows no opponent's die while
    the date is open; the demo clock runs on, the date closes, and the same screen shows
    their turns with their dice."""
    env = serve_env(tmp_path, DAILY_RULESETS="yahtzee")
    serve = start_serve(tmp_path, env, "--web-workers", "1", "--demo-day-minutes", "0.5")
    try:
        token = demo_call(serve, "POST", "/players", {"name": "Demo"})["token"]
        date = demo_call(serve, "GET", "/today")["open_dates"][-1]  # open 26 h or more
        game = demo_call(serve, "POST", "/games", {"ruleset": "yahtzee", "date": date,
                         "mode": "ranked", "opponents": list(LEVELS)}, token)
        context = chromium.new_context(base_url=serve.base, viewport={"width": 1280,
                                       "height": 800}, service_workers="block")
        stored = json.dumps(json.dumps(token))  # as store.js keeps it: JSON text
        context.add_init_script(f"localStorage.setItem('dd.token', {stored})")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/#/play/{game['id']}")
        page.wait_for_selector("section.game", timeout=120_000)
        for done in (1, 2):
            play_turn(page, max_rerolls=1)
            hidden_cards(page)
            expect(page.get_by_test_id("opponent-hard")).to_have_attribute(
                "data-turns", str(done))
        open_state = demo_call(serve, "GET", f"/games/{game['id']}", token=token)
        assert all(o["dice_hidden"] for o in open_state["opponents"])
        # The demo clock runs on: the date closes, and the dice are revealed.
        revealed = wait_until(
            lambda: (s := demo_call(serve, "GET", f"/games/{game['id']}", token=token))
            and not s["opponents"][0]["dice_hidden"] and s,
            PROCESS_TIMEOUT, 1.0, f"{date} did not close on the demo clock")
        page.reload()
        page.wait_for_selector("section.game")
        for opponent in revealed["opponents"]:
            card = page.get_by_test_id(f"opponent-{opponent['level']}")
            expect(card).to_have_attribute("data-dice-hidden", "0")
            faces = card.locator(".face").evaluate_all("els => els.map(e => +e.dataset.face)")
            assert faces == [d for turn in reversed(opponent["turns"]) for d in turn["dice"]]
            assert len(faces) == 2 * 5
        page.screenshot(path=artifacts / "opponents-demo-day-closed.png", full_page=True)
        assert not errors, errors
        context.close()
        assert serve.stop() == 0
    finally:
        serve.kill_everything()
    assert "Traceback" not in serve.log()
