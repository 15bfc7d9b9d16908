"""The committed known-answer vectors of seeds/days.json match the code."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.verify import VerificationFailed, canonical_bytes, verify_day
from daily.dice import commitment, day_seed, slot_dice
from daily.service.days.descriptors import sign_descriptor
from daily.service.days.keyring import Keyring

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "seeds" / "days.json").read_text()
)


@pytest.mark.parametrize(
    "vector", VECTORS["day_seeds"], ids=lambda v: f"{v['ruleset']}-{v['date']}"
)
def test_day_seed_vectors(vector: dict[str, Any]) -> None:
    seed = day_seed(bytes.fromhex(vector["master"]), vector["ruleset"], vector["date"])
    assert seed.hex() == vector["day_seed"]
    assert commitment(seed) == vector["commitment"]


@pytest.mark.parametrize("vector", VECTORS["descriptors"], ids=lambda v: v["descriptor"]["ruleset"])
def test_descriptor_vectors(vector: dict[str, Any]) -> None:
    descriptor = vector["descriptor"]
    assert canonical_bytes(descriptor).decode("ascii") == vector["canonical"]
    report = verify_day(descriptor, {"keys": VECTORS["keys"]["keys"]})
    assert report.complete
    assert list(report.dice[0][0]) == vector["first_roll"]
    dice = len(vector["first_roll"])
    assert list(slot_dice(bytes.fromhex(descriptor["seed"]), 0, 0, dice)) == vector["first_roll"]
    # Ed25519 is deterministic: the example key re-signs to the very same bytes.
    key = Ed25519PrivateKey.from_private_bytes(
        bytes.fromhex(VECTORS["keys"]["signing_key_private_example"])
    )
    ring = Keyring(bytes.fromhex(vector["master"]), key)
    day = dt.date.fromisoformat(descriptor["date"])
    resigned = sign_descriptor(ring, descriptor["ruleset"], day)
    assert resigned == {k: descriptor[k] for k in resigned}


@pytest.mark.parametrize("vector", VECTORS["descriptors_v2"],
                         ids=lambda v: v["descriptor"]["ruleset"])
def test_day_2_descriptor_vectors_name_the_results_key(vector: dict[str, Any]) -> None:
    descriptor = vector["descriptor"]
    keys = VECTORS["keys_v2"]
    assert descriptor["version"] == "day/2"
    assert canonical_bytes(descriptor).decode("ascii") == vector["canonical"]
    report = verify_day(descriptor, {"keys": keys["keys"]})
    results = next(k for k in keys["keys"] if k["purpose"] == "results")
    assert descriptor["results_key"] == {"id": results["id"], "public_key": results["public_key"]}
    assert report.anchored and list(report.results_keys) == [results["id"]]
    assert list(report.dice[0][0]) == vector["first_roll"]
    ring = Keyring(
        bytes.fromhex(vector["master"]),
        Ed25519PrivateKey.from_private_bytes(bytes.fromhex(keys["signing_key_private_example"])),
        results_key=Ed25519PrivateKey.from_private_bytes(
            bytes.fromhex(keys["results_key_private_test"])),
    )
    resigned = sign_descriptor(ring, descriptor["ruleset"], dt.date.fromisoformat(
        descriptor["date"]))
    assert resigned == {k: descriptor[k] for k in resigned}


def test_a_day_2_descriptor_with_another_results_key_does_not_verify() -> None:
    """The results key is signed: swapping it breaks the descriptor's signature."""
    descriptor = dict(VECTORS["descriptors_v2"][0]["descriptor"])
    other = VECTORS["keys"]["keys"][0]  # any other key, with its own id
    descriptor["results_key"] = {"id": other["id"], "public_key": other["public_key"]}
    with pytest.raises(VerificationFailed, match="the descriptor was altered"):
        verify_day(descriptor, {"keys": VECTORS["keys_v2"]["keys"]})
