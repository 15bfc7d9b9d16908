"""docs/protocol.md stays exact: its examples are checked against the code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from daily.dice import slot_dice
from daily.movelog import MoveLog, Turn
from daily.rules import get_ruleset

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def test_log_example_and_its_text_form_agree():
    example = re.search(r"```json\n(\{\n  \"format\": \"daily-log/1\".*?)```", DOC, re.S)
    assert example
    log = MoveLog.from_json(example.group(1))
    assert f"`{log.to_text()}`" in DOC
    assert "`YcI`" in DOC and log.to_text().split("~")[-1].startswith("YcI.")


def test_dice_examples():
    assert "slot (0, 0) for 5 dice is `5 2 2 2 3`" in DOC
    assert slot_dice(bytes(32), 0, 0, 5) == (5, 2, 2, 2, 3)
    assert "slot (12, 2) for\n6 dice is `3 1 3 3 3 6`" in DOC
    assert slot_dice(bytes(32), 12, 2, 6) == (3, 1, 3, 3, 3, 6)


def test_box_orders_match_the_rulesets():
    for name in ("yahtzee", "maxi-yatzy"):
        section = DOC.split(f"- `{name}`", 1)[1].split("Options:", 1)[0]
        listed = re.findall(r"[a-z_]+", section.replace("…", " ").replace("(6 dice)", ""))
        rules = get_ruleset(name)
        lower = [b for b in rules.box_ids if b not in ("ones", "twos", "threes", "fours",
                                                        "fives", "sixes")]
        assert [b for b in listed if b in rules.box_ids and b not in ("ones", "sixes")
                and b in lower] == lower


def test_vector_files_are_listed():
    for name in ("dice-v1.json", "day-seed-v1.json", "logs-v1.json", "c2sp-vectors.json"):
        assert f"seeds/{name}" in DOC
        json.loads((Path(__file__).resolve().parents[2] / "seeds" / name).read_text())


def test_position_example():
    from daily.service.games.record import position_of

    example = re.search(r"```json\n(\{\n  \"format\": \"daily-log/1\".*?)```", DOC, re.S)
    assert example
    assert "(the example log of `daily-log/1` above is at position 5)" in DOC
    assert position_of(MoveLog.from_json(example.group(1))) == 5


def test_generala_and_triple_are_described_exactly():
    section = DOC.split("- `generala`:", 1)[1].split("Options:", 1)[0]
    listed = re.findall(r"[a-z_]+", section.replace("…", " "))
    generala = get_ruleset("generala")
    assert [b for b in listed if b in generala.box_ids and b not in ("ones", "sixes")] == list(
        generala.box_ids[6:])
    triple = get_ruleset("triple-yahtzee")
    assert "`2.full_house` has index 21, text character `V`" in DOC
    assert triple.box_index("2.full_house") == 21
    log = MoveLog("triple-yahtzee", (Turn((), "2.full_house"),), seed=bytes(32))
    assert log.to_text().endswith("~V")
    assert "seeds/logs-v1-generala-triple.json" in DOC
    json.loads((Path(__file__).resolve().parents[2] / "seeds" /
                "logs-v1-generala-triple.json").read_text())
