"""The public base URL of the service, for share links, share texts and the OpenAPI
document: ``DAILY_PUBLIC_URL`` when set, else the host the request came to.

Behind a reverse proxy the request's host is the proxy's (``X-Forwarded-Host`` and
``-Proto`` are honoured when ``DAILY_TRUSTED_PROXIES`` is set); set
``DAILY_PUBLIC_URL`` in production anyway, so that links never depend on a header.
Outside a request (a worker, a CLI command) with no ``DAILY_PUBLIC_URL`` it is
``http://DAILY_HOST:DAILY_PORT``.

>>> from daily.service.config import load_config
>>> public_base_url(load_config({"DAILY_PUBLIC_URL": "https://dice.example/"}))
'https://dice.example'
>>> public_base_url(load_config({"DAILY_PORT": "8123"}))
'http://127.0.0.1:8123'
>>> from flask import Flask
>>> with Flask(__name__).test_request_context("/", base_url="http://10.0.0.5:9000"):
...     public_base_url(load_config({}))
'http://10.0.0.5:9000'
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import has_request_context, request

from daily.service.config import Config


def public_base_url(config: Config, *, from_request: bool = True) -> str:
    """Scheme, host and port (no trailing slash) under which players reach the service.

    ``from_request=False``: never the request's host, even without ``DAILY_PUBLIC_URL``
    (a link that carries a secret, like the token's QR code)."""
    if config.public_url:
        return config.public_url
    if from_request and has_request_context():
        return request.host_url.rstrip("/")
    return f"http://{config.host}:{config.port}"


def passkey_party(config: Config) -> tuple[str, str]:
    """The relying-party id and the origin of passkeys (WebAuthn): ``DAILY_PASSKEY_RP_ID``
    and ``DAILY_PASSKEY_ORIGIN`` when set, else the public URL's host and the public URL.

    >>> from daily.service.config import load_config
    >>> passkey_party(load_config({"DAILY_PUBLIC_URL": "https://dice.example:8443"}))
    ('dice.example', 'https://dice.example:8443')
    >>> passkey_party(load_config({"DAILY_PUBLIC_URL": "https://play.dice.example",
    ...                            "DAILY_PASSKEY_RP_ID": "dice.example"}))
    ('dice.example', 'https://play.dice.example')
    """
    origin = config.passkey_origin or public_base_url(config)
    rp_id = config.passkey_rp_id or (urlsplit(origin).hostname or "localhost")
    return rp_id, origin
