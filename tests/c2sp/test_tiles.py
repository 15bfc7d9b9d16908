"""C2SP ``tlog-tiles`` paths against published vectors, and a tiles client's root and
consistency check (:class:`daily.audit.c2sp.tiles.TileReader`) against the RFC 6962
tree of :mod:`daily.audit.merkle`, across tile levels and their edges."""

from __future__ import annotations

import pytest

from daily.audit.c2sp.tiles import TileError, TileReader, tile_path, tile_width, tiles
from daily.audit.merkle import MerkleTree

# The spec's example (c2sp.org/tlog-tiles: "index 1234067 will be encoded as
# x001/x234/067"), and golang.org/x/mod/sumdb/tlog's tile path tests
# (tile_test.go, tilePaths: "tile/H/L/N[.p/W]"), whose tiles of height 8 are the C2SP
# tiles at "tile/L/N[.p/W]" (Go's "data" level is C2SP's "entries").
PATHS = [
    ((0, 1234067, 256), "tile/0/x001/x234/067"),
    ((0, 1, 5), "tile/0/001.p/5"),             # Go: tile/4/0/001.p/5 (L 0, N 1, W 5)
    ((5, 123456078, 256), "tile/5/x123/x456/078"),      # Go: tile/3/5/x123/x456/078
    ((5, 123456078, 2), "tile/5/x123/x456/078.p/2"),    # Go: tile/3/5/x123/x456/078.p/2
    ((0, 3057500, 256), "tile/0/x003/x057/500"),        # Go: tile/1/0/x003/x057/500
    ((-1, 3057500, 256), "tile/entries/x003/x057/500"),  # Go: tile/1/data/x003/x057/500
    ((-1, 1234067, 17), "tile/entries/x001/x234/067.p/17"),
    ((2, 0, 1), "tile/2/000.p/1"),
    ((1, 1000, 256), "tile/1/x001/000"),
]

SIZE = 66_000  # three levels of tiles: level 2 holds one hash
LEAVES = [b"%d" % i for i in range(SIZE)]
TREE = MerkleTree.of_leaves(LEAVES)


@pytest.mark.parametrize(("tile", "path"), PATHS)
def test_tile_paths_are_the_published_ones(tile: tuple[int, int, int], path: str) -> None:
    assert tile_path(*tile) == path


def _served(tree: MerkleTree, leaves: list[bytes], size: int) -> dict[str, bytes]:
    return {p: d for p, d in tiles(tree, leaves, size) if "/entries/" not in p}


@pytest.fixture(scope="module")
def full() -> dict[str, bytes]:
    return _served(TREE, LEAVES, SIZE)


def _reader(served: dict[str, bytes]) -> TileReader:
    def fetch(path: str) -> bytes:
        if path not in served:
            raise TileError(f"{path} answered 404")
        return served[path]
    return TileReader(fetch)


@pytest.mark.parametrize("size", [0, 1, 2, 255, 256, 257, 511, 512, 65535, 65536, 65537])
def test_the_root_of_any_size_from_its_right_edge(size: int) -> None:
    served = _served(TREE, LEAVES, size)
    reader = _reader(served)
    assert reader.root(size) == TREE.subtree(0, size)
    levels = sum(1 for level in range(4) if size >> (8 * level))
    assert len(reader.fetched) <= levels  # at most one partial tile a level


@pytest.mark.parametrize(("old", "new"), [
    (1, 1), (1, 2), (255, 256), (256, 257), (257, 512), (300, 600), (256, 65536),
    (65536, 66000), (300, 66000), (65535, 65537), (1, 66000), (65792, 66000),
])
def test_consistency_from_the_tiles_of_the_newer_tree(old: int, new: int) -> None:
    served = _served(TREE, LEAVES, new)
    reader = _reader(served)
    assert reader.consistent(old, TREE.subtree(0, old), new, TREE.subtree(0, new))
    assert len(reader.fetched) <= 6, reader.fetched  # the two edges, never the whole log
    assert not _reader(served).consistent(old, bytes(32), new, TREE.subtree(0, new))
    assert not _reader(served).consistent(old, TREE.subtree(0, old), new, bytes(32))


def test_empty_and_out_of_order_sizes(full: dict[str, bytes]) -> None:
    assert _reader(full).consistent(0, TREE.subtree(0, 0), SIZE, TREE.root())
    assert not _reader(full).consistent(SIZE, TREE.root(), SIZE - 1, TREE.subtree(0, SIZE - 1))


def test_another_history_does_not_reproduce_the_old_root() -> None:
    other = [*LEAVES[:10], b"changed", *LEAVES[11:600]]
    tree = MerkleTree.of_leaves(other)
    reader = _reader(_served(tree, other, 600))
    assert not reader.consistent(300, TREE.subtree(0, 300), 600, tree.root())


def test_a_tile_spliced_from_the_old_history_is_not_the_one_its_parent_hashes() -> None:
    # The new log keeps the first 256 leaves and rewrites the rest; the operator serves,
    # for the old tree's edge, a tile of the old history (which gives the old root).
    new = [*LEAVES[:256], *(b"x%d" % i for i in range(256, 600))]
    tree = MerkleTree.of_leaves(new)
    served = _served(tree, new, 600)
    served["tile/0/001"] = _served(TREE, LEAVES, 600)["tile/0/001"]
    with pytest.raises(TileError, match=r"tile/0/001 is not the tile tile/1/000\.p/2 hashes"):
        _reader(served).consistent(300, TREE.subtree(0, 300), 600, tree.root())


def test_a_tile_of_the_wrong_length_is_refused(full: dict[str, bytes]) -> None:
    served = dict(full, **{"tile/0/001.p/44": bytes(32 * 43)})
    with pytest.raises(TileError, match=r"tile/0/001\.p/44: 1376 bytes, not 1408"):
        _reader(served).root(300)


def test_tile_width() -> None:
    assert [tile_width(SIZE, 0, i) for i in (0, 256, 257, 258)] == [256, 256, 208, 0]
    assert [tile_width(SIZE, level, 0) for level in (1, 2, 3)] == [256, 1, 0]
