"""Accepted results and the leaves of a day's results log (format ``daily-results-leaf/v1``).

An :class:`Accepted` is what the service knows the moment it accepts a ranked game, and
what its receipt signs. A :class:`Leaf` is one line of the day's log: a *result* leaf
(the accepted game, its receipt, the player's name at the close and the fair-play
decision) or a *decision* leaf (a later re-review of one game). A leaf's bytes are the
canonical JSON of :meth:`Leaf.to_json`; ``docs/protocol.md`` (*Results log*) is the spec.

>>> acc = Accepted("DD-ABCDEFGHJK", "p-1", "yacht", "2026-11-29", "dl1~yacht~-~d2026-11-29~",
...                0, "2026-11-29T10:00:00.123Z")
>>> leaf = Leaf.result(acc, "0011223344556677:" + "00" * 64, "Ada", Decision("cleared"))
>>> Leaf.from_json(leaf.to_json()) == leaf
True
>>> accepted_digest(acc).hex()[:16]
'42fb78defa4b1da0'
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from daily.audit.canonical import canonical_json
from daily.errors import DailyError

LEAF_VERSION = "daily-results-leaf/v1"
#: The domain-separation prefix of :func:`accepted_digest`.
ACCEPTED_DOMAIN = b"daily-accepted/v1\n"
RESULT, DECISION = "result", "decision"
CLEARED, HELD, DISQUALIFIED, PENDING = "cleared", "held", "disqualified", "pending"
STATUSES = (CLEARED, HELD, DISQUALIFIED, PENDING)
#: Longest code, player id or reason accepted; longest name; longest move log text.
MAX_ID = 64
MAX_NAME = 200
MAX_LOG = 64 * 1024
_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_REASON = re.compile(r"[a-z][a-z0-9_]*")
_ACCEPTED_FIELDS = ("code", "player_id", "ruleset", "date", "log", "score", "accepted_at")
_RESULT_FIELDS = ("version", "kind", "accepted", "receipt", "name", "decision")
_DECISION_FIELDS = ("version", "kind", "code", "decision", "decided_at")


class LeafError(DailyError):
    """A leaf, accepted result or decision that is malformed; ``field`` names the part."""


def instant(moment: dt.datetime | float) -> str:
    """An instant as RFC 3339 UTC with milliseconds (the form of every time in the log).

    >>> instant(dt.datetime(2026, 11, 29, 10, 0, 0, 123456, tzinfo=dt.UTC))
    '2026-11-29T10:00:00.123Z'
    >>> instant(1795946400.5)
    '2026-11-29T10:00:00.500Z'
    """
    if not isinstance(moment, dt.datetime):  # a timestamp: exact integer milliseconds
        seconds, milli = divmod(round(float(moment) * 1000), 1000)
        day, second = divmod(seconds, 86400)
        hour, second = divmod(second, 3600)
        minute, second = divmod(second, 60)
        return f"{_date_of(day)}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"
    moment = moment.astimezone(dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@functools.lru_cache(maxsize=64)
def _date_of(day: int) -> str:
    """The date ``YYYY-MM-DD`` of the UTC day ``day`` since the epoch (a close asks
    for the same few a million times)."""
    t = time.gmtime(day * 86400)
    return f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}"


def parse_instant(text: Any, field: str = "time") -> float:
    """Seconds since the epoch of an RFC 3339 UTC millisecond instant (exactly that form).

    >>> parse_instant("2026-11-29T10:00:00.500Z")
    1795946400.5
    >>> parse_instant("2026-11-29T10:00:00Z", "accepted_at")
    Traceback (most recent call last):
    ...
    daily.audit.leaf.LeafError: accepted_at: is not an RFC 3339 UTC instant with milliseconds \
