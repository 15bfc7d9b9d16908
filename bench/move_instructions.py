"""Instructions per move (or per new player and ranked start) inside the app, counted by
valgrind's callgrind: a figure that does not move with the machine's load, for
comparing two versions of the code on a shared machine where CPU times drift by tens
of percent from one minute to the next.

Usage: ``REDIS_URL=redis://127.0.0.1:6394/0 python bench/move_instructions.py
[--moves 1000] [--starts] [--runs 1] [--baseline-commit COMMIT] [--no-hello]`` (needs ``valgrind``:
``apt-get install valgrind``; never a production Redis: it writes games).

It runs ``bench/move_profile.py`` (this checkout's) under ``valgrind --tool=callgrind``
twice, with 100 and with ``100 + --moves`` moves (``--starts``: new players and ranked
starts), and prints the difference of the instructions executed divided by the extra
calls: the set-up (imports, app, warm-up) cancels out. Only the app's own process is
counted, user space only: Redis's work and the kernel's (the round trip's system
calls) are not in it. ``PYTHONHASHSEED=0`` keeps dict and set layouts the same from
run to run; what still differs (random ids and tokens) moves the figure by well under
1%. ``--runs`` repeats the pair and prints each.

A bare Flask hello-world request (``bench/hello_app.py``, ``move_profile.py --hello``:
the same driver, the same difference of two runs) is measured in the same run, and the
result holds its figure and the move's ratio to it (not with ``--no-hello``). Its
``details`` split the move into parts (:func:`parts`) by the latest
``bench/results/move_regions.json`` (``bench/move_regions.py``, whose command and commit
the table names), when that file has the regions it needs.

``--baseline-commit COMMIT`` measures that commit too, in the same run: a ``git
worktree add`` of it in a temporary directory, the same measurement by this checkout's
``move_profile.py`` with the ``daily`` package of that worktree (``DAILY_BENCH_CODE``)
and its settings at their defaults, then the worktree is removed. The result holds
both figures and their ratio (this checkout's over the baseline's).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import benchjson
from benchjson import figure

ROOT = Path(__file__).resolve().parent.parent
BASE = 100


def instructions(moves: int, starts: bool, code: Path | None = None,
                 hello: bool = False) -> int:
    """The instructions callgrind counted in one run of move_profile.py (``code``: the
    checkout whose ``daily`` package it drives, this one by default; ``hello``: the bare
    Flask hello-world's requests instead of moves)."""
    with tempfile.TemporaryDirectory(prefix="dd-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                   sys.executable, str(ROOT / "bench" / "move_profile.py"),
                   "--moves", str(moves), *(["--starts"] if starts else []),
                   *(["--hello"] if hello else [])]
        # the profiled runs write their own results into the temporary directory
        # every DAILY_ setting at its default (the baseline's too: DAILY_MOVE_LANE on)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DAILY_")}
        env.update(PYTHONHASHSEED="0", BENCH_RESULTS_DIR=tmp)
        if code is not None:
            env["DAILY_BENCH_CODE"] = str(code)
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise SystemExit(f"move_profile.py under callgrind failed: {done.stderr[-500:]}")
        return int(found.group(1))


def per_call(moves: int, starts: bool, code: Path | None = None, hello: bool = False) -> int:
    """Instructions per call: the difference of a run with ``BASE`` calls and one with
    ``BASE + moves``, divided by ``moves``."""
    low = instructions(BASE, starts, code, hello)
    high = instructions(BASE + moves, starts, code, hello)
    return round((high - low) / moves)


#: The parts of a move, each from regions of ``bench/move_regions.py``: (part, regions
#: added, regions taken away).
PARTS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("request object, URL binding", ("flask.app:Flask.request_context",), ()),
    ("context push: routing, app context, session", ("flask.ctx:RequestContext.push",), ()),
    ("before-request hook: token check, rate-limit counters",
     ("flask.app:Flask.preprocess_request",), ()),
    ("view: body read and validated", ("daily.service.http.parsing:read_body",), ()),
    ("view: the move's own work (game service, rules, record)",
     ("daily.service.games.flow:GameService._move",),
     ("daily.service.games.store:GameStore._call", "daily.service.games.flow:GameService._view")),
    ("view: the move script's call (redis-py: pool, retry, encoding, socket, reply)",
     ("daily.service.games.store:GameStore._call",), ()),
    ("view: the state document", ("daily.service.games.flow:GameService._view",), ()),
    ("view: the rest (operation contract, path arguments)", ("flask.app:Flask.dispatch_request",),
     ("daily.service.http.parsing:read_body", "daily.service.games.flow:GameService._move")),
    ("response: JSON text, after-request hooks (spend, compression, metrics)",
     ("flask.app:Flask.finalize_request",), ()),
    ("sending: status line, headers, security headers",
     ("werkzeug.wrappers.response:Response.__call__",), ()),
    ("context pop", ("flask.ctx:RequestContext.pop",), ()),
)


