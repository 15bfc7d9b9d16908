"""The Merkle tree of RFC 6962 §2.1: root, inclusion (audit) proofs, consistency proofs.

Hashes (SHA-256) are domain-separated: a leaf hashes as ``SHA-256(0x00 || data)``, an
inner node as ``SHA-256(0x01 || left || right)``, and the tree of no leaves has the root
``SHA-256("")``. A tree of n > 1 leaves splits at k, the largest power of two below n.
The proofs are RFC 6962's ``PATH`` and ``PROOF``; they are checked with the algorithms
of RFC 9162 §2.1.3.2 and §2.1.4.2 (the same proofs, written as loops).

A :class:`MerkleTree` keeps every level of the tree, so each proof is O(log n) once
the tree is built; the module functions take the leaves' data and build one.

>>> leaves = [b"a", b"b", b"c"]
>>> root(leaves).hex()[:16]
'36642e73c2540ab1'
>>> proof = inclusion_proof(leaves, 2)
>>> verify_inclusion(leaf_hash(b"c"), 2, 3, proof, root(leaves))
True
>>> verify_consistency(2, 3, root(leaves[:2]), root(leaves), consistency_proof(leaves, 2))
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()
_sha256 = hashlib.sha256


def leaf_hash(data: bytes) -> bytes:
    """``SHA-256(0x00 || data)``.

    >>> leaf_hash(b"").hex()[:16]
    '6e340b9cffb37a98'
    """
    return _sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``."""
    return _sha256(NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two strictly below ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


class MerkleTree:
    """Every level of the tree of some leaf hashes (level 0 = the leaf hashes).

    Level j+1 hashes the pairs of level j; an odd last node moves up unchanged, which
    gives exactly RFC 6962's tree (split at the largest power of two).

    >>> tree = MerkleTree.of_leaves([b"a", b"b", b"c", b"d", b"e"])
    >>> tree.size, tree.root() == root([b"a", b"b", b"c", b"d", b"e"])
    (5, True)
    """

    __slots__ = ("levels",)

    def __init__(self, leaf_hashes: Iterable[bytes]) -> None:
        level = list(leaf_hashes)
        self.levels: list[list[bytes]] = [level]
        sha, prefix = _sha256, NODE_PREFIX
        while len(level) > 1:
            up = [sha(prefix + level[i] + level[i + 1]).digest()
                  for i in range(0, len(level) - 1, 2)]
            if len(level) % 2:
                up.append(level[-1])
            self.levels.append(up)
            level = up

    @classmethod
    def of_leaves(cls, leaves: Iterable[bytes]) -> MerkleTree:
        """The tree of the leaves' data (each hashed with :func:`leaf_hash`)."""
        sha, prefix = _sha256, LEAF_PREFIX
        return cls(sha(prefix + data).digest() for data in leaves)

    @property
    def size(self) -> int:
        """The number of leaves."""
        return len(self.levels[0])

    def root(self) -> bytes:
        """The Merkle tree hash of all the leaves."""
        return self.levels[-1][0] if self.size else EMPTY_ROOT

    def subtree(self, start: int, end: int) -> bytes:
        """MTH of leaves ``start`` to ``end`` (exclusive), a node of the tree when the
        range is one (what the proofs ask for), else computed by RFC 6962's definition.

        >>> t = MerkleTree.of_leaves([b"a", b"b", b"c"])
        >>> t.subtree(0, 3) == t.root(), t.subtree(1, 3) == root([b"b", b"c"])
        (True, True)
        """
        n = end - start
        if n <= 0:
            return EMPTY_ROOT
        level = (n - 1).bit_length()
        if start % (1 << level) == 0 and end == min(start + (1 << level), self.size):
            return self.levels[level][start >> level]
        k = _split(n)
        return node_hash(self.subtree(start, start + k), self.subtree(start + k, end))

    def inclusion_proof(self, index: int) -> list[bytes]:
        """RFC 6962 ``PATH(index, D[n])``: the audit path of leaf ``index``, leaf side first."""
        if not 0 <= index < self.size:
            raise IndexError(f"leaf {index} is not in a tree of {self.size}")
        path: list[bytes] = []
        start, end = 0, self.size
        while end - start > 1:
            k = _split(end - start)
            if index < start + k:
                path.append(self.subtree(start + k, end))
                end = start + k
            else:
                path.append(self.subtree(start, start + k))
                start += k
        path.reverse()
        return path

    def consistency_proof(self, old_size: int) -> list[bytes]:
        """RFC 6962 ``PROOF(old_size, D[n])``: that the first ``old_size`` leaves are a prefix.

        Empty when ``old_size`` is 0 or the whole tree.
        """
        if not 0 <= old_size <= self.size:
            raise IndexError(f"{old_size} leaves is not a prefix of a tree of {self.size}")
        if old_size in (0, self.size):
            return []
        path: list[bytes] = []
        start, end, m, whole = 0, self.size, old_size, True
        while m != end - start:
            k = _split(end - start)
            if m <= k:
                path.append(self.subtree(start + k, end))
                end = start + k
            else:
                path.append(self.subtree(start, start + k))
                start, m, whole = start + k, m - k, False
        if not whole:
            path.append(self.subtree(start, end))
        path.reverse()
        return path


def root(leaves: Sequence[bytes]) -> bytes:
    """The RFC 6962 Merkle tree hash of the leaves' data.

    >>> root([]).hex() == hashlib.sha256(b"").hexdigest()
    True
    """
    return MerkleTree.of_leaves(leaves).root()


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """The audit path of leaf ``index`` among the leaves' data (see :class:`MerkleTree`)."""
    return MerkleTree.of_leaves(leaves).inclusion_proof(index)


def consistency_proof(leaves: Sequence[bytes], old_size: int) -> list[bytes]:
    """The consistency proof from the tree of the first ``old_size`` leaves to all of them."""
    return MerkleTree.of_leaves(leaves).consistency_proof(old_size)


def verify_inclusion(
    leaf: bytes, index: int, size: int, proof: Sequence[bytes], root_hash: bytes
) -> bool:
    """True if ``proof`` shows the leaf hash ``leaf`` at ``index`` in the tree of ``size``
    leaves with root ``root_hash`` (RFC 9162 §2.1.3.2).

    >>> verify_inclusion(leaf_hash(b"a"), 0, 1, [], leaf_hash(b"a"))
    True
    >>> verify_inclusion(leaf_hash(b"a"), 1, 1, [], leaf_hash(b"a"))
    False
    """
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root_hash


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """True if ``proof`` shows the tree (``old_size``, ``old_root``) is a prefix of the tree
    (``new_size``, ``new_root``) (RFC 9162 §2.1.4.2; the empty tree is a prefix of any).

    >>> verify_consistency(1, 1, b"x", b"x", [])
    True
    >>> verify_consistency(2, 1, b"x", b"x", [])
    False
    """
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof and old_root == EMPTY_ROOT
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is a node of the path
        path.insert(0, old_root)
    if not path:
        return False
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_root and sr == new_root
