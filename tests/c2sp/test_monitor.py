"""``daily monitor`` against a deployment served over real HTTP (files served by the
standard library's HTTP server, as nginx serves the tiles and a static mirror of the
API would): it follows a log's growth through its C2SP tiles alone, reading only the
tiles of the new and the old edge, and a fork (tiles and a checkpoint of another tree,
signed with the real results key) is one line and exit 1, the state left as it was."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
from daily.audit.c2sp.cosignature import cosign, witness_vkey
from daily.audit.c2sp.tiles import tiles
from daily.audit.merkle import MerkleTree
from daily.cli import main
from tests.audit.dayfiles import KEYS, RESULTS_KEY

DATE, RULESET = "2026-11-29", "yacht"
WITNESS = Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)
VKEY = str(witness_vkey("w.example", WITNESS))
LEAVES = [b'{"leaf":%d}' % i for i in range(700)]
#: Another log: the same first 256 leaves, then another history.
OTHER = LEAVES[:256] + [b'{"other":%d}' % i for i in range(256, 700)]


class _Handler(SimpleHTTPRequestHandler):
    requested: list[str]

    def translate_path(self, path: str) -> str:  # the query is part of the file name
        self.requested.append(path)
        return str(Path(self.directory) / path.lstrip("/").replace("?", "_"))

    def log_message(self, *_: object) -> None:
        return None


class Site:
    """The deployment's files, the paths asked of it, and its base URL."""

    def __init__(self, root: Path, base: str, requested: list[str]) -> None:
        self.tlog = root / "tlog" / DATE / RULESET
        self.base = base
        self.requested = requested

    def publish(self, size: int, leaves: list[bytes] = LEAVES, root: bytes | None = None,
                witnessed: bool = True, fresh: bool = False) -> None:
        """Write the tiles of the log of ``leaves[:size]`` (``fresh``: only those) and a
        checkpoint of ``size`` (with ``root`` instead of the tiles' own, when given)."""
        if fresh and self.tlog.exists():
            shutil.rmtree(self.tlog)
        tree = MerkleTree.of_leaves(leaves[:size])
        for path, data in tiles(tree, leaves, size):
            (self.tlog / path).parent.mkdir(parents=True, exist_ok=True)
            (self.tlog / path).write_bytes(data)
        note = sign_checkpoint("dice.example", RESULTS_KEY, Checkpoint(
            f"dice.example/{DATE}/{RULESET}", size, root or tree.root()))
        if witnessed:
            note = note.with_signatures((cosign("w.example", WITNESS, note.text, 1764979200),))
        (self.tlog / "checkpoint").write_bytes(note.encode())

    def tiles_asked(self) -> list[str]:
        """The tile paths asked since the last call."""
        found = [p.split(f"/{RULESET}/", 1)[1] for p in self.requested if "/tile/" in p]
        self.requested.clear()
        return found


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    root = tmp_path / "site"
    api = root / "api" / "v1"
    api.mkdir(parents=True)
    (api / "keys").write_text(json.dumps(KEYS))
    (api / "days_from=2026-11-22").write_text(json.dumps(
        {"days": [{"date": DATE, "ruleset": RULESET}], "next": None}))
    requested: list[str] = []
    handler = type("Handler", (_Handler,), {"requested": requested})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(root, f"http://127.0.0.1:{server.server_address[1]}", requested)
    server.shutdown()
    server.server_close()


def monitor(site: Site, state: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["monitor", site.base, "--dir", str(state), "--witness", VKEY,
                   "--days", "7", "--today", "2026-11-29"])
    out = capsys.readouterr()
    return status, out.out + out.err


def test_growth_is_followed_through_the_tiles_and_a_fork_is_one_line_exit_1(
        site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    seen = state / f"{DATE}.{RULESET}.checkpoint"
    site.publish(300)
    assert monitor(site, state, capsys) == (
        0, f"ok {DATE} {RULESET}: size 300, cosigned by w.example, 2 tiles read\n")
    assert site.tiles_asked() == ["tile/0/001.p/44", "tile/1/000.p/1"]
    site.publish(600)
    status, out = monitor(site, state, capsys)
    assert (status, "size 600" in out) == (0, True), out
    # The new edge, and the old edge's tile now whole, tied to the level above: no
    # entries, nothing inside the tree already checked.
    assert sorted(site.tiles_asked()) == ["tile/0/001", "tile/0/002.p/88", "tile/1/000.p/2"]
    genuine = seen.read_bytes()

    # Another history, honestly tiled and signed: its tiles do not reproduce the root seen.
    site.publish(700, OTHER, fresh=True)
    status, out = monitor(site, state, capsys)
    assert status == 1 and out.startswith(f"daily: fork: {DATE} {RULESET}: the checkpoint "
                                          "of size 700") and out.count("\n") == 1, out
    assert "consistent with the one seen of size 600" in out
    assert seen.read_bytes() == genuine
    # The same size as seen, another root.
    site.publish(600, OTHER, fresh=True)
    status, out = monitor(site, state, capsys)
    assert status == 1 and out.startswith("daily: fork: ") and out.count("\n") == 1, out
    # A genuine checkpoint over the other log's tiles: the tiles do not give its root.
    site.publish(700, OTHER, root=MerkleTree.of_leaves(LEAVES).root(), fresh=True)
    status, out = monitor(site, state, capsys)
    assert (status, out) == (1, f"daily: {DATE} {RULESET}: the tiles do not reproduce the "
                                "root of the checkpoint of size 700 "
                                f"({MerkleTree.of_leaves(LEAVES).root().hex()[:16]}...)\n")
    # A missing tile is a failed check, named.
    site.publish(700, fresh=True)
    (site.tlog / "tile/0/002.p/188").unlink()
    status, out = monitor(site, state, capsys)
    assert (status, out) == (1, f"daily: {DATE} {RULESET}: tiles of size 700: "
                                "tile/0/002.p/188 answered 404\n")
    site.publish(700)  # the genuine log again: still consistent with what was seen
    status, out = monitor(site, state, capsys)
    assert (status, "size 700" in out) == (0, True), out
    assert seen.read_bytes() != genuine


def test_a_checkpoint_without_the_quorum_fails(site: Site, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    site.publish(4, witnessed=False)
    status, out = monitor(site, tmp_path / "state", capsys)
    assert status == 1 and "0 valid witness cosignatures of the 1 required" in out


def test_a_day_set_without_tiles_is_skipped(site: Site, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert monitor(site, tmp_path / "state", capsys) == (0, "")
