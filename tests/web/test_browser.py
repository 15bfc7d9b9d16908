"""End-to-end tests of the web client in real headless Chromium against the real app.

Each test plays through the page like a person would (clicks, keys), then checks what
the page shows against the game core (replay of the move log with the day seed) and
against the API.
"""

from __future__ import annotations

import itertools
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from daily.dice import day_seed
from daily.movelog import MoveLog
from daily.replay import replay
from daily.service import keymap
from tests.polling import PROCESS_TIMEOUT

from .player import pick_box, play_game, play_turn, state
from .server import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def new_page(
    browser: Browser, server: LiveServer, *, viewport: dict | None = None, locale: str = "en-GB",
    clipboard: bool = False, web_share: bool = False, **kwargs: Any,
) -> tuple[BrowserContext, Page]:
    # The service worker is the subject of tests/web/test_app_install.py; elsewhere every
    # request goes straight to the server.
    kwargs.setdefault("service_workers", "block")
    context = browser.new_context(
        base_url=server.url, viewport=viewport or LAPTOP, locale=locale, **kwargs
    )
    if web_share:
        # Linux Chromium has no Web Share API; this stand-in records what the page shares.
        context.add_init_script(
            "window.__shared = []; navigator.share = (data) =>"
            " { window.__shared.push(data); return Promise.resolve(); };"
        )
    if clipboard:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # Anything the Content-Security-Policy blocks is an error of the page too. (Wait for
    # page state with a function, "() => ...": a bare expression string is run with
    # eval, which the CSP refuses.)
    page.on("console", lambda msg: errors.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    page.errors = errors  # type: ignore[attr-defined]
    # The worker process that answered each API request, in order.
    workers: list[str] = []
    page.on("response", lambda r: workers.append(r.headers.get("x-worker-pid", "?"))
            if "/api/v1/" in r.url else None)
    page.served_by = workers  # type: ignore[attr-defined]
    return context, page


def api_get(server: LiveServer, path: str, token: str) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + "/api/v1" + path, headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def token_of(page: Page) -> str:
    return json.loads(page.evaluate("localStorage.getItem('dd.token')"))


def no_horizontal_scroll(page: Page) -> None:
    """Nothing sticks out to the right: the page never scrolls sideways."""
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
                  Math.max(...[...document.querySelectorAll('body *')]
                    .map(e => e.getBoundingClientRect().right))]"""
    )
    assert widths[0] <= widths[1] and widths[2] <= widths[1] + 0.5, (
        f"page scrolls sideways: {widths}"
    )


def unlabelled_controls(page: Page) -> list[str]:
    """Buttons, links and fields a screen reader would announce without a name."""
    return page.evaluate(
        """() => [...document.querySelectorAll('button, a[href], input, select, textarea')]
          .filter(e => e.offsetParent !== null)
          .filter(e => {
            const label = e.getAttribute('aria-label') || e.textContent.trim()
              || (e.id && document.querySelector(`label[for="${e.id}"]`)?.textContent.trim());
            return !label;
          })
          .map(e => e.outerHTML.slice(0, 80))"""
    )


def check_total_against_core(server: LiveServer, page: Page, ruleset: str) -> dict[str, Any]:
    """The final total on screen equals the core's replay of the server's move log."""
    game_id = state(page)["id"]
    game = api_get(server, f"/games/{game_id}", token_of(page))
    assert game["over"] and game["ruleset"] == ruleset
    seed = day_seed(server.master, ruleset, game["date"])
    result = replay(MoveLog.from_json(game["log"]), seed=seed)
    shown = int(page.get_by_test_id("final-total").inner_text())
    assert result.complete
    assert shown == result.total == game["total"]
    assert int(page.get_by_test_id("total").inner_text()) == result.total
    return game


def test_ranked_yahtzee_by_clicking_then_share_result_and_leaderboard(
    chromium: Browser, live_server: LiveServer, run_results_worker: Any, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, clipboard=True, web_share=True)
    page.goto("/")
    expect(page.get_by_test_id("play-yahtzee")).to_be_visible()
    page.screenshot(path=artifacts / "laptop-home.png")
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game")
    first = state(page)
    assert (first["turn"], first["left"], len(first["dice"])) == (1, 2, 5)
    # A kept die is marked in words, not only by colour, and stays in place.
    page.locator(".die[data-index='1']").click()
    expect(page.locator(".die[data-index='1']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".die[data-index='1'] .kept-label")).to_have_text("Kept")
    page.screenshot(path=artifacts / "laptop-game.png", full_page=True)
    page.locator(".die[data-index='1']").click()

    boxes = play_game(page)
    assert len(boxes) == 13
    game = check_total_against_core(live_server, page, "yahtzee")
    assert game["result"]["code"]
    # Two worker processes answered the page's requests, in turn.
    pids = page.served_by  # type: ignore[attr-defined]
    switched = sum(a != b for a, b in itertools.pairwise(pids)) / (len(pids) - 1)
    assert len(set(pids)) == 2 and switched >= 0.9, (switched, pids)

    # Copy result: the share text lands on the clipboard.
    page.get_by_test_id("copy-result").click()
    expect(page.locator("#toast")).to_have_text("Result copied to the clipboard.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == game["result"]["share_text"]
    assert str(game["total"]) in copied
    page.get_by_role("button", name="Share").click()
    page.wait_for_function("() => window.__shared.length === 1")
    assert page.evaluate("window.__shared[0].text") == game["result"]["share_text"]

    # The worker writes the result to the board; the end screen then shows the rank.
    run_results_worker()
    expect(page.get_by_test_id("rank")).to_contain_text("Rank 1 of 1", timeout=15_000)
    expect(page.locator(".chart .bar.mine")).to_have_count(1)
    page.screenshot(path=artifacts / "laptop-end.png", full_page=True)

    # A friend opens the result link in another browser context (no token).
    link = page.get_by_test_id("result-link").get_attribute("href")
    assert link and link.startswith("/r/")
    friend_context, friend = new_page(chromium, live_server)
    friend.goto(link)
    expect(friend.get_by_test_id("result-total")).to_have_text(str(game["total"]))
    expect(friend.locator(".result")).to_contain_text("dice stay hidden")
    expect(friend.locator(".turns")).to_have_count(0)
    expect(friend.get_by_test_id("play-same")).to_be_visible()
    friend.screenshot(path=artifacts / "laptop-result.png", full_page=True)
    friend.goto(link.lower())  # codes are case-insensitive
    expect(friend.get_by_test_id("result-total")).to_have_text(str(game["total"]))
    friend.goto("/r/DD-0000000000")
    expect(friend.locator("#view [role=alert]")).to_have_text("Nothing found here.")

    # The leaderboard lists the player, and marks the row as theirs. The par job's
    # figures (written where the par worker writes them) are shown beside it.
    live_server.redis.set(
        keymap.par(live_server.prefix, game["date"], "yahtzee"),
        json.dumps({"easy": 231, "medium": 245, "hard": 262}),
    )
    page.goto(f"/#/board/{game['date']}/yahtzee")
    expect(page.get_by_test_id("par")).to_have_text(
        "Par (bots on the same dice): easy 231 · medium 245 · hard 262"
    )
    row = page.locator("table.board tr.me")
    expect(row).to_contain_text(str(game["total"]))
    expect(row).to_contain_text("(you)")
    expect(page.locator(".board-meta")).to_contain_text("1 player")
    page.screenshot(path=artifacts / "laptop-leaderboard.png", full_page=True)
    # Past days: one step back is the day before, with its own (empty) board.
    page.get_by_role("button", name="Previous day").click()
    expect(page.locator(".boards")).to_contain_text("Nobody has finished this set yet.")
    assert page.evaluate("location.hash").endswith("/yahtzee")

    # The home page now says the set was played.
    page.goto("/#/")
    expect(page.locator(".set-card[data-ruleset='yahtzee'] .played")).to_contain_text(
        str(game["total"])
    )
    assert not page.errors and not friend.errors  # type: ignore[attr-defined]
    friend_context.close()
    context.close()


def test_maxi_yatzy_on_a_phone_keyboard_only_with_reload_and_language_switch(
    chromium: Browser, live_server: LiveServer, run_results_worker: Any, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, viewport=PHONE, locale="it-IT", has_touch=True)
    page.goto("/")
    # The browser speaks Italian: so does the page.
    expect(page.get_by_test_id("play-maxi-yatzy")).to_have_text("Gioca")
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "phone-home-it.png", full_page=True)
    page.get_by_test_id("play-maxi-yatzy").click()
    page.wait_for_selector("section.game")
    assert len(state(page)["dice"]) == 6
    expect(page.locator(".card")).to_contain_text("Tris")
    expect(page.locator(".card")).to_contain_text("Scala completa")
    no_horizontal_scroll(page)
    assert unlabelled_controls(page) == []
    page.screenshot(path=artifacts / "phone-game-it.png")

    # Touch targets are at least 44 px.
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('section.game button, #nav a, #lang')]
             .filter(b => b.offsetParent !== null)
             .map(b => { const r = b.getBoundingClientRect();
                         return [b.dataset.box || b.textContent.trim(), r.width, r.height]; })"""
    )
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small

    # Keyboard only: a few turns, then a reload resumes exactly where the game was.
    play_game(page, keyboard=True, turns=3)
    page.keyboard.press("1")  # a kept die survives the reload too
    before = state(page)
    assert before["turn"] == 4 and before["kept"][0]
    page.reload()
    after = state(page)
    assert {k: after[k] for k in ("id", "turn", "roll", "dice", "kept")} == {
        k: before[k] for k in ("id", "turn", "roll", "dice", "kept")
    }

    # Enter on the focused Roll button rolls, and the focus stays on it for the next roll.
    page.get_by_test_id("roll").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('section.game').dataset.roll == {after['roll'] + 1}"
        " && document.querySelector('section.game').dataset.busy == '0'"
    )
    assert page.evaluate("document.activeElement.dataset.key") == "roll"

    # Switch to English and back.
    page.locator("#lang").click()
    expect(page.locator(".card")).to_contain_text("Three of a kind")
    expect(page.get_by_test_id("roll")).to_have_text("Roll")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("#lang").click()
    expect(page.get_by_test_id("roll")).to_have_text("Lancia")

    play_game(page, keyboard=True)
    game = check_total_against_core(live_server, page, "maxi-yatzy")
    run_results_worker()
    expect(page.get_by_test_id("rank")).to_contain_text("Posizione 1 su 1", timeout=15_000)
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "phone-end-it.png")
    page.goto("/#/board")
    page.locator(".tabs a", has_text="Maxi Yatzy").click()
    expect(page.locator("table.board tr.me")).to_contain_text(str(game["total"]))
    expect(page.locator("table.board tr.me")).to_contain_text("(tu)")
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "phone-leaderboard-it.png", full_page=True)
    assert unlabelled_controls(page) == []
    page.goto("/#/profile")
    expect(page.get_by_test_id("show-token")).to_be_visible()
    no_horizontal_scroll(page)
    assert unlabelled_controls(page) == []
    page.goto("/#/rules")
    expect(page.locator(".rules [data-ruleset='maxi-yatzy']")).to_contain_text("Scala completa")
    no_horizontal_scroll(page)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_token_moves_the_game_to_another_device(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, clipboard=True)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game")
    play_turn(page)
    where = state(page)
    token = token_of(page)

    page.goto("/#/profile")
    page.locator("#name").fill("Ada")
    page.locator("#name").press("Enter")
    expect(page.locator(".profile form [role=status]").first).to_contain_text("you are Ada")
    page.get_by_test_id("show-token").click()
    expect(page.locator("#token-text")).to_have_value(token)
    expect(page.locator("[data-testid=qr] svg")).to_be_visible()
    page.screenshot(path=artifacts / "laptop-profile.png", full_page=True)

    # The other device scans the QR link (or pastes the token) and resumes the game.
    other_context, other = new_page(chromium, live_server, viewport=PHONE)
    other.goto(f"/#/import/{token}")
    expect(other.locator("#name")).to_have_value("Ada")
    other.goto("/#/")
    resume = other.get_by_test_id("play-yahtzee")
    expect(resume).to_have_text("Resume")
    resume.click()
    moved = state(other)
    assert {k: moved[k] for k in ("id", "turn", "roll", "dice")} == {
        k: where[k] for k in ("id", "turn", "roll", "dice")
    }
    # A wrong token is refused and does not replace the good one.
    other.goto("/#/profile")
    other.locator("#import-token").fill("not-a-token")
    other.locator("#import-token").press("Enter")
    expect(other.get_by_text("That token is not recognised.")).to_be_visible()
    assert token_of(other) == token
    assert not page.errors and not other.errors  # type: ignore[attr-defined]
    other_context.close()
    context.close()


