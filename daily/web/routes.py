"""The web client: static pages served by the Flask app at ``/``.

It talks to the JSON API and holds no hand-written rule of its own (offline Practice
consults rules generated from the core: :mod:`daily.web.pwa`). The blueprint
serves the single-page app at ``/``, ``/r/<code>`` (a shared result), ``/c/<code>``
(a friend challenge) and ``/g/<code>`` (a group's invite link), the latter three with
OpenGraph/Twitter tags and a PNG card (``/r/<code>/card.png``, ``/c/<code>/card.png``,
``/g/<code>/card.png``) for link previews, its
modules and styles under ``/static/web/``, and one helper endpoint, ``POST /qr.svg``,
that draws the QR code of the caller's own import link ``<DAILY_PUBLIC_URL>/#/import/<token>``
(used to move the player to another device), and what makes it an installable app
(:mod:`daily.web.pwa`: ``/sw.js``, ``/manifest.webmanifest``, ``/icons/...`` and
``/offline/rules.json``). The QR endpoint needs the player's bearer token, so
nobody else can make the server draw, and drawings are kept in a small per-process
cache, so asking again costs nothing; the token travels in a header, never in a URL,
so it never lands in an access log.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.register_blueprint(bp)
>>> client = app.test_client()
>>> client.get("/").status_code, client.get("/r/DD-7K3M9Q").status_code
(200, 200)
>>> draw_qr("hello").startswith(b"<svg")
True
"""

from __future__ import annotations

import functools
import io
import json
import re
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import segno
from flask import Blueprint, Response, current_app, render_template, request

from daily.errors import DailyError
from daily.service.extensions import Basics, of
from daily.service.games.codes import parse_code
from daily.service.games.flow import GameService
from daily.service.http.parsing import (
    bearer_token,
    current_player,
    json_object,
    only_fields,
    request_lang,
)
from daily.service.publicurl import public_base_url
from daily.service.refusals import NotFound
from daily.service.social.challenges import Challenges
from daily.service.social.groups import Groups
from daily.web.previews import challenge_preview, group_preview, result_preview
from daily.web.pwa import (
    ICON_SIZES,
    icon_png,
    manifest,
    offline_rules_bytes,
    service_worker,
    shell_version,
)
from daily.web.sharecard import ShareCard, cached_card, card_digest

bp = Blueprint(
    "web",
    __name__,
    static_folder="static",
    static_url_path="/static/web",
    template_folder="templates",
)

#: Drawings kept per process (an import link per player and origin).
QR_CACHE_SIZE = 512
#: What a result code may look like in a ``/r/<code>`` link (checked again by the API).
CODE_PATTERN = re.compile(r"^[A-Za-z0-9-]{1,24}$")

_NO_STORE = {"Cache-Control": "no-store"}
#: What a static file's answer need not carry: it is revalidated by its ``ETag``
#: (``Cache-Control: no-cache``), shown inline, and small enough to be sent whole.
STATIC_SPARED = ("Content-Disposition", "Last-Modified", "Accept-Ranges")


@bp.after_request
def lean_static(response: Response) -> Response:
    """A static file's answer without :data:`STATIC_SPARED`: on a first load of twenty
    modules these headers weigh as much as a module."""
    if request.endpoint == f"{bp.name}.static":
        for name in STATIC_SPARED:
            response.headers.pop(name, None)
    return response


@functools.lru_cache(maxsize=QR_CACHE_SIZE)
def draw_qr(text: str) -> bytes:
    """An SVG QR code of ``text`` (error correction M), the same bytes every time."""
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        buffer, kind="svg", scale=4, border=2, xmldecl=False, dark="#111"
    )
    return buffer.getvalue()


@bp.get("/")
def index() -> str:
    """The single-page app."""
    return render_template("index.html", result_code="")


def _services() -> Any:
    """The API's services this blueprint reads when it runs inside the full app (else
    None): the configuration, games, challenges and groups."""
    app = current_app
    try:
        return SimpleNamespace(config=of(app, Basics).config, games=of(app, GameService),
                               challenges=of(app, Challenges), groups=of(app, Groups))
    except RuntimeError:
        return None


def _public_result(code: str) -> dict[str, Any] | None:
    services = _services()
    if services is None or not CODE_PATTERN.match(code):
        return None
    try:
        return services.games.public_result(parse_code(code))
    except DailyError:
        return None


def _challenge(code: str) -> dict[str, Any] | None:
    services = _services()
    challenges = getattr(services, "challenges", None) if services is not None else None
    if challenges is None or not CODE_PATTERN.match(code):
        return None
    try:
        return challenges.public(code, None)
    except DailyError:
        return None


#: How long a browser or the proxy in front (``deploy/nginx``) may keep a card: a card
#: changes only with its result's rank.
CARD_MAX_AGE = 300


def _png(data: bytes) -> Response:
    return Response(data, mimetype="image/png", headers={"Cache-Control": "public, max-age=300"})


