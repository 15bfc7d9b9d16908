"""What a new player costs: proof-of-work solve times (native and in Chromium).

    .venv/bin/python bench/player_creation.py --bits 14 16 18 --tries 20

For each difficulty: the median and 90th percentile time to solve one challenge with
Python's hashlib (what a scripted attacker pays, per core) and with the web client's
JavaScript (``daily/web/static/pow.js``) in headless Chromium (what a newcomer waits),
and what 1,000 scouts would cost. Prints the machine load (it may be shared).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from daily.service.creation import solve_pow

STATIC = Path(__file__).resolve().parents[1] / "daily" / "web" / "static"


def native(bits: int, tries: int) -> list[float]:
    """Seconds per solve with hashlib."""
    out = []
    for _ in range(tries):
        start = time.perf_counter()
        solve_pow(secrets.token_hex(16), bits)
        out.append(time.perf_counter() - start)
    return out


def browser(bits: int, tries: int) -> list[float] | None:
    """Seconds per solve in headless Chromium (None without Chromium/Playwright)."""
    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        return None
    from playwright.sync_api import sync_playwright

    source = (STATIC / "pow.js").read_text().replace("export ", "")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = b.new_page()
        page.add_script_tag(content=source + "\nwindow.solvePow = solvePow;")
        out = []
        for _ in range(tries):
            ms = page.evaluate(
                """async ([c, bits]) => { const t = performance.now();
                     await window.solvePow(c, bits); return performance.now() - t; }""",
                [secrets.token_hex(16), bits],
            )
            out.append(ms / 1000)
        b.close()
    return out


def show(label: str, times: list[float]) -> str:
    med = statistics.median(times)
    p90 = sorted(times)[int(0.9 * (len(times) - 1))]
    thousand = med * 1000 / 60
    return f"{label} median {med:6.2f} s p90 {p90:6.2f} s (1,000 players: {thousand:6.1f} min)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bits", type=int, nargs="+", default=[14, 16, 18])
    parser.add_argument("--tries", type=int, default=20)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()} (shared machine)")
    for bits in args.bits:
        line = [f"{bits} bits:", show("python", native(bits, args.tries))]
        js = browser(bits, args.tries)
        if js is not None:
            line.append(show("chromium", js))
        print("  ".join(line))
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
