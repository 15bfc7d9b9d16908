"""The web client: static pages served by the Flask app at ``/``.

It talks only to the JSON API and holds no rules logic of its own. The blueprint
serves the single-page app at ``/`` and ``/r/<code>`` (a shared result), its
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

import segno
from flask import Blueprint, Response, jsonify, render_template

from daily.service.requests import json_object

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


@bp.get("/r/<code>")
def result_page(code: str) -> tuple[str, int] | str:
    """The app opened on a shared result; the page fetches ``/api/v1/results/<code>``."""
    if not CODE_PATTERN.match(code):
        return render_template("index.html", result_code=""), 404
    return render_template("index.html", result_code=code)


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