def test_lost_answers_never_lose_or_repeat_a_move(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    s = state(page)

    # 1. The network is down: the roll never reaches the server; Retry sends it.
    page.route("**/roll", lambda route: route.abort("internetdisconnected"))
    page.locator(".die[data-index='0']").click()
    page.get_by_test_id("roll").click()
    expect(page.locator("#banner")).to_contain_text("Connection lost")
    page.screenshot(path=artifacts / "laptop-network-error.png")
    assert state(page)["roll"] == s["roll"]
    page.unroute("**/roll")
    page.locator("#banner").get_by_role("button", name="Retry").click()
    page.wait_for_function(
        f"() => document.querySelector('section.game').dataset.roll == {s['roll'] + 1}"
    )
    after_roll = state(page)
    assert after_roll["kept"][0] and after_roll["dice"][0] == s["dice"][0]

    # 2. The server takes the move but the answer is lost: Retry must not score twice.
    def lose_answer(route: Any) -> None:
        route.fetch()  # the server applies the move...
        route.abort("connectionreset")  # ...and the page never hears about it

    page.route("**/score", lose_answer)
    best = max(after_roll["choices"], key=lambda c: c["points"])
    pick_box(page, best["box"], best["points"])
    expect(page.locator("#banner")).to_contain_text("Connection lost")
    page.unroute("**/score")
    # The player does not press Retry but rolls again: the page first asks the server,
    # finds the box already scored, and shows turn 2 without sending that roll.
    assert state(page)["left"] == 1
    page.get_by_test_id("roll").click()
    page.wait_for_function("() => document.querySelector('section.game').dataset.turn == 2")
    assert state(page)["roll"] == 1
    expect(page.locator(f".card li.filled[data-box='{best['box']}']")).to_have_count(1)
    expect(page.locator("#banner")).to_be_hidden()
    game = api_get(live_server, f"/games/{after_roll['id']}", token_of(page))
    assert game["turn"] == 2 and len(game["history"]) == 1

    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_practice_a_revealed_day_then_its_result_shows_every_roll(
    chromium: Browser, live_server: LiveServer, yahtzee_table: Any, artifacts: Path
) -> None:
    from daily.strategy.tables.fileformat import save_table

    save_table(yahtzee_table, Path(live_server.env["DAILY_DATA_DIR"]) / "tables")
    context, page = new_page(chromium, live_server)
    page.goto("/#/practice")
    first_day = page.locator(".day-list li").first
    expect(first_day).to_contain_text("Yahtzee")
    first_day.get_by_role("button").click()
    page.wait_for_selector("section.game")
    expect(page.locator(".game-head .badge")).to_have_text("Practice")

    # Practice may ask the strategy engine; "Keep these dice" applies its advice.
    page.get_by_test_id("hint").click()
    advice = page.get_by_test_id("advice")
    expect(advice).to_contain_text("expected final score")
    text = advice.inner_text()
    if text.startswith("Keep"):
        page.get_by_role("button", name="Keep these dice").click()
        kept = sorted(d for d, k in zip(state(page)["dice"], state(page)["kept"], strict=True) if k)
        assert text.startswith("Keep " + "-".join(map(str, kept)))
    else:
        assert text.startswith(("Reroll everything", "Score"))
    page.screenshot(path=artifacts / "laptop-practice-hint.png")
    play_game(page)
    game = check_total_against_core(live_server, page, "yahtzee")
    # After a practice game, the analysis compares every decision with optimal play.
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis")).to_contain_text("decisions were optimal")
    page.screenshot(path=artifacts / "laptop-practice-analysis.png", full_page=True)
    assert game["mode"] == "practice" and game["date"] < game["result"]["finished_at"][:10]

    # The day is revealed, so the result link shows the verified game roll by roll.
    link = page.get_by_test_id("result-link").get_attribute("href")
    friend_context, friend = new_page(chromium, live_server, viewport=PHONE)
    friend.goto(link)
    expect(friend.locator(".turns > li")).to_have_count(13)
    first_turn = game["history"][0]
    shown = friend.locator(".turns > li").first.locator(".mini-dice").first
    expect(shown).to_have_attribute("aria-label", " ".join(map(str, first_turn["rolls"][0])))
    expect(friend.get_by_test_id("practice-same")).to_be_visible()
    no_horizontal_scroll(friend)
    friend.screenshot(path=artifacts / "phone-result-revealed.png")
    friend_context.close()

    # Practice on random dice, in any ruleset: Scandinavian Yatzy has 15 boxes.
    page.goto("/#/practice")
    page.locator("#practice-ruleset").select_option("yatzy")
    page.get_by_test_id("practice-random").click()
    page.wait_for_selector("section.game")
    expect(page.locator(".game-head h1")).to_contain_text("Yatzy")
    expect(page.locator(".card li.box")).to_have_count(15)
    assert state(page)["turn"] == 1

    # No Yatzy table on this server: the hint says so instead of failing.
    page.get_by_test_id("hint").click()
    expect(page.locator(".advice")).to_contain_text(
        "Yatzy hints are not available on this server yet.")
    # Ranked games never offer hints.
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game")
    expect(page.get_by_test_id("hint")).to_have_count(0)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_day_closing_mid_game_is_explained_and_the_game_kept(
    chromium: Browser, live_server: LiveServer
) -> None:
    import datetime as dt

    from daily import calendar

    context, page = new_page(chromium, live_server)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    play_turn(page)
    before = state(page)
    day = dt.date.fromisoformat(
        api_get(live_server, f"/games/{before['id']}", token_of(page))["date"]
    )
    live_server.clock.set(calendar.closes_at(day) + dt.timedelta(hours=1))  # every worker's
    page.locator(".die[data-index='0']").click()
    page.get_by_test_id("roll").click()
    expect(page.locator("#banner")).to_contain_text("This day is not open for ranked play")
    page.reload()
    after = state(page)
    assert (after["turn"], after["roll"], after["dice"]) == (
        before["turn"], before["roll"], before["dice"]
    )
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


@pytest.mark.parametrize("live_server", [{"DAILY_RATE_LIMIT": "24/minute"}], indirect=True)
def test_rate_limit_is_explained_and_loses_nothing(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server)
    page.goto("/")
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game")
    banner = page.locator("#banner")
    for _ in range(30):  # the real limiter of the real app says stop within a few moves
        s = state(page)
        if s["left"] > 0:
            page.locator(".die[data-index='0']").click()
            page.get_by_test_id("roll").click()
        else:
            page.locator(".card button.box-btn:not([disabled])").first.click()
            if page.locator("dialog#confirm[open]").count():
                page.locator("#confirm-yes").click()
            elif page.get_by_test_id("box-confirm").count():
                page.get_by_test_id("box-confirm").click()
        page.wait_for_function(
            "() => document.querySelector('section.game').dataset.busy === '0'"
            " || !document.getElementById('banner').hidden"
        )
        if banner.is_visible():
            break
    expect(banner).to_contain_text("Too many requests at once: wait")
    assert page.locator("#banner").get_by_role("button", name="Retry").is_visible()
    page.screenshot(path=artifacts / "laptop-rate-limited.png")
    # Every move the server accepted is on screen: compare with the server's own state
    # (reads have a budget of their own).
    shown = state(page)
    on_server = api_get(live_server, f"/games/{shown['id']}", token_of(page))
    assert (shown["turn"], shown["roll"], shown["dice"]) == (
        on_server["turn"], on_server["roll"], on_server["dice"]
    )
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def api_call(server: LiveServer, method: str, path: str, body: Any = None,
             token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + "/api/v1" + path, data=data, headers=headers,
                                     method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_closed_days_result_is_checked_against_its_signed_log_in_the_browser(
    chromium: Browser, live_server: LiveServer, run_results_worker: Any, artifacts: Path
) -> None:
    import datetime as dt
    import os
    import subprocess
    import sys

    from daily import calendar

    # A ranked game played through the API (playing by clicking is the other tests').
    token = api_call(live_server, "POST", "/players", {"name": "Ada"})["token"]
    date = api_call(live_server, "GET", "/today")["open_dates"][0]  # the first to close
    game = api_call(live_server, "POST", "/games",
                    {"ruleset": "yahtzee", "date": date, "mode": "ranked"}, token)
    while not game["over"]:
        box = max((c for c in game["choices"] if c["legal"]), key=lambda c: c["points"])
        game = api_call(live_server, "POST", f"/games/{game['id']}/score",
                        {"box": box["box"], "position": game["position"]}, token)
    code = game["result"]["code"]
    login = f"localStorage.setItem('dd.token', {json.dumps(json.dumps(token))})"
    context, page = new_page(chromium, live_server)
    context.add_init_script(login)
    page.goto(f"/#/play/{game['id']}")
    audit = page.get_by_test_id("audit")
    expect(audit).to_have_attribute("data-state", "pending")  # its day is still open
    expect(audit).to_contain_text(
        "In the day's signed log once this day has ended in every time zone: ")

    # The day closes: the results worker and the rollover (real processes) seal its log.
    run_results_worker()
    after = calendar.books_close_at(dt.date.fromisoformat(date)) + dt.timedelta(minutes=5)
    live_server.clock.set(after)
    env = {**os.environ, **live_server.env, "PYTHONPATH": str(Path(__file__).parents[2]),
           "DAILY_RULESETS": "yahtzee", "DAILY_PAR_JOBS": "off"}
    subprocess.run([sys.executable, "-c", "import sys; from workers.rollover import rollover;"
                    " rollover(sys.argv[1])", after.isoformat()], env=env, check=True,
                    timeout=PROCESS_TIMEOUT)

    page.reload()
    expect(audit).to_have_attribute("data-state", "ok")
    expect(audit).to_contain_text("In the day's signed log (game 1 of 1")
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "ok")
    page.screenshot(path=artifacts / "laptop-result-in-signed-log.png")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()

    # In Italian; where WebCrypto has no Ed25519 the page says what it could check;
    # and a proof that does not lead to the signed head is called out.
    context, page = new_page(chromium, live_server, locale="it-IT")
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_contain_text("Nel registro firmato del giorno")
    context.close()
    context, page = new_page(chromium, live_server)
    context.add_init_script("""{
      const real = crypto.subtle.importKey.bind(crypto.subtle);
      crypto.subtle.importKey = (format, key, algorithm, ...rest) =>
        (algorithm && algorithm.name === "Ed25519")
          ? Promise.reject(new DOMException("no Ed25519 here", "NotSupportedError"))
          : real(format, key, algorithm, ...rest);
    }""")
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "unsigned")
    expect(page.get_by_test_id("audit")).to_contain_text("cannot check Ed25519 signatures")
    context.close()
    context, page = new_page(chromium, live_server)

    def tampered(route: Any) -> None:
        proof = route.fetch().json()
        proof["leaf"]["accepted"]["score"] += 1
        route.fulfill(json=proof)

    page.route("**/proof", tampered)
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "bad")
    context.close()

    # Receipts count: the end screen kept the finish's receipt (and the day's results
    # key) in localStorage; a log whose leaf is not that receipt's result is called out,
    # in both languages. Here the browser holds the receipt of another score than the
    # log's (as if the server gave the player one result and logged another).
    context, page = new_page(chromium, live_server)
    context.add_init_script(login)
    page.goto(f"/#/play/{game['id']}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "ok")
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('dd.receipts'))[{json.dumps(code)}]")
    assert kept["receipt"] == game["result"]["receipt"]
    assert kept["accepted"] == game["result"]["accepted"]
    descriptor = api_call(live_server, "GET", f"/days/{date}/yahtzee")
    assert kept["results_key"] == descriptor["results_key"]
    kept["accepted"]["score"] += 1
    context.close()
    held = json.dumps(json.dumps({code: kept}))
    for locale, text in (("en-US", f"The receipt you were given for {code} is NOT"),
                         ("it-IT", f"La ricevuta che hai avuto per {code} NON")):
        context, page = new_page(chromium, live_server, locale=locale)
        context.add_init_script(f"localStorage.setItem('dd.receipts', {held})")
        page.goto(f"/r/{code}")
        expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "missing")
        expect(page.get_by_test_id("audit")).to_contain_text(text)
        context.close()

    # Anchored key: a head signed by a key other than the day's (as the descriptor
    # names it) is refused, even when the key list serves that key as a results key.
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from daily.audit.signing import SignedHead, sign_head

    other = Ed25519PrivateKey.generate()
    other_raw = other.public_key().public_bytes(serialization.Encoding.Raw,
                                                serialization.PublicFormat.Raw)
    context, page = new_page(chromium, live_server)

    def resigned(route: Any) -> None:
        proof = route.fetch().json()
        head = SignedHead.from_json(proof["head"])
        proof["head"] = sign_head(other, head.date, head.ruleset, head.size, head.root_bytes,
                                  head.time).to_json()
        route.fulfill(json=proof)

    def more_keys(route: Any) -> None:
        keys = route.fetch().json()
        from daily.audit.verify import key_id_of
        keys["keys"].append({"id": key_id_of(other_raw), "algorithm": "Ed25519",
                             "public_key": other_raw.hex(), "created": None, "active": True,
                             "purpose": "results"})
        route.fulfill(json=keys)

    page.route("**/proof", resigned)
    page.route("**/api/v1/keys", more_keys)
    page.goto(f"/r/{code}")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-state", "bad")
    context.close()
