"""C2SP ``tlog-tiles``: a log as static files (tiles of hashes, bundles of entries).

A tile at level ``L`` holds up to 256 consecutive hashes of the tree at height ``8L``:
level 0 the leaf hashes, level 1 the roots of whole level-0 tiles, and so on; a tile of
fewer than 256 is *partial*, served at ``.p/<width>``. The entries are served in
bundles of 256, each entry a big-endian u16 length then its bytes (here: a leaf line
without its newline). Paths split the index in 3-digit groups, all but the last
prefixed ``x``.

>>> tile_path(0, 1234067)
'tile/0/x001/x234/067'
>>> tile_path(1, 3, 17), tile_path(-1, 0, 5)
('tile/1/003.p/17', 'tile/entries/000.p/5')
>>> from daily.audit.merkle import MerkleTree
>>> tree = MerkleTree.of_leaves([b"a", b"b", b"c"])
>>> [(path, len(data)) for path, data in tiles(tree, [b"a", b"b", b"c"], 3)]
[('tile/0/000.p/3', 96), ('tile/entries/000.p/3', 9)]
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Iterable, Iterator, Sequence

from daily.audit.merkle import MerkleTree

WIDTH = 256
#: Tree levels per tile level.
HEIGHT = 8
#: Longest entry a bundle can carry.
MAX_ENTRY = 0xFFFF


def encode_index(index: int) -> str:
    """``index`` in 3-digit groups, all but the last prefixed ``x``.

    >>> encode_index(0), encode_index(1000)
    ('000', 'x001/000')
    """
    groups = [f"{index % 1000:03d}"]
    index //= 1000
    while index:
        groups.append(f"x{index % 1000:03d}")
        index //= 1000
    return "/".join(reversed(groups))


def tile_path(level: int, index: int, width: int = WIDTH) -> str:
    """The path of a tile (level -1: an entry bundle), partial when ``width`` < 256."""
    name = "entries" if level < 0 else str(level)
    suffix = "" if width == WIDTH else f".p/{width}"
    return f"tile/{name}/{encode_index(index)}{suffix}"


def tiles(tree: MerkleTree, entries: Iterable[bytes], size: int) -> Iterator[tuple[str, bytes]]:
    """Every tile and entry bundle of the tree of the first ``size`` leaves (of ``tree``
    and ``entries``, which may hold more; read as they come, 256 at a time):
    ``(path, bytes)``."""
    if size > tree.size:
        raise ValueError(f"a tree of {tree.size} leaves has no tiles of size {size}")
    level = 0
    while True:
        height = level * HEIGHT
        count = size >> height  # whole subtrees of 2**height leaves
        if count == 0:
            break
        nodes = tree.levels[height]
        for start in range(0, count, WIDTH):
            end = min(start + WIDTH, count)
            yield tile_path(level, start // WIDTH, end - start), b"".join(nodes[start:end])
        level += 1
        if count < WIDTH:
            break
    batch: list[bytes] = []
    index = 0
    for entry in itertools.islice(entries, size):
        batch.append(entry)
        if len(batch) == WIDTH:
            yield tile_path(-1, index, WIDTH), bundle(batch)
            batch, index = [], index + 1
    if index * WIDTH + len(batch) != size:
        raise ValueError(f"{index * WIDTH + len(batch)} entries for a tree of {size}")
    if batch:
        yield tile_path(-1, index, len(batch)), bundle(batch)


def bundle(entries: Sequence[bytes]) -> bytes:
    """An entry bundle: each entry's u16 big-endian length, then the entry."""
    out = []
    for entry in entries:
        if len(entry) > MAX_ENTRY:
            raise ValueError(f"an entry of {len(entry)} bytes does not fit a bundle")
        out.append(struct.pack(">H", len(entry)) + entry)
    return b"".join(out)


def read_bundle(data: bytes) -> list[bytes]:
    """The entries of a bundle.

    >>> read_bundle(bundle([b"ab", b""]))
    [b'ab', b'']
    """
    out, at = [], 0
    while at < len(data):
        if at + 2 > len(data):
            raise ValueError("a bundle ends inside an entry's length")
        (length,) = struct.unpack(">H", data[at:at + 2])
        if at + 2 + length > len(data):
            raise ValueError("a bundle ends inside an entry")
        out.append(data[at + 2:at + 2 + length])
        at += 2 + length
    return out
