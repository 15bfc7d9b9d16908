"""Passkeys in real headless Chromium with a virtual authenticator (DevTools protocol:
``WebAuthn.enable``, ``WebAuthn.addVirtualAuthenticator``, through Playwright's CDP
session): the profile adds a passkey, then another browser that holds the same
credential (``WebAuthn.getCredentials`` / ``addCredential``) signs in with it from the
first page while the first browser stays signed in, a browser whose storage was
cleared signs in again, and "Sign out everywhere" signs both out (the passkey stays).

Chromium takes no IP address as a relying-party id, so these pages are opened at
``http://localhost:<port>`` (a secure context) on a server without ``DAILY_PUBLIC_URL``,
whose origin and relying-party id are then the request's own.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from daily.service import keymap

from .server import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.slow]
#: The server's origin is the request's: no public URL configured.
NO_PUBLIC_URL = {"DAILY_PUBLIC_URL": ""}


def localhost(server: LiveServer) -> str:
    return server.url.replace("127.0.0.1", "localhost")


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + "/api/v1" + path, data=data, headers=headers,
                                     method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def status(base: str, token: str) -> int:
    """The status of ``GET /players/me`` with ``token``."""
    try:
        call(base, "GET", "/players/me", token=token)
    except urllib.error.HTTPError as err:
        return err.code
    return 200


def refused_everywhere(base: str, *tokens: str) -> None:
    """Each token is refused by every worker (one may trust a token it checked
    DAILY_AUTH_CACHE_SECONDS, 2 s, more)."""
    deadline = time.monotonic() + 10
    while any(status(base, token) != 401 for token in tokens for _ in range(2)):
        assert time.monotonic() < deadline, "a token still works"
        time.sleep(0.2)


def browser_with_authenticator(browser: Browser, base: str, locale: str = "en-GB"
                               ) -> tuple[BrowserContext, Page, Any, str]:
    """A new browser context and page with a virtual platform authenticator that holds
    discoverable credentials and verifies its user without asking."""
    context = browser.new_context(base_url=base, locale=locale, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return context, page, cdp, found["authenticatorId"]


def token_of(page: Page) -> str | None:
    raw = page.evaluate("localStorage.getItem('dd.token')")
    return json.loads(raw) if raw else None


def use_token(page: Page, token: str) -> None:
    page.goto("/")
    page.evaluate("(t) => localStorage.setItem('dd.token', JSON.stringify(t))", token)


def stored_count(server: LiveServer, player_id: str) -> int:
    raw = server.redis.hvals(keymap.passkeys(server.prefix, player_id))
    assert len(raw) == 1
    return int(json.loads(raw[0])["sign_count"])


@pytest.mark.parametrize("live_server", [NO_PUBLIC_URL], indirect=True)
def test_a_passkey_made_on_the_profile_signs_in_on_another_browser(
    chromium: Browser, live_server: LiveServer
) -> None:
    base = localhost(live_server)
    created = call(base, "POST", "/players", {"name": "Ada"})
    player_id, first_token = created["player"]["id"], created["token"]

    context, page, cdp, authenticator = browser_with_authenticator(chromium, base)
    use_token(page, first_token)
    page.goto("/#/profile")
    expect(page.get_by_test_id("passkeys")).to_contain_text("No passkey yet")
    page.get_by_test_id("passkey-add").click()
    expect(page.get_by_test_id("passkey-note")).to_have_text(
        "Passkey added: sign in with it on any device.")
    expect(page.get_by_test_id("passkey")).to_have_count(1)
    listed = call(base, "GET", "/passkeys", token=first_token)["passkeys"]
    assert len(listed) == 1
    credentials = cdp.send("WebAuthn.getCredentials",
                           {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
    assert credentials[0]["rpId"] == "localhost"

    # Another device (a second browser context) that holds the same credential.
    other, page2, cdp2, authenticator2 = browser_with_authenticator(chromium, base)
    cdp2.send("WebAuthn.addCredential", {"authenticatorId": authenticator2,
                                         "credential": credentials[0]})
    page2.goto("/")
    expect(page2.get_by_test_id("home-passkey")).to_be_visible()
    page2.get_by_test_id("passkey-signin").click()
    expect(page2.get_by_role("heading", name="Profile")).to_be_visible()
    expect(page2.locator("#name")).to_have_value("Ada")
    second_token = token_of(page2)
    assert second_token and second_token.startswith(player_id + ".")
    assert second_token != first_token
    assert call(base, "GET", "/players/me", token=second_token)["id"] == player_id
    # The first browser is still signed in: the sign-in made a token of its own.
    assert [status(base, first_token) for _ in range(2)] == [200, 200]
    page.reload()
    expect(page.locator("#name")).to_have_value("Ada")
    count = stored_count(live_server, player_id)

    # The same browser after its storage was cleared: the passkey brings the player back.
    page2.evaluate("localStorage.clear()")
    page2.reload()
    expect(page2.locator("#import-token")).to_be_visible()  # the profile of no player
    expect(page2.locator("#name")).to_have_count(0)
    page2.get_by_test_id("passkey-signin").click()
    expect(page2.locator("#name")).to_have_value("Ada")
    assert token_of(page2) not in (None, second_token)
    assert stored_count(live_server, player_id) > count  # the counter went up

    third_token = token_of(page2)
    assert third_token and status(base, third_token) == 200

    # The first browser keeps its token; its own copy of the credential is behind the
    # counter the other copy moved on: refused as a cloned authenticator.
    page.reload()
    page.get_by_test_id("passkey-signin").click()
    expect(page.get_by_test_id("passkey-signin-note")).to_have_text(
        "This passkey's use counter went back, as a copied passkey's would: it was refused."
        " Use another passkey or your token code.")
    assert token_of(page) == first_token and status(base, first_token) == 200

    # Sign out everywhere, from the first browser: both browsers' tokens stop working.
    page.get_by_test_id("signout-everywhere").click()
    page.get_by_role("button", name="Sign out everywhere").last.click()  # the confirmation
    expect(page.get_by_text("Signed out everywhere. Sign in again with a passkey.")).to_be_visible()
    expect(page.locator("#name")).to_have_count(0)  # the profile of no player
    assert token_of(page) is None
    refused_everywhere(base, first_token, third_token)
    page2.reload()
    expect(page2.locator("#name")).to_have_count(0)
    # The passkey stays: the second browser signs in with it again.
    page2.get_by_test_id("passkey-signin").click()
    expect(page2.locator("#name")).to_have_value("Ada")
    assert token_of(page2) not in (None, third_token)
    assert page.errors == [] and page2.errors == []  # type: ignore[attr-defined]
    other.close()
    context.close()


@pytest.mark.parametrize("live_server", [NO_PUBLIC_URL], indirect=True)
def test_passkeys_in_italian_and_deleting_one(chromium: Browser, live_server: LiveServer) -> None:
    base = localhost(live_server)
    created = call(base, "POST", "/players", {"name": "Bea"})
    context, page, _, _ = browser_with_authenticator(chromium, base, "it-IT")
    use_token(page, created["token"])
    page.goto("/#/profile")
    page.get_by_role("button", name="Aggiungi una passkey").click()
    expect(page.get_by_test_id("passkey")).to_have_count(1)
    # The authenticator already holds this player's passkey: it refuses a second one.
    page.get_by_test_id("passkey-add").click()
    expect(page.get_by_test_id("passkey-note")).to_have_text(
        "Questo dispositivo ha già una passkey di questo giocatore.")
    page.get_by_test_id("passkey").get_by_role("button", name="Elimina").click()
    page.get_by_role("button", name="Elimina").last.click()  # the confirmation
    expect(page.get_by_test_id("passkey-list")).to_contain_text("Ancora nessuna passkey")
    # The authenticator keeps the credential, which the server no longer knows.
    page.get_by_test_id("passkey-signin").click()
    expect(page.get_by_test_id("passkey-signin-note")).to_contain_text(
        "Questa passkey qui non è conosciuta")
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()
