"""``daily verify-day --head --log``: the audit of a real day, and every tampering it
must catch, each with its own one-line message."""

from __future__ import annotations

import dataclasses
import gzip
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.leaf import Decision, leaf_bytes, parse_instant
from daily.audit.proof import InclusionProof
from daily.audit.sample_day import SampleDay
from daily.audit.signing import sign_head
from daily.cli import main
from daily.standings import standings
from tests.audit.dayfiles import DAYS, DESCRIPTOR, KEYS, RESULTS_KEY, DayFiles, key_entry


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def failed(files: DayFiles, capsys: pytest.CaptureFixture[str], *extra: str, **kw: Any) -> str:
    """The one line of a failed audit (exit 1)."""
    status, _, err = run(files.argv(*extra, **kw), capsys)
    assert status == 1, err
    assert err.count("\n") == 1 and err.startswith("daily: verification failed: "), err
    return err.strip().removeprefix("daily: verification failed: ")


def lines_of(day: SampleDay) -> list[bytes]:
    return day.lines()


def test_the_audit_of_a_real_day_passes_and_prints_the_board(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(files.argv(), capsys)
    assert status == 0, err
    assert "head: ok (12 leaves" in out
    assert "12 games replay to their scores" in out
    assert f"root: ok (RFC 6962 tree of 12 leaves, {sample_day.head.root})" in out
    cleared = [leaf for leaf in sample_day.leaves if leaf.decision.status == "cleared"]
    assert f"board: {len(cleared)} cleared, 1 held, 1 disqualified, 0 pending" in out
    expected = standings(
        (leaf.code, leaf.accepted.score, parse_instant(leaf.accepted.accepted_at))
        for leaf in cleared
    )
    printed = [line.split() for line in out.splitlines() if " DD-" in line]
    assert [(int(p[0]), int(p[2]), p[3]) for p in printed] == [
        (row.rank, row.total, row.game_id) for row in expected
    ]
    assert out.strip().endswith("verified: 2026-11-29 yahtzee, results log of 12 leaves")


def test_a_gzipped_log_is_read(files: DayFiles, capsys: pytest.CaptureFixture[str]) -> None:
    raw = (files.folder / "log.jsonl").read_bytes()
    (files.folder / "log.jsonl.gz").write_bytes(gzip.compress(raw))
    status, _, err = run(files.argv(log="log.jsonl.gz"), capsys)
    assert status == 0, err


def test_an_edited_score_is_caught_by_the_replay(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaves = list(sample_day.leaves)
    leaf = leaves[4]
    acc = dataclasses.replace(leaf.accepted, score=leaf.accepted.score + 10)
    leaves[4] = dataclasses.replace(leaf, accepted=acc)
    files.write_log([leaf_bytes(x) for x in leaves])
    assert failed(files, capsys) == (
        f"leaf 4 ({leaf.code}): accepted.score: expected {leaf.accepted.score} (the replay), "
        f"found {leaf.accepted.score + 10}"
    )


def test_a_dropped_leaf_is_caught_by_the_size(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    files.write_log(lines_of(sample_day)[:5] + lines_of(sample_day)[6:])
    assert failed(files, capsys) == "log: size: expected 12 leaves (the head), found 11"


def test_two_swapped_leaves_are_caught_by_the_order(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = lines_of(sample_day)
    lines[2], lines[3] = lines[3], lines[2]
    files.write_log(lines)
    message = failed(files, capsys)
    assert message.startswith(f"leaf 3 ({sample_day.leaves[2].code}): out of canonical order: ")


def test_a_changed_decision_is_caught_by_the_root(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaves = list(sample_day.leaves)
    index = next(i for i, x in enumerate(leaves) if x.decision.status == "disqualified")
    leaves[index] = dataclasses.replace(leaves[index], decision=Decision("cleared"))
    files.write_log([leaf_bytes(x) for x in leaves])
    message = failed(files, capsys)
    assert message.startswith(f"log: root: expected {sample_day.head.root} (the head), found ")
    assert message.endswith("(a leaf was changed)")


def test_a_forged_receipt_is_caught(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaves = list(sample_day.leaves)
    forger = Ed25519PrivateKey.from_private_bytes(bytes([7]) * 32)
    key_id = leaves[6].receipt.split(":")[0]
    forged = forger.sign(b"anything").hex()
    leaves[6] = dataclasses.replace(leaves[6], receipt=f"{key_id}:{forged}")
    files.write_log([leaf_bytes(x) for x in leaves])
    assert failed(files, capsys) == (
        f"leaf 6 ({leaves[6].code}): receipt: does not verify with key {key_id} "
        "(forged, or the accepted game was changed)"
    )


def test_a_head_signed_with_another_key_is_caught(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    other = Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)
    head = sample_day.head
    resigned = sign_head(other, head.date, head.ruleset, head.size, head.root_bytes, head.time)
    files.write_json("head.json", resigned.to_json())
    assert failed(files, capsys) == (
        f"head: key_id: signed by key {resigned.key_id}, which is not in the key list "
        "(as a results key)"
    )
    # the same signature passed off under the results key's id
    files.write_json("head.json", {**resigned.to_json(), "key_id": head.key_id})
    assert failed(files, capsys) == (
        f"head: signature: does not verify with key {head.key_id} "
        "(the head was altered or signed by another key)"
    )


def test_a_later_head_that_only_appends_is_consistent(
    files: DayFiles, sample_day: SampleDay, reviewed_day: SampleDay,
    capsys: pytest.CaptureFixture[str]
) -> None:
    files.write_json("old.json", sample_day.head.to_json())
    files.write_json("head.json", reviewed_day.head.to_json())
    files.write_log(reviewed_day.lines())
    status, out, err = run(files.argv("--old-head", files.path("old.json")), capsys)
    assert status == 0, err
    assert "consistency: ok (the old head's 12 leaves are the first of the 13" in out
    assert "2 held" not in out and "0 held" in out  # the re-review cleared it


def test_a_later_head_that_rewrites_history_is_caught(
    files: DayFiles, sample_day: SampleDay, reviewed_day: SampleDay,
    capsys: pytest.CaptureFixture[str]
) -> None:
    leaves = list(reviewed_day.leaves)
    index = next(i for i, x in enumerate(leaves) if x.decision.status == "disqualified")
    leaves[index] = dataclasses.replace(leaves[index], decision=Decision("cleared"))
    day = SampleDay(leaves, reviewed_day.tree, reviewed_day.head)
    from daily.audit.merkle import MerkleTree

    tree = MerkleTree.of_leaves(day.lines())
    head = sign_head(RESULTS_KEY, reviewed_day.head.date, reviewed_day.head.ruleset,
                     tree.size, tree.root(), reviewed_day.head.time)
    files.write_json("old.json", sample_day.head.to_json())
    files.write_json("head.json", head.to_json())
    files.write_log(day.lines())
    message = failed(files, capsys, "--old-head", files.path("old.json"))
    assert message.startswith(f"old head: root: expected {sample_day.head.root} (the old head)")
    assert message.endswith("over the log's first 12 leaves: the later head rewrites history")


def test_a_games_proof_checks_against_the_head(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    proof = InclusionProof.build(sample_day.tree, sample_day.leaves[5], 5, sample_day.head)
    files.write_json("proof.json", proof.to_json())
    status, out, err = run(files.argv("--proof", files.path("proof.json"), log=None), capsys)
    assert status == 0, err
    assert f"proof: ok ({sample_day.leaves[5].code} is leaf 5 of 12;" in out
    wrong = dataclasses.replace(proof, index=6)
    files.write_json("proof.json", wrong.to_json())
    assert failed(files, capsys, "--proof", files.path("proof.json"), log=None) == (
        f"proof: leaf 6 ({sample_day.leaves[5].code}): audit_path: does not lead to the "
        f"head's root {sample_day.head.root}"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"{not json", "log line 3: not valid JSON"),
        (b'{"version": "daily-results-leaf/v1", "kind": "result"}',
         "log line 3: accepted: is missing"),
        (b"", "log: log line 3: empty"),
    ],
)
def test_a_malformed_log_line_is_one_line_and_exit_2(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str],
    line: bytes, message: str
) -> None:
    lines = lines_of(sample_day)
    lines[2] = line
    files.write_log(lines)
    status, _, err = run(files.argv(), capsys)
    assert status == 2
    assert err == f"daily: {message}\n"


def test_a_leaf_missing_a_field_names_it(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    obj = json.loads(lines_of(sample_day)[0])
    del obj["accepted"]["score"]
    files.write_log([json.dumps(obj).encode(), *lines_of(sample_day)[1:]])
    status, _, err = run(files.argv(), capsys)
    assert (status, err) == (2, "daily: log line 1: accepted.score: is missing\n")


def test_the_log_needs_the_revealed_seed(
    files: DayFiles, capsys: pytest.CaptureFixture[str]
) -> None:
    files.write_json("day.json", {k: v for k, v in DESCRIPTOR.items()
                                  if k not in ("seed", "fairplay_key")})
    status, _, err = run(files.argv(), capsys)
    assert status == 2
    assert "seed: the results log can be audited once the day's seed is revealed" in err


def test_a_head_signed_by_the_descriptors_key_is_caught(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    # the example day's descriptor key, listed as such: it signs descriptors, not heads
    descriptor_key = Ed25519PrivateKey.from_private_bytes(
        bytes.fromhex(DAYS["keys"]["signing_key_private_example"]))
    head = sample_day.head
    resigned = sign_head(descriptor_key, head.date, head.ruleset, head.size,
                         head.root_bytes, head.time)
    assert resigned.key_id in {k["id"] for k in KEYS["keys"]}
    files.write_json("head.json", resigned.to_json())
    assert failed(files, capsys) == (
        f"head: key_id: signed by key {resigned.key_id}, which is not in the key list "
        "(as a results key)"
    )


def test_a_descriptor_signed_by_the_results_key_is_caught(
    files: DayFiles, capsys: pytest.CaptureFixture[str]
) -> None:
    # the results key lists as a results key only, whatever it signed
    files.write_json("keys.json", {"keys": [key_entry(RESULTS_KEY)]})
    assert "which is not in the key list (as a descriptors key)" in failed(files, capsys)


def test_a_key_of_an_unknown_purpose_is_malformed_input(
    files: DayFiles, capsys: pytest.CaptureFixture[str]
) -> None:
    files.write_json("keys.json", {"keys": [key_entry(RESULTS_KEY, purpose="anything")]})
    status, _, err = run(files.argv(), capsys)
    assert status == 2
    assert "purpose is 'anything', expected one of descriptors, results" in err


def test_the_results_key_is_listed_like_the_others() -> None:
    entry = key_entry(RESULTS_KEY)
    assert entry in KEYS["keys"] and len(entry["id"]) == 16


def test_with_two_jobs_the_first_difference_in_log_order_is_reported(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    leaves = list(sample_day.leaves)
    leaf = leaves[4]
    leaves[4] = dataclasses.replace(leaf, accepted=dataclasses.replace(leaf.accepted, score=0))
    lines = [leaf_bytes(x) for x in leaves]
    lines[10], lines[11] = lines[11], lines[10]  # a later fault the main process sees first
    files.write_log(lines)
    message = failed(files, capsys, "--jobs", "2")
    assert message.startswith(f"leaf 4 ({leaf.code}): accepted.score: expected ")
    files.write_log(sample_day.lines())
    status, out, err = run(files.argv("--jobs", "2"), capsys)
    assert status == 0 and "12 games replay to their scores" in out, err
