"""A finished game reaches the leaderboard through a real results consumer process."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import Flask
from rq import Queue

from daily.audit.leaf import Accepted, Decision, Leaf
from daily.audit.merkle import MerkleTree
from daily.audit.proof import ConsistencyProof, InclusionProof
from daily.audit.signing import SignedHead, verify_head, verify_receipt
from daily.service import keymap
from daily.service.config import Config
from daily.service.connections import DAYS_QUEUE
from daily.service.extensions import of
from daily.service.games.record import GameRecord
from daily.service.results.result import Result
from daily.service.results.stream import ResultStream
from daily.service.review.queue import ReviewQueue
from tests.polling import PROCESS_TIMEOUT
from tests.service.conftest import PREFIX, Player, play_out

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]


def run_worker_burst(config: Config) -> subprocess.CompletedProcess[str]:
    """``daily worker results --burst``, in its own process."""
    env = dict(os.environ, REDIS_URL=config.redis_url or "", DAILY_KEY_PREFIX=PREFIX,
               DAILY_DATA_DIR=str(config.data_dir), PYTHONPATH=str(ROOT))
    env.pop("DAILY_TEST_PAUSE_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "daily", "worker", "results", "--burst"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT, check=False,
    )


def assert_checkpoint(client: Any, head: SignedHead, query: str = "") -> None:
    """``GET .../checkpoint`` is ``head`` as a C2SP checkpoint of the results key."""
    from daily.audit.c2sp.checkpoint import VerifierKey, open_checkpoint

    answer = client.get(f"/api/v1/days/2026-11-29/yahtzee/checkpoint{query}")
    assert answer.status_code == 200 and answer.headers["Content-Type"] == \
        "text/plain; charset=utf-8"
    vkeys = [VerifierKey.parse(k["vkey"]) for k in client.get("/api/v1/keys").get_json()["keys"]
             if k["purpose"] == "results"]
    found, _ = open_checkpoint(answer.data, vkeys)
    assert (found.origin.endswith("/2026-11-29/yahtzee"), found.size, found.root) == (
        True, head.size, head.root_bytes)


def ranked(player: Player) -> dict[str, Any]:
    return player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29",
                                          "mode": "ranked"}).get_json()


def test_finished_games_reach_the_leaderboard(
    app: Flask, service_config: Config, make_player: Any, client: Any
) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    finals = {p.id: play_out(p, ranked(p)) for p in (ada, bob)}
    unfinished = make_player("Cy")
    ranked(unfinished)
    # Nothing on the board before a worker ran.
    board = client.get("/api/v1/leaderboards/2026-11-29/yahtzee").get_json()
    assert board["players"] == 0 and board["top"] == []
    stream = of(app, ResultStream)
    assert stream.unapplied("2026-11-29") == stream.backlog() == 2

    done = run_worker_burst(service_config)
    assert done.returncode == 0, done.stderr[-2000:]
    assert stream.unapplied("2026-11-29") == stream.backlog() == 0

    board = ada.call("GET", "/leaderboards/2026-11-29/yahtzee").get_json()
    assert board["players"] == 2 and board["frozen"] is False
    scores = sorted((f["total"] for f in finals.values()), reverse=True)
    assert [row["score"] for row in board["top"]] == scores
    assert {row["player"]["name"] for row in board["top"]} == {"Ada", "Bob"}
    assert board["me"]["score"] == finals[ada.id]["total"]
    assert sum(b["count"] for b in board["histogram"]["bins"]) == 2

    rank = board["me"]["rank"]
    state = ada.call("GET", f"/games/{finals[ada.id]['id']}").get_json()
    assert state["result"]["rank"] == rank and state["result"]["players"] == 2
    tie = finals[bob.id]["total"] == finals[ada.id]["total"]
    assert state["result"]["tied"] == (2 if tie else 1)
    assert ("tied 1st of 2" if tie else f"rank {rank} of 2") in state["result"]["share_text"]
    shared = client.get(f"/api/v1/results/{state['result']['code']}").get_json()
    assert (shared["rank"], shared["percentile"]) == (rank, board["me"]["percentile"])
    lower = finals[bob.id]["total"] < finals[ada.id]["total"]
    assert shared["better_than"] == board["me"]["better_than"] == (50.0 if lower else 0.0)
    assert state["result"]["streak"] == 1 and "streak" not in state["result"]["share_text"]
    assert finals[ada.id]["result"]["streak"] is None  # the finishing answer looks nothing up

    # A rename reaches the board at once (the board reads names when it is read).
    assert ada.call("PATCH", "/players/me", {"name": "Ada L."}).status_code == 200
    board = bob.call("GET", "/leaderboards/2026-11-29/yahtzee").get_json()
    assert {row["player"]["name"] for row in board["top"]} == {"Ada L.", "Bob"}
    assert {row["player"]["name"] for row in board["around"]} == {"Ada L.", "Bob"}

    me = ada.call("GET", "/players/me").get_json()
    assert me["stats"]["games"] == 1 and me["stats"]["best"] == finals[ada.id]["total"]
    assert me["stats"]["current_streak"] == 1
    assert me["history"] == [{"date": "2026-11-29", "ruleset": "yahtzee",
                              "total": finals[ada.id]["total"],
                              "code": finals[ada.id]["result"]["code"]}]
    today = ada.call("GET", "/today").get_json()
    played = next(s["played"] for s in today["sets"]
                  if (s["date"], s["ruleset"]) == ("2026-11-29", "yahtzee"))
    assert played["over"] is True and played["code"] == finals[ada.id]["result"]["code"]

    # Submitting the log of a finished game again appends nothing new.
    assert ada.call("POST", f"/games/{finals[ada.id]['id']}/log",
                    {"log": finals[ada.id]["log"]}).status_code == 200
    assert stream.backlog() == 0


# ----- the day's signed results log ------------------------------------------------

AFTER_CLOSE = dt.datetime(2026, 11, 30, 12, 10, tzinfo=dt.UTC)  # the 29th's books closed


def run_jobs(config: Config, *calls: tuple[str, tuple[Any, ...]]) -> None:
    """Enqueue jobs on the ``days`` queue and run them in a real ``rq worker --burst``."""
    conn = redis.Redis.from_url(config.redis_url or "")
    queue = Queue(DAYS_QUEUE, connection=conn)
    jobs = [queue.enqueue_call(func, args=args) for func, args in calls]
    env = dict(os.environ, REDIS_URL=config.redis_url or "", DAILY_KEY_PREFIX=PREFIX,
               DAILY_DATA_DIR=str(config.data_dir), PYTHONPATH=str(ROOT),
               DAILY_RULESETS="yahtzee", DAILY_PAR_JOBS="off",
               DAILY_PUBLIC_URL=config.public_url or "")
    subprocess.run([sys.executable, "-m", "rq.cli", "worker", "--burst", "--quiet", "--url",
                    config.redis_url or "", DAYS_QUEUE], cwd=ROOT, env=env, check=True,
                   timeout=PROCESS_TIMEOUT)
    for job in jobs:
        job.refresh()
        assert job.get_status() == "finished", job.exc_info


def results_key(client: Any) -> Ed25519PublicKey:
    keys = client.get("/api/v1/keys").get_json()["keys"]
    (found,) = [k for k in keys if k["purpose"] == "results" and k["active"]]
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(found["public_key"]))


def review_decide(config: Config, game_id: str, decision: str) -> str:
    env = dict(os.environ, REDIS_URL=config.redis_url or "", DAILY_KEY_PREFIX=PREFIX,
               DAILY_DATA_DIR=str(config.data_dir), PYTHONPATH=str(ROOT),
               DAILY_PUBLIC_URL=config.public_url or "")
    done = subprocess.run([sys.executable, "-m", "daily", "review", decision, game_id],
                          cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=PROCESS_TIMEOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def verify_day(*args: str) -> subprocess.CompletedProcess[str]:
    """``daily verify-day 2026-11-29 yahtzee ARGS``, offline, in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "daily", "verify-day", "2026-11-29", "yahtzee", *args],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
        timeout=PROCESS_TIMEOUT, check=False)


