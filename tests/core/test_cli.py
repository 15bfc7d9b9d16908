"""The core CLI commands: output, and one clear line with exit 2 on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from daily.cli import main
from daily.dice import slot_dice
from tests.polling import PROCESS_TIMEOUT

SEED = "00" * 32
GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "seeds" / "logs-v1.json")
                    .read_text())["vectors"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "daily", *args], input=stdin,
                          capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})


def test_dice_prints_the_slot(capsys):
    assert main(["dice", "--seed", SEED, "--turn", "3", "--roll", "1", "--count", "6"]) == 0
    assert capsys.readouterr().out.split() == [str(d) for d in slot_dice(bytes(32), 3, 1, 6)]


def test_score_prints_every_box(capsys):
    assert main(["score", "maxi-yatzy", "6", "6", "6", "6", "2", "2"]) == 0
    lines = dict(line.split() for line in capsys.readouterr().out.splitlines())
    assert len(lines) == 20 and lines["tower"] == "28" and lines["three_pairs"] == "0"


def test_replay_prints_the_verified_result(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GOLDEN[2]["log"]))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == GOLDEN[2]["total"]


def test_replay_reads_text_logs_from_stdin():
    proc = run("replay", "-", stdin=GOLDEN[0]["text"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] == GOLDEN[0]["total"]


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["dice", "--seed", "xyz", "--turn", "0", "--roll", "0"], "", "a seed is 64 hex digits"),
        (["dice", "--seed", SEED, "--turn", "0"], "", "required: --roll"),
        (["score", "yahtzee", "1", "2", "3"], "", "3 dice given, the game has 5"),
        (["score", "yahtzee", "1", "2", "3", "4", "9"], "", "'9' is not a die"),
        (["score", "poker", "1", "2", "3", "4", "5"], "", "unknown ruleset 'poker'"),
        (["score", "maxi", "1", "2", "3", "4", "5", "6", "--option", "full_straight=99"], "",
         "option 'full_straight' of maxi-yatzy is 99"),
        (["replay", "-"], "{broken", "log is not valid JSON"),
        (["replay", "-"], '{"format": "daily-log/1", "ruleset": "yahtzee", "day": "2026-11-29",'
         ' "turns": []}', "its seed is needed"),
        (["replay", "/nonexistent/log.json"], "", "No such file"),
        (["play", "yahtzee", "--seed", "00"], "", "a seed is 64 hex digits"),
        (["nonsense"], "", "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, stdin, needle):
    proc = run(*args, stdin=stdin)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert needle in lines[0]


def test_play_a_whole_game_in_the_terminal():
    # Reroll once keeping dice 1 and 2, then always take the first listed box.
    moves = "r 12\nbogus\n" + "1\n" * 12
    proc = run("play", "yacht", "--seed", SEED, stdin=moves)
    assert proc.returncode == 0, proc.stderr
    assert "! " in proc.stdout  # the bogus answer got an error line, and play went on
    assert "TOTAL" in proc.stdout
    log_line = proc.stdout.strip().splitlines()[-1]
    assert log_line.startswith("log: dl1~yacht~-~s")
    replayed = run("replay", "-", stdin=log_line.removeprefix("log: "))
    total = int(next(line.split()[-1] for line in proc.stdout.splitlines()
                     if line.startswith("TOTAL")))
    assert json.loads(replayed.stdout)["total"] == total


def test_play_stops_on_end_of_input():
    proc = run("play", "yatzy", "--seed", SEED, stdin="r\n")
    assert proc.returncode == 1 and "bye" in proc.stdout
