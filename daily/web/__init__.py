"""The web client: static pages served by the Flask app at ``/``.

It talks only to the JSON API and holds no rules logic of its own. The blueprint
serves the single-page app at ``/``, ``/r/<code>`` (a shared result) and ``/c/<code>``
(a friend challenge), the latter two with OpenGraph/Twitter tags and a PNG card
(``/r/<code>/card.png``, ``/c/<code>/card.png``) for link previews, its
modules and styles under ``/static/web/``, and one helper endpoint, ``POST /qr.svg``,
that draws a QR code (used to move the player token to another device; the token
travels in the request body so it never lands in an access log).

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.register_blueprint(bp)
>>> client = app.test_client()
>>> client.get("/").status_code, client.get("/r/DD-7K3M9Q").status_code
(200, 200)
>>> client.post("/qr.svg", json={"text": "hello"}).mimetype
'image/svg+xml'
"""

from __future__ import annotations

import io
import re
from typing import Any

import segno
from flask import Blueprint, Response, current_app, jsonify, render_template

from daily.errors import DailyError
from daily.service.codes import parse_code
from daily.service.publicurl import public_base_url
from daily.service.requests import json_object, request_lang
from daily.web.previews import challenge_preview, result_preview
from daily.web.sharecard import render_card

bp = Blueprint(
    "web",
    __name__,
    static_folder="static",
    static_url_path="/static/web",
    template_folder="templates",
)

#: Longest text the QR endpoint draws (a transfer link with a token fits easily).
QR_MAX_CHARS = 512
#: What a result code may look like in a ``/r/<code>`` link (checked again by the API).
CODE_PATTERN = re.compile(r"^[A-Za-z0-9-]{1,24}$")

_NO_STORE = {"Cache-Control": "no-store"}


def _error(status: int, code: str, message: str, field: str | None = None) -> Response:
    body: dict[str, object] = {"status": status, "code": code, "message": message}
    if field is not None:
        body["field"] = field
    response = jsonify({"error": body})
    response.status_code = status
    return response


@bp.get("/")
def index() -> str:
    """The single-page app."""
    return render_template("index.html", result_code="")


def _services() -> Any:
    """The API's services when this blueprint runs inside the full app (else None)."""
    return current_app.extensions.get("daily")


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


def _png(data: bytes) -> Response:
    return Response(data, mimetype="image/png", headers={"Cache-Control": "public, max-age=300"})


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
        return _error(404, "not_found", f"no result {code}", field="code")
    _, card = result_preview(result, "", request_lang())
    return _png(render_card(card))


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
        return _error(404, "not_found", f"no challenge {code}", field="code")
    _, card = challenge_preview(challenge, "", request_lang())
    return _png(render_card(card))


@bp.post("/qr.svg")
def qr_svg() -> Response:
    """An SVG QR code of ``{"text": ...}`` from the JSON body; never cached."""
    text = json_object().get("text")  # 400 naming "body" if it is not a JSON object
    if not isinstance(text, str) or not text:
        return _error(400, "invalid_field", "text must be a non-empty string", field="text")
    if len(text) > QR_MAX_CHARS:
        return _error(
            400, "invalid_field", f"text is longer than {QR_MAX_CHARS} characters", field="text"
        )
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        buffer, kind="svg", scale=4, border=2, xmldecl=False, dark="#111"
    )
    return Response(buffer.getvalue(), mimetype="image/svg+xml", headers=_NO_STORE)
