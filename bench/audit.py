"""The results log's costs: a receipt per result, the close of a big day, the offline audit.

Usage: ``python bench/audit.py [--leaves 1000000] [--games 2000] [--receipts 5000]``

- ``receipt``: CPU per receipt signed at the finish (digest of the accepted result and
  an Ed25519 signature), and per receipt verified; the aim is at most 0.2 ms.
- ``close``: the close of a day of ``--leaves`` results (synthetic leaves made from
  real Yahtzee logs, with receipt-shaped signatures): the leaves from the stored
  results, their canonical order, their bytes (written as the JSON Lines log, to a
  temporary file), the RFC 6962 tree and the signed head; the aim is under a minute.
- ``audit``: ``daily verify-day``'s audit of ``--games`` real games (replay, receipt,
  hashing, board), in games per CPU-second, against the warm replay rate of the same
  games measured in the same run (``bench/replay.py``'s ``yahtzee_warm``).

Timings are CPU seconds of this process (steadier than wall time on a shared machine);
the wall time of the close is given too. Each figure is the best of ``--rounds`` with
the spread.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchjson
from benchjson import figure
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.board import canonical_order
from daily.audit.day_audit import DayContext, audit_log
from daily.audit.leaf import Accepted, Decision, Leaf, instant, leaf_bytes
from daily.audit.merkle import MerkleTree, leaf_hash
from daily.audit.sample_day import build_day, close_time
from daily.audit.signing import public_key_id, sign_head, sign_receipt, verify_receipt
from daily.audit.verify import Descriptor
from daily.dice import SlotCache
from daily.movelog import MoveLog, parse_log
from daily.randomplay import random_game
from daily.replay import replay
from daily.rules import get_ruleset

DATE, RULESET = "2026-11-29", "yahtzee"
SEED = bytes(range(32))
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


def cpu(fn: Callable[[], object]) -> tuple[float, float]:
    """CPU and wall seconds of one call."""
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def best(rounds: list[float]) -> dict[str, object]:
    return {"min": round(min(rounds), 4), "max": round(max(rounds), 4), "rounds": len(rounds)}


def bench_receipts(count: int, rounds: int) -> dict[str, benchjson.Figure]:
    rng = random.Random(3)
    accs = [Accepted(f"DD-{i:010d}", f"p-{rng.randrange(10**9)}", RULESET, DATE,
                     "dl1~yahtzee~-~d2026-11-29~FFJ.FJE.NOA.JWM.PH.XC.aAD.VUF.YeL.HEG.I.K.B",
                     rng.randrange(400), instant(1795946400 + i / 10)) for i in range(count)]
    sign_ms, verify_ms = [], []
    public = KEY.public_key()
    for _ in range(rounds):
        c0 = time.process_time()
        receipts = [sign_receipt(KEY, a) for a in accs]
        sign_ms.append((time.process_time() - c0) / count * 1000)
        c0 = time.process_time()
        assert all(verify_receipt(public, a, r) for a, r in zip(accs, receipts, strict=True))
        verify_ms.append((time.process_time() - c0) / count * 1000)
    print(f"receipt: sign {min(sign_ms):.3f} ms CPU, verify {min(verify_ms):.3f} ms CPU "
          f"(best of {rounds}, {count} each)")
    return {"receipt_sign_cpu": figure(round(min(sign_ms), 4), "ms", **best(sign_ms)),
            "receipt_verify_cpu": figure(round(min(verify_ms), 4), "ms", **best(verify_ms))}


def stored_results(count: int) -> list[dict[str, Any]]:
    """What the close reads: accepted results with receipts and decisions (synthetic)."""
    rng = random.Random(5)
    rules_logs = _real_logs(200)
    key_id = public_key_id(KEY)
    out = []
    for i in range(count):
        acc = {"code": f"DD-{i:010d}", "player_id": f"p-{i}",
               "ruleset": RULESET, "date": DATE, "log": rules_logs[i % len(rules_logs)],
               "score": rng.randrange(400),
               "accepted_at": instant(1795946400 + rng.randrange(86_400_000) / 1000)}
        out.append({"accepted": acc, "receipt": f"{key_id}:{rng.getrandbits(512):0128x}",
                    "name": f"Player {i}", "decision": {"status": "cleared", "reason": None}})
    return out


def _real_logs(count: int) -> list[str]:
    rng = random.Random(7)
    rules = get_ruleset(RULESET)
    day = dt.date.fromisoformat(DATE)
    return [MoveLog.of_game(random_game(rules, SEED, rng), day=day).to_text()
            for _ in range(count)]


class Stopwatch:
    """CPU seconds of named stages, one round at a time."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._name, self._start = "", 0.0

    def start(self, name: str) -> None:
        self._name, self._start = name, time.process_time()

    def stop(self) -> None:
        self.spent[self._name] = time.process_time() - self._start


