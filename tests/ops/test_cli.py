"""The ops commands answer bad input with one line on stderr and exit status 2."""

from __future__ import annotations

import pytest

from daily.cli import main


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["worker", "emails"], {"REDIS_URL": "redis://127.0.0.1:6379/1"}, "unknown queue 'emails'"),
        (["worker"], {}, "REDIS_URL: is not set"),
        (["scheduler", "--interval", "0"], {"REDIS_URL": "redis://127.0.0.1:6379/1"},
         "--interval: must be 1..3600"),
        (["rebuild", "2026-11-31", "yahtzee"], {}, "'2026-11-31' is not a date"),
        (["rebuild", "2026-11-29", "poker"], {}, "unknown ruleset 'poker'"),
        (["rebuild", "2026-11-29", "yahtzee"], {"REDIS_URL": "redis://127.0.0.1:6379/1"},
         "no archive at"),
        (["serve", "--web-workers", "0"], {}, "--web-workers: must be 1..64"),
    ],
)
def test_bad_ops_input(argv, env, message, monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("DAILY_DATA_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_rebuild_refuses_an_archive_of_another_day(redis_url, monkeypatch, tmp_path, capsys):
    archive = tmp_path / "other.jsonl"
    archive.write_text(
        '{"format":"daily-archive/1","date":"2026-11-28","ruleset":"yahtzee","players":0}\n'
    )
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert main(["rebuild", "2026-11-29", "yahtzee", "--archive", str(archive)]) == 2
    assert "holds 2026-11-28 yahtzee, not 2026-11-29 yahtzee" in capsys.readouterr().err
