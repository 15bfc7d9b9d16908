"""Render the README's table of current figures from the latest results in bench/results/.

Each row names a result file (``bench/results/<name>.json``, written by a script of
``bench/`` through :mod:`benchjson`) and one of its figures; the table shows the figure
and the command that measured it, or "not measured yet" with the command to run.

    python bench/render_figures.py           # rewrite the table in README.md
    python bench/render_figures.py --check   # exit 1 when README.md's table differs
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchjson

README = benchjson.ROOT / "README.md"
BEGIN = "<!-- figures:begin -->"
END = "<!-- figures:end -->"
HEADER = "| what | figure | measured on | measured by |\n|---|---|---|---|\n"


def number(value: float, digits: int = 0) -> str:
    """``value`` with thousands separators and ``digits`` decimals.

    >>> number(20912.4), number(0.23456, 2)
    ('20,912', '0.23')
    """
    return f"{value:,.{digits}f}"


Show = Callable[[dict[str, Any], dict[str, Any]], str]


def with_unit(value: float, unit: str, digits: int) -> str:
    """A value and its unit (a percentage without the space).

    >>> with_unit(33.04, "% of hello-world", 0), with_unit(401, "bytes", 0)
    ('33% of hello-world', '401 bytes')
    """
    return f"{number(value, digits)}{'' if unit.startswith('%') else ' '}{unit}"


def plain(digits: int = 0) -> Show:
    """The figure's value and unit."""
    return lambda f, _: with_unit(f["value"], f["unit"], digits)


def spread(digits: int = 0) -> Show:
    """The value and unit, and the range of its rounds or runs when there are several.

    >>> spread()({"value": 33, "unit": "%", "min": 21, "max": 53}, {})
    '33% (21-53 over the rounds)'
    """
    def show(f: dict[str, Any], _: dict[str, Any]) -> str:
        text = with_unit(f["value"], f["unit"], digits)
        if "min" in f and "max" in f and f["min"] != f["max"]:
            text += f" ({number(f['min'], digits)}-{number(f['max'], digits)} over the rounds)"
        return text
    return show


def beside(digits: int, other: str, label: str) -> Show:
    """The value and unit, with another figure of the same run in brackets.

    >>> beside(2, "hello_p99", "hello-world")({"value": 13.3, "unit": "ms"},
    ...                                        {"hello_p99": {"value": 9.27, "unit": "ms"}})
    '13.30 ms (hello-world 9.27 ms)'
    """
    def show(f: dict[str, Any], figures: dict[str, Any]) -> str:
        text = with_unit(f["value"], f["unit"], digits)
        if other in figures:
            then = figures[other]
            text += f" ({label} {with_unit(then['value'], then['unit'], digits)})"
        return text
    return show


def results_log(f: dict[str, Any], figures: dict[str, Any]) -> str:
    """The results log's three figures in one cell: receipt, close, audit.

    >>> text = results_log({"value": 0.04, "unit": "ms"}, {"close_total_cpu": {"value": 21.3},
    ...     "close_leaves": {"value": 1000000}, "audit_per_cpu_s": {"value": 3500},
    ...     "audit_to_replay": {"value": 0.35}})
    >>> text[:69]
    '0.040 ms CPU a receipt; 21 s CPU to close a day of 1,000,000 games; a'
    >>> text[68:]
    'audit 3,500 games/CPU-s (0.35 of a warm replay)'
    """
    return (f"{number(f['value'], 3)} {f['unit']} CPU a receipt; "
            f"{number(figures['close_total_cpu']['value'])} s CPU to close a day of "
            f"{number(figures['close_leaves']['value'])} games; audit "
            f"{number(figures['audit_per_cpu_s']['value'])} games/CPU-s "
            f"({figures['audit_to_replay']['value']:.2f} of a warm replay)")


@dataclass(frozen=True)
class Row:
    """One line of the table: what it is, where its figure is, and how to show it."""

    what: str
    result: str  # the result's name: bench/results/<result>.json
    figure: str
    show: Show
    command: str  # what to run when there is no result yet


