"""Core commands: ``dice``, ``score``, ``replay`` and ``play``.

>>> from daily.cli import main
>>> main(["dice", "--seed", "00" * 32, "--turn", "0", "--roll", "0", "--count", "5"])
5 2 2 2 3
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from daily.dice import parse_seed_hex, slot_dice
from daily.errors import DailyError
from daily.movelog import parse_log
from daily.replay import replay
from daily.rules import RULESET_NAMES, OptionValue, Ruleset, get_ruleset


class CliInputError(DailyError):
    """A command-line value that cannot be used."""


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``name=value`` from the command line; true/false and numbers are typed.

    >>> parse_option("full_straight=30"), parse_option("joker=false")
    (('full_straight', 30), ('joker', False))
    """
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise CliInputError(f"option {text!r} is not name=value", field="--option")
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return name, lowered == "true"
    if raw.isdigit():
        return name, int(raw)
    return name, raw


def rules_from_args(args: argparse.Namespace) -> Ruleset:
    """The ruleset named by ``args.ruleset`` with every ``--option`` applied.

    >>> rules_from_args(argparse.Namespace(ruleset="maxi", option=["full_straight=25"])).name
    'maxi-yatzy'
    """
    return get_ruleset(args.ruleset, dict(parse_option(o) for o in args.option or []))


def add_option_flag(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--option NAME=VALUE`` flag."""
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a rule option (repeatable)"
    )


def register(sub: Any) -> None:
    """Add the core commands to the ``daily`` parser."""
    p = sub.add_parser("dice", help="print the dice of one slot (spec dice/v1)")
    p.add_argument("--seed", required=True, help="the 64-hex-digit seed")
    p.add_argument("--turn", type=int, required=True, help="0-based turn")
    p.add_argument("--roll", type=int, required=True, help="0-based roll")
    p.add_argument("--count", type=int, default=5, help="number of dice (default 5)")
    p.set_defaults(handler=cmd_dice)

    p = sub.add_parser("score", help="print every box's points for some dice")
    p.add_argument("ruleset", help=f"one of {', '.join(RULESET_NAMES)}")
    p.add_argument("dice", nargs="+", help="the dice, e.g. 4 4 4 6 6")
    p.add_argument(
        "--served",
        action="store_true",
        help="the dice stand on the turn's first roll (Generala's served combinations)",
    )
    add_option_flag(p)
    p.set_defaults(handler=cmd_score)

    p = sub.add_parser("replay", help="verify a move log and print the result as JSON")
    p.add_argument("file", help="a daily-log/1 file (JSON or text form), or - for stdin")
    p.add_argument("--seed", help="seed (hex) for a log that names a revealed day")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("play", help="play a practice game in the terminal")
    p.add_argument("ruleset", help=f"one of {', '.join(RULESET_NAMES)}")
    p.add_argument("--seed", help="seed (hex); a random one if omitted")
    add_option_flag(p)
    p.set_defaults(handler=cmd_play)


def cmd_dice(args: argparse.Namespace) -> int:
    """``daily dice``: the dice of slot (turn, roll)."""
    dice = slot_dice(parse_seed_hex(args.seed), args.turn, args.roll, args.count)
    print(" ".join(map(str, dice)))
    return 0


def parse_dice(values: list[str], count: int) -> tuple[int, ...]:
    """Dice from the command line, checked against the game's number of dice.

    >>> parse_dice(["6", "6", "1", "2", "3"], 5)
    (6, 6, 1, 2, 3)
    """
    if len(values) != count:
        raise CliInputError(f"{len(values)} dice given, the game has {count}", field="dice")
    out = []
    for v in values:
        if v not in ("1", "2", "3", "4", "5", "6"):
            raise CliInputError(f"{v!r} is not a die (1 to 6)", field="dice")
        out.append(int(v))
    return tuple(out)


def cmd_score(args: argparse.Namespace) -> int:
    """``daily score``: the raw points of every box (no joker: an empty card).

    With ``--served`` the dice count as made on the turn's first roll (Generala); on a
    multi-column card (Triple Yahtzee) the points are those of the box, before the
    column's weight.

    >>> from daily.cli import main
    >>> main(["score", "generala", "--served", "2", "2", "5", "5", "5"]) # doctest: +ELLIPSIS
    ones 0
    ...
    full 35
    ...
    0
    """
    rules = rules_from_args(args)
    dice = parse_dice(args.dice, rules.dice)
    table = rules.served_table if args.served else rules.table
    points = table[tuple(sorted(dice))]
    for box, value in zip(rules.box_ids, points, strict=True):
        print(f"{box} {value}")
    return 0


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8", errors="strict") as fh:
        return fh.read()


def cmd_replay(args: argparse.Namespace) -> int:
    """``daily replay``: verify a log and print the result."""
    try:
        text = _read_input(args.file)
    except UnicodeDecodeError:
        raise CliInputError(f"{args.file} is not UTF-8 text", field="file") from None
    log = parse_log(text)
    seed = parse_seed_hex(args.seed) if args.seed else None
    print(json.dumps(replay(log, seed).to_json(), indent=2))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """``daily play``: an interactive practice game."""
    from daily.cli.terminal_game import play_interactive

    rules = rules_from_args(args)
    if args.seed:
        seed = parse_seed_hex(args.seed)
    else:
        import secrets

        seed = secrets.token_bytes(32)
    return play_interactive(rules, seed, sys.stdin, sys.stdout)