def test_receipts_the_signed_log_at_the_close_proofs_and_a_re_review(
    service_config: Config, make_player: Any, client: Any, clock: Any, tmp_path: Path
) -> None:
    public = results_key(client)
    ada, bob, cy = make_player("Ada"), make_player("Bob"), make_player("Cy")
    finals = {p.id: play_out(p, ranked(p)) for p in (ada, bob, cy)}
    # Each finish answers its receipt, which the published results key verifies.
    for player in (ada, bob, cy):
        result = finals[player.id]["result"]
        accepted = Accepted.from_json(result["accepted"])
        assert (accepted.code, accepted.score, accepted.player_id, accepted.date) == (
            result["code"], result["total"], player.id, "2026-11-29")
        assert verify_receipt(public, accepted, result["receipt"])
        assert not verify_receipt(public, replace(accepted, score=accepted.score + 1),
                                  result["receipt"])
    code = finals[ada.id]["result"]["code"]
    shared = client.get(f"/api/v1/results/{code}").get_json()
    assert shared["receipt"] == finals[ada.id]["result"]["receipt"]
    assert "accepted" not in shared  # its move log only once the dice are revealed

    # Cy's game is held for review before the results worker sees it.
    conn = redis.Redis.from_url(service_config.redis_url or "")
    record = GameRecord.loads(conn.get(keymap.game(PREFIX, finals[cy.id]["id"])) or b"")
    held = Result.from_json({
        "game_id": record.id, "player_id": cy.id, "player_name": "Cy", "date": "2026-11-29",
        "ruleset": "yahtzee", "total": record.total, "finished_at": record.finished_at,
        "code": record.code, "log": record.log})
    ReviewQueue(conn, PREFIX).hold(held, {"method": "foresight", "reason": "test"})
    assert run_worker_burst(service_config).returncode == 0

    # Before the close: 409, naming when the head will exist.
    for path in ("/days/2026-11-29/yahtzee/head", "/days/2026-11-29/yahtzee/log",
                 f"/results/{code}/proof"):
        refused = client.get("/api/v1" + path)
        assert refused.status_code == 409, path
        error = refused.get_json()["error"]
        assert error["code"] == "log_not_sealed"
        assert error["available_at"] == "2026-11-30T12:06:00Z", error
    assert client.get("/api/v1/days/2026-13-01/yahtzee/head").get_json()["error"][
        "field"] == "date"
    assert client.get("/api/v1/results/DD-0000000000/proof").status_code == 404
    # Issue 35: dashes optional, spaces ignored, as api.md says.
    bare = code.replace("-", "")
    for typed in (bare, code.replace("-", "- "), f"{bare[:6]} {bare[6:]}".lower()):
        found = client.get(f"/api/v1/results/{typed}")
        assert found.status_code == 200 and found.get_json()["code"] == code, typed
    # A date with no daily set is 404 (not 409 with an available_at in the past).
    for date in ("2025-06-01", "2027-06-01"):
        missing = client.get(f"/api/v1/days/{date}/yahtzee/head")
        assert missing.status_code == 404, date
        assert missing.get_json()["error"]["field"] == "date"

    # The close: the rollover (a real RQ worker) freezes the board and seals the log.
    clock.set(AFTER_CLOSE)
    run_jobs(service_config, ("workers.rollover.rollover", (AFTER_CLOSE.isoformat(),)))
    head = SignedHead.from_json(client.get("/api/v1/days/2026-11-29/yahtzee/head").get_json())
    assert verify_head(public, head) and head.size == 3
    log_path = "/api/v1/days/2026-11-29/yahtzee/log"
    plain = client.get(log_path, headers={"Accept-Encoding": "identity"})
    packed = client.get(log_path, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert plain.mimetype == "application/jsonl" and packed.data == plain.data
    lines = plain.data.splitlines()
    leaves = [Leaf.from_json(json.loads(line)) for line in lines]
    assert MerkleTree.of_leaves(lines).root() == head.root_bytes
    decisions = {leaf.code: leaf.decision for leaf in leaves}
    assert decisions[finals[cy.id]["result"]["code"]] == Decision("held", "foresight")
    assert decisions[code] == Decision("cleared")
    assert {leaf.name for leaf in leaves} == {"Ada", "Bob", "Cy"}
    assert all(verify_receipt(public, leaf.accepted, leaf.receipt) for leaf in leaves
               if leaf.accepted is not None and leaf.receipt is not None)
    sealed = service_config.archive_dir / "2026-11-29"
    assert (sealed / "yahtzee.log.jsonl").read_bytes() == plain.data

    proof = InclusionProof.from_json(client.get(f"/api/v1/results/{code}/proof").get_json())
    assert proof.verifies() and proof.head == head and proof.leaf.code == code
    assert verify_receipt(public, proof.leaf.accepted, proof.leaf.receipt)  # type: ignore[arg-type]

    # The head as a C2SP checkpoint, signed by the results key's vkey of /keys.
    assert_checkpoint(client, head)

    # Anyone can audit the day offline from what the API serves.
    files = {}
    for name, path in (("descriptor", "/days/2026-11-29/yahtzee"), ("keys", "/keys"),
                       ("head", "/days/2026-11-29/yahtzee/head"),
                       ("proof", f"/results/{code}/proof"),
                       ("log", "/days/2026-11-29/yahtzee/log")):
        files[name] = tmp_path / name
        files[name].write_bytes(client.get("/api/v1" + path).data)
    # the receipt Ada was given at the finish counts: its result is in the log
    files["receipt"] = tmp_path / "receipt.json"
    files["receipt"].write_text(json.dumps(finals[ada.id]["result"]))
    audit = verify_day(*(f"--{n}={p}" for n, p in files.items()))
    assert audit.returncode == 0, audit.stdout[-2000:] + audit.stderr[-2000:]
    assert "verified: 2026-11-29 yahtzee" in audit.stdout, audit.stdout
    assert f"receipt: ok ({code} is leaf" in audit.stdout
    # the day's descriptor (day/2) names the key that signed the head
    descriptor = json.loads(files["descriptor"].read_bytes())
    assert descriptor["version"] == "day/2" and descriptor["results_key"]["id"] == head.key_id

    # A re-review after the close appends a decision and signs a consistent new head.
    out = review_decide(service_config, finals[cy.id]["id"], "disqualify")
    assert "appended to the results log" in out
    later = SignedHead.from_json(client.get("/api/v1/days/2026-11-29/yahtzee/head").get_json())
    assert later.size == 4 and verify_head(public, later)
    assert client.get("/api/v1/days/2026-11-29/yahtzee/head?size=3").get_json() == head.to_json()
    assert_checkpoint(client, later)
    assert_checkpoint(client, head, "?size=3")
    link = client.get("/api/v1/days/2026-11-29/yahtzee/consistency?from=3").get_json()
    assert ConsistencyProof.from_json({k: link[k] for k in ("version", "old_size", "new_size",
                                                            "path")}).verifies(
        head.root_bytes, later.root_bytes)
    # Issue 35: from=0 is the empty tree, as RFC 6962 allows; from beyond to is a wrong range.
    empty = client.get("/api/v1/days/2026-11-29/yahtzee/consistency?from=0")
    assert empty.status_code == 200, empty.get_json()
    assert (empty.get_json()["old_size"], empty.get_json()["path"], empty.get_json()["old"]) \
        == (0, [], None)
    for query in ("from=4&to=3", "from=10&to=9", "from=5"):
        wrong = client.get(f"/api/v1/days/2026-11-29/yahtzee/consistency?{query}")
        assert wrong.status_code == 422, query
        error = wrong.get_json()["error"]
        assert error["field"] == "from" and "to" in error["message"], error
    appended = Leaf.from_json(json.loads(
        client.get("/api/v1/days/2026-11-29/yahtzee/log").data.splitlines()[-1]))
    assert (appended.kind, appended.decision) == ("decision", Decision("disqualified", "foresight"))
    files["old-head"] = files["head"]
    for name, path in (("head", "/days/2026-11-29/yahtzee/head"),
                       ("log", "/days/2026-11-29/yahtzee/log")):
        files[name] = tmp_path / f"later-{name}"
        files[name].write_bytes(client.get("/api/v1" + path).data)
    del files["proof"]
    audit = verify_day(*(f"--{n}={p}" for n, p in files.items()))
    assert audit.returncode == 0, audit.stdout[-2000:] + audit.stderr[-2000:]
    run_jobs(service_config, ("workers.seal.seal_day", ("2026-11-29", "yahtzee")))
    assert client.get("/api/v1/days/2026-11-29/yahtzee/head").get_json() == later.to_json()
