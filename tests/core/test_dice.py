"""The dice generator v1 and day seeds: vectors, fairness, and no hang."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
from pathlib import Path

import pytest

from daily.dice import (
    MAX_BLOCKS,
    SlotCache,
    apply_holds,
    commitment,
    commitment_matches,
    day_seed,
    dice_from_blocks,
    parse_seed_hex,
    slot_dice,
)
from daily.errors import DiceError

SEEDS_DIR = Path(__file__).resolve().parents[2] / "seeds"


def _independent_slot(seed: bytes, turn: int, roll: int, count: int) -> list[int]:
    """The spec, written out again from docs/protocol.md, as an independent check."""
    out: list[int] = []
    for counter in itertools.count():
        block = hmac.new(seed, f"dice/v1:{turn}:{roll}:{counter}".encode(), hashlib.sha256)
        out += [b % 6 + 1 for b in block.digest() if b < 252]
        if len(out) >= count:
            return out[:count]
    raise AssertionError("unreachable")


def test_known_answer_vectors_match():
    data = json.loads((SEEDS_DIR / "dice-v1.json").read_text())
    assert data["generator"] == "dice/v1" and len(data["vectors"]) >= 20
    for v in data["vectors"]:
        seed = bytes.fromhex(v["seed"])
        assert list(slot_dice(seed, v["turn"], v["roll"], v["count"])) == v["dice"]
        assert _independent_slot(seed, v["turn"], v["roll"], v["count"]) == v["dice"]


def test_day_seed_vectors_match():
    data = json.loads((SEEDS_DIR / "day-seed-v1.json").read_text())
    for v in data["vectors"]:
        seed = day_seed(bytes.fromhex(v["master"]), v["ruleset"], v["date"])
        message = f"daily/v1:{v['ruleset']}:{v['date']}".encode()
        assert seed == hmac.new(bytes.fromhex(v["master"]), message, hashlib.sha256).digest()
        assert seed.hex() == v["day_seed"]
        assert commitment(seed) == v["commitment"] == hashlib.sha256(seed).hexdigest()


def test_every_accepted_byte_value_maps_uniformly():
    faces = [dice_from_blocks([bytes([b])], 1)[0] for b in range(252)]
    assert all(faces.count(f) == 42 for f in range(1, 7))


def test_dice_are_unbiased_chi_square():
    counts = [0] * 6
    seed = hashlib.sha256(b"chi-square").digest()
    for turn in range(400):
        for roll in range(20):
            for d in slot_dice(seed, turn, roll, 6):
                counts[d - 1] += 1
    n = sum(counts)
    assert n == 48_000
    expected = n / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    # 5 degrees of freedom: P(chi2 > 20.52) = 0.001.
    assert chi2 < 20.52, (chi2, counts)


def test_positions_are_independent_pairs_chi_square():
    pairs = [0] * 36
    seed = hashlib.sha256(b"pairs").digest()
    for turn in range(2000):
        a, b = slot_dice(seed, turn, 0, 2)
        pairs[(a - 1) * 6 + b - 1] += 1
    expected = sum(pairs) / 36
    chi2 = sum((c - expected) ** 2 / expected for c in pairs)
    # 35 degrees of freedom: P(chi2 > 66.62) = 0.001.
    assert chi2 < 66.62


def test_hostile_byte_patterns_cannot_hang_the_generator():
    with pytest.raises(DiceError, match="ran out of bytes"):
        dice_from_blocks(itertools.repeat(bytes([255] * 32)), 5)
    with pytest.raises(DiceError):
        dice_from_blocks(itertools.repeat(bytes([252, 253, 254, 255])), 1)
    with pytest.raises(DiceError):
        dice_from_blocks([], 1)
    # A stream that only delivers in the last allowed block still works.
    blocks = [bytes([255] * 32)] * (MAX_BLOCKS - 1) + [bytes([0, 1, 2, 3, 4])]
    assert dice_from_blocks(blocks, 5) == (1, 2, 3, 4, 5)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((b"short", 0, 0, 5), "a seed is 32 bytes"),
        ((bytes(32), -1, 0, 5), "turn and roll"),
        ((bytes(32), 0, 0, 7), "1 to 6 dice"),
        ((bytes(32), 0, 0, 0), "1 to 6 dice"),
    ],
)
def test_bad_slot_arguments(args, needle):
    with pytest.raises(DiceError, match=needle):
        slot_dice(*args)


def test_seed_parsing_and_commitment_check():
    assert parse_seed_hex("AB" * 32) == bytes([0xAB]) * 32
    for bad in ("00" * 31, "zz" * 32, 42, None):
        with pytest.raises(DiceError):
            parse_seed_hex(bad)
    seed = bytes(32)
    assert commitment_matches(seed, commitment(seed).upper())
    assert not commitment_matches(bytes([1]) + bytes(31), commitment(seed))


def test_day_seed_rejects_bad_input():
    with pytest.raises(DiceError, match="master secret"):
        day_seed(b"tiny", "yahtzee", "2026-11-29")
    with pytest.raises(DiceError, match="YYYY-MM-DD"):
        day_seed(bytes(32), "yahtzee", "29/11/2026")


def test_slot_cache_is_the_generator_and_hides_the_seed():
    cache = SlotCache(bytes(range(32)), 6)
    assert cache(3, 1) == slot_dice(bytes(range(32)), 3, 1, 6)
    assert bytes(range(32)).hex() not in repr(cache)


def test_apply_holds():
    assert apply_holds((1, 2, 3), "010", (4, 5, 6)) == (4, 2, 6)
