"""Regenerate ``seeds/days.json``: known-answer vectors for day seeds and descriptors.

Run ``python tools/make_day_vectors.py`` only after a deliberate change to a versioned
format (``daily/v1`` seeds, ``day/1`` and ``day/2`` descriptors); the vectors of an
existing version are frozen. ``tests/keys/test_day_vectors.py`` checks the committed
file against the code.

The signing key below is an EXAMPLE, public on purpose: never use it for a service.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from daily import calendar  # noqa: E402
from daily.audit.verify import canonical_bytes  # noqa: E402
from daily.dice import commitment, day_seed, slot_dice  # noqa: E402
from daily.service.clock import iso  # noqa: E402
from daily.service.days.descriptors import sign_descriptor  # noqa: E402
from daily.service.days.keyring import Keyring  # noqa: E402

OUT = ROOT / "seeds" / "days.json"
MASTERS = [
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    b"daily-dice-example-master-secret".hex(),
]
DAYS = [
    ("yahtzee", "2026-11-29"),
    ("maxi-yatzy", "2026-11-29"),
    ("yahtzee", "2027-01-01"),
    ("maxi-yatzy", "2028-02-29"),
]
#: Example signing key (Ed25519 private key bytes); public on purpose.
EXAMPLE_SIGNING_SEED = hashlib.sha256(b"daily-dice example signing key, never use").digest()
#: The TEST results key of ``seeds/results-log-v1.json``, which ``day/2`` names.
TEST_RESULTS_KEY_HEX = "7465737420726573756c7473206b65792c206e6576657220757365206974210a"


def seed_vectors() -> list[dict]:
    out = []
    for master_hex in MASTERS:
        for ruleset, date in DAYS:
            seed = day_seed(bytes.fromhex(master_hex), ruleset, date)
            out.append(
                {
                    "master": master_hex,
                    "ruleset": ruleset,
                    "date": date,
                    "day_seed": seed.hex(),
                    "commitment": commitment(seed),
                }
            )
    return out


def descriptor_vectors(results: bool = False) -> tuple[dict, list[dict]]:
    key = Ed25519PrivateKey.from_private_bytes(EXAMPLE_SIGNING_SEED)
    results_key = (Ed25519PrivateKey.from_private_bytes(bytes.fromhex(TEST_RESULTS_KEY_HEX))
                   if results else None)
    ring = Keyring(bytes.fromhex(MASTERS[1]), key, created="2026-11-01T00:00:00Z",
                   results_key=results_key)
    out = []
    for ruleset, date in DAYS[:2]:
        day = dt.date.fromisoformat(date)
        signed = sign_descriptor(ring, ruleset, day)
        seed = ring.day_seed(ruleset, day)
        served = {
            **signed,
            "status": "revealed",
            "opens_at": iso(calendar.opens_at(day)),
            "closes_at": iso(calendar.closes_at(day)),
            "seed": seed.hex(),
        }
        dice = 6 if ruleset == "maxi-yatzy" else 5
        out.append(
            {
                "master": MASTERS[1],
                "canonical": canonical_bytes(signed).decode("ascii"),
                "descriptor": served,
                "first_roll": list(slot_dice(seed, 0, 0, dice)),
            }
        )
    return {
        "signing_key_private_example": EXAMPLE_SIGNING_SEED.hex(),
        "keys": ring.public_keys(),
    }, out


def main() -> None:
    keys, descriptors = descriptor_vectors()
    keys_v2, descriptors_v2 = descriptor_vectors(results=True)
    doc = {
        "comment": "Known answers for day seeds (daily/v1) and day descriptors (day/1, and "
        "day/2 naming the results key); see docs/protocol.md. The signing key is an "
        "example and the results key the TEST key of results-log-v1.json: never use them.",
        "day_seeds": seed_vectors(),
        "keys": keys,
        "descriptors": descriptors,
        "keys_v2": {**keys_v2, "results_key_private_test": TEST_RESULTS_KEY_HEX},
        "descriptors_v2": descriptors_v2,
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(doc['day_seeds'])} seeds, {len(descriptors)} descriptors")


if __name__ == "__main__":
    main()
