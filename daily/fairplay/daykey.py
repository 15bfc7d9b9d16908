"""The day's secret parameters of the fair-play check, derived from the master secret.

A test that a cheater can run is a line to stay under. So part of each day's decision
rests on values only the server knows until the reveal: for each day set a *fair-play
key* is derived from the master secret, with a domain of its own (never the day seed,
which only makes the dice)::

    fairplay_key = HMAC-SHA256(key = master secret,
                               message = ASCII "daily-fairplay/v1:{ruleset}:{date}")

and every parameter is drawn from it with HMAC-SHA256(key = fairplay_key, message =
ASCII name) read as uniform numbers (:func:`uniform`):

* ``threshold``: the line of the ordinary test's likelihood ratio, uniform in
  :data:`THRESHOLD_RANGE`, and ``positional_threshold``, the line of its positional test,
  uniform in :data:`POSITIONAL_RANGE`;
* ``strict_threshold`` and ``strict_positional_threshold``: the lines of the stricter
  test that a game passes before it enters the top of its board, uniform in
  :data:`STRICT_RANGE` and :data:`STRICT_POSITIONAL_RANGE`;
* ``scrutiny``: the secret subset of decisions the stricter test looks at: turn ``t``,
  roll ``r`` (both from 0) is in it when the first 8 bytes of HMAC-SHA256(key =
  fairplay_key, message = ASCII "scrutiny:{t}:{r}") read as a big-endian number are below
  ``SCRUTINY_SHARE * 2^64`` (about half of the decisions);
* ``audit_threshold`` and ``audit_positional_threshold``: the far lower lines of an
  *audit*, uniform in the ruleset's :func:`audit_range` (:data:`AUDIT_RANGE`, lower for
  Maxi Yatzy: :data:`AUDIT_RANGES`) and in :data:`AUDIT_POSITIONAL_RANGE`; a game on
  its way into the top is audited (:meth:`DayParams.audited`) when the first 8 bytes of
  HMAC-SHA256(key = fairplay_key, message = ASCII "audit:{game id}") read as above are
  below ``AUDIT_SHARE * 2^64`` (one game in :data:`AUDIT_SHARE`'s inverse), and then
  held against those lines as well as the strict ones.

The audit is the low end of the lines' distribution, rare and drawn per game: a cheater
who wants certainty must stay under it, while honest games meet it on one game in
two hundred only, so their false positives average over the lines. It is drawn per game
(not per day) so that a probe game learns nothing about the next one.

The key of a day set is published after the reveal, next to the day seed (the day's
descriptor, ``fairplay_key``): anyone can then derive the same parameters
(:meth:`DayParams.from_key`, with the day set's ruleset) and re-check every decision of
that day. Before the reveal
it appears nowhere: not in logs, answers, job results or errors; :class:`DayParams`
never shows it in its ``repr``.

>>> params = DayParams.from_key(fairplay_key(b"daily-dice-example-master-secret",
...                                          "yahtzee", "2026-11-29"), "yahtzee")
>>> THRESHOLD_RANGE[0] <= params.threshold < THRESHOLD_RANGE[1]
True
>>> params == DayParams.from_key(bytes.fromhex(params.to_json()["key"]), "yahtzee")
True
>>> "key" in repr(params)
False
"""

from __future__ import annotations

import datetime as dt
import hmac
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from daily.errors import DailyError

#: Version of the derivation (the domain of the fair-play key's HMAC).
KEY_VERSION = "daily-fairplay/v1"
#: The ordinary test's line is drawn uniformly in this range each day.
THRESHOLD_RANGE = (8.0, 12.0)
#: The ordinary positional test's line (``-ln`` of an exact tail probability: 11.5 is
#: one honest game in 100,000 at most, whatever the player's habits).
POSITIONAL_RANGE = (11.5, 13.5)
#: The stricter test's lines (games entering the top of a board) are drawn in these. The
#: likelihood line starts above the scrutiny statistics of honest top games in the
#: calibration (docs/fairplay.md, *Figures*).
STRICT_RANGE = (8.0, 10.0)
STRICT_POSITIONAL_RANGE = (7.5, 9.5)
#: Share of the decisions in the secret scrutiny subset.
SCRUTINY_SHARE = 0.5
#: Share of the games entering the top that are audited (drawn per game from the key).
AUDIT_SHARE = 0.005
#: The audit's lines (scrutiny likelihood ratio, scrutiny positional test).
AUDIT_RANGE = (1.5, 2.5)
AUDIT_POSITIONAL_RANGE = (3.0, 4.0)
#: The rulesets whose audit likelihood line is drawn from a range of their own. Maxi
#: Yatzy's games have half as many decisions again as Yahtzee's: over 200 simulated days
#: the informed cheater kept +10.7 points under a line of 1.5 to 2.5 and +5.3 under 1 to
#: 2, which holds 16% of the audited honest top games instead of 11%
#: (``docs/fairplay.md``, *Maxi Yatzy*).
AUDIT_RANGES: dict[str, tuple[float, float]] = {"maxi-yatzy": (1.0, 2.0)}


if TYPE_CHECKING:  # numpy is imported where the weights are needed (not by web processes)
    import numpy as np


class DayKeyError(DailyError):
    """A fair-play key that cannot be used (wrong length, not hex)."""


