"""Helpers of the audit tests: a revealed day (the published example descriptor of
``seeds/days.json``), a results key, and a closed day written as files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.sample_day import SampleDay
from daily.audit.signing import public_key_id

ROOT = Path(__file__).resolve().parents[2]
DAYS = json.loads((ROOT / "seeds" / "days.json").read_text())
DESCRIPTOR: dict[str, Any] = DAYS["descriptors"][0]["descriptor"]
DATE, RULESET = DESCRIPTOR["date"], DESCRIPTOR["ruleset"]
RESULTS_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
GAMES = 12


def key_entry(key: Ed25519PrivateKey, purpose: str = "results") -> dict[str, Any]:
    """A key as ``GET /api/v1/keys`` lists it (a results key unless told)."""
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    return {"id": public_key_id(key), "algorithm": "Ed25519", "public_key": raw.hex(),
            "created": "2026-11-01T00:00:00Z", "active": True, "purpose": purpose}


KEYS = {"keys": [*DAYS["keys"]["keys"], key_entry(RESULTS_KEY)]}


@dataclass
class DayFiles:
    """A closed day written as the files a player downloads."""

    folder: Path
    day: SampleDay

    def path(self, name: str) -> str:
        return str(self.folder / name)

    def write_json(self, name: str, obj: Any) -> str:
        (self.folder / name).write_text(json.dumps(obj))
        return self.path(name)

    def write_log(self, lines: list[bytes], name: str = "log.jsonl") -> str:
        (self.folder / name).write_bytes(b"".join(line + b"\n" for line in lines))
        return self.path(name)

    def argv(self, *extra: str, head: str = "head.json", log: str | None = "log.jsonl"
             ) -> list[str]:
        out = ["verify-day", DATE, RULESET, "--descriptor", self.path("day.json"),
               "--keys", self.path("keys.json"), "--head", self.path(head)]
        if log is not None:
            out += ["--log", self.path(log)]
        return out + list(extra)


