"""The first load of the web client in real headless Chromium (issue 38: under 80 KB on
the wire, measured by ``bench/page_weight.py``): the modules a first page does not use
are not fetched, the page's scripts come with nosniff alone, and what loads later works
when it is used."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .server import LiveServer
from .test_browser import new_page

pytestmark = [pytest.mark.browser, pytest.mark.redis]

#: Loaded when used: the audit (a ranked result), WebAuthn (a passkey), proof of work.
LATER = ("audit.js", "checkpoint.js", "passkeys.js", "pow.js", "reminders.js", "offline.js")


def test_the_first_page_fetches_only_what_it_shows(
    chromium: Browser, live_server: LiveServer
) -> None:
    context, page = new_page(chromium, live_server)
    fetched: dict[str, dict[str, str]] = {}
    page.on("response", lambda r: fetched.__setitem__(r.url, r.headers))
    try:
        page.goto("/")
        expect(page.get_by_test_id("home-days")).to_be_visible()
        # The sign-in button of the first visit is there without its module.
        expect(page.get_by_test_id("passkey-signin")).to_be_visible()
        page.wait_for_load_state("networkidle")
        names = {url.rsplit("/", 1)[-1].split("?")[0] for url in fetched}
        assert not names & set(LATER), sorted(names & set(LATER))
        scripts = [h for url, h in fetched.items() if url.endswith(".js")]
        assert scripts and all("content-security-policy" not in h for h in scripts)
        assert all(h.get("x-content-type-options") == "nosniff" for h in scripts)
        page_headers = next(h for url, h in fetched.items() if url.rstrip("/") == live_server.url)
        assert "content-security-policy" in page_headers
        # What loads later works: pressing sign-in loads the WebAuthn part, which answers
        # (headless Chromium has no authenticator: a plain note, no page error).
        page.get_by_test_id("passkey-signin").click()
        expect(page.get_by_test_id("passkey-signin-note")).not_to_be_empty()
        assert any(url.endswith("/passkeys.js") for url in fetched)
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
