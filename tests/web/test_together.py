"""Playing together in real headless Chromium: a game against the computer opponents,
a friend challenge between two browser contexts, a group board, the link preview's
PNG card, and the game feel (rolling dice, moments, joker banner, layout, copy)."""

from __future__ import annotations

import io
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from daily.strategy.tables.fileformat import save_table

from .player import play_game, play_turn, state
from .server import LiveServer
from .test_browser import LAPTOP, PHONE, api_get, new_page, no_horizontal_scroll, token_of

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def tables(live_server: LiveServer, yahtzee_table: Any) -> None:
    save_table(yahtzee_table, Path(live_server.env["DAILY_DATA_DIR"]) / "tables")


def opponents_shown(page: Page) -> dict[str, int]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.opp-card')]
            .map(c => [c.dataset.testid, +c.dataset.turns]))"""
    )


def test_a_game_against_the_three_bots(
    chromium: Browser, live_server: LiveServer, tables: None, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server)
    page.goto("/#/practice")
    for level in ("easy", "medium", "hard"):
        page.locator(f"#practice-opp-{level}").check()
    page.get_by_test_id("practice-random").click()
    # The first game with bots compiles the engine's kernels in the server's worker when
    # the clone's numba cache is cold (CI): 15 s alone, more beside the rest of the suite.
    page.wait_for_selector("section.game", timeout=120_000)
    assert opponents_shown(page) == {"opponent-easy": 0, "opponent-medium": 0, "opponent-hard": 0}
    expect(page.get_by_test_id("opponent-hard")).to_contain_text("after your turn")
    for done in range(1, 4):
        play_turn(page)
        shown = opponents_shown(page)
        assert set(shown.values()) == {done}, shown  # each bot's turn only after yours
    page.screenshot(path=artifacts / "bots-during-game.png", full_page=True)
    play_game(page)
    game = api_get(live_server, f"/games/{state(page)['id']}", token_of(page))
    versus = page.get_by_test_id("versus")
    for opponent in game["opponents"]:
        row = page.get_by_test_id(f"versus-{opponent['level']}")
        expect(row).to_contain_text(f"You {game['total']}")
        expect(row).to_contain_text(str(opponent["total"]))
    expect(versus.locator("li")).to_have_count(3)
    expect(page.get_by_test_id("par-hard")).to_have_text(
        f"Hard bot: expects 254.6 on average; on these dice "
        f"{next(o['total'] for o in game['opponents'] if o['level'] == 'hard')}")
    page.screenshot(path=artifacts / "bots-end-screen.png", full_page=True)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_challenge_between_two_browsers(
    chromium: Browser, live_server: LiveServer, tables: None, artifacts: Path
) -> None:
    ada_context, ada = new_page(chromium, live_server)
    ada.goto("/#/practice")
    ada.get_by_test_id("practice-challenge").click()
    ada.wait_for_selector("section.challenge")
    code = ada.locator("section.challenge").get_attribute("data-code")
    assert code and re.fullmatch(r"CH-[0-9A-Z]{8}", code)
    ada.get_by_test_id("challenge-blind").click()
    ada.wait_for_selector("section.game")
    play_game(ada)
    ada_game = api_get(live_server, f"/games/{state(ada)['id']}", token_of(ada))

    # Bob opens the link on an Italian phone, plays with Ada's score to beat.
    bob_context, bob = new_page(chromium, live_server, viewport=PHONE, locale="it-IT",
                                has_touch=True)
    html = urllib.request.urlopen(f"{live_server.url}/c/{code}", timeout=10).read().decode()
    assert f'/c/{code}/card.png?lang=en"' in html and "twitter:card" in html
    bob.goto(f"/c/{code}")
    expect(bob.get_by_test_id("challenge-entries")).to_contain_text(str(ada_game["total"]))
    no_horizontal_scroll(bob)
    bob.screenshot(path=artifacts / "challenge-phone-it.png", full_page=True)
    bob.get_by_test_id("challenge-beat").click()
    bob.wait_for_selector("section.game")
    first = state(bob)
    assert first["dice"] == ada_game["history"][0]["rolls"][0]  # the same dice
    expect(bob.get_by_test_id("rival")).to_have_attribute("data-turns", "0")
    for done in range(1, 3):
        play_turn(bob)
        expect(bob.get_by_test_id("rival")).to_have_attribute("data-turns", str(done))
    bob.screenshot(path=artifacts / "challenge-score-to-beat-it.png", full_page=True)
    play_game(bob)
    expect(bob.get_by_test_id("versus-rival")).to_contain_text(str(ada_game["total"]))
    bob_game = api_get(live_server, f"/games/{state(bob)['id']}", token_of(bob))

    # Both finished: the challenge page compares them turn by turn, in each language.
    bob.goto(f"/c/{code}")
    compare = bob.get_by_test_id("challenge-compare")
    expect(compare.locator("tbody tr")).to_have_count(13)
    expect(bob.get_by_test_id("challenge-entries")).to_contain_text(str(bob_game["total"]))
    expect(bob.locator("h1")).to_have_text(f"Sfida {code}")
    bob.screenshot(path=artifacts / "challenge-compare-it.png", full_page=True)
    ada.goto(f"/#/challenge/{code}")
    expect(ada.get_by_test_id("challenge-compare").locator("tbody tr")).to_have_count(13)
    expect(ada.locator("h1")).to_have_text(f"Challenge {code}")
    ada.screenshot(path=artifacts / "challenge-compare-en.png", full_page=True)
    assert not ada.errors and not bob.errors  # type: ignore[attr-defined]
    ada_context.close()
    bob_context.close()


def play_ranked_by_api(server: LiveServer, token: str, date: str) -> dict[str, Any]:
    import json

    def call(method: str, path: str, body: Any) -> dict[str, Any]:
        request = urllib.request.Request(
            server.url + "/api/v1" + path, data=json.dumps(body).encode(), method=method,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    game = call("POST", "/games", {"ruleset": "yahtzee", "date": date, "mode": "ranked"})
    while not game["over"]:
        box = max((c for c in game["choices"] if c["legal"]), key=lambda c: c["points"])
        game = call("POST", f"/games/{game['id']}/score",
                    {"box": box["box"], "position": game["position"]})
    return game


def test_a_group_board_in_both_languages(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    ada_context, ada = new_page(chromium, live_server)
    ada.goto("/")
    ada.locator("#group-name").fill("Friday club")
    ada.get_by_test_id("group-create").click()
    ada.wait_for_selector("section.group")
    code = ada.get_by_test_id("group-code").inner_text()
    assert re.fullmatch(r"G-[0-9A-Z]{6}", code)
    bob_context, bob = new_page(chromium, live_server, viewport=PHONE, locale="it-IT",
                                has_touch=True)
    bob.goto("/")
    bob.locator("#group-join").fill(code.lower())
    bob.get_by_test_id("group-join-btn").click()
    bob.wait_for_selector("section.group")
    open_dates = api_get(live_server, "/today", token_of(bob))["open_dates"]
    today = bob.evaluate("async () => (await import('/static/web/ui.js')).localDate()")
    day = today if today in open_dates else sorted(open_dates)[-1]
    totals = {name: play_ranked_by_api(live_server, token_of(page), day)["total"]
              for name, page in (("ada", ada), ("bob", bob))}
    bob.goto(f"/#/group/{code}/{day}")
    board = bob.get_by_test_id("group-board-yahtzee")
    expect(board.locator("tbody tr")).to_have_count(2)
    expect(board).to_contain_text(str(totals["bob"]))
    expect(board.locator("tr.me")).to_contain_text("(tu)")
    expect(bob.get_by_test_id("group-streaks")).to_contain_text("Giocatore")
    expect(bob.get_by_test_id("group-week-yahtzee").locator("tbody tr")).to_have_count(2)
    no_horizontal_scroll(bob)
    bob.screenshot(path=artifacts / "group-board-phone-it.png", full_page=True)
    ada.goto(f"/#/group/{code}/{day}")
    expect(ada.get_by_test_id("group-board-yahtzee")).to_contain_text(str(totals["ada"]))
    ada.screenshot(path=artifacts / "group-board-en.png", full_page=True)
    ada.goto("/")
    expect(ada.get_by_test_id("groups")).to_contain_text("Friday club")
    bob.goto(f"/#/group/{code}")
    bob.get_by_test_id("group-leave").click()
    bob.wait_for_function("() => location.hash === '#/'")
    expect(bob.get_by_test_id("groups")).to_contain_text("Non sei ancora in un gruppo.")
    assert not ada.errors and not bob.errors  # type: ignore[attr-defined]
    ada_context.close()
    bob_context.close()


def test_the_share_card_and_the_italian_share_text(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, locale="it-IT", clipboard=True)
    page.goto("/#/practice")
    page.get_by_test_id("practice-random").click()
    page.wait_for_selector("section.game")
    play_game(page)
    page.get_by_test_id("copy-result").click()
    text = page.evaluate("navigator.clipboard.readText()")
    game = api_get(live_server, f"/games/{state(page)['id']}", token_of(page))
    lines = text.split("\n")
    assert len(lines) == 3 and lines[0].endswith(f"allenamento · {game['total']} punti")
    assert "60%" not in text and lines[-1] == game["result"]["url"]
    assert lines[-1].startswith(live_server.url + "/r/")  # the public link, not :8000
    code = game["result"]["code"]
    html = urllib.request.urlopen(f"{live_server.url}/r/{code}", timeout=10).read().decode()
    image = f"{live_server.url}/r/{code}/card.png?lang=en"
    assert f'<meta property="og:image" content="{image}">' in html
    png = urllib.request.urlopen(f"{live_server.url}/r/{code}/card.png", timeout=10).read()
    assert Image.open(io.BytesIO(png)).size == (1200, 630)
    page.set_viewport_size({"width": 1200, "height": 630})
    page.goto(f"/r/{code}/card.png")
    page.screenshot(path=artifacts / "share-card.png")
    (artifacts / "share-card-rendered.png").write_bytes(png)
    context.close()


def contrast(page: Page, selector: str) -> float:
    """The WCAG contrast of an element's text against the first opaque background."""
    return page.evaluate(
        """(selector) => {
          const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
          const lum = ([r, g, b]) => {
            const f = (c) => {
              c /= 255;
              return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
            };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
          };
          const el = document.querySelector(selector);
          let node = el, bg = null;
          while (node) {
            const c = rgb(getComputedStyle(node).backgroundColor);
            if (c.length === 3 || c[3] === 1) { bg = c; break; }
            node = node.parentElement;
          }
          const fg = rgb(getComputedStyle(el).color);
          const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
          return (a + 0.05) / (b + 0.05);
        }""",
        selector,
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_maxi_card_fits_a_laptop_and_previews_are_readable(
    chromium: Browser, live_server: LiveServer, artifacts: Path, scheme: str
) -> None:
    context, page = new_page(chromium, live_server, viewport=LAPTOP, color_scheme=scheme)
    page.goto("/#/practice")
    page.locator("#practice-ruleset").select_option("maxi-yatzy")
    page.get_by_test_id("practice-random").click()
    page.wait_for_selector("section.game .card")
    state(page)
    sizes = page.evaluate(
        """() => ({bottom: document.querySelector('.card').getBoundingClientRect().bottom,
                  scroll: document.documentElement.scrollHeight, height: innerHeight})""")
    assert sizes["bottom"] <= 800 and sizes["scroll"] <= sizes["height"], sizes
    assert contrast(page, ".box-points.preview") >= 4.5
    # the dice of the first roll tumble in (the animation is on)
    assert page.evaluate(
        "getComputedStyle(document.querySelector('.die.rolling .face')).animationName"
    ) == "tumble"
    page.screenshot(path=artifacts / f"maxi-laptop-{scheme}.png")
    context.close()


def test_reduced_motion_phone_hint_names_and_finished_card(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    context, page = new_page(chromium, live_server, viewport=PHONE, locale="it-IT",
                             has_touch=True, reduced_motion="reduce")
    page.goto("/#/practice")
    page.get_by_test_id("practice-random").click()
    page.wait_for_selector("section.game .die.rolling")
    assert page.evaluate(
        "getComputedStyle(document.querySelector('.die.rolling .face')).animationName"
    ) == "none"
    hint = page.get_by_test_id("roll-hint").locator(".tap")
    expect(hint).to_be_visible()
    expect(hint).to_have_text("Tocca un dado per tenerlo.")
    play_game(page)
    expect(page.get_by_test_id("bonus-status")).not_to_contain_text("mancano")
    page.goto("/#/profile")
    name = api_get(live_server, "/players/me", token_of(page))["name"]
    number = re.fullmatch(r"Player (\d+)", name)
    assert number
    code = page.evaluate("JSON.parse(localStorage.getItem('dd.games')).last")
    game = api_get(live_server, f"/games/{code}", token_of(page))
    page.goto(f"/r/{game['result']['code']}")
    expect(page.locator(".result .muted").first).to_contain_text(f"Giocatore {number.group(1)}")
    expect(page.get_by_test_id("bonus-status")).not_to_contain_text("mancano")
    context.close()


def test_moments_and_the_joker_banner(
    chromium: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    """The moments and the banner from two game states, as the play screen gets them."""
    context, page = new_page(chromium, live_server)
    page.goto("/#/rules")
    expect(page.locator("[data-ruleset=maxi-yatzy] tr[data-box=villa]")).to_contain_text("21")
    card = [{"box": b, "points": p} for b, p in [
        ("ones", 3), ("twos", None), ("threes", 9), ("fours", 12), ("fives", 15), ("sixes", 24),
        ("three_of_a_kind", None), ("four_of_a_kind", None), ("full_house", None),
        ("small_straight", None), ("large_straight", None), ("yahtzee", 50), ("chance", None)]]
    result = page.evaluate(
        """async (card) => {
          const feel = await import('/static/web/feel.js');
          const choices = card.filter(e => e.points === null).map(e => ({box: e.box,
            points: {twos: 0, large_straight: 40, small_straight: 30, full_house: 25}[e.box] ?? 20,
            legal: e.box !== 'twos', reason: e.box === 'twos' ? null : null}));
          const before = {id: 'g', ruleset: 'yahtzee', over: false, turn: 9, dice: [4, 4, 4, 4, 4],
            card, choices, history: new Array(8).fill({}), upper: {bonus: 0}};
          const banner = feel.jokerBanner(before);
          document.querySelector('main').prepend(banner);
          const after = {...before, history: [...before.history,
            {turn: 9, box: 'large_straight', points: 40, bonus: 100}], upper: {bonus: 35}};
          const moment = feel.momentOf(before, after);
          feel.showMoment(moment);
          const maxi = feel.momentOf({history: [], upper: {bonus: 0}},
            {history: [{box: 'maxi_yatzy', points: 100, bonus: 0}], upper: {bonus: 0}});
          return {kind: banner.dataset.kind, banner: banner.textContent, moment, maxi};
        }""",
        card,
    )
    assert result["kind"] == "joker_lower"
    assert "Fours is already filled" in result["banner"] and "+100" in result["banner"]
    assert result["moment"]["kind"] == "joker"
    assert result["moment"]["lines"] == ["Joker! 40 in Large straight", "Extra Yahtzee: +100",
                                         "Upper bonus: +35"]
    assert result["maxi"]["lines"] == ["Maxi Yatzy! 100 points"]
    expect(page.get_by_test_id("moment")).to_be_visible()
    page.screenshot(path=artifacts / "joker-banner-and-moment.png")
    context.close()
