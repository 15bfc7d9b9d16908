"""Write the Daily Dice part of seeds/c2sp-vectors.json (and the reference vectors, copied
from their published sources as named): ``python tools/make_c2sp_vectors.py``."""
import base64
import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.addcheckpoint import format_request
from daily.audit.c2sp.checkpoint import (
  Checkpoint,
  VerifierKey,
  origin_of,
  raw_public,
  sign_checkpoint,
)
from daily.audit.c2sp.cosignature import cosign, witness_vkey
from daily.audit.c2sp.tiles import tiles
from daily.audit.merkle import MerkleTree

log = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
wit = Ed25519PrivateKey.from_private_bytes(bytes(range(32, 64)))
leaves = [f'{{"n":{i}}}'.encode() for i in range(5)]
tree = MerkleTree.of_leaves(leaves)
cp = Checkpoint(origin_of("dice.example", "2026-11-29", "yacht"), 5, tree.root())
note = sign_checkpoint("dice.example", log, cp)
co = cosign("witness.example/w1", wit, note.text, 1764979200)
cp3 = Checkpoint(cp.origin, 3, MerkleTree.of_leaves(leaves[:3]).root())
req = format_request(3, tree.consistency_proof(3), sign_checkpoint("dice.example", log, cp).encode())
own = {
  "source": "Daily Dice (daily.audit.c2sp), from the keys below: Ed25519 seeds as hex",
  "log_seed": bytes(range(32)).hex(), "log_name": "dice.example",
  "log_vkey": str(VerifierKey.of("dice.example", raw_public(log))),
  "witness_seed": bytes(range(32, 64)).hex(), "witness_name": "witness.example/w1",
  "witness_vkey": str(witness_vkey("witness.example/w1", wit)),
  "leaves": [x.decode() for x in leaves],
  "checkpoint": note.encode().decode(),
  "cosignature_time": 1764979200,
  "cosignature_line": co.line(),
  "cosigned_checkpoint": note.with_signatures((co,)).encode().decode(),
  "add_checkpoint_from_3": req.decode(),
  "tiles": {p: base64.b64encode(d).decode() for p, d in tiles(tree, leaves, 5)},
}
ref = {
 "golang.org/x/mod/sumdb/note (note_test.go)": {
   "vkey": "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
   "skey": "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz",
   "text": "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
   "signed": "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n",
   "other_vkey": "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop",
   "other_line": "\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n",
   "bad_vkeys": ["PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
                 "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"]},
 "C2SP signed-note (signed-note.md, Example)": {
   "vkey": "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
   "signed": "This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"},
 "transparency-dev/formats (note/note_cosigv1_test.go)": {
   "vkeys": ["TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6",
             "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2"],
   "bad_vkeys": ["bananas.sigstore.dev+12344556", "rekor.sigstore.dev+12345678+THIS_IS_NOT_BASE64!",
                 "rekor.sigstore.dev+12345678+AwEB"],
   "cosignature": "ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA==",
   "cosignature_time": 1727964367},
}
out = {"version": "daily-c2sp-vectors/v1",
 "about": "C2SP signed-note, tlog-checkpoint, tlog-cosignature, tlog-witness and tlog-tiles vectors: the reference implementations' (as published, source named) and Daily Dice's own (docs/protocol.md, Checkpoints, witnesses and tiles)",
 "reference": ref, "daily": own}
json.dump(out, open("seeds/c2sp-vectors.json", "w"), indent=1, ensure_ascii=False)
print(open("seeds/c2sp-vectors.json").read()[:300])
