"""Instructions per move (or per new player and ranked start) inside the app, counted by
valgrind's callgrind: a figure that does not move with the machine's load, for
comparing two versions of the code on a shared machine where CPU times drift by tens
of percent from one minute to the next.

Usage: ``REDIS_URL=redis://127.0.0.1:6394/0 python bench/move_instructions.py
[--moves 1000] [--starts] [--runs 1]`` (needs ``valgrind``: ``apt-get install
valgrind``; never a production Redis: it writes games).

It runs ``bench/move_profile.py`` (this checkout's) under ``valgrind --tool=callgrind``
twice, with 100 and with ``100 + --moves`` moves (``--starts``: new players and ranked
starts), and prints the difference of the instructions executed divided by the extra
calls: the set-up (imports, app, warm-up) cancels out. Only the app's own process is
counted, user space only: Redis's work and the kernel's (the round trip's system
calls) are not in it. ``PYTHONHASHSEED=0`` keeps dict and set layouts the same from
run to run; what still differs (random ids and tokens) moves the figure by well under
1%. ``--runs`` repeats the pair and prints each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import benchjson
from benchjson import figure

ROOT = Path(__file__).resolve().parent.parent
BASE = 100


def instructions(moves: int, starts: bool) -> int:
    """The instructions callgrind counted in one run of move_profile.py."""
    with tempfile.TemporaryDirectory(prefix="dd-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                   sys.executable, str(ROOT / "bench" / "move_profile.py"),
                   "--moves", str(moves), *(["--starts"] if starts else [])]
        # the profiled runs write their own results into the temporary directory
        env = dict(os.environ, PYTHONHASHSEED="0", BENCH_RESULTS_DIR=tmp)
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise SystemExit(f"move_profile.py under callgrind failed: {done.stderr[-500:]}")
        return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--starts", action="store_true")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    if not (100 <= args.moves <= 20000 and 1 <= args.runs <= 5):
        parser.error("--moves 100..20000, --runs 1..5")
    if "REDIS_URL" not in os.environ:
        parser.error("set REDIS_URL to a Redis of its own (it writes games)")
    what = "new player + ranked start" if args.starts else "move (roll or score)"
    counts = []
    for run in range(1, args.runs + 1):
        low = instructions(BASE, args.starts)
        high = instructions(BASE + args.moves, args.starts)
        counts.append(round((high - low) / args.moves))
        print(f"run {run}: {counts[-1]:,} instructions per {what} "
              f"(callgrind, user space of the app's process; {args.moves} calls)", flush=True)
    unit = "instructions/" + ("new player and start" if args.starts else "move")
    benchjson.record("move_instructions" + ("-starts" if args.starts else ""), {
        "per_call": figure(round(sum(counts) / len(counts)), unit, runs=counts,
                           min=min(counts), max=max(counts)),
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
