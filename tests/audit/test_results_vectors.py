"""The committed known-answer vectors of seeds/results-log-v1.json match the code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.day_audit import DayContext, audit_log, check_proof
from daily.audit.leaf import Leaf, accepted_digest, leaf_bytes
from daily.audit.merkle import EMPTY_ROOT, MerkleTree, leaf_hash, verify_inclusion
from daily.audit.proof import ConsistencyProof, InclusionProof
from daily.audit.signing import (
    SignedHead,
    head_message,
    receipt_message,
    sign_head,
    sign_receipt,
    verify_head,
)
from daily.audit.verify import parse_descriptor, parse_public_keys

ROOT = Path(__file__).resolve().parents[2]
VECTORS: dict[str, Any] = json.loads((ROOT / "seeds" / "results-log-v1.json").read_text())
DAYS: dict[str, Any] = json.loads((ROOT / "seeds" / "days.json").read_text())
KEY = Ed25519PrivateKey.from_private_bytes(
    bytes.fromhex(VECTORS["results_key"]["private_test_key"])
)


def test_leaf_bytes_hashes_digests_and_receipts() -> None:
    key_id = VECTORS["results_key"]["key"]["id"]
    for vector in VECTORS["leaves"]:
        leaf = Leaf.from_json(vector["leaf"])
        assert leaf_bytes(leaf) == vector["bytes"].encode("utf-8")
        assert leaf_hash(leaf_bytes(leaf)).hex() == vector["leaf_hash"]
        if leaf.accepted is not None:
            assert accepted_digest(leaf.accepted).hex() == vector["accepted_digest"]
            assert receipt_message(leaf.accepted, key_id).decode() == vector["receipt_message"]
            # Ed25519 is deterministic: the test key re-signs to the very same receipt
            assert sign_receipt(KEY, leaf.accepted) == leaf.receipt


def test_roots_heads_and_proofs() -> None:
    assert EMPTY_ROOT.hex() == VECTORS["empty_root"]
    hashes = [bytes.fromhex(v["leaf_hash"]) for v in VECTORS["leaves"]]
    for vector in VECTORS["heads"]:
        head = SignedHead.from_json(vector["head"])
        assert head_message(head).decode() == vector["message"]
        assert verify_head(KEY.public_key(), head)
        assert MerkleTree(hashes[: head.size]).root().hex() == head.root
        assert sign_head(KEY, head.date, head.ruleset, head.size, head.root_bytes,
                         head.time) == head
    new = SignedHead.from_json(VECTORS["heads"][-1]["head"])
    proof = InclusionProof.from_json(VECTORS["inclusion_proof"])
    assert proof.head == new and proof.verifies()
    assert list(proof.audit_path) == MerkleTree(hashes).inclusion_proof(proof.index)
    assert verify_inclusion(hashes[proof.index], proof.index, new.size, proof.audit_path,
                            new.root_bytes)
    for raw in VECTORS["consistency_proofs"]:
        consistency = ConsistencyProof.from_json(raw)
        assert list(consistency.path) == MerkleTree(hashes).consistency_proof(
            consistency.old_size)
        old_root = MerkleTree(hashes[: consistency.old_size]).root()
        assert consistency.verifies(old_root, new.root_bytes)


def test_the_vector_day_passes_the_audit() -> None:
    descriptor = parse_descriptor(DAYS["descriptors"][0]["descriptor"])
    assert descriptor.seed is not None
    keys = parse_public_keys({"keys": [*DAYS["keys"]["keys"],
                                       VECTORS["results_key"]["key"]]})
    day = DayContext(descriptor, descriptor.seed, keys)
    old, new = (SignedHead.from_json(v["head"]) for v in VECTORS["heads"])
    lines = [v["bytes"] for v in VECTORS["leaves"]]
    report = audit_log(day, new, lines, old_head=old)
    assert report.size == new.size and report.board is not None
    assert check_proof(day, InclusionProof.from_json(VECTORS["inclusion_proof"]))[-1].startswith(
        "proof: ok")


def test_the_protocol_doc_quotes_the_vectors() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text().split("## Results log", 1)[1]
    decision = VECTORS["leaves"][-1]
    assert decision["bytes"] in doc and decision["leaf_hash"] in doc
    assert VECTORS["heads"][0]["message"] in doc and VECTORS["empty_root"] in doc
    accepted = VECTORS["leaves"][2]["leaf"]["accepted"]
    for value in (accepted["code"], accepted["log"], accepted["accepted_at"]):
        assert value in doc
    assert VECTORS["leaves"][2]["leaf"]["decision"] == {"status": "disqualified",
                                                        "reason": "ceiling"}
    assert "seeds/results-log-v1.json" in doc
