"""The C2SP code against the reference implementations' published vectors
(``seeds/c2sp-vectors.json``, each with its source) and against Daily Dice's own."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.addcheckpoint import LogKey, check_add, parse_request
from daily.audit.c2sp.checkpoint import Checkpoint, open_checkpoint, sign_checkpoint
from daily.audit.c2sp.cosignature import cosign, cosignature_time, verify_cosignature
from daily.audit.c2sp.note import (
    COSIGNATURE_V1,
    ED25519,
    NoteError,
    VerifierKey,
    parse_note,
    parse_signature_line,
    parse_signer_key,
    sign_ed25519,
    verify_ed25519,
)
from daily.audit.c2sp.tiles import tiles
from daily.audit.merkle import MerkleTree

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "seeds" / "c2sp-vectors.json")
                     .read_text(encoding="utf-8"))
GO = VECTORS["reference"]["golang.org/x/mod/sumdb/note (note_test.go)"]
SPEC = VECTORS["reference"]["C2SP signed-note (signed-note.md, Example)"]
TDEV = VECTORS["reference"]["transparency-dev/formats (note/note_cosigv1_test.go)"]
OWN = VECTORS["daily"]


def test_go_sign_gives_the_published_note() -> None:
    name, key = parse_signer_key(GO["skey"])
    note = parse_note(GO["signed"])
    assert note.text == GO["text"]
    assert sign_ed25519(name, key, GO["text"]) == note.signatures[0]
    assert str(VerifierKey.of(name, VerifierKey.parse(GO["vkey"]).public)) == GO["vkey"]


def test_go_open_verifies_one_and_ignores_the_other() -> None:
    peter, enoch = VerifierKey.parse(GO["vkey"]), VerifierKey.parse(GO["other_vkey"])
    both = parse_note(GO["signed"] + GO["other_line"])
    assert verify_ed25519(both, peter) and verify_ed25519(both, enoch)
    only_peter = parse_note(GO["signed"])
    assert not verify_ed25519(only_peter, enoch)


def test_go_mangled_keys_and_signatures_are_refused() -> None:
    for bad in GO["bad_vkeys"]:
        with pytest.raises(NoteError):
            VerifierKey.parse(bad)
    vkey = GO["vkey"]
    for cut in range(1, len(vkey)):
        with pytest.raises(NoteError):
            VerifierKey.parse(vkey[:cut])
    line = GO["signed"].splitlines(keepends=True)[-1]
    broken = GO["text"] + "\n" + line[:60] + "ABCD" + line[60:]
    with pytest.raises(NoteError, match="does not verify"):
        verify_ed25519(parse_note(broken), VerifierKey.parse(vkey))
    for malformed in (GO["text"], GO["text"] + "\n", GO["text"] + "\n" + line[:-1],
                      "\x01" + GO["text"] + "\n" + line, GO["signed"] + "Unexpected line.\n",
                      GO["text"] + "\n" + line.replace("PeterNeumann", "Bad Name")):
        with pytest.raises(NoteError):
            parse_note(malformed)
    with pytest.raises(NoteError, match="more than"):
        parse_note(GO["text"] + "\n" + line * 101)


def test_spec_example_verifies() -> None:
    assert verify_ed25519(parse_note(SPEC["signed"]), VerifierKey.parse(SPEC["vkey"]))


def test_transparency_dev_vkeys_and_cosignature_time() -> None:
    ed, cosig = (VerifierKey.parse(v) for v in TDEV["vkeys"])
    assert (ed.sig_type, cosig.sig_type) == (ED25519, COSIGNATURE_V1)
    assert [str(ed), str(cosig)] == TDEV["vkeys"]
    for bad in TDEV["bad_vkeys"]:
        with pytest.raises(NoteError):
            VerifierKey.parse(bad)
    sig = parse_signature_line("\u2014 x " + TDEV["cosignature"])
    assert cosignature_time(sig) == TDEV["cosignature_time"]


def _keys() -> tuple[Ed25519PrivateKey, Ed25519PrivateKey]:
    return (Ed25519PrivateKey.from_private_bytes(bytes.fromhex(OWN["log_seed"])),
            Ed25519PrivateKey.from_private_bytes(bytes.fromhex(OWN["witness_seed"])))


def test_own_checkpoint_cosignature_and_tiles() -> None:
    log, witness = _keys()
    leaves = [x.encode() for x in OWN["leaves"]]
    tree = MerkleTree.of_leaves(leaves)
    origin = "dice.example/2026-11-29/yacht"
    note = sign_checkpoint(OWN["log_name"], log, Checkpoint(origin, len(leaves), tree.root()))
    assert note.encode().decode() == OWN["checkpoint"]
    line = cosign(OWN["witness_name"], witness, note.text, OWN["cosignature_time"])
    assert line.line() == OWN["cosignature_line"]
    cosigned = parse_note(OWN["cosigned_checkpoint"])
    assert verify_cosignature(cosigned, VerifierKey.parse(OWN["witness_vkey"])) == \
        OWN["cosignature_time"]
    checkpoint, _ = open_checkpoint(OWN["cosigned_checkpoint"],
                                    [VerifierKey.parse(OWN["log_vkey"])])
    assert checkpoint.root == tree.root()
    found = {p: base64.b64encode(d).decode() for p, d in tiles(tree, leaves, len(leaves))}
    assert found == OWN["tiles"]


def test_own_add_checkpoint_request_is_consistent() -> None:
    leaves = [x.encode() for x in OWN["leaves"]]
    old_root = MerkleTree.of_leaves(leaves[:3]).root()
    request = parse_request(OWN["add_checkpoint_from_3"].encode())
    logs = [LogKey(VerifierKey.parse(OWN["log_vkey"]), "dice.example/")]
    assert check_add(request, logs, (3, old_root)).size == 5


def test_cosignature_of_another_text_fails() -> None:
    note = parse_note(OWN["cosigned_checkpoint"])
    line = note.signatures[-1]
    forged = parse_note(OWN["checkpoint"].replace("\n5\n", "\n6\n") + line.line())
    with pytest.raises(NoteError, match="does not verify"):
        verify_cosignature(forged, VerifierKey.parse(OWN["witness_vkey"]))
