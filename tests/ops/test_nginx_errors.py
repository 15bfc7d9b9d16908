"""The nginx of ``deploy/nginx/daily.conf`` answers its own errors in the API's JSON error
shape, and keeps the link previews' cards for the max-age the app sends. Runs the real
nginx (Debian's ``nginx-light``) on the deploy file with TLS swapped for a plain port;
skipped where nginx is not installed."""

from __future__ import annotations

import getpass
import json
import re
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from daily.service.ops.embedded import free_port
from tests.polling import wait_until

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NGINX is None, reason="no nginx (apt-get install nginx-light)"),
]


def local_config(tmp: Path, port: int, upstream_port: int) -> str:
    """The deploy server block on plain HTTP at ``port``, its upstream at a dead port."""
    site = (ROOT / "deploy/nginx/daily.conf").read_text()
    site = re.sub(r"server \{\n    listen 80;.*?\n\}\n", "", site, count=1, flags=re.S)
    site = re.sub(r"\n\s*listen \[::\]:443 ssl;|\n\s*http2 on;|\n\s*ssl_[a-z_]+ [^;]+;", "", site)
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port};")
    site = site.replace("server 127.0.0.1:8000", f"server 127.0.0.1:{upstream_port}")
    site = site.replace("/var/log/nginx/daily.access.log", str(tmp / "access.log"))
    site = site.replace("/var/cache/nginx/daily_cards", str(tmp / "cards"))
    return (
        # workers as this user: they write the cards' cache under the test's folder
        f"user {getpass.getuser()};\n"
        f"pid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\ndaemon off;\n"
        "events {}\n"
        f"http {{\n client_body_temp_path {tmp}/body;\n proxy_temp_path {tmp}/proxy;\n"
        f" access_log off;\n{site}\n}}\n"
    )


@pytest.fixture
def upstream() -> Iterator[tuple[int, list[str]]]:
    """A stand-in for the app: answers a card for any path, with the app's
    Cache-Control (and ``Vary: Accept-Language`` without ``?lang=``); lists the requests
    that reached it."""
    seen: list[str] = []

    class Card(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the name http.server calls
            seen.append(f"{self.path} {self.headers.get('Accept-Language', '')}")
            body = b"\x89PNG card of " + self.path.encode()
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "public, max-age=300")
            if "lang=" not in self.path:
                self.send_header("Vary", "Accept-Language")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Card)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], seen
    server.shutdown()
    server.server_close()


def start_nginx(tmp_path: Path, upstream_port: int) -> tuple[int, subprocess.Popen[bytes]]:
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(local_config(tmp_path, port, upstream_port))
    assert NGINX is not None
    check = subprocess.run([NGINX, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen([NGINX, "-c", str(conf)], stderr=subprocess.DEVNULL)

    def listening() -> bool:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True

    wait_until(listening, message="nginx did not start", ignore=(OSError,))
    return port, process


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[int]:
    port, process = start_nginx(tmp_path, free_port())  # no app behind it
    yield port
    process.terminate()
    process.wait(10)


def fetch(port: int, path: str, lang: str = "") -> tuple[int, bytes]:
    """GET ``path`` through nginx (with ``Accept-Language: lang`` if given)."""
    extra = f"Accept-Language: {lang}\r\n" if lang else ""
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request.encode())
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_nginx_keeps_the_cards_for_the_max_age_the_app_sends(
    tmp_path: Path, upstream: tuple[int, list[str]]
) -> None:
    app_port, seen = upstream
    port, process = start_nginx(tmp_path, app_port)
    try:
        for kind in ("r/DD-7K3M9Q", "c/CH-K7M2Q9XD", "g/G-AB12CD"):
            for _ in range(3):
                assert fetch(port, f"/{kind}/card.png?lang=en") == (
                    200, b"\x89PNG card of " + f"/{kind}/card.png?lang=en".encode())
        assert len(seen) == 3  # each card reached the app once
        # Without ?lang=, one copy per language the app varies on.
        for lang in ("it", "en", "it", "en"):
            status, body = fetch(port, "/r/DD-7K3M9Q/card.png", lang)
            assert status == 200 and body.endswith(b"/r/DD-7K3M9Q/card.png")
        assert seen[3:] == ["/r/DD-7K3M9Q/card.png it", "/r/DD-7K3M9Q/card.png en"]
        fetch(port, "/api/v1/today")
        fetch(port, "/api/v1/today")
        assert seen[5:] == ["/api/v1/today ", "/api/v1/today "]  # the API is never kept
    finally:
        process.terminate()
        process.wait(10)


def ask(port: int, data: bytes) -> tuple[int, dict[str, str], dict[str, object]]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_nginx_answers_its_own_errors_as_json(nginx: int) -> None:
    close = b"Host: x\r\nConnection: close\r\n"
    cases = [
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n" + close + b"\r\n", 414, "uri_too_long"),
        (b"GET / HTTP/1.1\r\n" + close + b"X-Big: " + b"b" * 9000 + b"\r\n\r\n", 400,
         "bad_request"),
        (b"POST /api/v1/players HTTP/1.1\r\n" + close + b"Content-Length: 70000\r\n\r\n"
         + b"x" * 70000, 413, "too_large"),
        (b"GET /api/v1/health HTTP/1.1\r\n" + close + b"\r\n", 503, "unavailable"),  # no app
    ]
    for data, status, code in cases:
        got, headers, body = ask(nginx, data)
        assert got == status, (got, body)
        assert headers["content-type"] == "application/json"
        assert body == {"error": {"status": status, "code": code, "message": body["error"][
            "message"]}}  # type: ignore[index]
    assert ask(nginx, b"GET /api/v1/health HTTP/1.1\r\n" + close + b"\r\n")[1]["retry-after"]
