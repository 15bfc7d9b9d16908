"""Receipts count: ``daily verify-day --receipt FILE`` shows each receipt's result in the
log, or fails naming the code of a signed receipt whose result the operator left out."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from daily.audit.leaf import Leaf, leaf_bytes
from daily.audit.merkle import MerkleTree
from daily.audit.sample_day import SampleDay
from daily.audit.signing import sign_head
from daily.cli import main
from tests.audit.dayfiles import DATE, RESULTS_KEY, RULESET, DayFiles


def finish_result(leaf: Leaf) -> dict[str, Any]:
    """The ``result`` object of the finish answer, as the player was given it."""
    assert leaf.accepted is not None
    return {"total": leaf.accepted.score, "code": leaf.code, "receipt": leaf.receipt,
            "accepted": leaf.accepted.to_json(), "finished_at": leaf.accepted.accepted_at}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_each_receipt_is_shown_in_the_log(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sample_day.leaves[0]
    at, held = next((i, leaf) for i, leaf in enumerate(sample_day.leaves)
                    if leaf.decision.status == "held")
    a = files.write_json("a.json", finish_result(first))
    b = files.write_json("b.json", {"result": finish_result(held)})  # the whole answer
    status, out, err = run(files.argv("--receipt", a, "--receipt", b), capsys)
    assert status == 0, err
    assert (f"receipt: ok ({first.code} is leaf 0, score {first.accepted.score}, "
            "decision cleared)") in out
    assert (f"receipt: ok ({held.code} is leaf {at}, score {held.accepted.score}, "
            "decision held)") in out
    assert out.strip().endswith("results log of 12 leaves and 2 receipts in it")


def test_a_receipt_of_a_result_left_out_of_the_log_fails_naming_the_code(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    """The operator drops a game and signs a head over the rest with the real key: the
    log verifies, but the player's receipt proves the omission."""
    dropped = sample_day.leaves[5]
    kept = [leaf for leaf in sample_day.leaves if leaf is not dropped]
    tree = MerkleTree.of_leaves(leaf_bytes(leaf) for leaf in kept)
    head = sign_head(RESULTS_KEY, DATE, RULESET, len(kept), tree.root(), sample_day.head.time)
    files.write_json("head.json", head.to_json())
    files.write_log([leaf_bytes(leaf) for leaf in kept])
    assert main(files.argv()) == 0  # the log alone shows nothing wrong
    capsys.readouterr()
    mine = files.write_json("mine.json", finish_result(dropped))
    status, _, err = run(files.argv("--receipt", mine), capsys)
    assert status == 1
    assert err == ("daily: verification failed: a signed receipt whose result is not in the "
                   f"log: {dropped.code} ({mine})\n")


def test_a_receipt_whose_result_was_replaced_in_the_log_fails(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same code in the log with another receipt (another game) is not the result."""
    mine = dataclasses.replace(sample_day.leaves[3], receipt=sample_day.leaves[4].receipt)
    path = files.write_json("mine.json", {"code": mine.code, "receipt": mine.receipt})
    status, _, err = run(files.argv("--receipt", path), capsys)
    assert status == 1
    assert err == ("daily: verification failed: a signed receipt whose result is not in the "
                   f"log: {mine.code} ({path}; leaf 3 holds another result under that code)\n")


def test_a_receipt_that_does_not_sign_its_result_fails(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaf = sample_day.leaves[2]
    doc = finish_result(leaf)
    doc["accepted"]["score"] += 1
    path = files.write_json("mine.json", doc)
    status, _, err = run(files.argv("--receipt", path), capsys)
    key_id = leaf.receipt.split(":")[0]
    assert (status, err) == (1, f"daily: verification failed: receipt {leaf.code} ({path}): "
                                f"does not verify with key {key_id} (not the receipt of this "
                                "result)\n")


def test_a_receipt_before_the_reveal_is_matched_by_its_bytes(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    """``GET /results/{code}`` before the reveal has the receipt but not ``accepted``."""
    leaf = sample_day.leaves[9]
    path = files.write_json("mine.json", {"code": leaf.code, "receipt": leaf.receipt})
    status, out, err = run(files.argv("--receipt", path), capsys)
    assert status == 0, err
    assert f"receipt: ok ({leaf.code} is leaf 9," in out


@pytest.mark.parametrize(("doc", "why"), [
    ({"code": "DD-1"}, "receipt: is missing (a ranked result's receipt, as the finish "
                       "answered it)"),
    ({"code": "DD-1", "receipt": "nope"}, "receipt: is not <16 hex key id>:<128 hex signature>"),
    ([1], "a receipt file is the JSON of a result object"),
])
def test_a_malformed_receipt_file_is_one_line_and_exit_2(
    files: DayFiles, doc: Any, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = files.write_json("bad.json", doc)
    status, _, err = run(files.argv("--receipt", path), capsys)
    assert (status, err) == (2, f"daily: {path}: {why}\n")


def test_a_receipt_needs_the_log(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    path = files.write_json("mine.json", finish_result(sample_day.leaves[0]))
    status, _, err = run(files.argv("--receipt", path, log=None), capsys)
    assert (status, err) == (2, "daily: log: --receipt needs the --log its result is looked "
                                "up in\n")