def close_once(stored: list[dict[str, Any]], watch: Stopwatch) -> None:
    """One close: leaves, order, bytes written as the log, tree, signed head."""
    watch.start("leaves")
    made = [Leaf.result(Accepted(**r["accepted"]), r["receipt"], r["name"],
                        Decision(**r["decision"])) for r in stored]
    watch.stop()
    watch.start("order")
    ordered = canonical_order(made)
    watch.stop()
    del made
    watch.start("bytes_and_log")
    lines = []
    with tempfile.TemporaryFile() as handle:
        for leaf in ordered:
            data = leaf_bytes(leaf)
            lines.append(data)
            handle.write(data + b"\n")
        handle.flush()
    watch.stop()
    del ordered
    watch.start("tree")
    tree = MerkleTree(leaf_hash(data) for data in lines)
    watch.stop()
    watch.start("head")
    sign_head(KEY, DATE, RULESET, tree.size, tree.root(), close_time(DATE))
    watch.stop()


def bench_close(leaves: int, rounds: int) -> dict[str, benchjson.Figure]:
    stored = stored_results(leaves)
    stages: dict[str, list[float]] = {}
    for _ in range(rounds):
        watch = Stopwatch()
        w0 = time.perf_counter()
        close_once(stored, watch)
        wall = time.perf_counter() - w0
        for name, value in watch.spent.items():
            stages.setdefault(name, []).append(value)
        stages.setdefault("total", []).append(sum(watch.spent.values()))
        stages.setdefault("wall", []).append(wall)
    split = ", ".join(f"{k} {min(v):.1f} s" for k, v in stages.items()
                      if k not in ("total", "wall"))
    print(f"close of {leaves} leaves: {min(stages['total']):.1f} s CPU, "
          f"{min(stages['wall']):.1f} s wall ({split})")
    out = {f"close_{k}_cpu": figure(round(min(v), 2), "s", **best(v))
           for k, v in stages.items() if k != "wall"}
    out["close_wall"] = figure(round(min(stages["wall"]), 2), "s", **best(stages["wall"]))
    out["close_leaves"] = figure(leaves, "leaves")
    return out


def bench_audit(games: int, rounds: int) -> dict[str, benchjson.Figure]:
    day = build_day(RULESET, DATE, SEED, KEY, games=games)
    lines = day.lines()
    descriptor = Descriptor({"version": "day/1", "ruleset": RULESET, "options": {},
                             "date": DATE, "generator": "dice/v1", "commitment": "",
                             "key_id": ""}, b"")
    keys = {public_key_id(KEY): KEY.public_key()}
    logs = [parse_log(leaf.accepted.log) for leaf in day.leaves if leaf.accepted]
    texts = [leaf.accepted.log for leaf in day.leaves if leaf.accepted]
    audit_rate, replay_rate = [], []
    for _ in range(rounds):
        context = DayContext(descriptor, SEED, keys)
        spent, _ = cpu(lambda c=context: audit_log(c, day.head, lines))
        audit_rate.append(games / spent)
        cache = SlotCache(SEED, 5)
        for log in logs:
            replay(log, slots=cache)
        spent, _ = cpu(lambda c=cache: [replay(MoveLog.from_text(t), slots=c) for t in texts])
        replay_rate.append(games / spent)
    wall_rate, replay_wall = [], []
    for _ in range(rounds):
        context = DayContext(descriptor, SEED, keys)
        _, wall = cpu(lambda c=context: audit_log(c, day.head, lines, jobs=2))
        wall_rate.append(games / wall)
        cache = SlotCache(SEED, 5)
        _, wall = cpu(lambda c=cache: [replay(MoveLog.from_text(t), slots=c) for t in texts])
        replay_wall.append(games / wall)
    ratio = max(audit_rate) / max(replay_rate)
    print(f"audit --jobs 2: {max(wall_rate):.0f} games/s wall; one-core warm replay "
          f"{max(replay_wall):.0f} games/s wall")
    print(f"audit: {max(audit_rate):.0f} games/CPU-s; warm replay of the same games "
          f"{max(replay_rate):.0f} games/CPU-s (the audit at {ratio:.2f} of the replay rate)")
    return {"audit_per_cpu_s": figure(round(max(audit_rate)), "games/CPU-s",
                                      min=round(min(audit_rate)), max=round(max(audit_rate)),
                                      rounds=rounds),
            "replay_warm_per_cpu_s": figure(round(max(replay_rate)), "games/CPU-s",
                                            min=round(min(replay_rate)),
                                            max=round(max(replay_rate)), rounds=rounds),
            "audit_to_replay": figure(round(ratio, 2), "ratio"),
            "audit_jobs2_per_s": figure(round(max(wall_rate)), "games/s",
                                        min=round(min(wall_rate)), max=round(max(wall_rate)),
                                        rounds=rounds),
            "replay_warm_per_s": figure(round(max(replay_wall)), "games/s",
                                        min=round(min(replay_wall)),
                                        max=round(max(replay_wall)), rounds=rounds),
            "audit_jobs2_to_replay": figure(round(max(wall_rate) / max(replay_wall), 2),
                                            "ratio")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--receipts", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    figures: dict[str, benchjson.Figure] = {}
    figures.update(bench_receipts(args.receipts, args.rounds))
    figures.update(bench_audit(args.games, args.rounds))
    figures.update(bench_close(args.leaves, max(1, args.rounds - 2)))
    benchjson.record("audit", figures)


if __name__ == "__main__":
    main()
