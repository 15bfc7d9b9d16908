"""Two real witnesses (``daily witness serve`` processes) and the service's results log
in a real Redis: the seal's checkpoints are cosigned, a re-review's later checkpoint
too (with its consistency proof), and the operator's fork (the same size, another
root, signed with the real results key) is refused by both witnesses and by
``daily verify-day --quorum 2``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from daily.audit.c2sp.addcheckpoint import format_request
from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
from daily.audit.c2sp.note import raw_public
from daily.audit.c2sp.tiles import read_bundle
from daily.audit.merkle import MerkleTree
from daily.audit.sample_day import SampleDay
from daily.cli import main
from daily.dice import parse_date
from daily.service.audit.checkpoints import DayCheckpoints, deployment_name, results_vkey
from daily.service.audit.day_log import DayLog
from daily.service.audit.witnessing import submit_checkpoint
from daily.service.config import Config, load_config
from tests.audit.dayfiles import DATE, DESCRIPTOR, KEYS, RESULTS_KEY, RULESET, DayFiles
from tests.c2sp.witnesses import WitnessProcess, make_witness

pytestmark = pytest.mark.spawns


@pytest.fixture(scope="module")
def log_vkey() -> str:
    return results_vkey(load_config({}), raw_public(RESULTS_KEY))


@pytest.fixture(scope="module")
def witnesses(tmp_path_factory: pytest.TempPathFactory, log_vkey: str
              ) -> Iterator[list[WitnessProcess]]:
    base = tmp_path_factory.mktemp("witnesses")
    found = [make_witness(base / f"w{i}", f"witness{i}.example/w", log_vkey).start()
             for i in (1, 2)]
    yield found
    for witness in found:
        witness.stop()


def _config(tmp_path: Path, redis_url: str, witnesses: list[WitnessProcess]) -> Config:
    return load_config({
        "DAILY_DATA_DIR": str(tmp_path / "data"), "REDIS_URL": redis_url,
        "DAILY_RULESETS": RULESET,
        "DAILY_WITNESSES": ",".join(f"{w.vkey} {w.url}" for w in witnesses)})


def _store(day: SampleDay, config: Config, conn: redis.Redis, folder: Path,
           earlier: SampleDay | None = None) -> DayLog:
    """The sample day's log and heads put in Redis (as ``daily rebuild`` does), and a
    checkpoint signed for each head."""
    heads = [earlier.head, day.head] if earlier else [day.head]
    files = DayFiles(folder, day)
    files.write_log(day.lines(), "day.log.jsonl")
    (folder / "day.heads.jsonl").write_text("".join(
        json.dumps(h.to_json()) + "\n" for h in heads))
    day_log = DayLog(conn, config, parse_date(DATE), RULESET)
    day_log.restore(folder / "day.json")
    checkpoints = DayCheckpoints(conn, config, day_log.day, RULESET)
    for head in heads:
        checkpoints.publish(head, RESULTS_KEY)
    return day_log


def _post(url: str, body: bytes) -> tuple[int, str, str]:
    request = urllib.request.Request(url + "/add-checkpoint", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read().decode()


def _verify(files: DayFiles, checkpoint: bytes, witnesses: list[WitnessProcess],
            capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = files.folder / "checkpoint.txt"
    path.write_bytes(checkpoint)
    argv = ["verify-day", DATE, RULESET, "--descriptor", files.write_json("d.json", DESCRIPTOR),
            "--keys", files.write_json("k.json", KEYS), "--checkpoint", str(path),
            "--quorum", "2"]
    for witness in witnesses:
        argv += ["--witness", witness.vkey]
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out + out.err


def test_cosigned_then_the_fork_refused_by_both_witnesses_and_verify_day(
    witnesses: list[WitnessProcess], sample_day: SampleDay, reviewed_day: SampleDay,
    redis_url: str, redis_client: redis.Redis, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = _config(tmp_path, redis_url, witnesses)
    day_log = _store(sample_day, config, redis_client, tmp_path)
    size = sample_day.head.size
    done = submit_checkpoint(day_log, size)
    assert sorted(done.cosigned) == ["witness1.example/w", "witness2.example/w"], done
    checkpoints = DayCheckpoints(redis_client, config, day_log.day, RULESET)
    genuine = checkpoints.cosigned(size)
    assert genuine is not None and len(genuine.signatures) == 3
    files = DayFiles(tmp_path, sample_day)
    status, out = _verify(files, genuine.encode(), witnesses, capsys)
    assert status == 0, out
    assert "cosigned by 2 of 2 witnesses" in out

    # The re-review: a later head, cosigned from the size each witness holds.
    later_folder = tmp_path / "later"
    later_folder.mkdir()
    day_log = _store(reviewed_day, config, redis_client, later_folder, sample_day)
    later = reviewed_day.head.size
    assert later > size
    assert sorted(submit_checkpoint(day_log, later).cosigned) == sorted(
        w.vkey.split("+")[0] for w in witnesses)

    # The operator's fork: the same size as the last cosigned, another root, signed with
    # the real results key. Each witness refuses it (422), from any old size it is told.
    origin = checkpoints.origin
    fork = sign_checkpoint(deployment_name(None), RESULTS_KEY,
                           Checkpoint(origin, later, bytes(32)))
    for witness in witnesses:
        status, _, why = _post(witness.url, format_request(later, (), fork.encode()))
        assert status == 422, why
        assert "another root" in why
        status, kind, body = _post(witness.url, format_request(0, (), fork.encode()))
        assert (status, kind, body) == (409, "text/x.tlog.size", f"{later}\n")
    # With the genuine cosignature lines copied onto it, it still fails the quorum.
    copied = fork.with_signatures(checkpoints.cosigned(later).signatures[1:])
    status, out = _verify(files, copied.encode(), witnesses, capsys)
    assert status == 1
    assert "0 valid witness cosignatures of the 2 required" in out

    # A witness restarted keeps what it cosigned (its state is on disk).
    witnesses[0].stop()
    witnesses[0].start()
    status, _, why = _post(witnesses[0].url, format_request(later, (), fork.encode()))
    assert status == 422, why


def test_a_witness_that_is_down_is_pending_and_the_job_retries(
    witnesses: list[WitnessProcess], sample_day: SampleDay, reviewed_day: SampleDay,
    redis_url: str,
    redis_client: redis.Redis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = _config(tmp_path, redis_url, [witnesses[1]])
    config = config.with_overrides(witnesses=(*config.witnesses,
                                              (witnesses[0].vkey, "http://127.0.0.1:9")))
    day_log = _store(reviewed_day, config, redis_client, tmp_path, sample_day)
    size = reviewed_day.head.size
    done = submit_checkpoint(day_log, size)
    assert done.cosigned == ["witness2.example/w"]
    assert list(done.pending) == ["witness1.example/w"]

    from workers.cosign import WitnessesPending, cosign_checkpoint

    env = {"DAILY_DATA_DIR": str(tmp_path / "data"), "REDIS_URL": redis_url,
           "DAILY_RULESETS": RULESET,
           "DAILY_WITNESSES": f"{witnesses[0].vkey} http://127.0.0.1:9"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(WitnessesPending, match=r"witness1\.example/w"):
        cosign_checkpoint(DATE, RULESET, size)
    monkeypatch.setenv("DAILY_WITNESSES", f"{witnesses[0].vkey} {witnesses[0].url}")
    assert cosign_checkpoint(DATE, RULESET, size)["cosigned"] == [
        "witness1.example/w"]


def test_tiles_of_the_sealed_log(sample_day: SampleDay, redis_url: str,
                                 redis_client: redis.Redis, tmp_path: Path) -> None:
    config = _config(tmp_path, redis_url, [])
    day_log = _store(sample_day, config, redis_client, tmp_path)
    size = sample_day.head.size
    checkpoints = DayCheckpoints(redis_client, config, day_log.day, RULESET)
    base = checkpoints.write_tiles(day_log.tree(size), sample_day.lines(), size)
    hashes = (base / f"tile/0/000.p/{size}").read_bytes()
    assert MerkleTree([hashes[i:i + 32] for i in range(0, len(hashes), 32)]).root() == \
        sample_day.head.root_bytes
    assert read_bundle((base / f"tile/entries/000.p/{size}").read_bytes()) == \
        sample_day.lines()
    assert (base / "checkpoint").read_bytes() == checkpoints.cosigned(size).encode()