def _card(card: ShareCard) -> Response:
    """A link preview's card: drawn once, then read from ``<data>/cards``; public, with an
    ETag, and ``Vary: Accept-Language`` when no ``?lang=`` chose its language."""
    response = Response(cached_card(card, _services().config.cards_dir), mimetype="image/png",
                        headers={"Cache-Control": f"public, max-age={CARD_MAX_AGE}"})
    response.set_etag(card_digest(card))
    if "lang" not in request.args:
        response.vary.add("Accept-Language")
    response.make_conditional(request)
    return response


@bp.get("/r/<code>")
def result_page(code: str) -> tuple[str, int] | str:
    """The app opened on a shared result, with the tags of its link preview."""
    if not CODE_PATTERN.match(code):
        return render_template("index.html", result_code=""), 404
    result = _public_result(code)
    preview = None
    if result is not None:
        preview, _ = result_preview(result, public_base_url(_services().config), request_lang())
    return render_template("index.html", result_code=code, preview=preview)


@bp.get("/r/<code>/card.png")
def result_card(code: str) -> Response:
    """The PNG card of a result (the link preview's image)."""
    result = _public_result(code)
    if result is None:
        raise NotFound(f"no result {code}", field="code")
    _, card = result_preview(result, "", request_lang())
    return _card(card)


@bp.get("/c/<code>")
def challenge_page(code: str) -> tuple[str, int] | str:
    """The app opened on a friend challenge, with the tags of its link preview."""
    challenge = _challenge(code)
    if challenge is None:
        return render_template("index.html", challenge_code=""), 404
    preview, _ = challenge_preview(
        challenge, public_base_url(_services().config), request_lang())
    return render_template("index.html", challenge_code=challenge["code"], preview=preview)


@bp.get("/c/<code>/card.png")
def challenge_card(code: str) -> Response:
    """The PNG card of a challenge: its players' totals."""
    challenge = _challenge(code)
    if challenge is None:
        raise NotFound(f"no challenge {code}", field="code")
    _, card = challenge_preview(challenge, "", request_lang())
    return _card(card)


def _group(code: str) -> dict[str, Any] | None:
    services = _services()
    groups = getattr(services, "groups", None) if services is not None else None
    if groups is None or not CODE_PATTERN.match(code):
        return None
    try:
        return groups.invite(None, code)
    except DailyError:
        return None


@bp.get("/g/<code>")
def group_page(code: str) -> tuple[str, int] | str:
    """The app opened on a group's invite link, with the tags of its link preview."""
    invite = _group(code)
    if invite is None:
        return render_template("index.html", group_code=""), 404
    preview, _ = group_preview(invite, public_base_url(_services().config), request_lang())
    return render_template("index.html", group_code=invite["code"], preview=preview)


@bp.get("/g/<code>/card.png")
def group_card(code: str) -> Response:
    """The PNG card of a group's invite link."""
    invite = _group(code)
    if invite is None:
        raise NotFound(f"no group {code}", field="code")
    _, card = group_preview(invite, "", request_lang())
    return _card(card)


@bp.get("/sw.js")
def sw() -> Response:
    """The service worker (:mod:`daily.web.pwa`), at the root so that it controls every page;
    never cached, so a new release is seen at the next visit."""
    return Response(service_worker(), mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/manifest.webmanifest")
def web_manifest() -> Response:
    """The web app manifest, in the request's language."""
    body = json.dumps(manifest(request_lang()), ensure_ascii=False)
    return Response(body, mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/icons/<int:size>.png")
@bp.get("/icons/maskable-<int:size>.png", endpoint="maskable_icon")
def icon(size: int) -> Response:
    """The app's icon at one of the manifest's sizes."""
    if size not in ICON_SIZES:
        raise NotFound(f"no icon of {size} pixels; sizes: {ICON_SIZES}", field="size")
    return _png(icon_png(size, maskable=request.path.startswith("/icons/maskable-")))


@bp.get("/offline/rules.json")
def offline_rules_json() -> Response:
    """Every ruleset's rules as data generated from the core, for offline Practice."""
    return Response(offline_rules_bytes(), mimetype="application/json",
                    headers={"Cache-Control": "no-cache", "ETag": f'"{shell_version()}"'})


@bp.post("/qr.svg")
def qr_svg() -> Response:
    """The QR code of the caller's import link (401 without a valid token); never cached
    by the browser or a proxy (it holds the token)."""
    current_player()
    only_fields(json_object(), ())  # no body, or {} (a deep one is a 400 like anywhere)
    token = bearer_token() or ""
    # DAILY_PUBLIC_URL (else the configured address), never the request's Host header:
    # a link that carries the token goes nowhere a header chose.
    base = public_base_url(_services().config, from_request=False)
    link = f"{base}/#/import/{quote(token, safe='')}"
    return Response(draw_qr(link), mimetype="image/svg+xml", headers=_NO_STORE)
