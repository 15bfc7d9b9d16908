"""``daily monitor`` against a deployment's answers served over real HTTP (files served
by the standard library's HTTP server, as a static mirror of the API would): a
consistent growth passes, a fork of a day set it saw is one line and exit 1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
from daily.audit.c2sp.cosignature import cosign, witness_vkey
from daily.audit.merkle import MerkleTree
from daily.cli import main
from tests.audit.dayfiles import KEYS, RESULTS_KEY

DATE, RULESET = "2026-11-29", "yacht"
WITNESS = Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)
VKEY = str(witness_vkey("w.example", WITNESS))
LEAVES = [f"leaf {i}".encode() for i in range(6)]
TREE = MerkleTree.of_leaves(LEAVES)


class _Handler(SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:  # the query is part of the file name
        return str(Path(self.directory) / path.lstrip("/").replace("?", "_"))

    def log_message(self, *_: object) -> None:
        return None


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "site"
    api = root / "api" / "v1"
    (api / "days" / DATE / RULESET).mkdir(parents=True)
    (api / "keys").write_text(json.dumps(KEYS))
    (api / "days_from=2026-11-22").write_text(json.dumps(
        {"days": [{"date": DATE, "ruleset": RULESET}], "next": None}))
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", api / "days" / DATE / RULESET
    server.shutdown()


def publish(folder: Path, size: int, root: bytes | None = None) -> None:
    cp = Checkpoint(f"dice.example/{DATE}/{RULESET}", size,
                    root or MerkleTree.of_leaves(LEAVES[:size]).root())
    note = sign_checkpoint("dice.example", RESULTS_KEY, cp)
    note = note.with_signatures((cosign("w.example", WITNESS, note.text, 1764979200),))
    (folder / "checkpoint").write_bytes(note.encode())


def monitor(base: str, state: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["monitor", base, "--dir", str(state), "--witness", VKEY,
                   "--days", "7", "--today", "2026-11-29"])
    out = capsys.readouterr()
    return status, out.out + out.err


def test_growth_is_followed_and_a_fork_is_one_line_exit_1(
        site: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base, day = site
    state = tmp_path / "state"
    publish(day, 4)
    assert monitor(base, state, capsys) == (0, f"ok {DATE} {RULESET}: size 4, cosigned by "
                                               "w.example\n")
    publish(day, 6)
    (day / "consistency_from=4&to=6").write_text(json.dumps(
        {"path": [h.hex() for h in TREE.consistency_proof(4)]}))
    status, out = monitor(base, state, capsys)
    assert (status, "size 6" in out) == (0, True), out
    publish(day, 6, root=bytes(32))
    status, out = monitor(base, state, capsys)
    assert status == 1 and out.startswith("daily: fork: 2026-11-29 yacht") and \
        out.count("\n") == 1, out
    publish(day, 6)  # the genuine one again: still consistent with what was seen
    assert monitor(base, state, capsys)[0] == 0


def test_a_checkpoint_without_the_quorum_fails(site: tuple[str, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    base, day = site
    cp = Checkpoint(f"dice.example/{DATE}/{RULESET}", 4, MerkleTree.of_leaves(LEAVES[:4]).root())
    (day / "checkpoint").write_bytes(sign_checkpoint("dice.example", RESULTS_KEY, cp).encode())
    status, out = monitor(base, tmp_path / "state", capsys)
    assert status == 1 and "0 valid witness cosignatures of the 1 required" in out
