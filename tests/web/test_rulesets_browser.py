"""Generala and Triple Yahtzee in real headless Chromium: the three-column card on a phone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from daily.movelog import MoveLog
from daily.replay import replay
from daily.service.config import WEEKDAYS

from .player import play_turn, state
from .server import LiveServer
from .test_browser import (
    PHONE,
    api_get,
    new_page,
    no_horizontal_scroll,
    token_of,
    unlabelled_controls,
)

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]


def start_practice(page: Any, ruleset: str) -> None:
    page.goto("/#/practice")
    page.locator("#practice-ruleset").select_option(ruleset)
    page.get_by_test_id("practice-random").click()
    page.wait_for_selector("section.game")


def test_triple_yahtzee_on_a_phone_whole_game(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, viewport=PHONE, locale="it-IT", has_touch=True)
    start_practice(page, "triple-yahtzee")
    expect(page.locator(".game-head h1")).to_contain_text("Yahtzee triplo")
    card = page.get_by_test_id("triple-card")
    expect(card).to_be_visible()
    # one row per box, one cell per column: 39 boxes, all open on the first roll
    expect(card.locator("tbody tr.upper, tbody tr.lower")).to_have_count(13)
    expect(card.locator("button.box-btn")).to_have_count(39)
    expect(card.locator("thead")).to_contain_text("3 ×3")
    no_horizontal_scroll(page)
    assert unlabelled_controls(page) == []
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('section.game button')]
             .filter(b => b.offsetParent !== null)
             .map(b => { const r = b.getBoundingClientRect();
                         return [b.dataset.box || b.textContent.trim(), r.width, r.height]; })"""
    )
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small
    page.screenshot(path=artifacts / "phone-triple-it.png", full_page=True)

    chosen = []
    while not state(page)["over"]:
        chosen.append(play_turn(page, max_rerolls=1 if len(chosen) % 4 == 0 else 0))
    assert len(chosen) == 39
    assert {c["box"].split(".")[0] for c in chosen} == {"1", "2", "3"}
    game = api_get(live_server, f"/games/{state(page)['id']}", token_of(page))
    result = replay(MoveLog.from_json(game["log"]))  # the practice seed is in the log now
    assert result.complete and result.total == game["total"]
    assert int(page.get_by_test_id("final-total").inner_text()) == result.total
    assert int(page.get_by_test_id("total").inner_text()) == result.total
    weighted = [int(x) for x in card.locator("tr.col-weighted td").all_inner_texts()]
    columns = result.card.columns
    assert weighted == [c.total * c.weight for c in columns]
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "phone-triple-end-it.png", full_page=True)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_generala_served_points_on_the_first_roll(
    chromium: Browser, live_server: LiveServer
) -> None:
    context, page = new_page(chromium, live_server, viewport=PHONE)
    start_practice(page, "generala")
    expect(page.locator(".card li.box")).to_have_count(11)
    expect(page.get_by_test_id("served")).to_contain_text("served")
    expect(page.locator(".card")).to_contain_text("Double Generala")
    first = state(page)
    game = api_get(live_server, f"/games/{first['id']}", token_of(page))
    # the previews on the first roll are the server's served points
    assert {c["box"]: c["points"] for c in first["choices"]} == {
        c["box"]: c["points"] for c in game["choices"] if c["legal"]}
    play_turn(page, max_rerolls=1)
    expect(page.locator(".card li.box.filled")).to_have_count(1)
    no_horizontal_scroll(page)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


TODAY = dt.datetime.now(dt.UTC).date()  # always open; the browser below runs in UTC
SPECIAL = {"DAILY_RULESETS": f"yahtzee,maxi-yatzy,{WEEKDAYS[TODAY.weekday()]}:generala"}


@pytest.mark.parametrize("live_server", [SPECIAL], indirect=True)
def test_the_weekly_special_is_on_the_home_page_on_its_day(
    chromium: Browser, live_server: LiveServer
) -> None:
    context, page = new_page(chromium, live_server, viewport=PHONE, timezone_id="UTC")
    page.goto("/")
    card = page.locator("article.set-card.special")
    expect(card).to_have_attribute("data-ruleset", "generala")
    expect(card.get_by_test_id("special")).to_have_text("Weekly special")
    expect(page.locator("article.set-card")).to_have_count(3)
    no_horizontal_scroll(page)
    card.get_by_test_id("play-generala").click()
    page.wait_for_selector("section.game")
    expect(page.locator(".game-head .badge")).not_to_have_text("Practice")
    expect(page.locator(".card li.box")).to_have_count(11)
    game = api_get(live_server, f"/games/{state(page)['id']}", token_of(page))
    assert game["mode"] == "ranked" and game["date"] == TODAY.isoformat()
    page.goto(f"/#/board/{TODAY.isoformat()}/generala")
    expect(page.locator(".tabs a", has_text="Generala")).to_have_count(1)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
