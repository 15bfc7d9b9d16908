"""The web client's security in real headless Chromium against the real app: the
Content-Security-Policy is enforced and the app works under it, and an import link asks
before it replaces the player this browser has, keeping the old token recoverable."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .server import LiveServer
from .test_browser import new_page, token_of

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]
#: How long a worker may still trust a token it checked (the default of
#: DAILY_AUTH_CACHE_SECONDS, which the live server keeps).
AUTH_CACHE_SECONDS = 2


def new_player(server: LiveServer, name: str) -> str:
    request = urllib.request.Request(
        server.url + "/api/v1/players", data=json.dumps({"name": name}).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["token"]


def previous_tokens(page: Page) -> list[str]:
    return json.loads(page.evaluate("localStorage.getItem('dd.tokens.previous')") or "[]")


def test_the_csp_blocks_inline_script_and_the_app_still_plays(
    chromium: Browser, live_server: LiveServer
) -> None:
    context, page = new_page(chromium, live_server)
    response = page.goto("/")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    page.get_by_test_id("play-yahtzee").click()
    page.wait_for_selector("section.game[data-busy='0']")
    page.get_by_test_id("roll").click()
    page.wait_for_selector("section.game[data-roll='2'][data-busy='0']")
    # The upper-section meter sets its width through the CSSOM: allowed and applied.
    assert page.locator(".meter span").evaluate("e => e.style.width").endswith("%")
    assert not page.errors  # type: ignore[attr-defined]
    # An injected inline script and an inline handler are refused by the browser.
    blocked: Any = page.evaluate("""() => new Promise((resolve) => {
        const seen = [];
        document.addEventListener('securitypolicyviolation',
                                  (e) => seen.push(e.violatedDirective));
        const s = document.createElement('script');
        s.textContent = 'window.__inline = 1';
        document.body.append(s);
        const img = document.createElement('img');
        img.setAttribute('onerror', 'window.__handler = 1');
        img.src = 'data:,not-an-image';
        document.body.append(img);
        setTimeout(() => resolve({seen, inline: window.__inline, handler: window.__handler}),
                   300);
    })""")
    assert blocked["inline"] is None and blocked["handler"] is None
    assert any(d.startswith("script-src") for d in blocked["seen"]), blocked
    context.close()


def test_an_import_link_asks_before_replacing_the_player_and_keeps_the_old_token(
    chromium: Browser, live_server: LiveServer
) -> None:
    ada, bob = new_player(live_server, "Ada"), new_player(live_server, "Bob")
    context, page = new_page(chromium, live_server)

    page.goto(f"/#/import/{bob}")  # nobody here yet: nothing to ask
    expect(page.locator("#name")).to_have_value("Bob")
    assert token_of(page) == bob and page.locator("dialog#confirm[open]").count() == 0
    assert bob not in page.url

    # Someone sends Bob an import link of Ada's: he is asked, and says no.
    page.goto(f"/#/import/{ada}")
    dialog = page.locator("dialog#confirm[open]")
    expect(dialog).to_contain_text("This browser plays as Bob. Play as Ada instead?")
    assert ada not in page.url  # the token left the address bar before the question
    page.locator("#confirm-no").click()
    expect(page.locator("#toast")).to_have_text("Nothing changed: you keep your player.")
    expect(page.locator("#name")).to_have_value("Bob")
    assert token_of(page) == bob and previous_tokens(page) == []

    # He does it again and agrees: Ada now, and Bob's token is kept on this browser.
    page.goto(f"/#/import/{ada}")
    page.locator("#confirm-yes").click()
    expect(page.locator("#name")).to_have_value("Ada")
    assert token_of(page) == ada and previous_tokens(page) == [bob]
    previous = page.get_by_test_id("previous-players")
    expect(previous).to_contain_text("Bob")

    # And back to Bob from the profile page (asked again; Ada's token is kept in turn).
    previous.get_by_role("button", name="Switch back").click()
    expect(dialog).to_contain_text("This browser plays as Ada. Play as Bob instead?")
    page.locator("#confirm-yes").click()
    expect(page.locator("#name")).to_have_value("Bob")
    assert token_of(page) == bob and previous_tokens(page) == [ada]
    expect(page.get_by_test_id("previous-players")).to_contain_text("Ada")

    # A pasted token asks the same way; a bad one changes nothing.
    page.locator("#import-token").fill("p_nobody.nothing")
    page.locator("#import-token").press("Enter")
    expect(page.get_by_text("That token is not recognised.")).to_be_visible()
    assert token_of(page) == bob
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_replacing_a_leaked_token_from_the_profile(
    chromium: Browser, live_server: LiveServer
) -> None:
    leaked = new_player(live_server, "Ada")
    context, page = new_page(chromium, live_server)
    page.goto(f"/#/import/{leaked}")
    expect(page.locator("#name")).to_have_value("Ada")
    page.get_by_test_id("rotate-token").click()
    expect(page.locator("dialog#confirm[open]")).to_contain_text("will stop working everywhere")
    page.locator("#confirm-no").click()
    assert token_of(page) == leaked
    page.get_by_test_id("rotate-token").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#toast")).to_have_text("New token saved; the old one no longer works.")
    fresh = token_of(page)
    assert fresh != leaked and fresh.split(".")[0] == leaked.split(".")[0]
    expect(page.locator("#name")).to_have_value("Ada")
    # The old token stops at once in the worker that rotated it, and within
    # DAILY_AUTH_CACHE_SECONDS (2 s, docs/api.md) in the other: then both refuse it.
    time.sleep(AUTH_CACHE_SECONDS + 0.2)
    refused_by = set()
    for _ in range(2):  # consecutive requests: one to each worker
        request = urllib.request.Request(live_server.url + "/api/v1/players/me",
                                         headers={"Authorization": f"Bearer {leaked}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401
        refused_by.add(refused.value.headers["X-Worker-Pid"])
    assert len(refused_by) == 2
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
