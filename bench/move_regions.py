"""Where a move's instructions go: callgrind counts inside one function at a time.

Usage: ``REDIS_URL=redis://127.0.0.1:6394/0 python bench/move_regions.py
[--moves 300] [--baseline-commit COMMIT] [--regions NAME ...] [--no-hello] [--jobs 2]`` (needs
``valgrind``, its ``callgrind.h`` and a C compiler: ``apt-get install valgrind gcc``;
never a production Redis: it writes games).

``bench/move_instructions.py`` counts a whole move; this script splits it. For each
region, a function named ``module:Qualified.name``, it runs ``bench/move_profile.py``
under ``valgrind --tool=callgrind --collect-atstart=no`` with that function wrapped so
that callgrind collects only while it runs (a client request, ``CALLGRIND_TOGGLE_COLLECT``,
from a tiny extension module this script compiles into a temporary directory), with
100 and with ``100 + --moves`` moves; the difference over ``--moves`` is the region's
instructions per move, its callees included, a call's own wrapping excluded. Regions
are measured independently, so nested ones (the view inside the dispatch) overlap.

The default regions are those of the current code's move (:data:`REGIONS`), and a bare
Flask hello-world request is measured too (``move_profile.py --hello``, :data:`HELLO`;
not with ``--no-hello``); ``--baseline-commit`` measures
the move lane of that commit (:data:`BASELINE_REGIONS`) in a ``git worktree`` of it,
as ``move_instructions.py`` does. What it tells: how much of a move is Flask's request
cycle, the hooks, the body, the Redis call and the game's own work (``docs/performance.md``,
"The cost of a move").
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import benchjson
from benchjson import figure
from move_instructions import BASE, worktree

ROOT = Path(__file__).resolve().parent.parent

#: The regions of a move through Flask, outermost first.
REGIONS = (
    "flask.app:Flask.wsgi_app",
    "flask.app:Flask.request_context",
    "flask.ctx:RequestContext.push",
    "flask.ctx:RequestContext.pop",
    "flask.app:Flask.preprocess_request",
    "flask.app:Flask.dispatch_request",
    "daily.service.http.parsing:read_body",
    "daily.service.games.flow:GameService._move",
    "daily.service.games.store:GameStore._call",
    "daily.service.games.flow:GameService._view",
    "flask.app:Flask.finalize_request",
    "werkzeug.wrappers.response:Response.__call__",
)
#: A bare Flask hello-world request (``bench/hello_app.py``).
HELLO = ("flask.app:Flask.wsgi_app",)
#: The regions of a move through the move lane (before every route was a Flask view).
BASELINE_REGIONS = (
    "daily.service.movelane:MoveLane.__call__",
    "daily.service.games.flow:GameService._move",
    "daily.service.games.store:GameStore._call",
    "daily.service.games.flow:GameService._view",
)

_TOGGLE_C = """
#include <Python.h>
#include <valgrind/callgrind.h>
static PyObject *toggle(PyObject *self, PyObject *args) {
    CALLGRIND_TOGGLE_COLLECT;
    Py_RETURN_NONE;
}
static PyMethodDef methods[] = {{"toggle", toggle, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "cgtoggle", NULL, -1, methods};
PyMODINIT_FUNC PyInit_cgtoggle(void) { return PyModule_Create(&module); }
"""

#: Run by callgrind: wrap the region, then run move_profile.py as its own main.
_DRIVER = """
import importlib, os, runpy, sys
import cgtoggle
module, _, qualified = os.environ["BENCH_REGION"].partition(":")
owner = importlib.import_module(module)
*path, name = qualified.split(".")
for part in path:
    owner = getattr(owner, part)
inner = getattr(owner, name)
depth = 0
def region(*args, **kwargs):
    global depth
    depth += 1
    if depth == 1:
        cgtoggle.toggle()
    try:
        return inner(*args, **kwargs)
    finally:
        depth -= 1
        if depth == 0:
            cgtoggle.toggle()
setattr(owner, name, region)
sys.argv = [os.environ["BENCH_PROFILE"], *sys.argv[1:]]
runpy.run_path(os.environ["BENCH_PROFILE"], run_name="__main__")
"""


def build_toggle(folder: Path) -> None:
    """Compile the ``cgtoggle`` extension module into ``folder``."""
    source = folder / "cgtoggle.c"
    source.write_text(_TOGGLE_C)
    target = folder / ("cgtoggle" + sysconfig.get_config_var("EXT_SUFFIX"))
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(["cc", "-shared", "-fPIC", "-O2", f"-I{include}", str(source),
                           "-o", str(target)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"cannot build the callgrind toggle: {done.stderr.strip()[:300]}")
    (folder / "region_driver.py").write_text(_DRIVER)


def collected(folder: Path, region: str, calls: int, extra: list[str],
              code: Path | None) -> int:
    """The instructions callgrind collected inside ``region`` over one run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DAILY_")}
    env.update(PYTHONHASHSEED="0", BENCH_RESULTS_DIR=str(folder), BENCH_REGION=region,
               BENCH_PROFILE=str(ROOT / "bench" / "move_profile.py"),
               PYTHONPATH=os.pathsep.join([str(folder), str(code or ROOT)]))
    if code is not None:
        env["DAILY_BENCH_CODE"] = str(code)
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               "--callgrind-out-file=/dev/null", sys.executable,
               str(folder / "region_driver.py"), "--moves", str(calls), *extra]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{region}: move_profile.py under callgrind failed: "
                         f"{done.stderr[-500:]}")
    return int(found.group(1))


