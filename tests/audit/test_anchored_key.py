"""Anchored keys: a ``day/2`` descriptor names the day's results key, and ``verify-day``
refuses a head or a receipt of that day signed by any other key, even one the key list
serves as a results key (a rotation, or a key list served later, cannot vouch for it)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.leaf import leaf_bytes
from daily.audit.sample_day import SampleDay, build_day
from daily.audit.signing import sign_head, sign_receipt
from daily.cli import main
from tests.audit.dayfiles import DAYS, RESULTS_KEY, DayFiles, key_entry

V2 = DAYS["descriptors_v2"][0]["descriptor"]
DAY_KEY = Ed25519PrivateKey.from_private_bytes(
    bytes.fromhex(DAYS["keys_v2"]["results_key_private_test"]))
#: The key list as served later: the day's key, and another results key (a rotation).
KEYS_V2 = {"keys": [*DAYS["keys_v2"]["keys"], key_entry(RESULTS_KEY)]}


@pytest.fixture(scope="module")
def anchored_day() -> SampleDay:
    return build_day(V2["ruleset"], V2["date"], bytes.fromhex(V2["seed"]), DAY_KEY, games=6)


@pytest.fixture
def v2_files(tmp_path: Path, anchored_day: SampleDay) -> DayFiles:
    out = DayFiles(tmp_path, anchored_day)
    out.write_json("day.json", V2)
    out.write_json("keys.json", KEYS_V2)
    out.write_json("head.json", anchored_day.head.to_json())
    out.write_log(anchored_day.lines())
    return out


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_day_verifies_with_the_key_its_descriptor_names(
    v2_files: DayFiles, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(v2_files.argv(), capsys)
    assert status == 0, err
    day_id = V2["results_key"]["id"]
    assert (f"results key: {day_id} (named by the signed descriptor: the day's receipts and "
            "heads must be signed by it)") in out
    assert out.strip().endswith("results log of 6 leaves")


def test_a_head_signed_by_another_listed_results_key_is_refused(
    v2_files: DayFiles, anchored_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rewritten history under a rotated key: the head verifies with a listed
    results key, but not with the day's."""
    head = anchored_day.head
    other = sign_head(RESULTS_KEY, head.date, head.ruleset, head.size, head.root_bytes,
                      head.time)
    v2_files.write_json("head.json", other.to_json())
    status, _, err = run(v2_files.argv(), capsys)
    other_id = key_entry(RESULTS_KEY)["id"]
    assert (status, err) == (1, (
        f"daily: verification failed: head: key_id: signed by key {other_id}, which is not "
        f"the day's results key ({V2['results_key']['id']}, named by its descriptor)\n"))


def test_a_receipt_made_by_another_listed_results_key_is_refused(
    v2_files: DayFiles, anchored_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaves = list(anchored_day.leaves)
    acc = leaves[2].accepted
    assert acc is not None
    leaves[2] = dataclasses.replace(leaves[2], receipt=sign_receipt(RESULTS_KEY, acc))
    v2_files.write_log([leaf_bytes(leaf) for leaf in leaves])
    status, _, err = run(v2_files.argv(), capsys)
    other_id = key_entry(RESULTS_KEY)["id"]
    assert status == 1
    assert err == (f"daily: verification failed: leaf 2 ({leaves[2].code}): receipt: made by "
                   f"key {other_id}, which is not the day's results key "
                   f"({V2['results_key']['id']}, named by its descriptor)\n")


def test_a_player_receipt_by_another_key_is_refused(
    v2_files: DayFiles, anchored_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaf = anchored_day.leaves[1]
    assert leaf.accepted is not None
    path = v2_files.write_json("mine.json", {
        "code": leaf.code, "receipt": sign_receipt(RESULTS_KEY, leaf.accepted),
        "accepted": leaf.accepted.to_json()})
    status, _, err = run(v2_files.argv("--receipt", path), capsys)
    assert status == 1
    assert err.startswith(f"daily: verification failed: receipt {leaf.code} ({path}): made by "
                          f"key {key_entry(RESULTS_KEY)['id']}, which is not the day's")