def parts(per_move: int, regions_file: Path) -> dict[str, Any] | None:
    """Where a move's ``per_move`` instructions go, by the regions of ``regions_file``
    (``None`` without it or without a region :data:`PARTS` needs)."""
    if not regions_file.exists():
        return None
    measured = json.loads(regions_file.read_text())
    counts = {name: f["value"] for name, f in measured["figures"].items()}
    needed = {r for _, plus, minus in PARTS for r in (*plus, *minus)}
    if not needed <= counts.keys():
        return None
    table = [{"part": name, "instructions": sum(counts[r] for r in plus)
              - sum(counts[r] for r in minus)} for name, plus, minus in PARTS]
    table.append({"part": "outside the app: the driver (the WSGI call, the answer's JSON) "
                          "and the process's other work", "instructions":
                  per_move - counts["flask.app:Flask.wsgi_app"]})
    return {"parts": table, "parts_from": {"command": measured["command"],
                                           "commit": measured["commit"]},
            "parts_note": "instructions per move (roll or score); every region, the app's "
                          "whole call included, counts a new player and a ranked start per "
                          "game of 39 moves, as the total does; the regions are measured "
                          "one at a time, so their sum is not the app's call exactly"}


@contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """A checkout of ``commit`` in a temporary directory (``git worktree``), removed after."""
    with tempfile.TemporaryDirectory(prefix="dd-baseline-") as tmp:
        path = Path(tmp) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), commit],
                       cwd=ROOT, check=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT,
                           check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--starts", action="store_true")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--baseline-commit", help="measure this commit too, in the same run")
    parser.add_argument("--no-hello", action="store_true",
                        help="without the bare Flask hello-world request")
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
        counts.append(per_call(args.moves, args.starts))
        print(f"run {run}: {counts[-1]:,} instructions per {what} "
              f"(callgrind, user space of the app's process; {args.moves} calls)", flush=True)
    unit = "instructions/" + ("new player and start" if args.starts else "move")
    figures = {"per_call": figure(round(sum(counts) / len(counts)), unit, runs=counts,
                                  min=min(counts), max=max(counts))}
    if not args.no_hello:
        hello = per_call(args.moves, False, hello=True)
        times = round(figures["per_call"]["value"] / hello, 2)
        print(f"hello-world: {hello:,} instructions per request; {what} / hello-world = "
              f"{times}", flush=True)
        figures["hello_per_request"] = figure(hello, "instructions/request")
        figures["hello_ratio"] = figure(times, "per call / hello-world request")
    if args.baseline_commit:
        with worktree(args.baseline_commit) as code:
            base = [per_call(args.moves, args.starts, code) for _ in range(args.runs)]
        mean = round(sum(base) / len(base))
        ratio = round(figures["per_call"]["value"] / mean, 3)
        print(f"baseline {args.baseline_commit}: {mean:,} instructions per {what} "
              f"(runs {base}); this checkout / baseline = {ratio}", flush=True)
        figures["baseline_per_call"] = figure(mean, unit, commit=args.baseline_commit,
                                              runs=base, min=min(base), max=max(base))
        figures["ratio"] = figure(ratio, "this checkout / baseline")
    details = None if args.starts else parts(
        figures["per_call"]["value"], ROOT / "bench" / "results" / "move_regions.json")
    benchjson.record("move_instructions" + ("-starts" if args.starts else ""), figures,
                     details=details)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