ROWS = (
    Row("instructions per move in the app (callgrind)", "move_instructions", "per_call",
        beside(0, "hello_per_request", "a bare Flask hello-world request:"),
        "REDIS_URL=... python bench/move_instructions.py --moves 500"),
    Row("roll and score against a bare Flask hello-world, Python clients", "api_throughput",
        "ratio", spread(), "python bench/api_throughput.py --seconds 5 --rounds 5"),
    Row("the same under wrk", "api_wrk", "ratio", spread(),
        "python bench/api_wrk.py --seconds 5 --rounds 5"),
    Row("hint through the API, one client, p99", "hints_api", "hint_p99_1_clients",
        beside(2, "hello_p99_1_clients", "a bare hello-world"),
        "python bench/hints_api.py --seconds 10 --clients 1,4"),
    Row("hint in process, warm pass, p99", "strategy_hints", "again_p99", plain(3),
        "python bench/strategy_hints.py --queries 20000"),
    Row("finish to board at 500 finishes/s, p99", "finish_latency-500", "p99", plain(1),
        "python bench/finish_latency.py --rate 500 --seconds 10"),
    Row("rank on a board of 1,000,000 players, p99", "leaderboard_queries", "rank_p99",
        plain(2), "python bench/leaderboard_queries.py"),
    Row("Redis memory per leaderboard entry", "leaderboard_queries", "bytes_per_entry",
        plain(), "python bench/leaderboard_queries.py"),
    Row("verified replays of Yahtzee games, one core", "replay", "yahtzee_warm_per_cpu_s",
        plain(), "python bench/replay.py --games 3000"),
    Row("the day's results log: receipt, close, offline audit", "audit", "receipt_sign_cpu",
        results_log, "python bench/audit.py"),
    Row("Maxi Yatzy strategy table build", "strategy_tables-maxi-yatzy",
        "maxi_yatzy_build", plain(), "python bench/strategy_tables.py maxi-yatzy"),
    Row("the web client's first load on the wire (compressed by the app)", "page_weight",
        "first_load", plain(1), "python bench/page_weight.py"),
)


def machine(result: dict[str, Any]) -> str:
    """The cores and the highest one-minute load average of a run.

    >>> machine({"machine": {"cores": 2, "load_average": {"start": [1.5, 1, 1],
    ...                                                    "end": [3.25, 2, 1]}}})
    '2 cores, load 3.2'
    """
    load = result["machine"]["load_average"]
    return (f"{result['machine']['cores']} cores, "
            f"load {max(load['start'][0], load['end'][0]):.1f}")


def cell(row: Row, folder: Path) -> tuple[str, str, str]:
    """The figure's text, the machine it was measured on and the command."""
    result = benchjson.load(row.result, folder)
    if result is None:
        return "not measured yet", "", row.command
    if row.figure not in result["figures"]:
        raise SystemExit(f"render_figures: {row.result}.json has no figure {row.figure!r}")
    figures = result["figures"]
    return row.show(figures[row.figure], figures), machine(result), result["command"]


def table(folder: Path | None = None) -> str:
    """The Markdown table of every row, from the results in ``folder``."""
    folder = folder or benchjson.results_dir()
    lines = [HEADER]
    for row in ROWS:
        shown, where, command = cell(row, folder)
        lines.append(f"| {row.what} | {shown} | {where} | `{command}` |\n")
    return "".join(lines)


def rendered(readme: str, folder: Path | None = None) -> str:
    """``readme`` with the text between the markers replaced by :func:`table`."""
    head, sep, rest = readme.partition(BEGIN + "\n")
    if not sep or END not in rest:
        raise SystemExit(f"render_figures: README.md lacks the markers {BEGIN} ... {END}")
    return f"{head}{BEGIN}\n{table(folder)}{END}{rest.split(END, 1)[1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = parser.parse_args(argv)
    text = README.read_text()
    new = rendered(text)
    if args.check:
        if new != text:
            print("README.md: the figures table is not what bench/results/ says;"
                  " run python bench/render_figures.py", file=sys.stderr)
            return 1
        return 0
    README.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
