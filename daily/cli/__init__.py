"""The ``daily`` command line.

Each command family lives in its own module with a ``register(subparsers)`` function.
Bad input (any :class:`daily.errors.DailyError` or unreadable file) prints one line on
stderr and exits with status 2.

>>> main(["score", "yahtzee", "6", "6", "6", "6", "6"]) # doctest: +ELLIPSIS
ones 0
...
0
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from daily.errors import DailyError

#: Modules that contribute subcommands, each with ``register(subparsers)``.
COMMAND_MODULES = (
    "daily.cli.core_commands",
    "daily.cli.ops_commands",
    "daily.cli.keys_commands",
    "daily.cli.strategy_commands",
    "daily.cli.fairplay_commands",
    "daily.cli.witness_commands",
)


class UsageError(DailyError):
    """A command line that argparse rejected."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every available command registered."""
    parser = _Parser(prog="daily", description="Daily Dice: the same dice for everyone.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        status = args.handler(args)
    except DailyError as exc:
        print(f"daily: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"daily: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("daily: interrupted", file=sys.stderr)
        return 130
    return int(status or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
