"""The witness's answers (C2SP tlog-witness status codes) on its app, in process, and
``daily witness`` / ``verify-day --checkpoint`` bad input: one line, exit 2."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask.testing import FlaskClient

from daily.audit.c2sp.addcheckpoint import format_request
from daily.audit.c2sp.checkpoint import Checkpoint, VerifierKey, raw_public, sign_checkpoint
from daily.audit.c2sp.cosignature import verify_cosignature
from daily.audit.c2sp.note import parse_note, parse_signature_line
from daily.audit.merkle import EMPTY_ROOT, MerkleTree
from daily.cli import main
from daily.witness.witness_app import create_app
from daily.witness.witness_dir import WitnessDir, origin_hash

LOG = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
ORIGIN = "dice.example/2026-11-29/yacht"
LEAVES = [f"leaf {i}".encode() for i in range(7)]
TREE = MerkleTree.of_leaves(LEAVES)


def note(size: int, root: bytes | None = None, key: Ed25519PrivateKey = LOG,
         origin: str = ORIGIN) -> bytes:
    root = MerkleTree.of_leaves(LEAVES[:size]).root() if root is None else root
    return sign_checkpoint("dice.example", key, Checkpoint(origin, size, root)).encode()


@pytest.fixture
def witness(tmp_path: Path) -> WitnessDir:
    folder = WitnessDir.init(tmp_path / "w", "witness.example/w1")
    folder.add_log(str(VerifierKey.of("dice.example", raw_public(LOG))))
    return folder


@pytest.fixture
def client(witness: WitnessDir) -> FlaskClient:
    return create_app(witness.path).test_client()


def post(client: FlaskClient, old: int, proof: list[bytes], body: bytes) -> tuple[int, str]:
    answer = client.post("/add-checkpoint", data=format_request(old, proof, body))
    return answer.status_code, answer.get_data(as_text=True)


def test_cosigns_a_new_log_then_a_consistent_growth(client: FlaskClient,
                                                    witness: WitnessDir) -> None:
    status, body = post(client, 0, [], note(3))
    assert status == 200
    line = parse_signature_line(body.rstrip("\n"))
    cosigned = parse_note(note(3) + line.line().encode())
    assert verify_cosignature(cosigned, witness.vkey())
    status, body = post(client, 3, TREE.consistency_proof(3), note(7))
    assert status == 200, body
    assert witness.state(ORIGIN)["size"] == 7
    served = client.get(f"/{origin_hash(ORIGIN)}/checkpoint")
    assert served.status_code == 200 and served.get_data().startswith(note(7))
    assert served.headers["Content-Type"] == "text/plain; charset=utf-8"


@pytest.mark.parametrize(("old", "proof", "body", "status", "says"), [
    (0, [], note(3, origin="other.example/x"), 404, "unknown log"),
    (0, [], note(3, key=Ed25519PrivateKey.from_private_bytes(bytes(32))), 403, "no valid"),
    (4, [], note(3), 400, "above"),
    (0, [bytes(32)], note(3), 422, "from size 0"),
    (0, [], note(0, root=bytes(32)), 422, "empty tree"),
])
def test_refusals_of_a_fresh_witness(client: FlaskClient, old: int, proof: list[bytes],
                                     body: bytes, status: int, says: str) -> None:
    got, text = post(client, old, proof, body)
    assert (got, says in text) == (status, True), text


def test_a_fork_and_a_bad_proof_are_422_a_wrong_old_size_409(client: FlaskClient) -> None:
    assert post(client, 0, [], note(3))[0] == 200
    status, text = post(client, 3, [], note(3, root=bytes(32)))
    assert (status, "another root" in text) == (422, True)
    status, text = post(client, 3, [bytes(32)] * 3, note(7))
    assert (status, "does not verify" in text) == (422, True)
    answer = client.post("/add-checkpoint", data=format_request(0, [], note(7)))
    assert answer.status_code == 409
    assert answer.headers["Content-Type"] == "text/x.tlog.size"
    assert answer.get_data() == b"3\n"
    assert post(client, 3, [], note(3))[0] == 200  # the same checkpoint again: fine


def test_a_bad_signature_of_the_known_key_is_403(client: FlaskClient) -> None:
    good = note(3)
    text, _, sig = good.decode().rpartition("\n\n")
    raw = bytearray(base64.b64decode(sig.split(" ")[2]))
    raw[10] ^= 1
    bad = (text + "\n\n" + f"\u2014 dice.example {base64.b64encode(raw).decode()}\n").encode()
    status, why = post(client, 0, [], bad)
    assert (status, "does not verify" in why) == (403, True)


@pytest.mark.parametrize("body", [b"", b"old x\n\n", b"old 01\n\n", b"old 1\nnot-b64\n\n",
                                  b"old 0\n" + b"AAAA\n" * 64 + b"\n"])
def test_malformed_requests_are_400(client: FlaskClient, body: bytes) -> None:
    assert client.post("/add-checkpoint", data=body).status_code == 400


def test_the_empty_tree_is_cosigned(client: FlaskClient) -> None:
    assert post(client, 0, [], note(0, root=EMPTY_ROOT))[0] == 200


def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["witness", "init", "--dir", str(tmp_path / "w"), "--name", "a b"]) == 2
    assert main(["witness", "init", "--dir", str(tmp_path / "w"), "--name", "w.example"]) == 0
    assert main(["witness", "init", "--dir", str(tmp_path / "w"), "--name", "w.example"]) == 2
    assert main(["witness", "add-log", "--dir", str(tmp_path / "w"), "--vkey", "nope"]) == 2
    assert main(["witness", "serve", "--dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("daily: ") for line in err), err
