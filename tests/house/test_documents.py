"""The documents stay what their readers need: a short README whose figures are the
benchmarks' latest results, and reference docs without run logs.

- README.md is at most 150 lines, none over 300 characters, and its table of current
  figures is what ``bench/render_figures.py`` renders from ``bench/results/``;
- every result in ``bench/results/`` is a ``daily-bench/1`` file that says where and how
  it was measured, and every benchmark script writes one;
- README.md and docs/ carry no issue numbers, no dated sections and no per-machine runs.
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Scripts of bench/ that measure nothing themselves: the helper, the renderer, the app
#: and the worker class the benchmarks serve.
NOT_BENCHMARKS = {"benchjson.py", "render_figures.py", "hello_app.py", "inline_worker.py",
                  "fairplay_lines.py"}


def bench_module(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # a dataclass looks its module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 150
    assert [n for n, line in enumerate(lines, 1) if len(line) > 300] == []


def test_the_readme_figures_are_the_latest_results():
    done = subprocess.run([sys.executable, str(BENCH / "render_figures.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_renderer_shows_results_and_what_is_not_measured(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    benchjson, render = bench_module("benchjson"), bench_module("render_figures")
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path))
    benchjson.record("replay", {"yahtzee_warm_per_cpu_s": benchjson.figure(12047, "games/s")})
    table = render.table(tmp_path)
    assert "| verified replays of Yahtzee games, one core | 12,047 games/s |" in table
    assert "| Maxi Yatzy strategy table build | not measured yet | " in table
    readme = f"intro\n{render.BEGIN}\nold\n{render.END}\nafter\n"
    assert render.rendered(readme, tmp_path) == (
        f"intro\n{render.BEGIN}\n{table}{render.END}\nafter\n")


def test_the_bench_helpers_doctests():
    for name in ("benchjson", "render_figures"):
        result = doctest.testmod(bench_module(name))
        assert result.failed == 0 and result.attempted > 0, name


def test_every_result_says_where_and_how_it_was_measured():
    results = sorted((BENCH / "results").glob("*.json"))
    assert results, "bench/results/ holds no result"
    for path in results:
        data = json.loads(path.read_text())
        assert data["format"] == "daily-bench/1", path.name
        assert data["bench"] == path.stem
        assert data["command"].startswith("python bench/"), path.name
        assert re.fullmatch(r"[0-9a-f]{40}", data["commit"] or ""), path.name
        machine = data["machine"]
        assert machine["cpu"] and machine["cores"] >= 1, path.name
        assert len(machine["load_average"]["start"]) == len(machine["load_average"]["end"]) == 3
        assert data["figures"], path.name
        for name, figure in data["figures"].items():
            assert isinstance(figure["value"], int | float) and figure["unit"], (path.name, name)


def test_every_benchmark_script_writes_its_results():
    scripts = [p for p in BENCH.glob("*.py") if p.name not in NOT_BENCHMARKS]
    assert len(scripts) > 15
    silent = [p.name for p in scripts if "benchjson.record(" not in p.read_text()]
    assert silent == []


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_no_issue_numbers_dated_sections_or_machine_logs(path: Path):
    text = path.read_text()
    assert not re.search(r"\bissues? \d+", text, re.I), "an issue number"
    dated = [line for line in text.splitlines()
             if line.startswith("#") and re.search(r"\b20\d\d-\d\d-\d\d\b", line)]
    assert dated == []
    assert not re.search(r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
                         r"tenth) machine\b", text, re.I), "a per-machine log"
    assert not re.search(r"\d\d:\d\d-\d\d:\d\d UTC", text), "a run's time of day"
