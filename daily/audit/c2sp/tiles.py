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

A client reads them back (:class:`TileReader`): the root of a tree of any size from the
tiles on its right edge (at most one partial tile a level), and the consistency of an
older tree with it from the tiles covering the older tree's edge, each tied to the new
root by the hashes above it; no proof is asked of the log.

>>> served = dict(tiles(tree, [b"a", b"b", b"c"], 3))
>>> reader = TileReader(lambda path: served[path])
>>> reader.root(3) == tree.root()
True
>>> reader.consistent(2, tree.subtree(0, 2), 3, tree.root())
True
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence

from daily.audit.merkle import EMPTY_ROOT, MerkleTree

WIDTH = 256
#: Tree levels per tile level.
HEIGHT = 8
#: Longest entry a bundle can carry.
MAX_ENTRY = 0xFFFF
#: Bytes of one hash in a tile.
HASH_SIZE = 32


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


class TileError(ValueError):
    """A tile that cannot be read: missing, of the wrong length, or not the hash its
    parent tile holds for it."""


def tile_width(size: int, level: int, index: int) -> int:
    """The width of tile ``index`` of ``level`` in the tree of ``size`` leaves (0: none).

    >>> tile_width(70000, 0, 273), tile_width(70000, 1, 0), tile_width(70000, 2, 0)
    (112, 256, 1)
    """
    return max(0, min(WIDTH, (size >> (level * HEIGHT)) - index * WIDTH))


class TileReader:
    """Roots and consistency of a log's trees read from its tiles.

    ``fetch(path)`` answers the bytes of a tile (raising :class:`TileError`, or any
    ``OSError``, when it cannot); each path is fetched once (:attr:`fetched` lists them).
    """

    def __init__(self, fetch: Callable[[str], bytes]) -> None:
        self._fetch = fetch
        self._tiles: dict[str, list[bytes]] = {}
        self.fetched: list[str] = []

    def hashes(self, level: int, index: int, width: int) -> list[bytes]:
        """The ``width`` hashes of a tile, fetched once."""
        path = tile_path(level, index, width)
        if path not in self._tiles:
            data = self._fetch(path)
            if len(data) != width * HASH_SIZE:
                raise TileError(f"{path}: {len(data)} bytes, not {width * HASH_SIZE}")
            self._tiles[path] = [data[i:i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)]
            self.fetched.append(path)
        return self._tiles[path]

    def _edge(self, size: int, within: int) -> bytes:
        """The root of the first ``size`` leaves from the tiles of the tree of ``within``
        leaves (``size`` <= ``within``): level by level, the hashes of the last tile's
        first part, then the root of the rest below them (RFC 6962's tree of a level's
        whole subtrees and a smaller one after them has the shape of that list's tree)."""
        below: bytes | None = None
        level = 0
        while size >> (level * HEIGHT):
            count = size >> (level * HEIGHT)
            index, used = divmod(count, WIDTH)
            nodes = []
            if used:
                nodes = self.hashes(level, index, tile_width(within, level, index))[:used]
            if below is not None:
                nodes.append(below)
            if nodes:
                below = MerkleTree(nodes).root()
            level += 1
        return EMPTY_ROOT if below is None else below

    def root(self, size: int) -> bytes:
        """The root of the tree of ``size`` leaves, from the partial tiles of its right
        edge (a level whose count of whole subtrees is a multiple of 256 has none)."""
        return self._edge(size, size)

    def _bind(self, old_size: int, size: int) -> None:
        """Check that each tile covering the edge of the first ``old_size`` leaves
        (``old_size`` > 0) is, in the tree of ``size``, the tile its parent hashes: from
        the lowest such tile up, a whole tile's root must be its parent's hash for it,
        up to a tile of the right edge (the root ties those)."""
        level = 0
        while not (old_size >> (level * HEIGHT)) % WIDTH:
            level += 1
        index = (old_size >> (level * HEIGHT)) // WIDTH
        while tile_width(size, level, index) == WIDTH:
            found = MerkleTree(self.hashes(level, index, WIDTH)).root()
            parent, at = divmod(index, WIDTH)
            above = self.hashes(level + 1, parent, tile_width(size, level + 1, parent))
            if above[at] != found:
                raise TileError(f"{tile_path(level, index)} is not the tile "
                                f"{tile_path(level + 1, parent, len(above))} hashes")
            level, index = level + 1, parent

    def consistent(self, old_size: int, old_root: bytes, size: int, root: bytes) -> bool:
        """True if the tree (``old_size``, ``old_root``) is a prefix of the tree
        (``size``, ``root``) the tiles hold: the tiles of the right edge reproduce
        ``root``, and those covering the older tree's edge, each tied to them, reproduce
        ``old_root``. Raises :class:`TileError` for a tile that cannot be read or is not
        the one its parent hashes.

        >>> leaves = [b"%d" % i for i in range(600)]
        >>> tree = MerkleTree.of_leaves(leaves)
        >>> served = dict(tiles(tree, leaves, 600))
        >>> reader = TileReader(lambda path: served[path])
        >>> reader.consistent(300, tree.subtree(0, 300), 600, tree.root())
        True
        >>> reader.fetched
        ['tile/0/002.p/88', 'tile/1/000.p/2', 'tile/0/001']
        >>> reader.consistent(300, bytes(32), 600, tree.root())
        False
        """
        if not 0 <= old_size <= size or self.root(size) != root:
            return False
        if old_size == 0:
            return old_root == EMPTY_ROOT
        self._bind(old_size, size)
        return self._edge(old_size, size) == old_root
