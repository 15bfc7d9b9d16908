"""Lines sorted by a key without holding them: the lines wait in a temporary file,
memory keeps each one's key and where it ends (the close of a million games sorts
its leaves so, some 80 bytes a leaf instead of its line and its objects).

>>> with LineSorter() as lines:
...     lines.add(b"b", b"second")
...     lines.add(b"a", b"first")
...     list(lines.sorted())
[(b'a', b'first'), (b'b', b'second')]
"""

from __future__ import annotations

import mmap
import tempfile
from array import array
from collections.abc import Iterator
from types import TracebackType


class LineSorter:
    """Collects ``(key, line)`` pairs, then gives them back sorted by key (stable)."""

    def __init__(self) -> None:
        # closed by close() (a context manager's exit)
        self._file = tempfile.TemporaryFile(prefix="daily-lines-")  # noqa: SIM115
        self._keys: list[bytes] = []
        self._ends = array("Q")
        self._size = 0

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, key: bytes, line: bytes) -> None:
        """Keep one line under ``key``."""
        self._file.write(line)
        self._size += len(line)
        self._keys.append(key)
        self._ends.append(self._size)

    def sorted(self) -> Iterator[tuple[bytes, bytes]]:
        """Every pair kept, by key (equal keys in the order they were added)."""
        if not self._keys:
            return
        self._file.flush()
        keys, ends = self._keys, self._ends
        with mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ) as view:
            for i in sorted(range(len(keys)), key=keys.__getitem__):
                yield keys[i], view[ends[i - 1] if i else 0:ends[i]]

    def close(self) -> None:
        """Drop the temporary file and the keys."""
        self._file.close()
        self._keys = []
        self._ends = array("Q")

    def __enter__(self) -> LineSorter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
