"""Gunicorn settings shared by ``daily serve`` and ``deploy/gunicorn.conf.py``.

Use it as a gunicorn configuration module (``gunicorn -c python:daily.service.ops.webserver``)
or import its names into a configuration file. Gunicorn itself answers a request it
cannot parse, before the app sees it: a bad request line or header (400), a request
line longer than :data:`limit_request_line` (414), more than
:data:`limit_request_fields` headers or one longer than :data:`limit_request_field_size`
(431). Its page for those is HTML; the :func:`post_worker_init` hook makes every worker
answer them in the API's JSON error shape instead (:func:`json_error_response`).

>>> json_error_response(414, "URI Too Long", "line too long")[:40]
b'HTTP/1.1 414 URI Too Long\\r\\nConnection: c'
"""

from __future__ import annotations

import json
import os
import socket
import threading
from typing import Any

#: No control socket: gunicorn would otherwise create ``~/.gunicorn/gunicorn.ctl``,
#: outside the data directory (nothing here uses its control interface).
control_socket_disable = True
#: Longest request line (method, path and query) in bytes; longer is 414.
limit_request_line = 4094
#: Most header fields in a request; more is 431.
limit_request_fields = 100
#: Longest header field (name and value) in bytes; longer is 431.
limit_request_field_size = 8190

#: Error codes of the API's JSON errors for the statuses gunicorn answers itself.
GUNICORN_CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "internal",
    501: "not_implemented",
}


def json_error_response(status: int, reason: str, message: str) -> bytes:
    """A complete HTTP/1.1 error response whose body is the API's error document.

    >>> raw = json_error_response(431, "Request Header Fields Too Large", "too many headers")
    >>> raw.split(b"\\r\\n\\r\\n", 1)[1]
    b'{"error":{"status":431,"code":"headers_too_large","message":"too many headers"}}'
    """
    code = GUNICORN_CODES.get(status, "bad_request" if status < 500 else "internal")
    inner = {"status": status, "code": code, "message": message or reason}
    body = json.dumps({"error": inner}, separators=(",", ":")).encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        "Cache-Control: no-store\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """Drop-in for ``gunicorn.util.write_error``: the same response as JSON."""
    from gunicorn import util

    util.write_nonblock(sock, json_error_response(status_int, reason, mesg))


def child_exit(server: Any, worker: Any) -> None:
    """Gunicorn hook (in the master): a worker has exited; with
    ``PROMETHEUS_MULTIPROC_DIR`` set, its live gauges stop counting in ``/metrics``
    (``prometheus_client.multiprocess.mark_process_dead``; its counters and histograms
    keep adding up).

    >>> import os, tempfile, types
    >>> os.environ["PROMETHEUS_MULTIPROC_DIR"] = d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "gauge_liveall_4242.db"), "w").close()
    >>> child_exit(None, types.SimpleNamespace(pid=4242))
    >>> os.listdir(d)
    []
    >>> del os.environ["PROMETHEUS_MULTIPROC_DIR"]
    """
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid, directory)


def post_worker_init(worker: Any) -> None:
    """Gunicorn hook: this worker answers its own protocol errors as JSON, and warms its
    strategy engine in the background (:func:`start_warming`).

    Gunicorn has no setting for its error pages; every worker class sends them through
    ``gunicorn.util.write_error(sock, status, reason, message)``, which this replaces in
    the worker process (tested in ``tests/service/test_no_server_errors.py``).
    """
    from gunicorn import util

    util.write_error = write_json_error
    start_warming()


def start_warming() -> threading.Thread | None:
    """Open the strategy tables of the service's rulesets and answer one hint of each in
    a background thread (:func:`daily.strategy.tables.lookup.warm`), so that a player's
    first hint or first computer opponents do not wait for them (not with
    ``DAILY_WARM_AT_START=off``)."""
    from daily.rules import get_ruleset
    from daily.service.config import load_config
    from daily.strategy.tables.lookup import warm

    config = load_config()
    if not config.warm_at_start:
        return None
    names = dict.fromkeys(
        (*config.daily_rulesets, *config.tables_at_start, *config.tables_in_background)
    )
    thread = threading.Thread(
        target=warm, args=([get_ruleset(name) for name in names], config.tables_dir),
        name="daily-warm", daemon=True,
    )
    thread.start()
    return thread
