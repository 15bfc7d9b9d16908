"""Offline verification: signature, commitment, dice and games; tampering is caught."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from daily.audit.verify import (
    VerificationFailed,
    VerificationInputError,
    canonical_bytes,
    verify_day,
)
from daily.errors import DailyError
from daily.game import Game
from daily.movelog import MoveLog
from daily.replay import turns_json
from daily.rules import get_ruleset
from daily.service.days.descriptors import sign_descriptor
from daily.service.days.keyring import Keyring, rotate_signing_key

DAY = dt.date(2026, 11, 29)


def _revealed(keyring: Keyring, ruleset: str = "yahtzee", day: dt.date = DAY) -> dict[str, Any]:
    return {
        **sign_descriptor(keyring, ruleset, day),
        "status": "revealed",
        "seed": keyring.day_seed(ruleset, day).hex(),
    }


def _keys(keyring: Keyring) -> dict[str, Any]:
    return {"keys": keyring.public_keys()}


def _played(keyring: Keyring, ruleset: str = "yahtzee") -> Game:
    """A whole game on the day's dice: always reroll the non-sixes, then take the first
    legal box."""
    game = Game.from_seed(get_ruleset(ruleset), keyring.day_seed(ruleset, DAY))
    while not game.over:
        if game.rolls_left and any(d != 6 for d in game.dice):
            game.reroll("".join("1" if d == 6 else "0" for d in game.dice))
            continue
        game.score(next(p.box for p in game.choices().options if p.legal))
    return game


def test_a_revealed_day_verifies_completely(keyring: Keyring) -> None:
    report = verify_day(_revealed(keyring), _keys(keyring), date="2026-11-29", ruleset="yahtzee")
    assert report.complete
    assert report.lines[1] == f"signature: ok (Ed25519, key {keyring.key_id})"
    assert report.lines[2].startswith("results key: ")
    assert report.lines[3].startswith("commitment: ok")
    assert len(report.dice) == 13 and all(len(t) == 3 for t in report.dice)
    assert (
        report.dice[0][0]
        == Game.from_seed(get_ruleset("yahtzee"), keyring.day_seed("yahtzee", DAY)).dice
    )


def test_before_reveal_only_the_signature_is_checked(keyring: Keyring) -> None:
    descriptor = sign_descriptor(keyring, "maxi-yatzy", DAY)
    report = verify_day(descriptor, _keys(keyring))
    assert not report.complete and report.dice == []
    assert "seed: not revealed yet" in report.lines[-1]
    # The seed may also come from elsewhere (e.g. --seed), and is then checked.
    seed = keyring.day_seed("maxi-yatzy", DAY)
    assert verify_day(descriptor, _keys(keyring), seed=seed).complete


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("date", "2026-11-30"),
        ("ruleset", "maxi-yatzy"),
        ("options", {"joker": False}),
        ("commitment", "00" * 32),
        ("generator", "dice/v1"),  # unchanged: control, must still verify
    ],
)
def test_any_change_to_a_signed_field_breaks_the_signature(
    keyring: Keyring, field: str, value: Any
) -> None:
    descriptor = sign_descriptor(keyring, "yahtzee", DAY)
    tampered = {**descriptor, field: value}
    if tampered == descriptor:
        verify_day(tampered, _keys(keyring))
        return
    with pytest.raises(VerificationFailed, match="signature: does not verify with key"):
        verify_day(tampered, _keys(keyring))


def test_a_flipped_signature_bit_is_caught(keyring: Keyring) -> None:
    descriptor = sign_descriptor(keyring, "yahtzee", DAY)
    sig = bytearray(bytes.fromhex(descriptor["signature"]))
    sig[5] ^= 1
    with pytest.raises(VerificationFailed, match="signature"):
        verify_day({**descriptor, "signature": sig.hex()}, _keys(keyring))


def test_a_wrong_seed_fails_the_commitment(keyring: Keyring) -> None:
    descriptor = _revealed(keyring)
    other = keyring.day_seed("yahtzee", DAY + dt.timedelta(days=1)).hex()
    with pytest.raises(VerificationFailed, match="commitment: the seed's SHA-256 is not"):
        verify_day({**descriptor, "seed": other}, _keys(keyring))
    with pytest.raises(VerificationFailed, match="differs from the descriptor's seed"):
        verify_day(descriptor, _keys(keyring), seed=bytes.fromhex(other))


def test_unknown_key_and_relabelled_keys(keyring: Keyring, tmp_path: Path) -> None:
    from daily.service.days.keyring import init_keys

    init_keys(tmp_path / "other")
    stranger = Keyring.from_dir(tmp_path / "other")
    descriptor = sign_descriptor(keyring, "yahtzee", DAY)
    with pytest.raises(VerificationFailed, match="not in the key list"):
        verify_day(descriptor, _keys(stranger))
    # A key list cannot claim someone else's key under the signer's id.
    forged = _keys(stranger)
    forged["keys"][0]["id"] = keyring.key_id
    with pytest.raises(VerificationInputError, match="is not the id of its public key"):
        verify_day(descriptor, forged)
    # A signature by a different key under the right id fails.
    resigned = {**descriptor, "signature": stranger.sign(canonical_bytes(descriptor))}
    with pytest.raises(VerificationFailed, match="does not verify"):
        verify_day(resigned, _keys(keyring))


def test_old_signatures_still_verify_after_rotation(data_dir: Path, keyring: Keyring) -> None:
    before = sign_descriptor(keyring, "yahtzee", DAY)
    rotate_signing_key(data_dir / "keys")
    rotated = Keyring.from_dir(data_dir / "keys")
    after = sign_descriptor(rotated, "yahtzee", DAY + dt.timedelta(days=1))
    assert after["key_id"] == rotated.key_id != before["key_id"]
    keys = _keys(rotated)
    assert verify_day(before, keys).lines[1].endswith(f"key {keyring.key_id})")
    assert verify_day(after, keys).lines[1].endswith(f"key {rotated.key_id})")


def test_wrong_day_or_ruleset_requested(keyring: Keyring) -> None:
    descriptor = _revealed(keyring)
    with pytest.raises(VerificationFailed, match="is for 2026-11-29 yahtzee, not 2026-11-28"):
        verify_day(descriptor, _keys(keyring), date="2026-11-28", ruleset="yahtzee")
    days = {"days": [descriptor, _revealed(keyring, "maxi-yatzy")]}
    report = verify_day(days, _keys(keyring), date="2026-11-29", ruleset="maxi-yatzy")
    assert "maxi-yatzy 2026-11-29" in report.lines[0]
    with pytest.raises(VerificationInputError, match="no descriptor for 2026-11-30"):
        verify_day(days, _keys(keyring), date="2026-11-30", ruleset="yahtzee")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("signature"), "missing field 'signature'"),
        (lambda d: d.update(version="day/9"), "version: is 'day/9'"),
        (lambda d: d.update(generator="dice/v9"), "generator: is 'dice/v9'"),
        (lambda d: d.update(ruleset="kniffel"), "not in canonical form"),
        (lambda d: d.update(date="29.11.2026"), "date"),
        (lambda d: d.update(commitment="AB" * 32), "commitment: is not 64 lowercase hex"),
        (lambda d: d.update(signature="12"), "signature: is not 128 lowercase hex"),
        (lambda d: d.update(seed="xyz"), "seed"),
        (lambda d: d.update(extra=1), "unknown field 'extra'"),
    ],
)
def test_malformed_descriptors_are_input_errors(
    keyring: Keyring, change: Any, message: str
) -> None:
    descriptor = _revealed(keyring)
    change(descriptor)
    # Bad input (CLI exit 2), never a "failed verification" (exit 1).
    with pytest.raises(DailyError, match=message) as info:
        verify_day(descriptor, _keys(keyring))
    assert not isinstance(info.value, VerificationFailed)


@pytest.mark.parametrize(
    "keys",
    [
        [],
        {"keys": "x"},
        {"keys": [{"id": "a", "algorithm": "RSA", "public_key": "00"}]},
        {"keys": [{"id": "a", "algorithm": "Ed25519", "public_key": "zz"}]},
    ],
)
def test_malformed_key_lists_are_input_errors(keyring: Keyring, keys: Any) -> None:
    with pytest.raises(VerificationInputError):
        verify_day(_revealed(keyring), keys)


def test_a_played_game_checks_against_the_day(keyring: Keyring) -> None:
    game = _played(keyring)
    state = {
        "ruleset": "yahtzee",
        "date": "2026-11-29",
        "total": game.card.total,
        "history": turns_json(game.history),
    }
    report = verify_day(_revealed(keyring), _keys(keyring), game=state)
    rolls = sum(len(rec.rolls) for rec in game.history)
    assert (
        report.lines[-1] == f"game: ok (13 turns, {rolls} rolls match the day's dice, "
        f"total {game.card.total})"
    )
    log = MoveLog.of_game(game, day=DAY).to_json()
    assert verify_day(_revealed(keyring), _keys(keyring), game=log).complete


def test_tampered_games_are_caught_with_turn_and_roll(keyring: Keyring) -> None:
    game = _played(keyring)
    good = {
        "ruleset": "yahtzee",
        "date": "2026-11-29",
        "total": game.card.total,
        "history": turns_json(game.history),
    }
    descriptor, keys = _revealed(keyring), _keys(keyring)

    shown = copy.deepcopy(good)
    turn = next(i for i, t in enumerate(shown["history"]) if len(t["rolls"]) > 1)
    die = shown["history"][turn]["rolls"][1][0]
    shown["history"][turn]["rolls"][1][0] = die % 6 + 1
    with pytest.raises(VerificationFailed, match=f"turn {turn + 1}, roll 2: shows dice") as info:
        verify_day(descriptor, keys, game=shown)
    assert info.value.where() == {"turn": turn + 1, "roll": 2}

    total = copy.deepcopy(good)
    total["total"] += 50
    with pytest.raises(VerificationFailed, match="claims a total of"):
        verify_day(descriptor, keys, game=total)

    points = copy.deepcopy(good)
    points["history"][0]["points"] += 1
    with pytest.raises(VerificationFailed, match="turn 1: claims"):
        verify_day(descriptor, keys, game=points)

    other_day = {**good, "date": "2026-11-28"}
    with pytest.raises(VerificationFailed, match="the game is for '2026-11-28'"):
        verify_day(descriptor, keys, game=other_day)

    illegal = copy.deepcopy(good)
    illegal["history"][1]["box"] = illegal["history"][0]["box"]
    with pytest.raises(VerificationFailed, match="does not replay on the day's dice"):
        verify_day(descriptor, keys, game=illegal)

    with pytest.raises(VerificationInputError, match="needs the revealed seed"):
        verify_day(sign_descriptor(keyring, "yahtzee", DAY), keys, game=good)
