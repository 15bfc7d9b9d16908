"""Fixtures of the keys tests: a fresh keys directory and its keyring."""

from __future__ import annotations

from pathlib import Path

import pytest

from daily.service.days.keyring import Keyring, init_keys


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data directory whose ``keys/`` holds a fresh master secret and signing key."""
    init_keys(tmp_path / "keys")
    return tmp_path


@pytest.fixture
def keyring(data_dir: Path) -> Keyring:
    """The keyring of :func:`data_dir`."""
    return Keyring.from_dir(data_dir / "keys")
