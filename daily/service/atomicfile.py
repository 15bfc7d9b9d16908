"""Files written whole or not at all: a temporary file beside the target, renamed over it.

A reader (another worker, a restarted process, nginx) sees the old file or the new one,
never a half-written one; ``durable`` also syncs the data to disk before the rename and
the folder after it, for records that must survive a crash.

>>> import tempfile
>>> from pathlib import Path
>>> target = Path(tempfile.mkdtemp()) / "day" / "log.jsonl"
>>> write_atomic(target, [b"one\\n", b"two\\n"]) == target, target.read_bytes()
(True, b'one\\ntwo\\n')
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_writer(path: Path, *, durable: bool = True) -> Iterator[BinaryIO]:
    """A file to write in a ``with`` block: a temporary file in the same folder (created
    if missing), synced (and the rename too) when ``durable``, renamed over ``path``
    when the block ends; on any error the temporary file goes and ``path`` is untouched.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> with atomic_writer(target) as out:
    ...     _ = out.write(b"one\\n")
    ...     target.exists()
    False
    >>> target.read_bytes()
    b'one\\n'
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            if durable:
                out.flush()
                os.fsync(out.fileno())
        Path(tmp).replace(path)
        if durable:
            _fsync_folder(path.parent)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, parts: Iterable[bytes], *, durable: bool = True) -> Path:
    """Write ``parts`` to ``path`` whole or not at all (:func:`atomic_writer`).
    Returns ``path``."""
    with atomic_writer(path, durable=durable) as out:
        for part in parts:
            out.write(part)
    return path


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
