"""Table files: versioned, checked against the ruleset, memory-mapped."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from daily.rules import get_ruleset
from daily.strategy.solver import StrategyTable, solve
from daily.strategy.spec import StrategyError
from daily.strategy.tables.fileformat import (
    HEADER_BYTES,
    MAGIC,
    load_table,
    read_header,
    save_table,
)
from daily.strategy.tables.lookup import get_table

FORCED = {"forced_order": True}


@pytest.fixture(scope="module")
def forced_yacht() -> StrategyTable:
    return solve(get_ruleset("yacht", FORCED))


def test_round_trip_is_exact_and_mapped(tmp_path: Path, forced_yacht: StrategyTable) -> None:
    path = save_table(forced_yacht, tmp_path, dtype="float64")
    loaded = load_table(forced_yacht.rules, tmp_path)
    assert isinstance(loaded.values, np.memmap)
    assert np.array_equal(np.asarray(loaded.values), forced_yacht.values)
    assert loaded.expected == forced_yacht.expected
    header = read_header(path)
    assert header["format"] == "daily-table/1" and header["ruleset"] == "yacht"
    assert header["options"] == {"forced_order": True}


def test_float32_tables(tmp_path: Path, forced_yacht: StrategyTable) -> None:
    save_table(forced_yacht, tmp_path, dtype="float32")
    loaded = load_table(forced_yacht.rules, tmp_path)
    assert loaded.values.dtype == np.float32
    assert abs(float(loaded.values[0]) - forced_yacht.expected) < 1e-4


def test_missing_table_says_how_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(StrategyError, match="daily strategy build yacht --option forced_order"):
        load_table(get_ruleset("yacht", FORCED), tmp_path)


def _rewrite_header(path: Path, **changes: object) -> None:
    raw = path.read_bytes()
    header = json.loads(raw[len(MAGIC):].split(b"\n", 1)[0])
    header.update(changes)
    text = (MAGIC + json.dumps(header).encode() + b"\n").ljust(HEADER_BYTES, b" ")
    path.write_bytes(text + raw[HEADER_BYTES:])


@pytest.mark.parametrize(
    "change",
    [{"options": {"forced_order": False}}, {"solver": 0}, {"boxes": ["ones"]}, {"states": 1}],
)
def test_stale_table_is_refused(tmp_path: Path, forced_yacht: StrategyTable, change) -> None:
    path = save_table(forced_yacht, tmp_path)
    _rewrite_header(path, **change)
    with pytest.raises(StrategyError, match="stale strategy table"):
        load_table(forced_yacht.rules, tmp_path)


def test_truncated_and_foreign_files_are_refused(
    tmp_path: Path, forced_yacht: StrategyTable
) -> None:
    path = save_table(forced_yacht, tmp_path)
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(StrategyError, match="truncated"):
        load_table(forced_yacht.rules, tmp_path)
    path.write_bytes(b"hello")
    with pytest.raises(StrategyError, match="not a strategy table"):
        load_table(forced_yacht.rules, tmp_path)


def test_store_reopens_a_rebuilt_file(tmp_path: Path, forced_yacht: StrategyTable) -> None:
    rules = forced_yacht.rules
    save_table(forced_yacht, tmp_path)
    first = get_table(rules, tmp_path)
    assert get_table(rules, tmp_path) is first
    path = save_table(forced_yacht, tmp_path, dtype="float32")
    os.utime(path, (1, 1))
    assert get_table(rules, tmp_path) is not first


def test_saved_rolls_are_refused() -> None:
    with pytest.raises(StrategyError, match="saved rolls"):
        solve(get_ruleset("maxi-yatzy", {"saved_rolls": True}))


def test_a_loaded_table_can_be_saved_again(tmp_path: Path, forced_yacht: StrategyTable) -> None:
    save_table(forced_yacht, tmp_path / "a")
    loaded = load_table(forced_yacht.rules, tmp_path / "a")
    save_table(loaded, tmp_path / "b")
    again = load_table(forced_yacht.rules, tmp_path / "b")
    assert np.array_equal(np.asarray(again.values), forced_yacht.values)


def test_float32_table_keeps_the_exact_expectation(
    tmp_path: Path, forced_yacht: StrategyTable
) -> None:
    save_table(forced_yacht, tmp_path, dtype="float32")
    assert load_table(forced_yacht.rules, tmp_path).expected == forced_yacht.expected
