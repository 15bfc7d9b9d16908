"""Regenerate the known-answer vectors in ``seeds/`` from the reference code.

Run ``python tools/make_vectors.py`` after a deliberate change to a versioned format
(never for an existing version: its vectors are frozen). The tests check that the
committed vectors still match the code.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from daily.dice import commitment, day_seed, slot_dice  # noqa: E402
from daily.game import Game  # noqa: E402
from daily.movelog import MoveLog  # noqa: E402
from daily.randomplay import random_game  # noqa: E402
from daily.replay import replay  # noqa: E402
from daily.rules import get_ruleset  # noqa: E402

SEEDS = [
    "00" * 32,
    "ff" * 32,
    bytes(range(32)).hex(),
    "5d1c0e6f0b7f3a2a9e4c8b1d2f6a7c3e9b0d4f1a2c5e8b7d6f3a0c9e1b4d7a20",
]
MASTERS = [
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    "6461696c792d646963652d6578616d706c652d6d61737465722d736563726574",
]


def dice_vectors() -> dict:
    out = []
    for seed_hex in SEEDS:
        seed = bytes.fromhex(seed_hex)
        for turn, roll, count in [(0, 0, 5), (0, 1, 5), (0, 2, 5), (12, 2, 5), (0, 0, 6),
                                  (19, 2, 6), (7, 5, 6), (3, 1, 1)]:
            out.append({"seed": seed_hex, "turn": turn, "roll": roll, "count": count,
                        "dice": list(slot_dice(seed, turn, roll, count))})
    return {"generator": "dice/v1", "vectors": out}


def day_vectors() -> dict:
    out = []
    for master_hex in MASTERS:
        for ruleset in ("yahtzee", "maxi-yatzy", "yatzy"):
            for date in ("2026-11-29", "2027-01-01", "2028-02-29"):
                seed = day_seed(bytes.fromhex(master_hex), ruleset, date)
                out.append({"master": master_hex, "ruleset": ruleset, "date": date,
                            "day_seed": seed.hex(), "commitment": commitment(seed)})
    return {"derivation": "daily/v1", "vectors": out}


def _random_game(ruleset: str, options: dict, seed: bytes, rng: random.Random) -> MoveLog:
    return MoveLog.of_game(random_game(get_ruleset(ruleset, options), seed, rng), seed=seed)


def _chase_alike(rules_name: str, seed: bytes, options: dict | None = None) -> Game:
    """Keep the most common face and reroll the rest; take the best legal box.

    In Generala a first roll worth 25 or more in some box is scored at once (a served
    combination)."""
    game = Game.from_seed(get_ruleset(rules_name, options or {}), seed)
    while not game.over:
        while game.rolls_left:
            if game.rules.served and not game.holds and max(
                    p.points for p in game.choices().legal()) >= 25:
                break
            face = max(range(1, 7), key=lambda f: (game.dice.count(f), f))
            mask = "".join("1" if d == face else "0" for d in game.dice)
            if "0" not in mask:
                break
            game.reroll(mask)
        best = max(game.choices().legal(), key=lambda p: p.points)
        game.score(best.box)
    return game


def joker_seed() -> bytes:
    """The first seed sha256("joker-i") on which chasing five alike scores an extra bonus."""
    import hashlib

    for i in range(10_000):
        seed = hashlib.sha256(f"joker-{i}".encode()).digest()
        game = _chase_alike("yahtzee", seed)
        if game.card.extra_count and any(r.box == "chance" for r in game.history):
            return seed
    raise RuntimeError("no joker seed found")


def log_vectors() -> dict:
    rng = random.Random(20261129)
    cases = [("yahtzee", {}), ("yahtzee", {}), ("yatzy", {}), ("maxi-yatzy", {}),
             ("maxi-yatzy", {"saved_rolls": True, "full_straight": 30}), ("yacht", {}),
             ("yahtzee", {"forced_order": True})]
    out = []
    for i, (ruleset, options) in enumerate(cases):
        seed = bytes.fromhex(SEEDS[i % len(SEEDS)])
        log = _random_game(ruleset, options, seed, rng)
        result = replay(log).to_json()
        out.append({"log": log.to_json(), "text": log.to_text(), "total": result["total"],
                    "boxes": result["boxes"], "upper_bonus": result["upper_bonus"],
                    "extra_bonus": result["extra_bonus"]})
    seed = joker_seed()
    log = MoveLog.of_game(_chase_alike("yahtzee", seed), seed=seed)
    result = replay(log).to_json()
    out.append({"log": log.to_json(), "text": log.to_text(), "total": result["total"],
                "boxes": result["boxes"], "upper_bonus": result["upper_bonus"],
                "extra_bonus": result["extra_bonus"]})
    return {"format": "daily-log/1", "vectors": out}


def _vector(log: MoveLog) -> dict:
    result = replay(log).to_json()
    out = {"log": log.to_json(), "text": log.to_text(), "total": result["total"],
           "boxes": result["boxes"], "upper_bonus": result["upper_bonus"],
           "extra_bonus": result["extra_bonus"]}
    if "columns" in result:
        out["columns"] = result["columns"]
    out["served"] = [t["turn"] for t in result["turns"]
                     if not t["holds"] and log.rules.served
                     and t["points"] != log.rules.table[tuple(sorted(t["dice"]))][
                         log.rules.box_index(t["box"])]]
    return out


def _first_seed(tag: str, ruleset: str, options: dict, wanted) -> bytes:
    """The first seed sha256("<tag>-i") whose chase-alike game satisfies ``wanted``."""
    import hashlib

    for i in range(10_000):
        seed = hashlib.sha256(f"{tag}-{i}".encode()).digest()
        if wanted(_chase_alike(ruleset, seed, options)):
            return seed
    raise RuntimeError(f"no {tag} seed found")


def ruleset_log_vectors() -> dict:
    """Generala and Triple Yahtzee logs (daily-log/1; added after logs-v1.json was frozen).

    Each vector lists the 1-based turns whose points were served (Generala: scored on
    the first roll for more than a later roll would give), and for Triple Yahtzee each
    column's weight and unweighted totals.
    """
    rng = random.Random(20261130)
    cases = [("generala", {}), ("generala", {"generala_points": "40-50", "ace_high": False}),
             ("generala", {"double_generala": False}), ("triple-yahtzee", {}),
             ("triple-yahtzee", {"joker": True})]
    out = []
    for i, (ruleset, options) in enumerate(cases):
        seed = bytes.fromhex(SEEDS[i % len(SEEDS)])
        out.append(_vector(_random_game(ruleset, options, seed, rng)))

    def served_and_double(game: Game) -> bool:
        served = any(not r.holds and r.points in (25, 35, 45, 60) for r in game.history)
        return served and game.card.as_dict()["doble_generala"] == 100

    seed = _first_seed("generala", "generala", {}, served_and_double)
    out.append(_vector(MoveLog.of_game(_chase_alike("generala", seed), seed=seed)))

    def column_bonus(game: Game) -> bool:
        return game.card.extra_count > 0 and any(c.bonus for c in game.card.columns)

    joker = {"joker": True}
    seed = _first_seed("triple", "triple-yahtzee", joker, column_bonus)
    out.append(_vector(MoveLog.of_game(_chase_alike("triple-yahtzee", seed, joker), seed=seed)))
    return {"format": "daily-log/1", "rulesets": ["generala", "triple-yahtzee"], "vectors": out}


def main() -> None:
    seeds_dir = ROOT / "seeds"
    for name, data in [("dice-v1.json", dice_vectors()), ("day-seed-v1.json", day_vectors()),
                       ("logs-v1.json", log_vectors()),
                       ("logs-v1-generala-triple.json", ruleset_log_vectors())]:
        (seeds_dir / name).write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote seeds/{name}")


if __name__ == "__main__":
    main()
