"""What a benchmark measured, written as JSON under ``bench/results/``.

Every script of ``bench/`` ends by calling :func:`record` with its figures; the file it
writes, ``bench/results/<name>.json``, says what was measured, where and how:

- ``format``: ``daily-bench/1``;
- ``bench``: the name (the script's, with a suffix for a variant: ``finish_latency-1000``);
- ``command``: the command line that ran, from the repository's root;
- ``commit``: the checkout's git commit, and ``dirty`` when it had uncommitted changes;
- ``measured_at``: when the run ended (UTC);
- ``machine``: the CPU model, its cores, the memory, the Python version, and the load
  average at the start (when this module was imported) and at the end of the run;
- ``environment``: the ``DAILY_`` and ``GUNICORN_`` variables the run had (never secrets
  or URLs, which may carry a password);
- ``figures``: each figure by name, ``{"value": number, "unit": text}`` with any spread
  (``min``, ``max``, ``rounds``);
- ``details`` (optional): what else the script keeps of the run (per-day breakdowns).

A file holds the latest run of its script and arguments; git keeps the earlier ones.
``bench/render_figures.py`` renders the README's table of current figures from them.
``BENCH_RESULTS_DIR`` writes elsewhere (a trial run that should not replace a result).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

FORMAT = "daily-bench/1"
ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*")
_SECRET = re.compile(r"SECRET|KEY|PASSWORD|TOKEN|URL", re.I)
_LOAD_AT_START = os.getloadavg()

Figure = dict[str, Any]


def figure(value: float, unit: str, **spread: Any) -> Figure:
    """One figure: its value, its unit and any spread (``min``, ``max``, ``rounds``...).

    >>> figure(20900.4, "games/s")
    {'value': 20900.4, 'unit': 'games/s'}
    >>> figure(54, "%", rounds=[52, 54, 58])
    {'value': 54, 'unit': '%', 'rounds': [52, 54, 58]}
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"a figure's value is a number, not {value!r}")
    if not unit:
        raise ValueError("a figure needs a unit")
    return {"value": value, "unit": unit, **spread}


def results_dir() -> Path:
    """Where results go: ``bench/results/``, or ``BENCH_RESULTS_DIR`` when set."""
    return Path(os.environ.get("BENCH_RESULTS_DIR") or RESULTS)


def command_line(argv: list[str] | None = None) -> str:
    """The command that ran, as typed from the repository's root.

    >>> command_line([str(ROOT / "bench" / "replay.py"), "--games", "3000"])
    'python bench/replay.py --games 3000'
    >>> command_line(["bench/days.py", "--redis", "redis://:pw@10.0.0.1:6379/14"])
    'python bench/days.py --redis redis://10.0.0.1:6379/14'
    """
    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0]).resolve()
    shown = str(script.relative_to(ROOT)) if script.is_relative_to(ROOT) else argv[0]
    # a URL's user and password are nobody's business: redis://:secret@host -> redis://host
    args = [re.sub(r"(?<=://)[^/@\s]*@", "", arg) for arg in argv[1:]]
    return shlex.join(["python", shown, *args])


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError):
        pass
    return None


def machine() -> dict[str, Any]:
    """The machine a run measured: CPU model, cores, memory, Python, load averages."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gb": _memory_gb(),
        "python": platform.python_version(),
        "load_average": {"start": [round(x, 2) for x in _LOAD_AT_START],
                         "end": [round(x, 2) for x in os.getloadavg()]},
    }


def environment() -> dict[str, str]:
    """The run's ``DAILY_``/``GUNICORN_`` variables, without secrets or URLs.

    >>> os.environ["DAILY_TEST_X"] = "1"; os.environ["DAILY_MASTER_SECRET"] = "ab"
    >>> env = environment(); env.get("DAILY_TEST_X"), "DAILY_MASTER_SECRET" in env
    ('1', False)
    >>> del os.environ["DAILY_TEST_X"], os.environ["DAILY_MASTER_SECRET"]
    """
    return {k: v for k, v in sorted(os.environ.items())
            if k.startswith(("DAILY_", "GUNICORN_")) and not _SECRET.search(k)}


def record(name: str, figures: dict[str, Figure], *, notes: str | None = None,
           details: dict[str, Any] | None = None) -> Path:
    """Write ``bench/results/<name>.json`` with ``figures`` and where they were measured.

    >>> import tempfile
    >>> os.environ["BENCH_RESULTS_DIR"] = tempfile.mkdtemp()
    >>> path = record("doctest", {"speed": figure(3, "games/s")})
    >>> data = json.loads(path.read_text())
    >>> data["format"], data["bench"], data["figures"]["speed"], data["machine"]["cores"] > 0
    ('daily-bench/1', 'doctest', {'value': 3, 'unit': 'games/s'}, True)
    >>> del os.environ["BENCH_RESULTS_DIR"]
    """
    if not _NAME.fullmatch(name):
        raise ValueError(f"a result's name is lower case letters, digits, '_', '-': {name!r}")
    for key, value in figures.items():
        if not isinstance(value, dict) or "value" not in value or "unit" not in value:
            raise ValueError(f"figure {key!r} is not figure(value, unit): {value!r}")
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", "--", ".",
                      ":(exclude)bench/results"))
    data: dict[str, Any] = {
        "format": FORMAT,
        "bench": name,
        "command": command_line(),
        "commit": commit or None,
        "dirty": dirty,
        "measured_at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(),
        "environment": environment(),
        "figures": figures,
    }
    if notes:
        data["notes"] = notes
    if details:
        data["details"] = details
    folder = results_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    partial = path.with_suffix(".json.tmp")
    partial.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    partial.replace(path)
    print(f"results: {path}", file=sys.stderr)
    return path


def load(name: str, folder: Path | None = None) -> dict[str, Any] | None:
    """The latest result called ``name`` (``None`` when it was never measured)."""
    path = (folder or results_dir()) / f"{name}.json"
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} result")
    return data
