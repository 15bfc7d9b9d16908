"""Page weight of the web client: bytes transferred for the first load of ``/``.

Loads the home page in real headless Chromium with an empty cache, waits until the
network is idle, and prints every request with its transferred size (headers + body as
sent: the app compresses its text answers itself, brotli or gzip,
:mod:`daily.service.http.compression`) and what gzip alone would make of the body. The
target is under 80 KB on the wire.

Usage::

    .venv/bin/python bench/page_weight.py                      # starts the app itself
    .venv/bin/python bench/page_weight.py --url http://127.0.0.1:8000/

Starting the app itself needs a Redis: ``--redis-url`` (default ``$REDIS_URL`` or
``redis://127.0.0.1:6379/15``); the keys it writes use the prefix ``bench-web:`` and
are deleted afterwards.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import os
import sys
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
PREFIX = "bench-web:"
TARGET = 80 * 1024


@contextmanager
def own_server(redis_url: str) -> Iterator[str]:
    """The real app on a free port, with fresh keys in a temporary data dir."""
    import redis
    from werkzeug.serving import make_server

    from daily.service.app import create_app
    from daily.service.config import load_config
    from daily.service.days.keyring import init_keys

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as data_dir:
        config = load_config({
            "REDIS_URL": redis_url, "DAILY_KEY_PREFIX": PREFIX, "DAILY_DATA_DIR": data_dir,
        })
        init_keys(config.keys_dir)
        server = make_server("127.0.0.1", 0, create_app(config), threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_port}/"
        finally:
            server.shutdown()
            server.server_close()
            conn = redis.Redis.from_url(redis_url)
            for key in conn.scan_iter(match=PREFIX + "*", count=1000):
                conn.delete(key)
            conn.close()


def measure(url: str, chromium: str) -> list[tuple[str, int, int, int]]:
    """(url, transferred bytes, gzip-compressed body bytes, header bytes) of every
    request of a load."""
    from playwright.sync_api import sync_playwright

    rows: list[tuple[str, int, int, int]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740})
        page = context.new_page()
        finished = []
        page.on("requestfinished", lambda request: finished.append(request))
        page.goto(url, wait_until="networkidle")
        page.wait_for_selector(".set-card, .panel", timeout=10_000)
        for request in finished:
            sizes = request.sizes()
            response = request.response()
            body = response.body() if response else b""
            sent = sizes["responseHeadersSize"] + max(sizes["responseBodySize"], 0)
            zipped = sizes["responseHeadersSize"] + len(gzip.compress(body))
            rows.append((request.url, sent, zipped, sizes["responseHeadersSize"]))
        browser.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="measure this running server instead of starting one")
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not Path(args.chromium).exists():
        print(f"page_weight: no Chromium at {args.chromium}", file=sys.stderr)
        return 2
    if args.url:
        try:
            urllib.request.urlopen(args.url, timeout=5).close()
        except OSError as exc:
            print(f"page_weight: {args.url} does not answer: {exc}", file=sys.stderr)
            return 2
        rows = measure(args.url, args.chromium)
    else:
        with own_server(args.redis_url) as url:
            rows = measure(url, args.chromium)
    width = max(len(u) for u, _, _, _ in rows)
    print(f"{'request':<{width}}  {'bytes':>8}  {'gzip':>8}")
    for url, sent, zipped, _ in rows:
        print(f"{url:<{width}}  {sent:>8,}  {zipped:>8,}")
    total = sum(sent for _, sent, _, _ in rows)
    total_gz = sum(z for _, _, z, _ in rows)
    headers = sum(h for _, _, _, h in rows)
    print(f"{'total (' + str(len(rows)) + ' requests)':<{width}}  {total:>8,}  {total_gz:>8,}")
    print(f"first load: {total / 1024:.1f} KB transferred ({total_gz / 1024:.1f} KB with gzip);"
          f" target < {TARGET // 1024} KB: {'met' if total < TARGET else 'NOT met'};"
          f" of which {headers / 1024:.1f} KB of response headers (HTTP/1.1 as measured;"
          " HTTP/2 behind nginx compresses the repeated ones)")
    if not args.url:  # a page of this checkout, not of some running server
        benchjson.record("page_weight", {
            "first_load": benchjson.figure(round(total / 1024, 1), "KB",
                                           requests=len(rows)),
            "first_load_gzip": benchjson.figure(round(total_gz / 1024, 1), "KB"),
            "first_load_headers": benchjson.figure(round(headers / 1024, 1), "KB"),
            "first_load_bodies": benchjson.figure(round((total - headers) / 1024, 1), "KB"),
        })
    return 0 if total < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
