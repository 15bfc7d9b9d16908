"""Fixtures of the audit tests: a closed day of real replayed games, and its files."""

from __future__ import annotations

from pathlib import Path

import pytest

from daily.audit.leaf import Decision, Leaf
from daily.audit.sample_day import SampleDay, append_decisions, build_day
from tests.audit.dayfiles import DATE, DESCRIPTOR, GAMES, KEYS, RESULTS_KEY, RULESET, DayFiles


@pytest.fixture(scope="session")
def sample_day() -> SampleDay:
    """Twelve real games of the example day, some held or disqualified, closed and signed."""
    return build_day(RULESET, DATE, bytes.fromhex(DESCRIPTOR["seed"]), RESULTS_KEY,
                     games=GAMES)


@pytest.fixture(scope="session")
def reviewed_day(sample_day: SampleDay) -> SampleDay:
    """The same day after a re-review cleared its first held game (a new head)."""
    held = next(leaf for leaf in sample_day.leaves if leaf.decision.status == "held")
    later = Leaf.decision_leaf(held.code, Decision("cleared"), "2026-12-01T09:00:00.000Z")
    return append_decisions(sample_day, RESULTS_KEY, [later], "2026-12-01T09:00:00.500Z")


@pytest.fixture
def files(tmp_path: Path, sample_day: SampleDay) -> DayFiles:
    """The sample day's descriptor, keys, head and log in a folder."""
    out = DayFiles(tmp_path, sample_day)
    out.write_json("day.json", DESCRIPTOR)
    out.write_json("keys.json", KEYS)
    out.write_json("head.json", sample_day.head.to_json())
    out.write_log(sample_day.lines())
    return out
