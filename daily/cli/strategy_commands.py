"""Strategy commands: ``strategy build|info``, ``hint``, ``analyse`` and ``bot``.

Tables live in ``<data dir>/tables`` (``--data-dir``, else ``$DAILY_DATA_DIR``, else
``./var``).

>>> import tempfile
>>> from daily.cli import main
>>> folder = tempfile.mkdtemp()
>>> main(["strategy", "build", "yacht", "--option", "forced_order=true",
...       "--data-dir", folder, "--quiet"])  # doctest: +ELLIPSIS
yacht-forced_order=true.ddt: expected 101.0853... in ...s
0
>>> main(["hint", "yacht", "--option", "forced_order=true", "--dice", "1", "1", "1", "1", "2",
...       "--rolls-left", "0", "--data-dir", folder])
best: scoring 4 in ones -> 103.6
0
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from daily.cli.core_commands import add_option_flag, rules_from_args
from daily.dice import parse_seed_hex
from daily.errors import DailyError
from daily.game import Game
from daily.movelog import MoveLog, parse_log
from daily.replay import replay
from daily.rules import RULESET_NAMES, Ruleset, get_ruleset
from daily.strategy.analysis import analyse
from daily.strategy.bots import LEVELS, MEDIUM_TEMPERATURE, Bot
from daily.strategy.simulate import play_slots, slot_array
from daily.strategy.solver import solve
from daily.strategy.spec import Position, StrategyError
from daily.strategy.tables.fileformat import read_header, save_table, table_filename
from daily.strategy.tables.lookup import (
    advisor_for,
    default_tables_dir,
    get_table,
    tables_dir_for,
    warm,
)
from daily.strategy.tables.status import clear_progress, progress_writer
from daily.strategy.triple import TripleAdvisor, column_rules


class StrategyInputError(DailyError):
    """A strategy command-line value that cannot be used."""


def _folder(args: argparse.Namespace) -> Path:
    return tables_dir_for(Path(args.data_dir)) if args.data_dir else default_tables_dir()


class ProgressBar:
    """A one-line progress bar on a terminal stream (stderr), redrawn at most 10x/s."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.monotonic()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / total if total else 1.0
        filled = int(frac * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = now - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        end = "\n" if done >= total else ""
        self.stream.write(
            f"\r{self.label} [{bar}] {frac * 100:5.1f}% {elapsed:6.0f}s eta {eta:5.0f}s{end}"
        )
        self.stream.flush()


class ProgressLines:
    """Progress as whole lines, one every ``every`` seconds (and at the end), for a log
    or a console shared with other processes: ``maxi-yatzy strategy table: 42% after
    3 min, about 4 min to go``.

    >>> import io
    >>> out = io.StringIO()
    >>> lines = ProgressLines("yacht strategy table", out, every=0)
    >>> lines(50, 100); lines(100, 100)
    >>> out.getvalue().splitlines()[-1].startswith("yacht strategy table: 100% after")
    True
    """

    def __init__(self, label: str, stream: TextIO | None = None, every: float = 30.0) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.every = every
        self.start = time.monotonic()
        self._last = self.start

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and (done == 0 or now - self._last < self.every):
            return
        self._last = now
        frac = done / total if total else 1.0
        elapsed = now - self.start
        line = f"{self.label}: {frac * 100:.0f}% after {_duration(elapsed)}"
        if done < total:
            line += f", about {_duration(elapsed / frac - elapsed)} to go"
        self.stream.write(line + "\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    """``42 s`` or ``7 min``.

    >>> _duration(42.4), _duration(400)
    ('42 s', '7 min')
    """
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _add_common(p: argparse.ArgumentParser, *, ruleset: bool = True) -> None:
    if ruleset:
        p.add_argument("ruleset", help=f"one of {', '.join(RULESET_NAMES)}")
    add_option_flag(p)
    p.add_argument("--data-dir", help="data directory (default $DAILY_DATA_DIR or ./var)")


def register(sub: Any) -> None:
    """Add the strategy commands to the ``daily`` parser."""
    p = sub.add_parser("strategy", help="build and inspect optimal-strategy tables")
    ssub = p.add_subparsers(dest="strategy_command", required=True)
    b = ssub.add_parser("build", help="compute a ruleset's table and save it")
    _add_common(b)
    b.add_argument("--dtype", choices=("float32", "float64"), help="stored precision")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.add_argument("--progress-lines", action="store_true",
                   help="progress as a line every half minute instead of a bar (for logs)")
    b.add_argument("--nice", type=int, default=0,
                   help="lower the build's priority by this much (os.nice; default 0)")
    b.add_argument(
        "--progress-file",
        action="store_true",
        help="keep the build's progress in a file next to the table (read by /api/v1/health)",
    )
    b.set_defaults(handler=cmd_build)
    w = ssub.add_parser("warm", help="compile the engine's kernels and open the tables "
                        "(or calibrate the heuristic player where a table is missing)")
    w.add_argument("rulesets", nargs="*", default=["yahtzee", "yatzy", "maxi-yatzy"],
                   help="rulesets (default yahtzee yatzy maxi-yatzy)")
    w.add_argument("--data-dir", help="data directory (default $DAILY_DATA_DIR or ./var)")
    w.set_defaults(handler=cmd_warm)
    i = ssub.add_parser("info", help="print the header of a saved table")
    _add_common(i)
    i.set_defaults(handler=cmd_info)

    h = sub.add_parser("hint", help="the best action of a position and its alternatives")
    h.add_argument("ruleset", nargs="?", help="ruleset (not needed with --log)")
    add_option_flag(h)
    h.add_argument("--data-dir", help="data directory (default $DAILY_DATA_DIR or ./var)")
    h.add_argument("--log", help="a partial daily-log/1 file: hint its next decision")
    h.add_argument("--seed", help="seed (hex) for a log that names a revealed day")
    h.add_argument("--dice", nargs="+", type=int, help="the dice showing, e.g. 6 6 6 2 3")
    h.add_argument("--rolls-left", type=int, default=0, help="rerolls left (default 0)")
    h.add_argument("--card", default="", help="filled boxes, e.g. ones=3,chance=22")
    h.add_argument("--top", type=int, default=3, help="alternatives shown (default 3)")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.set_defaults(handler=cmd_hint)

    a = sub.add_parser("analyse", help="analyse every decision of a game log")
    a.add_argument("log", help="a daily-log/1 file (JSON or text), or - for stdin")
    a.add_argument("--seed", help="seed (hex) for a log that names a revealed day")
    a.add_argument("--data-dir", help="data directory (default $DAILY_DATA_DIR or ./var)")
    a.add_argument("--json", action="store_true", help="print JSON")
    a.set_defaults(handler=cmd_analyse)

    g = sub.add_parser("bot", help="let a bot play on a seed's dice")
    _add_common(g)
    g.add_argument("--level", choices=LEVELS, default="hard")
    g.add_argument("--seed", help="seed (hex); default all zeros")
    g.add_argument("--games", type=int, default=1, help="games (seeds derived from --seed)")
    g.add_argument("--temperature", type=float, default=MEDIUM_TEMPERATURE,
                   help="medium bot's temperature in points")
    g.set_defaults(handler=cmd_bot)


def cmd_build(args: argparse.Namespace) -> int:
    """``daily strategy build`` (for Triple Yahtzee: the one-column table its player uses)."""
    rules = rules_from_args(args)
    if len(rules.weights) > 1:
        rules = column_rules(rules)
        print(f"{args.ruleset} has no exact table; building the one-column table of its "
              "heuristic player", file=sys.stderr)
    folder = _folder(args)
    if args.nice:
        os.nice(args.nice)
    reporters: list[Callable[[int, int], None]] = []
    if args.progress_lines:
        reporters.append(ProgressLines(f"{rules.name} strategy table"))
    elif not args.quiet:
        reporters.append(ProgressBar(f"building {table_filename(rules)}"))
    if args.progress_file:
        reporters.append(progress_writer(rules, folder))

    def progress(done: int, total: int) -> None:
        for report in reporters:
            report(done, total)

    try:
        table = solve(rules, progress if reporters else None)
        path = save_table(table, folder, dtype=args.dtype)
    finally:
        if args.progress_file:
            clear_progress(rules, folder)
    print(f"{path.name}: expected {table.expected:.7f} in {table.build_seconds:.1f}s")
    return 0


def cmd_warm(args: argparse.Namespace) -> int:
    """``daily strategy warm``: one line, what each ruleset got (exact, heuristic,
    stand-in)."""
    started = time.monotonic()
    got = warm([get_ruleset(name) for name in args.rulesets], _folder(args))
    kinds = ", ".join(f"{name} {kind}" for name, kind in got.items())
    print(f"strategy engine warm in {time.monotonic() - started:.1f}s: {kinds}")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """``daily strategy info``."""
    rules = rules_from_args(args)
    header = read_header(_folder(args) / table_filename(rules))
    get_table(rules, _folder(args))  # refuses a stale table
    print(json.dumps(header, indent=2, sort_keys=True))
    return 0


def _read_text(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8") as f:
        return f.read()


def _seed(text: str | None) -> bytes | None:
    return None if text is None else parse_seed_hex(text)


def _parse_card(rules: Ruleset, text: str) -> tuple[tuple[int | None, ...], int]:
    scores: list[int | None] = [None] * len(rules.boxes)
    extra = 0
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, sep, raw = item.partition("=")
        if not sep or not raw.isdigit():
            raise StrategyInputError(f"card entry {item!r} is not box=points", field="--card")
        if name == "extra_bonus":
            extra = int(raw)
            continue
        scores[rules.box_index(name)] = int(raw)
    return tuple(scores), extra


def _position(args: argparse.Namespace) -> tuple[Ruleset, Position]:
    if args.log:
        log = parse_log(_read_text(args.log))
        result = replay(log, _seed(args.seed))
        if result.complete:
            raise StrategyError("the log is a finished game; use `daily analyse`", field="log")
        return log.rules, Position.from_game(result.game)
    if not args.ruleset:
        raise StrategyInputError("give a ruleset with --dice, or --log", field="ruleset")
    rules = rules_from_args(args)
    if not args.dice:
        raise StrategyInputError("--dice is required without --log", field="--dice")
    scores, extra = _parse_card(rules, args.card)
    return rules, Position(rules, scores, tuple(args.dice), args.rolls_left, extra)


def cmd_hint(args: argparse.Namespace) -> int:
    """``daily hint``."""
    rules, pos = _position(args)
    advisor = advisor_for(rules, _folder(args))
    hint = advisor.hint(pos, max(0, args.top))
    if args.json:
        print(json.dumps(hint))
        return 0
    if advisor.heuristic:
        print("(heuristic: the lookahead player's values, not an exact table)")
    print(f"best: {hint['best']['text']} -> {hint['best']['value']:.1f}")
    for alt in hint["alternatives"]:
        print(f"  or: {alt['text']} -> {alt['value']:.1f} (-{alt['loss']:.2f})")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """``daily analyse``."""
    log = parse_log(_read_text(args.log))
    folder = tables_dir_for(Path(args.data_dir)) if args.data_dir else default_tables_dir()
    advisor = advisor_for(log.rules, folder)
    engine = advisor if isinstance(advisor, TripleAdvisor) else advisor.table
    report = analyse(engine, log, seed=_seed(args.seed))
    print(json.dumps(report.to_json()) if args.json else report.summary())
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    """``daily bot``."""
    rules = rules_from_args(args)
    if args.games < 1:
        raise StrategyInputError("--games is at least 1", field="--games")
    if len(rules.weights) > 1:
        return _triple_bot(args, rules)
    table = get_table(rules, _folder(args))
    seed = _seed(args.seed) or bytes(32)
    if args.games == 1:
        bot = Bot(table, args.level, temperature=args.temperature, seed=seed)
        game = bot.play(Game.from_seed(rules, seed))
        log = MoveLog.of_game(game, seed=seed)
        print(json.dumps({"level": args.level, "total": game.card.total, "log": log.to_json()}))
        return 0
    seeds = [hashlib.sha256(seed + i.to_bytes(4, "big")).digest() for i in range(args.games)]
    totals = play_slots(table, slot_array(rules, seeds), args.level,
                        temperature=args.temperature, seed=int.from_bytes(seed[:4], "big"))
    mean = float(totals.mean())
    sd = statistics.pstdev(int(t) for t in totals)
    print(f"{args.level}: {args.games} games, mean {mean:.2f}, sd {sd:.2f}")
    return 0


def _triple_bot(args: argparse.Namespace, rules: Ruleset) -> int:
    """``daily bot triple-yahtzee``: hard is the lookahead player, easy the greedy one."""
    if args.level == "medium":
        raise StrategyInputError(
            f"{rules.name} has the levels easy (greedy) and hard (lookahead)", field="--level"
        )
    column = get_table(column_rules(rules), _folder(args))
    player = TripleAdvisor(column, rules, greedy=args.level == "easy")
    seed = _seed(args.seed) or bytes(32)
    if args.games == 1:
        game = player.play(Game.from_seed(rules, seed))
        log = MoveLog.of_game(game, seed=seed)
        print(json.dumps({"level": args.level, "heuristic": True, "total": game.card.total,
                          "log": log.to_json()}))
        return 0
    seeds = [hashlib.sha256(seed + i.to_bytes(4, "big")).digest() for i in range(args.games)]
    totals = player.play_slots(slot_array(rules, seeds))
    sd = statistics.pstdev(int(t) for t in totals)
    print(f"{args.level} (heuristic): {args.games} games, mean {float(totals.mean()):.2f}, "
          f"sd {sd:.2f}")
    return 0
