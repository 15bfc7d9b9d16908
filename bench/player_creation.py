"""What a new player costs: proof-of-work solve times for a newcomer and for a farm.

    .venv/bin/python bench/player_creation.py --bits 14 16 18 20 --tries 20

For each difficulty ``b`` (``DAILY_PLAYER_POW_BITS``):

* **chromium**: the web client itself - ``solvePow`` of ``daily/web/static/pow.js``,
  served over HTTP and run in headless Chromium in its Web Worker - median, mean and
  90th percentile of the solve time (what a newcomer waits once), and the longest
  stall of the page's main thread meanwhile (a timer ticking every 16 ms);
* **python**: ``solve_pow`` of :mod:`daily.service.players.creation` with hashlib, one core
  (what a naive scripted farm pays);
* **native**: ``2**b`` hashes at the rate ``openssl speed`` measures for SHA-256 of
  64-byte messages on one core (what an optimised farm pays per player; a GPU is
  100 to 1,000 times faster still);

and what 1,000 players cost at each rate. The solve time of one challenge is random
(geometric, mean ``2**b`` hashes): the 90th percentile is about 2.3 times the mean.
Prints the machine load before and after (it may be shared).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.service.players.creation import pow_ok, solve_pow

STATIC = Path(__file__).resolve().parents[1] / "daily" / "web" / "static"
CHROMIUM = os.environ.get("DAILY_CHROMIUM", "/usr/bin/chromium")


def native_python(bits: int, tries: int) -> list[float]:
    """Seconds per solve with hashlib, one core."""
    out = []
    for _ in range(tries):
        challenge = secrets.token_hex(16)
        start = time.perf_counter()
        nonce = solve_pow(challenge, bits)
        out.append(time.perf_counter() - start)
        assert pow_ok(challenge, nonce, bits)
    return out


def openssl_rate() -> float | None:
    """SHA-256 hashes of 64-byte messages per second on one core (``openssl speed``)."""
    if shutil.which("openssl") is None:
        return None
    done = subprocess.run(
        ["openssl", "speed", "-seconds", "3", "-bytes", "64", "-evp", "sha256"],
        capture_output=True, text=True, check=False,
    )
    # the last line reads "sha256  408924.05k": thousands of bytes per second
    match = re.search(r"^sha256\s+([0-9.]+)k\s*$", done.stdout, re.MULTILINE)
    return float(match.group(1)) * 1000 / 64 if match else None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def browser(bits_list: list[int], tries: int) -> dict[int, tuple[list[float], float]] | None:
    """Per difficulty: seconds per solve in Chromium's Web Worker, and the longest stall
    of the page meanwhile (None without Chromium)."""
    if not Path(CHROMIUM).exists():
        return None
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    out: dict[int, tuple[list[float], float]] = {}
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM,
                                  args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = b.new_page()
            page.goto(url + "/pow.js")  # same origin as the module and its worker
            for bits in bits_list:
                times, stall = [], 0.0
                for _ in range(tries):
                    ms, gap = page.evaluate(
                        """async ([c, bits]) => {
                             const { solvePow } = await import('/pow.js');
                             let last = performance.now(), gap = 0;
                             const tick = setInterval(() => {
                               const now = performance.now();
                               gap = Math.max(gap, now - last); last = now; }, 16);
                             const t = performance.now();
                             await solvePow(c, bits);
                             const ms = performance.now() - t;
                             clearInterval(tick);
                             return [ms, gap]; }""",
                        [secrets.token_hex(16), bits],
                    )
                    times.append(ms / 1000)
                    stall = max(stall, gap / 1000)
                out[bits] = (times, stall)
            b.close()
    finally:
        server.shutdown()
    return out


def show(label: str, times: list[float]) -> str:
    med, mean = statistics.median(times), statistics.fmean(times)
    p90 = sorted(times)[int(0.9 * (len(times) - 1))]
    return (f"{label:9} median {med:7.3f} s  mean {mean:7.3f} s  p90 {p90:7.3f} s"
            f"  (1,000 players: {mean * 1000 / 60:7.1f} core-min)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bits", type=int, nargs="+", default=[14, 16, 18, 20])
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()} on {os.cpu_count()} cores (shared machine)")
    rate = openssl_rate()
    if rate:
        print(f"openssl sha256 (64-byte messages): {rate / 1e6:.2f} M hashes/s per core")
    js = None if args.no_browser else browser(args.bits, args.tries)
    figures: dict[str, benchjson.Figure] = {}
    for bits in args.bits:
        print(f"{bits} bits ({2 ** bits:,} hashes on average):")
        if js is not None:
            times, stall = js[bits]
            print("  " + show("chromium", times) + f"  page stall max {stall * 1000:.0f} ms")
            figures[f"chromium_{bits}_bits_mean"] = figure(
                round(statistics.fmean(times), 3), "s", median=round(statistics.median(times), 3),
                p90=round(sorted(times)[int(0.9 * (len(times) - 1))], 3),
                page_stall_max=round(stall, 3))
        python = native_python(bits, args.tries)
        print("  " + show("python", python))
        figures[f"python_{bits}_bits_mean"] = figure(round(statistics.fmean(python), 3), "s")
        if rate:
            each = 2 ** bits / rate
            print(f"  native    mean {each:7.3f} s per player"
                  f"  (1,000 players: {each * 1000 / 60:7.1f} core-min)")
            figures[f"native_{bits}_bits_mean"] = figure(round(each, 4), "s")
    print(f"load after: {os.getloadavg()}")
    benchjson.record("player_creation", figures)


if __name__ == "__main__":
    main()
