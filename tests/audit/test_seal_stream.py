"""The close streams the day into its log: in batches, through the sort on disk, the log
staged then renamed in; a real Redis, batches, chunks and flushes made small so that a
few dozen games cross every boundary."""

from __future__ import annotations

import datetime as dt
import json
import random
import time
import zlib
from pathlib import Path

import pytest
import redis

from daily import calendar
from daily.audit.board import canonical_order
from daily.audit.leaf import Decision, Leaf, leaf_bytes
from daily.audit.merkle import MerkleTree, leaf_hash
from daily.audit.signing import sign_receipt
from daily.errors import StateError
from daily.movelog import MoveLog
from daily.randomplay import random_game
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.audit import day_log as day_log_module
from daily.service.audit.day_log import DayLog, _one_per_code
from daily.service.audit.receipts import accepted_of, receipt_of
from daily.service.config import Config, load_config
from daily.service.connections import as_text
from daily.service.days.keyring import Keyring, init_keys
from daily.service.games.record import GameRecord
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result

pytestmark = pytest.mark.redis
DAY, RULESET, PREFIX = dt.date(2026, 11, 29), "yahtzee", "ts:"
GAMES = 57


@pytest.fixture
def config(tmp_path: Path, redis_url: str) -> Config:
    found = load_config({"REDIS_URL": redis_url, "DAILY_DATA_DIR": str(tmp_path / "data"),
                         "DAILY_KEY_PREFIX": PREFIX})
    init_keys(found.keys_dir)
    return found


def _store_day(conn: redis.Redis, keyring: Keyring) -> list[GameRecord]:
    """GAMES finished ranked games, on the board, with records (some without receipts)
    and names (some players without one); finish times repeat, so the code decides."""
    rules, rng = get_ruleset(RULESET), random.Random(3)
    seed = keyring.day_seed(RULESET, DAY)
    opens = calendar.opens_at(DAY).timestamp()
    board = Leaderboard(conn, DAY, RULESET, prefix=PREFIX)
    records = []
    for n in range(GAMES):
        game = random_game(rules, seed, rng)
        record = GameRecord(
            v=26, id=f"g_{n:06d}", player=f"p_{n:04d}", mode="ranked", ruleset=RULESET,
            options={}, date=DAY.isoformat(), log=MoveLog.of_game(game, day=DAY).to_text(),
            created="", finished_at=opens + 10 + (n * 7) % 13, code=f"DD-{(n * 31) % 97:06d}",
            total=game.card.total)
        if n % 5:
            record.receipt = receipt_of(keyring, record)
        conn.set(keymap.game(PREFIX, record.id), record.dumps())
        if n % 4:
            conn.hset(keymap.account(PREFIX, record.player), "name", f"Player é{n}")
        board.record(Result(record.id, record.player, "", DAY, RULESET, record.total or 0,
                            record.finished_at or 0.0, record.code or "", record.log))
        records.append(record)
    board.freeze(time.time())
    return records


def _expected(conn: redis.Redis, keyring: Keyring, records: list[GameRecord]) -> list[bytes]:
    """The lines the close must write, built leaf by leaf by the core."""
    _, key = keyring.results_signer()
    leaves = []
    for record in records:
        acc = accepted_of(record)
        name = conn.hget(keymap.account(PREFIX, record.player), "name")
        leaves.append(Leaf.result(acc, record.receipt or sign_receipt(key, acc),
                                  as_text(name) if name else None, Decision("cleared")))
    return [leaf_bytes(leaf) for leaf in canonical_order(leaves)]


def test_a_streamed_close_writes_the_canonical_log_in_redis_and_its_file(
    redis_client: redis.Redis, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in (("BATCH", 10), ("CHUNK", 4), ("FLUSH", 3)):
        monkeypatch.setattr(day_log_module, name, value)
    keyring = Keyring.load(config)
    records = _store_day(redis_client, keyring)
    day_log = DayLog(redis_client, config, DAY, RULESET)
    redis_client.rpush(day_log.key("new:log"), b"left by a run that died")
    done = day_log.seal(keyring, calendar.books_close_at(DAY) + dt.timedelta(minutes=1))
    assert done["size"] == done["appended"] == done["signed"] == GAMES
    expected = _expected(redis_client, keyring, records)
    text = b"".join(line + b"\n" for line in expected)
    assert b"".join(day_log.chunks()) == text
    assert [len(zlib.decompress(bytes(c)).splitlines()) for c in
            redis_client.lrange(day_log.key("log"), 0, -1)][:2] == [4, 4]
    assert day_log.files()[0].read_bytes() == text
    assert day_log.hashes() == [leaf_hash(line) for line in expected]
    head = day_log.latest()
    assert head is not None and head.root_bytes == MerkleTree.of_leaves(expected).root()
    for index, line in enumerate(expected):
        leaf = Leaf.from_json(json.loads(line))
        assert day_log.index_of(leaf.code) == index
    assert not any(redis_client.exists(day_log.key(f"new:{part}"))
                   for part in ("hashes", "log", "index"))


def test_a_game_the_board_scan_gives_twice_is_one_leaf(
    redis_client: redis.Redis, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(day_log_module, "BATCH", 10)
    keyring = Keyring.load(config)
    records = _store_day(redis_client, keyring)
    day_log = DayLog(redis_client, config, DAY, RULESET)
    scan = day_log.games

    def twice() -> object:
        batches = list(scan())
        yield from batches
        yield batches[0]  # HSCAN may return an element again

    monkeypatch.setattr(day_log, "games", twice)
    day_log.seal(keyring, calendar.books_close_at(DAY) + dt.timedelta(minutes=1))
    assert b"".join(day_log.chunks()) == b"".join(
        line + b"\n" for line in _expected(redis_client, keyring, records))


def test_two_different_leaves_of_one_code_are_refused() -> None:
    same = [(b"2026-11-29T10:00:00.000ZDD-1", b"a"), (b"2026-11-29T10:00:00.000ZDD-1", b"a"),
            (b"2026-11-29T10:00:01.000ZDD-2", b"b")]
    assert list(_one_per_code(same)) == [(b"a", "DD-1"), (b"b", "DD-2")]
    with pytest.raises(StateError, match="two different result leaves of DD-1"):
        list(_one_per_code([(b"2026-11-29T10:00:00.000ZDD-1", b"a"),
                            (b"2026-11-29T10:00:00.000ZDD-1", b"c")]))
