"""The pure core of the results log: RFC 6962 against its recursive definition, the
canonical JSON, the leaf and head formats, receipts."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.canonical import CanonicalError, canonical_json
from daily.audit.leaf import Accepted, Decision, Leaf, LeafError, accepted_digest
from daily.audit.merkle import (
    MerkleTree,
    leaf_hash,
    verify_consistency,
    verify_inclusion,
)
from daily.audit.signing import (
    HeadError,
    SignedHead,
    sign_head,
    sign_receipt,
    verify_head,
    verify_receipt,
)


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(d: list[bytes]) -> bytes:
    """RFC 6962 §2.1 MTH, literally."""
    if not d:
        return _h(b"")
    if len(d) == 1:
        return _h(b"\x00" + d[0])
    k = _k(len(d))
    return _h(b"\x01" + mth(d[:k]) + mth(d[k:]))


def path(m: int, d: list[bytes]) -> list[bytes]:
    """RFC 6962 §2.1.1 PATH, literally."""
    if len(d) <= 1:
        return []
    k = _k(len(d))
    return [*path(m, d[:k]), mth(d[k:])] if m < k else [*path(m - k, d[k:]), mth(d[:k])]


def subproof(m: int, d: list[bytes], whole: bool) -> list[bytes]:
    """RFC 6962 §2.1.2 SUBPROOF, literally."""
    if m == len(d):
        return [] if whole else [mth(d)]
    k = _k(len(d))
    if m <= k:
        return [*subproof(m, d[:k], whole), mth(d[k:])]
    return [*subproof(m - k, d[k:], False), mth(d[:k])]


def test_every_tree_up_to_20_leaves_matches_rfc_6962() -> None:
    for n in range(21):
        data = [bytes([i]) * (i % 3) for i in range(n)]
        tree = MerkleTree.of_leaves(data)
        assert tree.root() == mth(data)
        for m in range(n):
            proof = tree.inclusion_proof(m)
            assert proof == path(m, data)
            assert verify_inclusion(leaf_hash(data[m]), m, n, proof, mth(data))
            other = (m + 1) % n
            assert n == 1 or not verify_inclusion(leaf_hash(data[m]), other, n, proof, mth(data))
            assert not verify_inclusion(leaf_hash(b"x"), m, n, proof, mth(data))
        for m in range(1, n + 1):
            proof = tree.consistency_proof(m)
            assert proof == (subproof(m, data, True) if m < n else [])
            assert verify_consistency(m, n, mth(data[:m]), mth(data), proof)
            if m < n:
                changed = [b"?", *data[1:m]]
                assert not verify_consistency(m, n, mth(changed), mth(data), proof)
                assert not verify_consistency(m, n, mth(data[:m]), mth([*data, b"!"]), proof)


def test_canonical_json_refuses_what_two_implementations_could_read_differently() -> None:
    assert canonical_json({"é": ["\n", 2**53 - 1]}) == '{"é":["\\n",9007199254740991]}'.encode()
    for bad in ({"x": 1.0}, {1: 2}, {"x": 2**53}, {"x": {1, 2}}):
        with pytest.raises(CanonicalError):
            canonical_json(bad)


ACC = Accepted("DD-ABCDEFGHJK", "p-1", "yacht", "2026-11-29", "dl1~yacht~-~d2026-11-29~",
               12, "2026-11-29T10:00:00.123Z")
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def test_a_receipt_binds_every_accepted_field_and_its_key() -> None:
    receipt = sign_receipt(KEY, ACC)
    assert verify_receipt(KEY.public_key(), ACC, receipt)
    changes = (("score", 13), ("code", "DD-X"), ("accepted_at", "2026-11-29T10:00:00.124Z"),
               ("log", ACC.log + "x"), ("player_id", "p-2"))
    for name, value in changes:
        changed = dataclasses.replace(ACC, **{name: value})
        assert accepted_digest(changed) != accepted_digest(ACC)
        assert not verify_receipt(KEY.public_key(), changed, receipt)
    other = Ed25519PrivateKey.from_private_bytes(bytes(32))
    assert not verify_receipt(other.public_key(), ACC, receipt)
    assert not verify_receipt(KEY.public_key(), ACC, "garbage")


def test_a_head_round_trips_and_its_errors_name_the_field() -> None:
    head = sign_head(KEY, "2026-11-29", "yacht", 3, bytes(32), "2026-11-30T12:00:00.000Z")
    assert SignedHead.from_json(head.to_json()) == head and verify_head(KEY.public_key(), head)
    assert not verify_head(KEY.public_key(), dataclasses.replace(head, size=4))
    for name, value, message in (
        ("size", -1, "size: is not a non-negative integer"),
        ("root", "AB" * 32, "root: is not 64 lowercase hex"),
        ("time", "2026-11-30T12:00:00Z", "time: is not an RFC 3339"),
        ("extra", 1, "extra: is not a field of a head"),
    ):
        with pytest.raises(HeadError) as err:
            SignedHead.from_json({**head.to_json(), name: value})
        assert str(err.value).startswith(message)


def test_a_leaf_round_trips_and_its_errors_name_the_field() -> None:
    leaf = Leaf.result(ACC, sign_receipt(KEY, ACC), "Ada", Decision("held", "foresight"))
    assert Leaf.from_json(leaf.to_json()) == leaf
    later = Leaf.decision_leaf(ACC.code, Decision("cleared"), "2026-12-01T00:00:00.000Z")
    assert Leaf.from_json(later.to_json()) == later
    cases = (
        ({"kind": "other"}, "kind: is 'other'"),
        ({"name": 5}, "name: is not null or a string"),
        ({"accepted": {**ACC.to_json(), "score": "12"}}, "accepted.score: is not a non-negative"),
        ({"accepted": {**ACC.to_json(), "date": "29/11/2026"}}, "accepted.date: is not a date"),
        ({"decision": {"status": "cleared", "reason": "Bad Reason"}}, "decision.reason: is not"),
        ({"version": "daily-results-leaf/v2"}, "version: is 'daily-results-leaf/v2'"),
    )
    for change, message in cases:
        with pytest.raises(LeafError) as err:
            Leaf.from_json({**leaf.to_json(), **change})
        assert str(err.value).startswith(message), str(err.value)
