"""The keyring: creation, modes, never overwriting, loading, rotation, no leaks."""

from __future__ import annotations

import json
import logging
import pickle
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from daily.dice import day_seed
from daily.service.config import ConfigError, load_config
from daily.service.days.keyring import Keyring, KeyringError, init_keys, rotate_signing_key


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_init_creates_secret_files_0600_in_a_0700_dir(tmp_path: Path) -> None:
    keys_dir = tmp_path / "data" / "keys"
    created = init_keys(keys_dir)
    assert {p.name for p in created} == {"master.secret", "signing.key", "results.key",
                                          "public-keys.json", "vapid.key"}
    assert _mode(keys_dir) == 0o700
    assert _mode(keys_dir / "master.secret") == 0o600
    assert _mode(keys_dir / "vapid.key") == 0o600
    assert _mode(keys_dir / "signing.key") == 0o600
    assert _mode(keys_dir / "results.key") == 0o600
    assert len(bytes.fromhex((keys_dir / "master.secret").read_text())) == 32
    assert not [p for p in keys_dir.iterdir() if p.name.endswith(".tmp")]


def test_init_never_overwrites(tmp_path: Path) -> None:
    keys_dir = tmp_path / "keys"
    init_keys(keys_dir)
    before = {p.name: p.read_bytes() for p in keys_dir.iterdir()}
    assert init_keys(keys_dir) == []
    assert {p.name: p.read_bytes() for p in keys_dir.iterdir()} == before


def test_init_adds_a_results_key_to_an_older_keys_dir(tmp_path: Path) -> None:
    keys_dir = tmp_path / "keys"
    init_keys(keys_dir)
    (keys_dir / "results.key").unlink()
    doc = json.loads((keys_dir / "public-keys.json").read_text())
    older = [{k: v for k, v in key.items() if k != "purpose"}
             for key in doc["keys"] if key["purpose"] == "descriptors"]
    (keys_dir / "public-keys.json").write_text(json.dumps({"keys": older}))
    signing = (keys_dir / "signing.key").read_bytes()
    assert Keyring.from_dir(keys_dir).results_key_id is None
    assert [p.name for p in init_keys(keys_dir)] == ["results.key", "public-keys.json"]
    ring = Keyring.from_dir(keys_dir)
    assert (keys_dir / "signing.key").read_bytes() == signing
    assert [(k["id"], k["purpose"], k["active"]) for k in ring.public_keys()] == [
        (ring.key_id, "descriptors", True), (ring.results_key_id, "results", True)]


def test_init_completes_a_partial_dir_without_touching_the_master(tmp_path: Path) -> None:
    keys_dir = tmp_path / "keys"
    init_keys(keys_dir)
    master = (keys_dir / "master.secret").read_bytes()
    (keys_dir / "signing.key").unlink()
    created = init_keys(keys_dir)
    assert [p.name for p in created] == ["signing.key", "public-keys.json"]
    assert (keys_dir / "master.secret").read_bytes() == master


def test_keyring_derives_spec_v1_day_seeds(data_dir: Path, keyring: Keyring) -> None:
    master = bytes.fromhex((data_dir / "keys" / "master.secret").read_text())
    assert keyring.day_seed("yahtzee", "2026-11-29") == day_seed(master, "yahtzee", "2026-11-29")
    assert keyring.day_seed("yahtzee", "2026-11-29") != keyring.day_seed("yahtzee", "2026-11-30")


def test_load_from_the_data_dir(data_dir: Path, keyring: Keyring) -> None:
    loaded = Keyring.load(load_config({"DAILY_DATA_DIR": str(data_dir)}))
    assert loaded.key_id == keyring.key_id
    assert loaded.day_seed("yacht", "2026-01-05") == keyring.day_seed("yacht", "2026-01-05")


def test_load_from_environment_and_named_files(data_dir: Path, tmp_path: Path) -> None:
    keys = data_dir / "keys"
    master_hex = (keys / "master.secret").read_text().strip()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        "DAILY_DATA_DIR": str(elsewhere),
        "DAILY_MASTER_SECRET": master_hex,
        "DAILY_SIGNING_KEY_FILE": str(keys / "signing.key"),
    }
    from_env = Keyring.load(load_config(env))
    ref = Keyring.from_dir(keys)
    assert from_env.key_id == ref.key_id
    assert from_env.day_seed("yahtzee", "2026-11-29") == ref.day_seed("yahtzee", "2026-11-29")
    assert from_env.public_keys()[0]["created"] is not None
    env_files = {
        "DAILY_DATA_DIR": str(elsewhere),
        "DAILY_MASTER_SECRET_FILE": str(keys / "master.secret"),
        "DAILY_SIGNING_KEY_FILE": str(keys / "signing.key"),
    }
    assert Keyring.load(load_config(env_files)).day_seed("yahtzee", "2026-11-29") == (
        ref.day_seed("yahtzee", "2026-11-29")
    )