(YYYY-MM-DDTHH:MM:SS.mmmZ)
    """
    if not (isinstance(text, str) and _INSTANT.fullmatch(text)):
        raise LeafError(
            "is not an RFC 3339 UTC instant with milliseconds (YYYY-MM-DDTHH:MM:SS.mmmZ)",
            field=field,
        )
    try:
        moment = dt.datetime.fromisoformat(text[:-1]).replace(tzinfo=dt.UTC)
    except ValueError:
        raise LeafError("is not a valid calendar instant", field=field) from None
    return moment.timestamp()


def _text(obj: Mapping[str, Any], name: str, where: str, limit: int = MAX_ID) -> str:
    value = obj.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise LeafError(f"is not a string of 1 to {limit} characters", field=f"{where}{name}")
    return value


def _only(obj: Any, allowed: tuple[str, ...], where: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise LeafError("is not a JSON object", field=where.rstrip(".") or "leaf")
    for name in allowed:
        if name not in obj:
            raise LeafError("is missing", field=f"{where}{name}")
    for name in obj:
        if name not in allowed:
            raise LeafError("is not a field of this format", field=f"{where}{name}")
    return obj


@dataclass(frozen=True)
class Accepted:
    """A ranked result as accepted: what its receipt signs.

    ``log`` is the game's move log in the compact text form of ``daily-log/1``;
    ``accepted_at`` is RFC 3339 UTC with milliseconds (:func:`instant`).
    """

    code: str
    player_id: str
    ruleset: str
    date: str
    log: str
    score: int
    accepted_at: str

    def to_json(self) -> dict[str, Any]:
        """The JSON object (every field, by name).

        >>> Accepted("DD-1", "p", "yacht", "2026-11-29", "dl1~", 3, "x").to_json()["score"]
        3
        """
        return {"code": self.code, "player_id": self.player_id, "ruleset": self.ruleset,
                "date": self.date, "log": self.log, "score": self.score,
                "accepted_at": self.accepted_at}

    @classmethod
    def from_json(cls, obj: Any, where: str = "accepted.") -> Accepted:
        """Parse and check the JSON object; errors name the field (``accepted.score``)."""
        obj = _only(obj, _ACCEPTED_FIELDS, where)
        date = _text(obj, "date", where)
        if not _DATE.fullmatch(date):
            raise LeafError("is not a date YYYY-MM-DD", field=f"{where}date")
        score = obj["score"]
        if type(score) is not int or not 0 <= score < 1_000_000:
            raise LeafError("is not a non-negative integer", field=f"{where}score")
        parse_instant(obj["accepted_at"], f"{where}accepted_at")
        return cls(
            _text(obj, "code", where),
            _text(obj, "player_id", where),
            _text(obj, "ruleset", where),
            date,
            _text(obj, "log", where, MAX_LOG),
            score,
            obj["accepted_at"],
        )


def accepted_digest(acc: Accepted) -> bytes:
    """SHA-256 of ``b"daily-accepted/v1\\n"`` and the canonical JSON of ``acc``.

    >>> len(accepted_digest(Accepted("DD-1", "p", "yacht", "2026-11-29", "dl1~", 3, "x")))
    32
    """
    return hashlib.sha256(ACCEPTED_DOMAIN + canonical_json(acc.to_json())).digest()


@dataclass(frozen=True)
class Decision:
    """A fair-play decision: ``status`` (cleared, held, disqualified, pending) and the
    ``reason`` code (``foresight``, ``ceiling``, ``unchecked``, ...) or ``None``."""

    status: str
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"status": ..., "reason": ...}``.

        >>> Decision("held", "foresight").to_json()
        {'status': 'held', 'reason': 'foresight'}
        """
        return {"status": self.status, "reason": self.reason}

    @classmethod
    def from_json(cls, obj: Any, where: str = "decision.") -> Decision:
        """Parse and check; errors name the field (``decision.status``).

        >>> Decision.from_json({"status": "lost", "reason": None})
        Traceback (most recent call last):
        ...
        daily.audit.leaf.LeafError: decision.status: is 'lost', expected one of \
cleared, held, disqualified, pending
        """
        obj = _only(obj, ("status", "reason"), where)
        status, reason = obj["status"], obj["reason"]
        if status not in STATUSES:
            raise LeafError(
                f"is {status!r}, expected one of {', '.join(STATUSES)}", field=f"{where}status"
            )
        if reason is not None and not (
            isinstance(reason, str) and len(reason) <= MAX_ID and _REASON.fullmatch(reason)
        ):
            raise LeafError("is not null or a reason code [a-z][a-z0-9_]*", field=f"{where}reason")
        return cls(status, reason)


