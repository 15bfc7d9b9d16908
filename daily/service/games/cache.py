"""Replayed games kept per process, by the exact text of the record they were built from.

A move served by this process leaves the game it wrote here: the record's text and the
game replayed to it. The next move of that game in this process takes the entry
(nobody else can use it meanwhile: :meth:`GameCache.take` removes it), applies the
decision to the copy and writes the new record with the move script, which writes only
if the stored text still has the SHA-1 of the copy's (:mod:`daily.service.games.store`).
So a copy is only ever *proven* current by the atomic write: a copy that is not current
(another process moved the game, a field was attached) writes nothing, and the move
starts again from Redis; a move the rules refuse on the copy is checked again on the
record read from Redis before it is answered. A process keeps at most
:data:`CACHE_SIZE` games (the least recently used go first).

>>> cache = GameCache(size=1)
>>> cache.take("g_x") is None
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from daily.service.games.store import Stored

#: Games a process keeps (a replayed Yahtzee game is a few kilobytes).
CACHE_SIZE = 4096


@dataclass
class Cached:
    """A stored record and its game replayed (``played``: ``.game`` and ``.log``)."""

    stored: Stored
    played: Any


class GameCache:
    """A bounded, thread-safe map game id -> :class:`Cached`, taken out to be used."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: str) -> Cached | None:
        """Remove and return the entry of ``game_id``, if any."""
        with self._lock:
            return self._entries.pop(game_id, None)

    def give_back(self, lent: Cached) -> None:
        """Return an entry taken only to be read (a hint), unless the game has another
        entry by now (a move of this process wrote a newer copy meanwhile).

        >>> from types import SimpleNamespace as Fake
        >>> cache = GameCache(size=2)
        >>> lent = Cached(Fake(record=Fake(id="g_1")), played="game")
        >>> cache.give_back(lent)
        >>> cache.take("g_1") is lent
        True
        """
        game_id = lent.stored.record.id
        with self._lock:
            if game_id in self._entries:
                return
            self._entries[game_id] = lent
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def put(self, stored: Stored, played: Any) -> None:
        """Keep ``played``, the game replayed to ``stored`` (just written by this process)."""
        with self._lock:
            self._entries[stored.record.id] = Cached(stored, played)
            self._entries.move_to_end(stored.record.id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
