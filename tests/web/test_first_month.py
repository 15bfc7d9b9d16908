"""A new player's first day on a phone (390×844, touch), in English and in Italian:
welcome, the Maxi Yatzy build notice, the opponents picker above Play, a card that
fits the screen, the confirm step, a tie worded as a tie, the three-line share text
before and after the rank, the signed log in plain words, names told apart, sharing
again from the board and the result page, the Profile setting, offline Today, a
closed yesterday and a group invite that names who invites (issue 38, items 2-10)."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .player import GAME, play_turn, state
from .server import LiveServer
from .test_browser import new_page, token_of
from .test_first_week import PHONE, api_game, building, call, new_player, shot, today

WORDS = {
    "en-GB": {
        "welcome": "Welcome to Daily Dice", "not_yesterday": "did not play yesterday",
        "none": "no computer opponents", "weaker": "slightly weaker game",
        "confirm": "Confirm", "copy_pending": "Copy result (rank not known yet)",
        "copy": "Copy result", "pending": "rank not known yet", "points": "points",
        "tied_rank": "Tied 1st of 2 (with 1 other) · nobody scored more",
        "tied_share": "tied 1st of 2", "log": "once this day has ended in every time zone",
        "date": r"[A-Z][a-z]{2},? \d{1,2} [A-Z][a-z]{2} \d{4},? \d\d:\d\d",
        "max": "Up to 24 characters", "closed": "Closed", "offline": "You are offline",
        "rolls_out": "No rolls left: choose a box on the card.", "invites": "Ada invites you",
        "heuristic": "heuristic", "copied": "Result copied to the clipboard.",
    },
    "it-IT": {
        "welcome": "Benvenuto in Daily Dice", "not_yesterday": "Ieri non hai giocato",
        "none": "nessun avversario del computer", "weaker": "giocano un po' peggio",
        "confirm": "Conferma", "copy_pending": "Copia risultato (posizione non ancora nota)",
        "copy": "Copia risultato", "pending": "posizione non ancora nota", "points": "punti",
        "tied_rank": "Primo a pari merito su 2 (con un altro) · nessuno ha fatto di più",
        "tied_share": "primo a pari merito su 2",
        "log": "quando questo giorno sarà finito in ogni fuso orario",
        "date": r"[a-z]{3},? \d{1,2} [a-z]{3} \d{4},? \d\d:\d\d",
        "max": "Al massimo 24 caratteri", "closed": "Chiusa", "offline": "Sei offline",
        "rolls_out": "Lanci finiti: scegli una casella sulla scheda.",
        "invites": "Ada ti invita", "heuristic": "euristico",
        "copied": "Risultato copiato negli appunti.",
    },
}


def overflow(page: Page) -> float:
    """How many screens the page is tall (scrollHeight over the viewport's height)."""
    return float(page.evaluate(
        "() => document.scrollingElement.scrollHeight / window.innerHeight"))


def top_of(page: Page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["y"])


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_new_players_first_day_on_a_phone(
    chromium: Browser, live_server: LiveServer, run_results_worker: Any, artifacts: Path,
    locale: str,
) -> None:
    words = WORDS[locale]
    tag = f"first-month-{locale[:2]}"
    date = today(live_server)
    progress = building(live_server, 100, 1000, 60)  # the Maxi Yatzy table is building
    context, page = new_page(chromium, live_server, viewport=PHONE, locale=locale,
                             clipboard=True, web_share=True, has_touch=True)
    try:
        # ----- the first visit: a welcome, the build notice, the picker above Play
        page.goto("/")
        expect(page.get_by_test_id("welcome")).to_contain_text(words["welcome"])
        expect(page.get_by_test_id("home-days")).not_to_contain_text(words["not_yesterday"])
        expect(page.get_by_test_id("opponents-now")).to_contain_text(words["none"])
        assert top_of(page, "[data-testid=opponents-picker]") < top_of(
            page, "[data-testid=play-yahtzee]")
        notice = page.get_by_test_id("build-notice")
        expect(notice).to_contain_text(words["weaker"])
        expect(notice).to_contain_text(re.compile(r"\d+ min"))
        assert top_of(page, "[data-testid=build-notice]") < top_of(
            page, "[data-testid=play-maxi-yatzy]")
        expect(page.locator("#view")).not_to_contain_text(words["heuristic"])
        shot(page, artifacts, f"{tag}-home")
        page.get_by_test_id("welcome-ok").click()
        expect(page.get_by_test_id("welcome")).to_have_count(0)

        # ----- the ranked game: the card and the dice fit one screen
        page.get_by_test_id("play-yahtzee").click()
        page.wait_for_selector(GAME)
        expect(page.locator(".card button.box-btn:not([disabled])").first).to_be_visible()
        assert overflow(page) <= 1.0, overflow(page)
        shot(page, artifacts, f"{tag}-game")
        # The confirm step: a tap selects, Cancel takes it back, nothing is scored.
        s = state(page)
        first = next(c for c in s["choices"] if c["points"])
        page.locator(f"{GAME} button.box-btn[data-box='{first['box']}']").click()
        expect(page.get_by_test_id("confirm-bar")).to_contain_text(str(first["points"]))
        expect(page.get_by_test_id("box-confirm")).to_have_text(words["confirm"])
        assert overflow(page) <= 1.0, overflow(page)
        shot(page, artifacts, f"{tag}-confirm")
        page.get_by_test_id("box-cancel").click()
        expect(page.get_by_test_id("confirm-bar")).to_have_count(0)
        assert state(page)["turn"] == 1
        # The rest as the API's player plays (no rerolls, the best box): a tie with Ada.
        while not state(page)["over"]:
            play_turn(page, max_rerolls=0)

        # ----- before the rank: the button and the copied text say it is not known
        copy = page.get_by_test_id("copy-result")
        expect(copy).to_have_text(words["copy_pending"])
        copy.click()
        expect(page.locator("#toast")).to_have_text(words["copied"])
        text = page.evaluate("navigator.clipboard.readText()")
        lines = text.splitlines()
        assert len(lines) == 3 and words["pending"] in lines[0] and words["points"] in lines[0]
        assert lines[2].startswith(live_server.url + "/r/")
        assert "60%" not in text
        # The name: its maximum length shown as one types; a second "Ada".
        expect(page.get_by_test_id("name-length")).to_contain_text(words["max"])
        page.get_by_test_id("name-input").fill("Ada")
        expect(page.get_by_test_id("name-length")).to_contain_text("3/24")
        page.get_by_test_id("name-save").click()
        expect(page.get_by_test_id("name-saved")).to_be_visible()
        other = new_player(live_server, "Ada")
        theirs = api_game(live_server, other, {"ruleset": "yahtzee", "date": date,
                                               "mode": "ranked"})
        ada = token_of(page)
        mine = call(live_server, "GET", f"/games/{state(page)['id']}", ada)[1]
        assert theirs["total"] == mine["total"]  # the same dice, the same choices
        run_results_worker()

        # ----- the rank: a tie, worded as one; the button and the text follow
        expect(page.get_by_test_id("rank")).to_have_text(words["tied_rank"], timeout=15_000)
        expect(copy).to_have_text(words["copy"])
        page.evaluate("() => { document.getElementById('toast').hidden = true; }")
        copy.click()
        expect(page.locator("#toast")).to_have_text(words["copied"])
        shared = page.evaluate("navigator.clipboard.readText()").splitlines()
        assert len(shared) == 3 and words["tied_share"] in shared[0]
        # The signed log, in one sentence in the player's words and date format.
        audit = page.get_by_test_id("audit")
        expect(audit).to_contain_text(words["log"])
        expect(audit).to_contain_text(re.compile(words["date"]))
        assert audit.inner_text().count("del giorno") <= 1
        shot(page, artifacts, f"{tag}-end")

        # ----- the board: two Adas told apart; Copy and Share of one's own result
        page.goto(f"/#/board/{date}/yahtzee")
        rows = page.locator("table.board tbody tr")
        expect(rows).to_have_count(2)
        names = rows.locator("td.player-name").all_inner_texts()
        assert all(re.match(r"Ada #[0-9a-zA-Z_-]{3}", n) for n in names), names
        assert len({n.split(" (")[0] for n in names}) == 2, names
        expect(page.get_by_test_id("own-share").get_by_test_id("copy-result")).to_have_text(
            words["copy"])
        page.get_by_test_id("own-share").get_by_test_id("share-result").click()
        page.wait_for_function("() => window.__shared.length === 1")
        assert words["tied_share"] in page.evaluate("window.__shared[0].text")
        shot(page, artifacts, f"{tag}-board")

        # ----- Profile: the confirm setting and the name's length; the result shares
        page.goto("/#/profile")
        setting = page.get_by_test_id("confirm-setting")
        expect(setting).to_be_checked()
        expect(page.get_by_test_id("name-length")).to_contain_text(words["max"])
        page.locator(".day-list a[href^='/r/']").first.click()
        expect(page.get_by_test_id("result-total")).to_be_visible()
        expect(page.get_by_test_id("copy-result")).to_have_text(words["copy"])
        page.goto("/#/profile")
        page.get_by_test_id("confirm-setting").uncheck()
        assert page.evaluate("localStorage.getItem('dd.confirm.boxes')") == "false"

        # ----- Maxi Yatzy practice: at most 1.2 screens; a prompt when the rolls run out
        page.goto("/#/practice")
        page.locator("#practice-ruleset").select_option("maxi-yatzy")
        page.get_by_test_id("practice-random").click()
        page.wait_for_selector(GAME)
        expect(page.locator(".card button.box-btn:not([disabled])").first).to_be_visible()
        shot(page, artifacts, f"{tag}-maxi-start")
        assert overflow(page) <= 1.2, overflow(page)
        for _ in range(state(page)["left"]):
            roll = state(page)["roll"]
            page.get_by_test_id("roll").click()
            page.wait_for_function(
                "(r) => +document.querySelector('section.game').dataset.roll > r", arg=roll)
        expect(page.get_by_test_id("rolls-out")).to_have_text(words["rolls_out"])
        assert overflow(page) <= 1.2, overflow(page)
        shot(page, artifacts, f"{tag}-maxi")

        # ----- yesterday's board is closed; offline Today points to offline practice
        open_dates = sorted(call(live_server, "GET", "/today")[1]["open_dates"])
        before = (dt.date.fromisoformat(open_dates[0]) - dt.timedelta(days=1)).isoformat()
        page.goto(f"/#/board/{before}/yahtzee")
        expect(page.get_by_test_id("board-state")).to_have_text(words["closed"])
        page.goto("/#/rules")
        expect(page.locator("section.rules")).to_be_visible()
        context.set_offline(True)
        page.evaluate("() => { location.hash = '#/'; }")
        offline = page.get_by_test_id("offline-today")
        expect(offline).to_contain_text(words["offline"])
        expect(offline.get_by_test_id("today-offline-practice")).to_be_visible()
        shot(page, artifacts, f"{tag}-offline")
        context.set_offline(False)
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        progress.unlink(missing_ok=True)
        context.close()

    # ----- a player with a token but no game yet: no "you did not play yesterday";
    # ----- a group invite names who invites
    fresh = new_player(live_server, "Bea")
    status, group = call(live_server, "POST", "/groups", other, {"name": "Friday club"})
    assert status == 201, group
    context, page = new_page(chromium, live_server, viewport=PHONE, locale=locale,
                             has_touch=True)
    page.add_init_script(f"localStorage.setItem('dd.token', {json.dumps(json.dumps(fresh))})")
    page.goto("/")
    expect(page.get_by_test_id("yesterday")).to_be_attached()
    expect(page.get_by_test_id("home-days")).not_to_contain_text(words["not_yesterday"])
    page.goto(f"/g/{group['code']}")
    expect(page.get_by_test_id("invite-from")).to_contain_text(words["invites"])
    shot(page, artifacts, f"{tag}-invite")
    # In the group, the two Adas are told apart by a tag; Bea has none.
    page.get_by_test_id("invite-join").click()
    expect(page.get_by_test_id("group-code")).to_have_text(group["code"])
    assert call(live_server, "POST", f"/groups/{group['code']}/members", ada, {})[0] == 200
    page.reload()
    members = page.locator(".group-members")
    expect(members).to_contain_text(re.compile(r"Ada #\w{3}, Bea, Ada #\w{3}"))
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
