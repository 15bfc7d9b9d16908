"""Security headers on every answer: CSP, framing, sniffing, referrer, HSTS.

The web client is modules and a stylesheet from ``/static/web/`` only, with no inline
script, style or event handler, so the policy allows nothing inline:

- ``Content-Security-Policy``: :data:`CSP` (scripts, styles, fetches and frames from
  this origin only; images also as ``data:`` for the icon; no plugins; no ``<base>``;
  ``frame-ancestors 'none'``, so no other site can frame the game);
- ``X-Frame-Options: DENY`` (the same for old browsers), ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: same-origin``, ``Cross-Origin-Opener-Policy:
  same-origin``;
- ``Strict-Transport-Security`` when the request came over https (directly, or through
  a trusted proxy's ``X-Forwarded-Proto``, see ``DAILY_TRUSTED_PROXIES``; gunicorn
  also believes it from the addresses of its ``forwarded_allow_ips``) or when
  ``DAILY_HSTS=on``; never on plain http otherwise, where a browser ignores it anyway
  and a local ``make run`` must keep working.

A script or stylesheet of the page, or an answer to the page's ``fetch`` (the browser
says so: ``Sec-Fetch-Dest`` ``script``, ``style`` or ``empty``), gets
``X-Content-Type-Options: nosniff`` alone: the policy, framing, referrer and opener
headers act on documents and workers, which the page's own answer carries, and on a
first load they would weigh as much as the page's scripts' headers put together
(:data:`SUBRESOURCES`). Any other answer (a document, a worker, a request without the
header) gets them all.

A header the view already set is left alone. The headers are added by the app's
response class as the answer is sent (:func:`install_security_headers`), whatever
made the answer (a view, an error handler, a static file).

>>> "frame-ancestors 'none'" in CSP and "'unsafe-inline'" not in CSP
True
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response

from daily.service.config import Config

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
#: One year; browsers remember to use https only.
HSTS = "max-age=31536000"

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

_BY_LOWER = tuple((name.lower(), name, value) for name, value in HEADERS.items())
#: ``Sec-Fetch-Dest`` of the answers that the page's policy governs: its module scripts,
#: its stylesheet, its API calls. Workers (``worker``, ``serviceworker``) and documents
#: take their own policy from their answer.
SUBRESOURCES = frozenset({"script", "style", "empty"})
#: What such an answer still carries.
SUBRESOURCE_HEADERS = frozenset({"x-content-type-options"})


def security_headers(present: set[str], secure: bool, config: Config,
                     dest: str = "") -> list[tuple[str, str]]:
    """The headers to add to an answer whose headers (lower-case names) are ``present``:
    :data:`HEADERS`, and HSTS over https or with ``DAILY_HSTS=on``; for a request whose
    ``Sec-Fetch-Dest`` is one of :data:`SUBRESOURCES`, nosniff alone.

    >>> from daily.service.config import load_config
    >>> [name for name, _ in security_headers({"x-frame-options"}, True, load_config({}))]
    ... # doctest: +NORMALIZE_WHITESPACE
    ['Content-Security-Policy', 'X-Content-Type-Options', 'Referrer-Policy',
     'Cross-Origin-Opener-Policy', 'Strict-Transport-Security']
    >>> security_headers(set(), True, load_config({}), dest="script")
    [('X-Content-Type-Options', 'nosniff')]
    """
    if dest in SUBRESOURCES:
        return [(name, value) for lower, name, value in _BY_LOWER
                if lower in SUBRESOURCE_HEADERS and lower not in present]
    added = [(name, value) for lower, name, value in _BY_LOWER if lower not in present]
    if (config.hsts or secure) and "strict-transport-security" not in present:
        added.append(("Strict-Transport-Security", HSTS))
    return added


def install_security_headers(app: Flask, config: Config) -> None:
    """Add :func:`security_headers` to every response of ``app`` (its response class
    adds them to the headers it sends; ``https`` from the request's WSGI scheme, as
    ``Request.is_secure`` reads it).

    >>> from daily.service.config import load_config
    >>> app = Flask(__name__)
    >>> install_security_headers(app, load_config({"DAILY_HSTS": "on"}))
    >>> headers = app.test_client().get("/").headers
    >>> headers["X-Content-Type-Options"], headers["Strict-Transport-Security"]
    ('nosniff', 'max-age=31536000')
    """

    class SecuredResponse(Response):
        """The app's response, sent with the security headers."""

        def get_wsgi_response(
            self, environ: dict[str, Any]
        ) -> tuple[Any, str, list[tuple[str, str]]]:
            app_iter, status, headers = super().get_wsgi_response(environ)
            secure = environ.get("wsgi.url_scheme") in ("https", "wss")
            dest = environ.get("HTTP_SEC_FETCH_DEST", "")
            headers += security_headers({name.lower() for name, _ in headers}, secure, config,
                                        dest)
            return app_iter, status, headers

    app.response_class = SecuredResponse
