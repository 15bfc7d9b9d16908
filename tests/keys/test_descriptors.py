"""DayDescriptors on a real Redis: stored once, first writer wins, published ahead."""

from __future__ import annotations

import datetime as dt
import json
import threading
from pathlib import Path

import pytest
import redis

from daily.service.config import Config, load_config
from daily.service.days.descriptors import DayDescriptors, last_published, published_from
from daily.service.days.keyring import Keyring, rotate_signing_key

pytestmark = pytest.mark.redis

NOON = dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC)


@pytest.fixture
def config(redis_url: str, data_dir: Path) -> Config:
    return load_config(
        {"REDIS_URL": redis_url, "DAILY_KEY_PREFIX": "ddkeys:", "DAILY_DATA_DIR": str(data_dir)}
    )


def test_publish_due_stores_every_public_descriptor_once(
    config: Config, keyring: Keyring, redis_client: redis.Redis
) -> None:
    service = DayDescriptors(redis_client, config, keyring)
    done = service.publish_due(NOON)
    assert done[0] == ("2026-11-27", "yahtzee") and done[-1] == ("2026-12-02", "maxi-yatzy")
    assert len(done) == 12
    stored = sorted(k.decode() for k in redis_client.keys("ddkeys:descriptor:*"))
    assert stored[0] == "ddkeys:descriptor:2026-11-27:maxi-yatzy" and len(stored) == 12
    for key in stored:
        body = json.loads(redis_client.get(key))
        assert "seed" not in body and body["key_id"] == keyring.key_id
    assert service.publish_due(NOON) == done  # idempotent
    assert len(redis_client.keys("ddkeys:descriptor:*")) == 12


def test_concurrent_first_requests_agree_on_one_descriptor(
    config: Config, data_dir: Path, keyring: Keyring, redis_url: str
) -> None:
    # Two web processes, one before and one after a rotation, race to publish a day.
    rotate_signing_key(data_dir / "keys")
    rotated = Keyring.from_dir(data_dir / "keys")
    results: list[dict] = []
    barrier = threading.Barrier(8)

    def fetch(ring: Keyring) -> None:
        conn = redis.Redis.from_url(redis_url)
        barrier.wait()
        results.append(DayDescriptors(conn, config, ring).signed("yahtzee", dt.date(2026, 12, 1)))
        conn.close()

    threads = [threading.Thread(target=fetch, args=(r,)) for r in [keyring, rotated] * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r == results[0] for r in results)


def test_horizon_helpers() -> None:
    assert published_from(dt.date(2026, 12, 2)) == dt.datetime(2026, 11, 29, 10, tzinfo=dt.UTC)
    assert last_published(NOON) == dt.date(2026, 12, 2)
    assert last_published(dt.datetime(2026, 11, 29, 9, 59, tzinfo=dt.UTC)) == dt.date(2026, 12, 1)


def test_a_results_key_rotation_applies_to_the_next_days_never_to_a_published_one(
    config: Config, keyring: Keyring, redis_client: redis.Redis, data_dir: Path
) -> None:
    """The descriptor published before the rotation names the old results key, and the
    service keeps signing that day's receipts and heads with it (kept in retired/); a
    day published after the rotation names the new key."""
    from daily.audit.leaf import Accepted
    from daily.audit.signing import public_key_id, verify_receipt
    from daily.audit.verify import verify_day
    from daily.service.audit.receipts import Receipts
    from daily.service.days.descriptors import published_results_key
    from daily.service.games.record import GameRecord

    early = DayDescriptors(redis_client, config, keyring).signed("yahtzee", dt.date(2026, 11, 29))
    old_id = keyring.results_key_id
    assert early["version"] == "day/2" and early["results_key"]["id"] == old_id
    retired, new_id = rotate_signing_key(data_dir / "keys", "results")
    assert retired == old_id
    ring = Keyring.from_dir(data_dir / "keys")
    assert ring.results_key_id == new_id
    again = DayDescriptors(redis_client, config, ring).signed("yahtzee", dt.date(2026, 11, 29))
    assert again == early  # never re-signed
    later = DayDescriptors(redis_client, config, ring).signed("yahtzee", dt.date(2026, 11, 30))
    assert later["results_key"]["id"] == new_id

    def day_key(r: Keyring, ruleset: str, date: str) -> str | None:
        return published_results_key(redis_client, config, r, ruleset, date)

    receipts = Receipts(lambda: ring, day_key)
    record = GameRecord(v=26, id="g_1", player="p_1", mode="ranked", ruleset="yahtzee",
                        options={}, date="2026-11-29", log="dl1~yahtzee~-~d2026-11-29~",
                        created="", finished_at=1795946400.25, code="DD-ABCDEFGHJK", total=0)
    receipt = receipts.sign(record)
    assert receipt.startswith(f"{old_id}:")
    named_id, named_key = ring.results_signer(old_id)
    assert public_key_id(named_key) == old_id == named_id
    acc = Accepted("DD-ABCDEFGHJK", "p_1", "yahtzee", "2026-11-29",
                   "dl1~yahtzee~-~d2026-11-29~", 0, "2026-11-29T10:00:00.250Z")
    assert verify_receipt(named_key.public_key(), acc, receipt)
    # and the verifier takes the day's key from the descriptor, not the list's active one
    report = verify_day(early, {"keys": ring.public_keys()})
    assert list(report.results_keys) == [old_id]
