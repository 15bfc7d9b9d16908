"""The web client: static pages served by the Flask app at ``/``.

It talks only to the JSON API and holds no rules logic of its own. The blueprint
serves the single-page app at ``/`` and ``/r/<code>`` (a shared result), its
modules and styles under ``/static/web/``, and one helper endpoint, ``POST /qr.svg``,
that draws the QR code of the caller's own import link ``<origin>/#/import/<token>``
(used to move the player to another device). It needs the player's bearer token, so
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
import re
from urllib.parse import quote

import segno
from flask import Blueprint, Response, render_template, request

from daily.service.requests import bearer_token, current_player, json_object, only_fields

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


@bp.get("/r/<code>")
def result_page(code: str) -> tuple[str, int] | str:
    """The app opened on a shared result; the page fetches ``/api/v1/results/<code>``."""
    if not CODE_PATTERN.match(code):
        return render_template("index.html", result_code=""), 404
    return render_template("index.html", result_code=code)


@bp.post("/qr.svg")
def qr_svg() -> Response:
    """The QR code of the caller's import link (401 without a valid token); never cached
    by the browser or a proxy (it holds the token)."""
    current_player()
    only_fields(json_object(), ())  # no body, or {} (a deep one is a 400 like anywhere)
    token = bearer_token() or ""
    link = f"{request.host_url.rstrip('/')}/#/import/{quote(token, safe='')}"
    return Response(draw_qr(link), mimetype="image/svg+xml", headers=_NO_STORE)
