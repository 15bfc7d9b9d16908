"""The nginx of ``deploy/nginx/daily.conf`` answers its own errors in the API's JSON error
shape. Runs the real nginx (Debian's ``nginx-light``) on the deploy file with TLS
swapped for a plain port; skipped where nginx is not installed."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
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
    return (
        f"pid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\ndaemon off;\n"
        "events {}\n"
        f"http {{\n client_body_temp_path {tmp}/body;\n proxy_temp_path {tmp}/proxy;\n"
        f" access_log off;\n{site}\n}}\n"
    )


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(local_config(tmp_path, port, free_port()))
    assert NGINX is not None
    check = subprocess.run([NGINX, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen([NGINX, "-c", str(conf)], stderr=subprocess.DEVNULL)

    def listening() -> bool:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True

    wait_until(listening, 10, message="nginx did not start", ignore=(OSError,))
    yield port
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