def fairplay_key(master: bytes, ruleset: str, date: dt.date | str) -> bytes:
    """The fair-play key of a day set (32 bytes; secret until the day is revealed).

    >>> fairplay_key(b"daily-dice-example-master-secret", "yahtzee", "2026-11-29").hex()[:8]
    '8914f299'
    """
    day = date.isoformat() if isinstance(date, dt.date) else str(date)
    return hmac.digest(master, f"{KEY_VERSION}:{ruleset}:{day}".encode("ascii"), "sha256")


def uniform(key: bytes, name: str) -> float:
    """A number in [0, 1) drawn from the key for ``name`` (first 8 bytes of the HMAC).

    >>> 0 <= uniform(bytes(32), "threshold") < 1
    True
    """
    word = hmac.digest(key, name.encode("ascii"), "sha256")[:8]
    return int.from_bytes(word, "big") / 2**64


def in_scrutiny(key: bytes, turn: int, roll: int) -> bool:
    """Whether decision (turn, roll), both from 0, is in the day's scrutiny subset.

    >>> sum(in_scrutiny(bytes(32), t, r) for t in range(13) for r in range(3))
    21
    """
    return uniform(key, f"scrutiny:{turn}:{roll}") < SCRUTINY_SHARE


def is_audited(key: bytes, game_id: str) -> bool:
    """Whether the game ``game_id`` is audited on its way into the top (one in about
    ``1 / AUDIT_SHARE``).

    >>> sum(is_audited(bytes(32), f"g_{k}") for k in range(10_000))
    50
    """
    return uniform(key, f"audit:{game_id}") < AUDIT_SHARE


def audit_range(ruleset: str) -> tuple[float, float]:
    """The range the audit's likelihood line of ``ruleset`` is drawn in.

    >>> audit_range("yahtzee"), audit_range("maxi-yatzy")
    ((1.5, 2.5), (1.0, 2.0))
    """
    return AUDIT_RANGES.get(ruleset, AUDIT_RANGE)


def key_matches(key: bytes, expected: bytes) -> bool:
    """Whether two keys are the same, compared in constant time.

    >>> key_matches(bytes(32), bytes(32)), key_matches(bytes(32), bytes(31) + b"1")
    (True, False)
    """
    return hmac.compare_digest(key, expected)


@dataclass(frozen=True)
class DayParams:
    """The secret parameters of one day set's check (see the module)."""

    key: bytes = field(repr=False)
    threshold: float
    strict_threshold: float
    positional_threshold: float
    strict_positional_threshold: float
    audit_threshold: float
    audit_positional_threshold: float

    @classmethod
    def from_key(cls, key: bytes, ruleset: str) -> DayParams:
        """Derive every parameter from the fair-play key of a day set of ``ruleset``
        (whose name chooses the audit's range, :func:`audit_range`)."""
        if not isinstance(key, bytes) or len(key) != 32:
            raise DayKeyError("a fair-play key is 32 bytes", field="fairplay_key")
        def draw(name: str, span: tuple[float, float]) -> float:
            return span[0] + (span[1] - span[0]) * uniform(key, name)

        return cls(
            key,
            draw("threshold", THRESHOLD_RANGE),
            draw("strict_threshold", STRICT_RANGE),
            draw("positional_threshold", POSITIONAL_RANGE),
            draw("strict_positional_threshold", STRICT_POSITIONAL_RANGE),
            draw("audit_threshold", audit_range(ruleset)),
            draw("audit_positional_threshold", AUDIT_POSITIONAL_RANGE),
        )

    @classmethod
    def from_hex(cls, text: str, ruleset: str) -> DayParams:
        """From the published key (64 hex digits) of a day set of ``ruleset``.

        >>> DayParams.from_hex("zz", "yahtzee")
        Traceback (most recent call last):
        ...
        daily.fairplay.daykey.DayKeyError: fairplay_key: is not 64 hex digits
        """
        try:
            key = bytes.fromhex(text)
        except ValueError:
            key = b""
        if len(key) != 32:
            raise DayKeyError("is not 64 hex digits", field="fairplay_key")
        return cls.from_key(key, ruleset)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DayParams) and key_matches(self.key, other.key)

    def __hash__(self) -> int:
        return hash((self.threshold, self.strict_threshold))

    def weights(self, turns_rolls: np.ndarray) -> np.ndarray:
        """The stricter test's weight of each decision, from its (turn, roll) pairs: 1
        in the scrutiny subset, 0 outside.

        >>> import numpy as np
        >>> DayParams.from_key(bytes(32), "yahtzee").weights(np.array([[0, 0], [1, 1]])).tolist()
        [1.0, 0.0]
        """
        import numpy as np

        out = np.zeros(len(turns_rolls))
        for d, (t, r) in enumerate(turns_rolls):
            if in_scrutiny(self.key, int(t), int(r)):
                out[d] = 1.0
        return out

    def audited(self, game_id: str | None) -> bool:
        """Whether the game ``game_id`` is audited (never without an id).

        >>> DayParams.from_key(bytes(32), "yahtzee").audited(None)
        False
        """
        return game_id is not None and is_audited(self.key, game_id)

    def to_json(self) -> dict[str, Any]:
        """What is published after the reveal: the key and what it gives."""
        return {
            "version": KEY_VERSION,
            "key": self.key.hex(),
            "threshold": round(self.threshold, 6),
            "strict_threshold": round(self.strict_threshold, 6),
            "positional_threshold": round(self.positional_threshold, 6),
            "strict_positional_threshold": round(self.strict_positional_threshold, 6),
            "audit_threshold": round(self.audit_threshold, 6),
            "audit_positional_threshold": round(self.audit_positional_threshold, 6),
            "audit_share": AUDIT_SHARE,
        }