def per_move(folder: Path, region: str, moves: int, extra: list[str],
             code: Path | None = None) -> int:
    """Instructions per move inside ``region`` (see the module)."""
    low = collected(folder, region, BASE, extra, code)
    high = collected(folder, region, BASE + moves, extra, code)
    return round((high - low) / moves)


def measure(folder: Path, regions: tuple[str, ...], moves: int, extra: list[str],
            jobs: int, code: Path | None = None, label: str = "") -> dict[str, int]:
    """Each region's instructions per move, ``jobs`` regions at a time, printed as done."""
    def one(region: str) -> tuple[str, int]:
        count = per_move(folder, region, moves, extra, code)
        print(f"{label}{region}: {count:,} instructions per call", flush=True)
        return region, count

    with ThreadPoolExecutor(jobs) as pool:
        return dict(pool.map(one, regions))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--regions", nargs="+", help="module:Qualified.name (default: a move's)")
    parser.add_argument("--baseline-commit", help="also the move lane's regions at COMMIT")
    parser.add_argument("--jobs", type=int, default=2, help="regions measured at once")
    parser.add_argument("--no-hello", action="store_true",
                        help="without the bare Flask hello-world request")
    args = parser.parse_args()
    for tool in ("valgrind", "cc"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is not installed (apt-get install valgrind gcc)")
    if not Path("/usr/include/valgrind/callgrind.h").exists():
        parser.error("valgrind's callgrind.h is missing (apt-get install valgrind)")
    if not (100 <= args.moves <= 20000 and 1 <= args.jobs <= 8):
        parser.error("--moves 100..20000, --jobs 1..8")
    if "REDIS_URL" not in os.environ:
        parser.error("set REDIS_URL to a Redis of its own (it writes games)")
    figures = {}
    with tempfile.TemporaryDirectory(prefix="dd-regions-") as tmp:
        folder = Path(tmp)
        build_toggle(folder)
        regions = tuple(args.regions or REGIONS)
        for region, count in measure(folder, regions, args.moves, [], args.jobs).items():
            figures[region] = figure(count, "instructions/move")
        if not args.no_hello:
            hello = measure(folder, HELLO, args.moves, ["--hello"], 1, label="hello: ")
            figures["hello " + HELLO[0]] = figure(hello[HELLO[0]], "instructions/request")
        if args.baseline_commit:
            with worktree(args.baseline_commit) as code:
                base = measure(folder, BASELINE_REGIONS, args.moves, [], args.jobs, code,
                               label=f"{args.baseline_commit}: ")
            for region, count in base.items():
                figures[f"{args.baseline_commit} {region}"] = figure(count, "instructions/move")
    benchjson.record("move_regions", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
