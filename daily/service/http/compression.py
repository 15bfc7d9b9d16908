"""Compressed answers: gzip or brotli for the text responses of ``daily serve``.

Every response of the app passes one ``after_request`` hook (Flask-Compress): an HTML
page, JavaScript, CSS, JSON or SVG body of at least :data:`MIN_SIZE` bytes is sent with
``Content-Encoding: br`` or ``gzip``, whichever the client accepts first in that order
(and ``Vary: Accept-Encoding``); the static files too. What cannot gain (images, small
bodies, a 304) goes as it is.

BREACH: a compressed response that carries a secret next to input an attacker chose
lets the attacker guess the secret from the response sizes, over many requests. Here
the only secrets in a body are bearer tokens, in the answers of ``POST /players`` and
``POST /players/me/token`` (beside the player's chosen name); those are never
compressed (:func:`uncompressed`), though each holds a new token (nothing to guess
across requests) and the API authenticates by a header a cross-site page cannot send.
``deploy/nginx/daily.conf`` compresses as well and honours the same rule: it leaves
alone a response that already has a ``Content-Encoding`` or says ``no-transform``.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> install_compression(app)
>>> @app.get("/big")
... def big():
...     return {"text": "dice " * 400}
>>> response = app.test_client().get("/big", headers={"Accept-Encoding": "gzip"})
>>> response.headers["Content-Encoding"], len(response.data) < 200
('gzip', True)
"""

from __future__ import annotations

from flask import Flask, Response, g, request
from flask_compress import Compress

#: Smaller bodies are sent as they are (the headers would cost more than they save).
MIN_SIZE = 500
#: What the app compresses.
TEXT_TYPES = (
    "text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
    "application/json", "application/manifest+json", "image/svg+xml",
)
#: Brotli's quality: 9 of 11 compresses the page's scripts within a few milliseconds.
BR_LEVEL = 9
_FLAG = "daily_uncompressed"


def uncompressed() -> None:
    """Send this request's response uncompressed (it carries a secret: see BREACH)."""
    setattr(g, _FLAG, True)


def install_compression(app: Flask) -> None:
    """Compress the app's text responses, except those marked :func:`uncompressed`."""
    app.config.update(
        COMPRESS_REGISTER=False, COMPRESS_MIMETYPES=list(TEXT_TYPES),
        COMPRESS_MIN_SIZE=MIN_SIZE, COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_ALGORITHM_STREAMING=["br", "gzip"], COMPRESS_LEVEL=6, COMPRESS_BR_LEVEL=BR_LEVEL,
    )
    compress = Compress(app)

    @app.after_request
    def compressed(response: Response) -> Response:
        if getattr(g, _FLAG, False) or "no-transform" in response.headers.get(
                "Cache-Control", ""):
            return response
        if response.is_streamed and (request.endpoint or "").endswith("static"):
            # A static file is read whole (tens of kB): compressed in one piece it is
            # smaller than chunk by chunk.
            response.direct_passthrough = False
            response.get_data()
        return compress.after_request(response)
