"""Proof documents: a game's inclusion proof (``daily-results-proof/v1``) and the
consistency proof between two heads (``daily-results-consistency/v1``).

An inclusion proof carries the game's leaf (with its receipt), its 0-based index in the
log, the RFC 6962 audit path (hex, leaf side first) and the signed head it leads to
(``GET /api/v1/results/{code}/proof``).

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> from daily.audit.leaf import Decision, Leaf, leaf_bytes
>>> from daily.audit.merkle import MerkleTree
>>> from daily.audit.signing import sign_head
>>> leaves = [Leaf.decision_leaf(f"DD-{i}", Decision("held"), "2026-11-30T13:00:00.000Z")
...           for i in range(3)]
>>> tree = MerkleTree.of_leaves(leaf_bytes(leaf) for leaf in leaves)
>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> head = sign_head(key, "2026-11-29", "yacht", 3, tree.root(), "2026-11-30T13:00:00.000Z")
>>> proof = InclusionProof.build(tree, leaves[1], 1, head)
>>> InclusionProof.from_json(proof.to_json()) == proof, proof.verifies()
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from daily.audit.leaf import Leaf, leaf_bytes
from daily.audit.merkle import MerkleTree, leaf_hash, verify_consistency, verify_inclusion
from daily.audit.signing import SignedHead
from daily.errors import DailyError

PROOF_VERSION = "daily-results-proof/v1"
CONSISTENCY_VERSION = "daily-results-consistency/v1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
#: Longest path accepted (a tree of 2**64 leaves needs 64).
MAX_PATH = 64


class ProofError(DailyError):
    """A proof document that is malformed; ``field`` names the part."""


def _fields(obj: Any, names: tuple[str, ...], version: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise ProofError("a proof is a JSON object", field="proof")
    if obj.get("version") != version:
        raise ProofError(f"is {obj.get('version')!r}, expected {version!r}", field="version")
    for name in names:
        if name not in obj:
            raise ProofError("is missing", field=name)
    for name in obj:
        if name not in names:
            raise ProofError("is not a field of this proof", field=name)
    return obj


def _count(obj: Mapping[str, Any], name: str) -> int:
    value = obj[name]
    if type(value) is not int or value < 0:
        raise ProofError("is not a non-negative integer", field=name)
    return value


def _path(value: Any, name: str) -> tuple[bytes, ...]:
    if not isinstance(value, list) or len(value) > MAX_PATH:
        raise ProofError(f"is not a list of at most {MAX_PATH} hashes", field=name)
    for i, item in enumerate(value):
        if not (isinstance(item, str) and _HEX64.fullmatch(item)):
            raise ProofError("is not 64 lowercase hex", field=f"{name}[{i}]")
    return tuple(bytes.fromhex(item) for item in value)


@dataclass(frozen=True)
class InclusionProof:
    """One leaf, where it is, and the path from it to the root of ``head``."""

    leaf: Leaf
    index: int
    audit_path: tuple[bytes, ...]
    head: SignedHead
    version: str = PROOF_VERSION

    @classmethod
    def build(cls, tree: MerkleTree, leaf: Leaf, index: int, head: SignedHead) -> InclusionProof:
        """The proof of ``leaf`` at ``index`` of ``tree``, whose root ``head`` signs."""
        return cls(leaf, index, tuple(tree.inclusion_proof(index)), head)

    def verifies(self) -> bool:
        """True if the path leads from the leaf to the head's root (signature not checked)."""
        return verify_inclusion(leaf_hash(leaf_bytes(self.leaf)), self.index, self.head.size,
                                self.audit_path, self.head.root_bytes)

    def to_json(self) -> dict[str, Any]:
        """The JSON document."""
        return {
            "version": self.version,
            "leaf": self.leaf.to_json(),
            "index": self.index,
            "audit_path": hex_path(self.audit_path),
            "head": self.head.to_json(),
        }

    @classmethod
    def from_json(cls, obj: Any) -> InclusionProof:
        """Parse and check the shape; :class:`ProofError` (or the leaf's and head's own
        errors) name the field at fault."""
        obj = _fields(obj, ("version", "leaf", "index", "audit_path", "head"), PROOF_VERSION)
        return cls(Leaf.from_json(obj["leaf"]), _count(obj, "index"),
                   _path(obj["audit_path"], "audit_path"), SignedHead.from_json(obj["head"]))


@dataclass(frozen=True)
class ConsistencyProof:
    """The RFC 6962 proof that the log of ``old_size`` leaves is a prefix of ``new_size``."""

    old_size: int
    new_size: int
    path: tuple[bytes, ...]
    version: str = CONSISTENCY_VERSION

    @classmethod
    def build(cls, tree: MerkleTree, old_size: int) -> ConsistencyProof:
        """The proof from the first ``old_size`` leaves of ``tree`` to all of them."""
        return cls(old_size, tree.size, tuple(tree.consistency_proof(old_size)))

    def verifies(self, old_root: bytes, new_root: bytes) -> bool:
        """True if the proof links the two roots."""
        return verify_consistency(self.old_size, self.new_size, old_root, new_root, self.path)

    def to_json(self) -> dict[str, Any]:
        """The JSON document."""
        return {"version": self.version, "old_size": self.old_size, "new_size": self.new_size,
                "path": hex_path(self.path)}

    @classmethod
    def from_json(cls, obj: Any) -> ConsistencyProof:
        """Parse and check the shape."""
        obj = _fields(obj, ("version", "old_size", "new_size", "path"), CONSISTENCY_VERSION)
        return cls(_count(obj, "old_size"), _count(obj, "new_size"), _path(obj["path"], "path"))


def hex_path(path: Sequence[bytes]) -> list[str]:
    """A path as the JSON list of hex strings.

    >>> hex_path([bytes(2)])
    ['0000']
    """
    return [node.hex() for node in path]