@dataclass(frozen=True)
class Leaf:
    """One leaf of a day's results log.

    Build one with :meth:`result` or :meth:`decision_leaf`. ``code`` is the game's result
    code for both kinds (a result leaf's is its ``accepted.code``).
    """

    kind: str
    code: str
    decision: Decision
    accepted: Accepted | None = None
    receipt: str | None = None
    name: str | None = None
    decided_at: str | None = None
    version: str = LEAF_VERSION

    @classmethod
    def result(
        cls, accepted: Accepted, receipt: str, name: str | None, decision: Decision
    ) -> Leaf:
        """A result leaf: the accepted game, its receipt, the name at the close, the decision."""
        return cls(RESULT, accepted.code, decision, accepted, receipt, name)

    @classmethod
    def decision_leaf(cls, code: str, decision: Decision, decided_at: str) -> Leaf:
        """A decision leaf: a later re-review of the game ``code``.

        >>> Leaf.decision_leaf("DD-1", Decision("disqualified", "foresight"),
        ...                    "2026-12-01T08:00:00.000Z").to_json()["kind"]
        'decision'
        """
        return cls(DECISION, code, decision, decided_at=decided_at)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the leaf (its canonical bytes are :func:`leaf_bytes`)."""
        if self.kind == RESULT:
            assert self.accepted is not None
            return {
                "version": self.version,
                "kind": RESULT,
                "accepted": self.accepted.to_json(),
                "receipt": self.receipt,
                "name": self.name,
                "decision": self.decision.to_json(),
            }
        return {
            "version": self.version,
            "kind": DECISION,
            "code": self.code,
            "decision": self.decision.to_json(),
            "decided_at": self.decided_at,
        }

    @classmethod
    def from_json(cls, obj: Any) -> Leaf:
        """Parse and check a leaf; :class:`LeafError` names the field at fault.

        >>> Leaf.from_json({"version": "daily-results-leaf/v1", "kind": "decision",
        ...                 "code": "DD-1", "decision": {"status": "held"},
        ...                 "decided_at": "2026-12-01T08:00:00.000Z"})
        Traceback (most recent call last):
        ...
        daily.audit.leaf.LeafError: decision.reason: is missing
        """
        if not isinstance(obj, Mapping):
            raise LeafError("a leaf is a JSON object", field="leaf")
        if obj.get("version") != LEAF_VERSION:
            raise LeafError(
                f"is {obj.get('version')!r}, expected {LEAF_VERSION!r}", field="version"
            )
        kind = obj.get("kind")
        if kind == RESULT:
            obj = _only(obj, _RESULT_FIELDS, "")
            accepted = Accepted.from_json(obj["accepted"])
            receipt = obj["receipt"]
            if not isinstance(receipt, str) or not receipt or len(receipt) > 256:
                raise LeafError("is not a receipt string", field="receipt")
            name = obj["name"]
            if name is not None and not (isinstance(name, str) and len(name) <= MAX_NAME):
                raise LeafError(f"is not null or a string of at most {MAX_NAME}", field="name")
            return cls.result(accepted, receipt, name, Decision.from_json(obj["decision"]))
        if kind == DECISION:
            obj = _only(obj, _DECISION_FIELDS, "")
            parse_instant(obj["decided_at"], "decided_at")
            return cls.decision_leaf(
                _text(obj, "code", ""), Decision.from_json(obj["decision"]), obj["decided_at"]
            )
        raise LeafError(f"is {kind!r}, expected 'result' or 'decision'", field="kind")


def leaf_bytes(leaf: Leaf) -> bytes:
    """The canonical bytes of a leaf: what the Merkle tree hashes and a log line holds.

    >>> leaf_bytes(Leaf.decision_leaf("DD-1", Decision("cleared"), "2026-12-01T08:00:00.000Z"))
    b'{"code":"DD-1","decided_at":"2026-12-01T08:00:00.000Z","decision":{"reason":null,\
"status":"cleared"},"kind":"decision","version":"daily-results-leaf/v1"}'
    """
    return canonical_json(leaf.to_json())
