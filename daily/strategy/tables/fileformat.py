"""Strategy table files: a versioned JSON header followed by the raw value array.

Layout of ``<name>[-<options digest>].ddt``: the magic line ``DAILY-TABLE/1``, a JSON
header (format, solver version, ruleset, options, dtype, state count, expected score,
build time) padded with spaces to :data:`HEADER_BYTES`, then the values in
little-endian order. Loading checks the header against the ruleset and options asked
for and memory-maps the values, so even the Maxi Yatzy table opens instantly.

>>> import tempfile
>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> folder = Path(tempfile.mkdtemp())
>>> path = save_table(solve(rules), folder)
>>> path.name
'yacht-forced_order=true.ddt'
>>> round(load_table(rules, folder).expected, 4)
101.0853
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from daily.rules import Ruleset
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import GameSpec, StrategyError

MAGIC = b"DAILY-TABLE/1\n"
FORMAT = "daily-table/1"
#: Bumped whenever the solver's state layout or meaning changes.
SOLVER_VERSION = 1
HEADER_BYTES = 4096
#: Above this many states a table is stored in float32 (the Maxi table: 356 MB).
FLOAT32_ABOVE = 16 * 1024 * 1024


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def table_filename(rules: Ruleset) -> str:
    """The file name of a ruleset's table: its name plus any non-default options.

    >>> from daily.rules import get_ruleset
    >>> table_filename(get_ruleset("yahtzee", {"joker": False}))
    'yahtzee-joker=false.ddt'
    """
    extra = rules.non_default_options()
    parts = [rules.name] + [f"{k}={_option_text(v)}" for k, v in extra.items()]
    return "-".join(parts) + ".ddt"


def _expected_header(rules: Ruleset, spec: GameSpec) -> dict[str, object]:
    return {
        "format": FORMAT,
        "solver": SOLVER_VERSION,
        "ruleset": rules.name,
        "options": {k: rules.options[k] for k in sorted(rules.options)},
        "dice": rules.dice,
        "boxes": list(rules.box_ids),
        "rolls_per_turn": rules.rolls_per_turn,
        "states": spec.n_states,
    }


def save_table(table: StrategyTable, folder: Path, *, dtype: str | None = None) -> Path:
    """Write ``table`` into ``folder`` (atomically: a temporary file then a rename)."""
    spec = table.spec
    if dtype is None:
        dtype = "float32" if spec.n_states > FLOAT32_ABOVE else "float64"
    if dtype not in ("float32", "float64"):
        raise StrategyError(f"dtype {dtype!r} is not float32 or float64", field="dtype")
    header = _expected_header(table.rules, spec)
    own = {"dtype": dtype, "expected": table.expected,
           "build_seconds": round(table.build_seconds, 3)}
    header.update({k: v for k, v in table.meta.items() if k not in header and k not in own})
    header.update(own)
    text = MAGIC + json.dumps(header, sort_keys=True).encode("utf-8") + b"\n"
    if len(text) > HEADER_BYTES:
        raise StrategyError("table header too long", field="header")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / table_filename(table.rules)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        out.write(text.ljust(HEADER_BYTES, b" "))
        step = 1 << 22
        little = np.dtype(dtype).newbyteorder("<")
        for lo in range(0, len(table.values), step):
            out.write(np.asarray(table.values[lo : lo + step], dtype=little).tobytes())
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    return path


def read_header(path: Path) -> dict[str, object]:
    """The JSON header of a table file; a :class:`StrategyError` if it is not one."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
    except FileNotFoundError:
        raise StrategyError(f"no strategy table at {path}", field="table") from None
    if not head.startswith(MAGIC) or len(head) < HEADER_BYTES:
        raise StrategyError(f"{path} is not a strategy table file", field="table")
    try:
        header = json.loads(head[len(MAGIC) :].split(b"\n", 1)[0])
    except ValueError:
        raise StrategyError(f"{path} has a damaged header", field="table") from None
    if not isinstance(header, dict):
        raise StrategyError(f"{path} has a damaged header", field="table")
    return header


def load_table(rules: Ruleset, folder: Path) -> StrategyTable:
    """Open the table of ``rules`` in ``folder``, refusing a missing or stale one.

    The values are memory-mapped read-only; nothing is read until used. A missing file
    is refused before the ruleset's arrays are built (5 ms for Yahtzee): the fair-play
    check asks for the table of every result it checks.
    """
    path = folder / table_filename(rules)
    if not path.exists():
        raise StrategyError(
            f"no strategy table for {_describe(rules)} in {folder}; "
            f"build it with `daily strategy build {_build_args(rules)}`",
            field="table",
        )
    spec = GameSpec.from_rules(rules)
    header = read_header(path)
    wanted = _expected_header(rules, spec)
    for key, value in wanted.items():
        if header.get(key) != value:
            raise StrategyError(
                f"stale strategy table {path.name}: {key} is {header.get(key)!r}, "
                f"expected {value!r}; rebuild it with `daily strategy build {_build_args(rules)}`",
                field="table",
            )
    dtype = header.get("dtype")
    if dtype not in ("float32", "float64"):
        raise StrategyError(f"{path.name} has an unknown dtype {dtype!r}", field="table")
    size = np.dtype(str(dtype)).itemsize * spec.n_states
    if path.stat().st_size != HEADER_BYTES + size:
        raise StrategyError(
            f"{path.name} is truncated or padded: expected {HEADER_BYTES + size} bytes",
            field="table",
        )
    little = np.dtype(str(dtype)).newbyteorder("<")
    values = np.memmap(path, dtype=little, mode="r", offset=HEADER_BYTES, shape=(spec.n_states,))
    meta = {k: v for k, v in header.items() if k not in wanted}
    seconds = header.get("build_seconds", 0.0)
    return StrategyTable(spec, values, float(seconds) if isinstance(seconds, int | float) else 0.0,
                         meta)


def _describe(rules: Ruleset) -> str:
    extra = rules.non_default_options()
    if not extra:
        return rules.name
    return rules.name + " (" + ", ".join(f"{k}={_option_text(v)}" for k, v in extra.items()) + ")"


def _build_args(rules: Ruleset) -> str:
    extra = rules.non_default_options()
    return " ".join([rules.name] + [f"--option {k}={_option_text(v)}" for k, v in extra.items()])
