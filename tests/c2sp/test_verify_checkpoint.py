"""``daily verify-day --checkpoint --witness --quorum`` on a real sample day, offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
from daily.audit.c2sp.cosignature import cosign, witness_vkey
from daily.audit.sample_day import SampleDay
from daily.cli import main
from tests.audit.dayfiles import DATE, DESCRIPTOR, KEYS, RESULTS_KEY, RULESET, DayFiles

WITNESSES = [Ed25519PrivateKey.from_private_bytes(bytes([i]) * 32) for i in (7, 8)]
VKEYS = [str(witness_vkey(f"w{i}.example", key)) for i, key in enumerate(WITNESSES)]


def checkpoint(day: SampleDay, signers: int = 2, origin: str | None = None,
               root: bytes | None = None) -> bytes:
    cp = Checkpoint(origin or f"dice.example/{DATE}/{RULESET}", day.head.size,
                    root or day.head.root_bytes)
    note = sign_checkpoint("dice.example", RESULTS_KEY, cp)
    lines = tuple(cosign(f"w{i}.example", key, note.text, 1764979200 + i)
                  for i, key in enumerate(WITNESSES[:signers]))
    return note.with_signatures(lines).encode()


def run(tmp_path: Path, day: SampleDay, data: bytes, *extra: str,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    files = DayFiles(tmp_path, day)
    (tmp_path / "cp.txt").write_bytes(data)
    files.write_json("head.json", day.head.to_json())
    argv = ["verify-day", DATE, RULESET, "--descriptor", files.write_json("d.json", DESCRIPTOR),
            "--keys", files.write_json("k.json", KEYS), "--checkpoint", str(tmp_path / "cp.txt"),
            *extra]
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out + out.err


def witnesses(*vkeys: str) -> list[str]:
    return [arg for vkey in vkeys for arg in ("--witness", vkey)]


@pytest.mark.parametrize(("signers", "quorum", "status"), [(2, "2", 0), (1, "2", 1),
                                                          (1, "1", 0), (0, "1", 1)])
def test_the_quorum(tmp_path: Path, sample_day: SampleDay, signers: int, quorum: str,
                    status: int, capsys: pytest.CaptureFixture[str]) -> None:
    got, out = run(tmp_path, sample_day, checkpoint(sample_day, signers),
                   *witnesses(*VKEYS), "--quorum", quorum, capsys=capsys)
    assert got == status, out
    if status:
        assert f"{signers} valid witness cosignature" in out


def test_the_checkpoint_must_be_the_head(tmp_path: Path, sample_day: SampleDay,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    forked = checkpoint(sample_day, root=bytes(32))
    head = ["--head", str(tmp_path / "head.json")]
    status, out = run(tmp_path, sample_day, forked, *witnesses(*VKEYS), *head, capsys=capsys)
    assert status == 1 and "a fork" in out, out


def test_another_days_checkpoint_and_unknown_witnesses_fail(
        tmp_path: Path, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]) -> None:
    other = checkpoint(sample_day, origin=f"dice.example/2026-11-30/{RULESET}")
    status, out = run(tmp_path, sample_day, other, *witnesses(*VKEYS), capsys=capsys)
    assert status == 1 and "is not the log of" in out
    stranger = str(witness_vkey("w0.example", Ed25519PrivateKey.generate()))
    status, out = run(tmp_path, sample_day, checkpoint(sample_day), *witnesses(stranger),
                      capsys=capsys)
    assert status == 1 and "0 valid witness cosignatures of the 1 required" in out


@pytest.mark.parametrize("extra", [["--quorum", "3", *witnesses(*VKEYS)],
                                   ["--witness", "nope"],
                                   ["--witness", VKEYS[0].replace("+B", "+A", 1)]])
def test_bad_options_are_exit_2(tmp_path: Path, sample_day: SampleDay, extra: list[str],
                                capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(tmp_path, sample_day, checkpoint(sample_day), *extra, capsys=capsys)
    assert status == 2, out
    assert len(out.strip().splitlines()[-1]) > 0


def test_a_malformed_checkpoint_fails(tmp_path: Path, sample_day: SampleDay,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(tmp_path, sample_day, b"not a note", capsys=capsys)
    assert status == 1 and "malformed" in out