def test_missing_keys_are_a_clear_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"master secret .*master.secret does not exist"):
        Keyring.load(load_config({"DAILY_DATA_DIR": str(tmp_path)}))
    env = {"DAILY_DATA_DIR": str(tmp_path), "DAILY_MASTER_SECRET": "ab" * 32}
    with pytest.raises(KeyringError, match=r"signing key .*signing.key does not exist"):
        Keyring.load(load_config(env))


@pytest.mark.parametrize(
    "content",
    ["", "zz" * 32, "ab" * 8, "abc" * 23, "ab" * 65, "\xff\xfe"],
    ids=["empty", "not-hex", "too-short", "odd", "too-long", "binary"],
)
def test_malformed_master_secret_file_is_named_not_shown(tmp_path: Path, content: str) -> None:
    init_keys(tmp_path / "keys")
    path = tmp_path / "keys" / "master.secret"
    path.write_bytes(content.encode("latin-1"))
    with pytest.raises(KeyringError) as info:
        Keyring.load(load_config({"DAILY_DATA_DIR": str(tmp_path)}))
    assert str(path) in str(info.value)
    if len(content) > 4:
        assert content not in str(info.value)


def test_malformed_master_secret_env_is_not_echoed(tmp_path: Path) -> None:
    init_keys(tmp_path / "keys")
    secret = "cd" * 31 + "zz"
    env = {"DAILY_DATA_DIR": str(tmp_path), "DAILY_MASTER_SECRET": secret}
    with pytest.raises(KeyringError, match="DAILY_MASTER_SECRET: is not 64 to 128 hex") as info:
        Keyring.load(load_config(env))
    assert secret not in str(info.value)


def test_master_secret_from_env_and_file_at_once_is_refused(tmp_path: Path) -> None:
    init_keys(tmp_path / "keys")
    env = {
        "DAILY_DATA_DIR": str(tmp_path),
        "DAILY_MASTER_SECRET": "ab" * 32,
        "DAILY_MASTER_SECRET_FILE": str(tmp_path / "keys" / "master.secret"),
    }
    with pytest.raises(KeyringError, match="set only one of"):
        Keyring.load(load_config(env))


def test_signing_key_that_is_garbage_or_not_ed25519(tmp_path: Path) -> None:
    init_keys(tmp_path / "keys")
    key_path = tmp_path / "keys" / "signing.key"
    key_path.write_text("-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----\n")
    config = load_config({"DAILY_DATA_DIR": str(tmp_path)})
    with pytest.raises(KeyringError, match="is not an unencrypted PEM private key"):
        Keyring.load(config)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    key_path.write_bytes(
        ec_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(KeyringError, match="is not an Ed25519 key"):
        Keyring.load(config)


def test_tampered_public_key_list_is_refused(data_dir: Path) -> None:
    path = data_dir / "keys" / "public-keys.json"
    path.write_text(path.read_text().replace('"id": "', '"id": "0', 1))
    with pytest.raises(KeyringError, match=r"public-keys\.json is not a valid public key list"):
        Keyring.from_dir(data_dir / "keys")


def test_rotation_keeps_old_public_keys_and_retires_the_private_key(data_dir: Path) -> None:
    keys = data_dir / "keys"
    before = Keyring.from_dir(keys)
    old_id, new_id = rotate_signing_key(keys)
    assert old_id == before.key_id != new_id
    after = Keyring.from_dir(keys)
    assert after.key_id == new_id
    listed = {k["id"]: k for k in after.public_keys()}
    assert listed[old_id]["active"] is False and listed[new_id]["active"] is True
    assert listed[old_id]["public_key"] == before.public_keys()[0]["public_key"]
    assert _mode(keys / "retired" / f"{old_id}.key") == 0o600
    assert _mode(keys / "signing.key") == 0o600
    # The master secret, hence every day seed, is unchanged by a rotation.
    assert after.day_seed("yahtzee", "2026-11-29") == before.day_seed("yahtzee", "2026-11-29")
    rotate_signing_key(keys)
    assert len(Keyring.from_dir(keys).public_keys()) == 4  # and the results key


def test_repr_pickle_and_logs_never_show_secrets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    keys = tmp_path / "keys"
    init_keys(keys)
    rotate_signing_key(keys)
    ring = Keyring.load(load_config({"DAILY_DATA_DIR": str(tmp_path)}))
    seed = ring.day_seed("yahtzee", "2026-11-29")
    ring.sign(b"message")
    master_hex = (keys / "master.secret").read_text().strip()
    pem = (keys / "signing.key").read_text()
    pem_body = "".join(pem.splitlines()[1:-1])
    for text in (repr(ring), str(ring), caplog.text, repr(load_config({}))):
        assert master_hex not in text
        assert pem_body not in text
        assert seed.hex() not in text
    assert ring.key_id in caplog.text  # the logs do say which key is active
    with pytest.raises(TypeError, match="not picklable"):
        pickle.dumps(ring)


def test_secret_files_readable_by_others_are_warned_about(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (data_dir / "keys" / "master.secret").chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="daily.service.days.keyring"):
        Keyring.from_dir(data_dir / "keys")
    assert "master.secret is readable by others (mode 644)" in caplog.text
    assert "signing.key" not in caplog.text
