"""Where the service gets day seeds, and the per-process cache of each day's dice.

The keyring (:class:`daily.service.days.keyring.Keyring`) owns the master secret; this module
asks it once per process and keeps the dice of recent days. Seeds never leave the
server before their day is revealed.

>>> import tempfile
>>> from daily.service.config import load_config
>>> from daily.service.days.keyring import init_keys
>>> config = load_config({"DAILY_DATA_DIR": tempfile.mkdtemp()})
>>> _ = init_keys(config.keys_dir)
>>> len(DaySeeds(config).slots("yahtzee", "2026-11-29", 5)(0, 0))
5
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Callable

from daily import dice
from daily.dice import SlotCache
from daily.service.config import Config, ConfigError
from daily.service.days.keyring import Keyring
from daily.service.refusals import Unavailable

SeedFunction = Callable[[str, dt.date], bytes]
_CACHE_DAYS = 32


def _seed_function(config: Config) -> SeedFunction:
    """Day seeds from the service keyring (refused with a 503 while it is not set up)."""
    try:
        keyring = Keyring.load(config)
    except ConfigError as exc:
        raise Unavailable(f"the keyring is not ready: {exc}") from None
    return keyring.day_seed


class DaySeeds:
    """Day seeds and a small LRU of each day's :class:`SlotCache`, per process."""

    def __init__(self, config: Config, keyring: Keyring | None = None) -> None:
        self.config = config
        self._seed_fn: SeedFunction | None = keyring.day_seed if keyring else None
        self._cache: OrderedDict[tuple[str, dt.date, int], SlotCache] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:  # never show a seed
        return f"DaySeeds(days_cached={len(self._cache)})"

    def seed(self, ruleset: str, date: dt.date | str) -> bytes:
        """The seed of (ruleset, date). Only for dice, commitments and revealed days."""
        if self._seed_fn is None:
            self._seed_fn = _seed_function(self.config)
        return self._seed_fn(ruleset, dice.parse_date(date))

    def slots(self, ruleset: str, date: dt.date | str, count: int) -> SlotCache:
        """The cached dice source of a day."""
        key = (ruleset, dice.parse_date(date), count)
        with self._lock:
            cache = self._cache.get(key)
            if cache is not None:
                self._cache.move_to_end(key)
                return cache
        cache = SlotCache(self.seed(ruleset, key[1]), count)
        with self._lock:
            self._cache[key] = cache
            while len(self._cache) > _CACHE_DAYS:
                self._cache.popitem(last=False)
        return cache
