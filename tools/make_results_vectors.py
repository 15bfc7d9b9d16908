"""Regenerate ``seeds/results-log-v1.json``: known-answer vectors of the results log.

Run ``python tools/make_results_vectors.py`` only after a deliberate change to a
versioned format (``daily-results-leaf/v1``, ``daily-results-head/v1``, receipts
``daily-receipt/v1``, proofs ``daily-results-proof/v1``); the vectors of a published
version are frozen. ``tests/audit/test_results_vectors.py`` checks the committed file
against the code.

The day is the published example day of ``seeds/days.json`` (yahtzee, 2026-11-29, its
seed revealed), so every game of the vectors replays. The results key below is a TEST
key, public on purpose: never use it for a service.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from daily.audit.leaf import (  # noqa: E402
    CLEARED,
    RESULT,
    Decision,
    Leaf,
    accepted_digest,
    leaf_bytes,
)
from daily.audit.merkle import EMPTY_ROOT, leaf_hash  # noqa: E402
from daily.audit.proof import ConsistencyProof, InclusionProof  # noqa: E402
from daily.audit.sample_day import append_decisions, build_day  # noqa: E402
from daily.audit.signing import head_message, public_key_id, receipt_message  # noqa: E402

OUT = ROOT / "seeds" / "results-log-v1.json"
TEST_KEY_HEX = "7465737420726573756c7473206b65792c206e6576657220757365206974210a"
#: The decisions of the five games (by order of play); the others are cleared.
DECISIONS = {1: Decision("held", "foresight"), 3: Decision("disqualified", "ceiling"),
             4: Decision("pending")}


def vectors() -> dict[str, object]:
    """Every vector, as the committed JSON object."""
    days = json.loads((ROOT / "seeds" / "days.json").read_text())
    descriptor = days["descriptors"][0]["descriptor"]
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(TEST_KEY_HEX))
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    closed = build_day(descriptor["ruleset"], descriptor["date"],
                       bytes.fromhex(descriptor["seed"]), key, games=5, rng_seed=2026,
                       decide=lambda i: DECISIONS.get(i, Decision(CLEARED)))
    held = next(leaf for leaf in closed.leaves if leaf.decision.status == "held")
    later = Leaf.decision_leaf(held.code, Decision("cleared"), "2026-12-01T09:00:00.000Z")
    reviewed = append_decisions(closed, key, [later], "2026-12-01T09:00:00.250Z")
    leaves = []
    for leaf in reviewed.leaves:
        entry: dict[str, object] = {
            "leaf": leaf.to_json(),
            "bytes": leaf_bytes(leaf).decode("utf-8"),
            "leaf_hash": leaf_hash(leaf_bytes(leaf)).hex(),
        }
        if leaf.kind == RESULT:
            assert leaf.accepted is not None
            entry["accepted_digest"] = accepted_digest(leaf.accepted).hex()
            entry["receipt_message"] = receipt_message(leaf.accepted, public_key_id(key)).decode()
        leaves.append(entry)
    inclusion = InclusionProof.build(reviewed.tree, reviewed.leaves[2], 2, reviewed.head)
    return {
        "comment": ("Known answers for the results log (daily-results-leaf/v1, "
                    "daily-results-head/v1, daily-receipt/v1, daily-results-proof/v1, "
                    "daily-results-consistency/v1); see docs/protocol.md, Results log. "
                    "The day is the example day of seeds/days.json. The results key is a "
                    "TEST key, public on purpose: never use it."),
        "results_key": {
            "private_test_key": TEST_KEY_HEX,
            "key": {"id": public_key_id(key), "algorithm": "Ed25519",
                    "public_key": raw.hex()},
        },
        "day": {"date": descriptor["date"], "ruleset": descriptor["ruleset"],
                "seed": descriptor["seed"]},
        "empty_root": EMPTY_ROOT.hex(),
        "leaves": leaves,
        "heads": [
            {"head": closed.head.to_json(), "message": head_message(closed.head).decode()},
            {"head": reviewed.head.to_json(), "message": head_message(reviewed.head).decode()},
        ],
        "inclusion_proof": inclusion.to_json(),
        "consistency_proofs": [
            ConsistencyProof.build(reviewed.tree, closed.head.size).to_json(),
            ConsistencyProof.build(reviewed.tree, 4).to_json(),
            ConsistencyProof.build(reviewed.tree, 1).to_json(),
        ],
    }


def main() -> None:
    OUT.write_text(json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
