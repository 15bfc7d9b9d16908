"""``daily keys ...`` and ``daily verify-day``: ok and failure paths, exit codes, one line."""

from __future__ import annotations

import datetime as dt
import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from daily.cli import main
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.service.days.descriptors import sign_descriptor
from daily.service.days.keyring import Keyring
from tests.polling import PROCESS_TIMEOUT

DAY = dt.date(2026, 11, 29)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _write(path: Path, obj: Any) -> str:
    path.write_text(json.dumps(obj))
    return str(path)


@pytest.fixture
def fetched(keyring: Keyring, tmp_path: Path) -> dict[str, str]:
    """Files as a player would fetch them: a revealed descriptor, an open one, the keys."""
    revealed = {
        **sign_descriptor(keyring, "yahtzee", DAY),
        "status": "revealed",
        "seed": keyring.day_seed("yahtzee", DAY).hex(),
    }
    unrevealed = {**sign_descriptor(keyring, "maxi-yatzy", DAY), "status": "open"}
    return {
        "revealed": _write(tmp_path / "day.json", revealed),
        "open": _write(tmp_path / "open.json", unrevealed),
        "keys": _write(tmp_path / "keys.json", {"keys": keyring.public_keys()}),
    }


def test_keys_init_rotate_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    status, out, _ = _run(["keys", "init", "--data-dir", data], capsys)
    assert status == 0 and "created" in out and "master.secret" in out
    master = (tmp_path / "data" / "keys" / "master.secret").read_text()
    assert master.strip() not in out
    assert stat.S_IMODE((tmp_path / "data" / "keys" / "signing.key").stat().st_mode) == 0o600
    status, out, _ = _run(["keys", "init", "--data-dir", data], capsys)
    assert status == 0 and "nothing changed" in out
    assert (tmp_path / "data" / "keys" / "master.secret").read_text() == master
    status, out, _ = _run(["keys", "rotate", "--data-dir", data], capsys)
    assert status == 0 and "retired signing key" in out
    status, out, _ = _run(["keys", "rotate", "--results", "--data-dir", data], capsys)
    assert status == 0 and "retired results key" in out
    status, out, _ = _run(["keys", "list", "--data-dir", data], capsys)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 4
    assert [("active" in line, line.split()[2]) for line in lines] == [
        (False, "descriptors"), (False, "results"), (True, "descriptors"), (True, "results")]
    status, out, _ = _run(["keys", "list", "--data-dir", data, "--json"], capsys)
    keys = json.loads(out)["keys"]
    assert [(k["purpose"], k["active"]) for k in keys] == [
        ("descriptors", False), ("results", False), ("descriptors", True), ("results", True)]


def test_keys_commands_on_a_dir_without_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for cmd in ("rotate", "list"):
        status, out, err = _run(["keys", cmd, "--data-dir", str(tmp_path)], capsys)
        assert status == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and "does not exist" in err


def test_verify_day_ok(fetched: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(
        [
            "verify-day",
            "2026-11-29",
            "yahtzee",
            "--descriptor",
            fetched["revealed"],
            "--keys",
            fetched["keys"],
            "--dice",
        ],
        capsys,
    )
    assert status == 0, err
    assert "signature: ok" in out and "commitment: ok" in out and "dice: 13 turns" in out
    assert out.rstrip().endswith("verified: 2026-11-29 yahtzee")
    assert "turn 13: " in out


def test_verify_day_before_reveal_checks_the_signature_only(
    fetched: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(
        [
            "verify-day",
            "2026-11-29",
            "maxi",
            "--descriptor",
            fetched["open"],
            "--keys",
            fetched["keys"],
        ],
        capsys,
    )
    assert status == 0
    assert "seed: not revealed yet" in out and "seed not revealed yet" in out.splitlines()[-1]


def test_verify_day_with_seed_and_game(
    keyring: Keyring, fetched: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = keyring.day_seed("maxi-yatzy", DAY)
    game = Game.from_seed(get_ruleset("maxi-yatzy"), seed)
    while not game.over:
        game.score(next(p.box for p in game.choices().options if p.legal))
    log = _write(tmp_path / "log.json", MoveLog.of_game(game, day=DAY).to_json())
    argv = [
        "verify-day",
        "2026-11-29",
        "maxi-yatzy",
        "--descriptor",
        fetched["open"],
        "--keys",
        fetched["keys"],
        "--seed",
        seed.hex(),
        "--game",
        log,
    ]
    status, out, err = _run(argv, capsys)
    assert status == 0, err
    assert f"game: ok (20 turns, 20 rolls match the day's dice, total {game.card.total})" in out
    wrong = keyring.day_seed("maxi-yatzy", DAY + dt.timedelta(days=1)).hex()
    argv[argv.index("--seed") + 1] = wrong
    status, out, err = _run(argv, capsys)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "verification failed: commitment" in err
    assert wrong not in err


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("commitment", "ab" * 32, "signature"),
        ("seed", "cd" * 32, "commitment"),
        ("date", "2026-11-28", "signature"),
    ],
)
def test_verify_day_failures_exit_1_with_one_line(
    fetched: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    field: str,
    value: str,
    message: str,
) -> None:
    descriptor = json.loads(Path(fetched["revealed"]).read_text())
    descriptor[field] = value
    path = _write(tmp_path / "tampered.json", descriptor)
    date = descriptor["date"]
    status, out, err = _run(
        ["verify-day", date, "yahtzee", "--descriptor", path, "--keys", fetched["keys"]], capsys
    )
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and f"verification failed: {message}" in err


def test_verify_day_bad_input_exits_2_with_one_line(
    fetched: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_json = tmp_path / "bad.json"
    not_json.write_text("{not json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    d, k = fetched["revealed"], fetched["keys"]
    cases = [
        ["verify-day", "2026-02-30", "yahtzee", "--descriptor", d, "--keys", k],
        ["verify-day", "2026-11-29", "chess", "--descriptor", d, "--keys", k],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", str(not_json), "--keys", k],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", str(binary), "--keys", k],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", str(tmp_path / "no"), "--keys", k],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", d, "--keys", d],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", k, "--keys", k],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", d, "--keys", k, "--seed", "xyz"],
        [
            "verify-day",
            "2026-11-29",
            "yahtzee",
            "--descriptor",
            d,
            "--keys",
            k,
            "--game",
            str(not_json),
        ],
        ["verify-day", "2026-11-29", "yahtzee", "--descriptor", d],
    ]
    for argv in cases:
        status, out, err = _run(argv, capsys)
        assert status == 2, (argv, out, err)
        assert out == "" and err.count("\n") == 1 and err.startswith("daily: "), (argv, err)
        assert "Traceback" not in err


def test_the_installed_command(fetched: dict[str, str]) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "daily",
            "verify-day",
            "2026-11-29",
            "yahtzee",
            "--descriptor",
            "-",
            "--keys",
            fetched["keys"],
        ],
        input=Path(fetched["revealed"]).read_text(),
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "verified: 2026-11-29 yahtzee" in done.stdout


def test_keys_init_uses_daily_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DAILY_DATA_DIR", str(tmp_path / "env-data"))
    status, out, _ = _run(["keys", "init"], capsys)
    assert status == 0 and str(tmp_path / "env-data" / "keys" / "signing.key") in out
