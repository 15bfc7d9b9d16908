"""The strategy commands, run in-process through ``daily.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daily.cli import main
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset

FORCED = ["--option", "forced_order=true"]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("data")
    assert main(["strategy", "build", "yacht", *FORCED, "--data-dir", str(folder), "--quiet"]) == 0
    return folder


def test_build_shows_progress_and_writes_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["strategy", "build", "yacht", *FORCED, "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "100.0%" in err and "[#" in err
    assert out.startswith("yacht-forced_order=true.ddt: expected 101.08")
    assert (tmp_path / "tables" / "yacht-forced_order=true.ddt").exists()


def test_data_dir_from_the_environment(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DAILY_DATA_DIR", str(data_dir))
    assert main(["strategy", "info", "yacht", *FORCED]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "yacht"


def test_hint_for_dice(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["hint", "yacht", *FORCED, "--dice", "1", "1", "5", "6", "1", "--rolls-left", "2",
            "--data-dir", str(data_dir), "--json"]
    assert main(args) == 0
    hint = json.loads(capsys.readouterr().out)
    assert hint["best"]["kept"] == [1, 1, 1] and hint["best"]["hold"] == "11001"


def test_hint_for_a_partial_log(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = get_ruleset("yacht", {"forced_order": True})
    game = Game.from_seed(rules, bytes(32))
    game.reroll("00000")
    log = tmp_path / "log.json"
    log.write_text(json.dumps(MoveLog.of_game(game, seed=bytes(32)).to_json()))
    assert main(["hint", "--log", str(log), "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("best: ") and out.count("  or: ") == 3


def test_analyse_and_bot(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bot", "yacht", *FORCED, "--level", "easy", "--data-dir", str(data_dir)]) == 0
    played = json.loads(capsys.readouterr().out)
    log = tmp_path / "game.json"
    log.write_text(json.dumps(played["log"]))
    assert main(["analyse", str(log), "--data-dir", str(data_dir), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["total"] == played["total"] and report["complete"] is True
    assert main(["analyse", str(log), "--data-dir", str(data_dir)]) == 0
    assert "rating" in capsys.readouterr().out
    assert main(["bot", "yacht", *FORCED, "--games", "50", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out.startswith("hard: 50 games, mean ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "yacht", "--dice", "1", "2", "3", "4", "5"], "daily strategy build yacht"),
        (["hint", "yacht", *FORCED, "--dice", "1", "2"], "needs 5 dice"),
        (["hint", "yacht", *FORCED, "--dice", "1", "2", "3", "4", "5", "--card", "ones"],
         "box=points"),
        (["hint", "yacht", *FORCED, "--dice", "1", "2", "3", "4", "5", "--card", "pair=3"],
         "no box 'pair'"),
        (["hint", "yacht", *FORCED], "--dice is required"),
        (["bot", "yacht", *FORCED, "--games", "0"], "at least 1"),
        (["bot", "yacht", *FORCED, "--seed", "xyz"], "hex digits"),
        (["strategy", "build", "maxi", "--option", "saved_rolls=true"], "saved rolls"),
        (["analyse", "/nonexistent/log.json"], "No such file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    data_dir: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main([*args, "--data-dir", str(data_dir)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
