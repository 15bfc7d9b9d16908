"""The dice generator, spec v1, and the day-seed derivation (a public protocol).

The dice of slot (turn ``t``, roll ``r``), both 0-based, for a game of ``n`` dice:
for counter = 0, 1, 2, ... take the bytes of HMAC-SHA256(key=seed,
message=ASCII ``dice/v1:{t}:{r}:{counter}``) in order, skip every byte >= 252, and
map each accepted byte ``b`` to the die ``b % 6 + 1``; the first ``n`` accepted values
are the slot's dice. The counter stops at :data:`MAX_BLOCKS`; running out first is
astronomically unlikely (below 2**-1000) and raises :class:`DiceError` rather than
looping. See ``docs/protocol.md`` for the full text and ``seeds/`` for vectors.

>>> seed = bytes(range(32))
>>> slot_dice(seed, 0, 0, 5)
(6, 1, 1, 1, 5)
>>> commitment(day_seed(b"daily-dice-example-master-secret", "yahtzee", "2026-11-29"))[:16]
'0695463bf43b6458'
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Callable, Iterable

from daily import calendar
from daily.errors import DiceError

GENERATOR = "dice/v1"
DAY_SEED_VERSION = "daily/v1"
SEED_BYTES = 32
MAX_DICE = 6
#: Upper bound on HMAC blocks per slot: 256 blocks of 32 bytes.
MAX_BLOCKS = 256
_ACCEPT_BELOW = 252  # 252 = 6 * 42, so b % 6 is uniform over accepted bytes


def dice_from_blocks(blocks: Iterable[bytes], count: int) -> tuple[int, ...]:
    """The first ``count`` dice drawn from a stream of byte blocks (rejection sampling).

    At most :data:`MAX_BLOCKS` blocks are read; a stream that has not yielded enough
    accepted bytes by then raises :class:`DiceError`, so no byte pattern can hang it.

    >>> dice_from_blocks([bytes([0, 255, 5, 251, 6, 7])], 4)
    (1, 6, 6, 1)
    """
    out: list[int] = []
    for i, block in enumerate(blocks):
        if i >= MAX_BLOCKS:
            break
        for b in block:
            if b < _ACCEPT_BELOW:
                out.append(b % 6 + 1)
                if len(out) == count:
                    return tuple(out)
    raise DiceError(f"the generator ran out of bytes after {MAX_BLOCKS} blocks")


def _blocks(seed: bytes, turn: int, roll: int) -> Iterable[bytes]:
    prefix = f"{GENERATOR}:{turn}:{roll}:"
    for counter in range(MAX_BLOCKS):
        yield hmac.digest(seed, f"{prefix}{counter}".encode("ascii"), "sha256")


def check_seed(seed: object) -> bytes:
    """The seed if it is 32 bytes, else a :class:`DiceError`.

    >>> len(check_seed(bytes(32)))
    32
    """
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise DiceError(f"a seed is {SEED_BYTES} bytes", field="seed")
    return seed


def parse_seed_hex(text: object) -> bytes:
    """A seed from its 64 hex digits (either case).

    >>> parse_seed_hex("00" * 32) == bytes(32)
    True
    """
    if not isinstance(text, str) or len(text) != 2 * SEED_BYTES:
        raise DiceError(f"a seed is {2 * SEED_BYTES} hex digits", field="seed")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise DiceError("a seed is hex digits 0-9 and a-f only", field="seed") from None


def slot_dice(seed: bytes, turn: int, roll: int, count: int) -> tuple[int, ...]:
    """The dice of slot (``turn``, ``roll``) for a game of ``count`` dice.

    >>> slot_dice(bytes(32), 12, 2, 6)
    (3, 1, 3, 3, 3, 6)
    """
    check_seed(seed)
    if not (isinstance(turn, int) and isinstance(roll, int) and turn >= 0 and roll >= 0):
        raise DiceError("turn and roll are whole numbers from 0", field="slot")
    if not (isinstance(count, int) and 1 <= count <= MAX_DICE):
        raise DiceError(f"a game has 1 to {MAX_DICE} dice", field="count")
    return dice_from_blocks(_blocks(seed, turn, roll), count)


def apply_holds(
    current: tuple[int, ...], hold_mask: str, fresh: tuple[int, ...]
) -> tuple[int, ...]:
    """Kept dice keep their value; a rerolled die at position i takes ``fresh[i]``.

    >>> apply_holds((1, 2, 3, 4, 5), "10100", (6, 6, 6, 6, 6))
    (1, 6, 3, 6, 6)
    """
    return tuple(
        [
            old if keep == "1" else new
            for old, keep, new in zip(current, hold_mask, fresh, strict=True)
        ]
    )


def parse_date(value: object) -> dt.date:
    """A calendar date from ``YYYY-MM-DD`` (or a ``date``), within the calendar's range.

    >>> parse_date("2026-02-28")
    datetime.date(2026, 2, 28)
    >>> parse_date("0001-01-01")
    Traceback (most recent call last):
    ...
    daily.errors.DateRangeError: date: 0001-01-01 is outside the supported dates \
2000-01-01 to 2999-12-31
    """
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return calendar.supported(value)
    if isinstance(value, str) and len(value) == 10:
        try:
            day = dt.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            return calendar.supported(day)
    raise DiceError(f"{value!r} is not a date of the form YYYY-MM-DD", field="date")


def day_seed(master: bytes, ruleset: str, date: dt.date | str) -> bytes:
    """The day seed: HMAC-SHA256(key=master, message=``daily/v1:{ruleset}:{date}``).

    ``ruleset`` is the canonical name (``yahtzee``, ``maxi-yatzy``, ...).

    >>> day_seed(b"daily-dice-example-master-secret", "yahtzee", "2026-11-29").hex()[:8]
    '295cda15'
    """
    if not isinstance(master, bytes) or len(master) < 16:
        raise DiceError("the master secret is at least 16 bytes", field="master")
    day = parse_date(date).isoformat()
    return hmac.digest(master, f"{DAY_SEED_VERSION}:{ruleset}:{day}".encode("ascii"), "sha256")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: the hex SHA-256 of its 32 bytes.

    >>> commitment(bytes(32))[:12]
    '66687aadf862'
    """
    return hashlib.sha256(check_seed(seed)).hexdigest()


def commitment_matches(seed: bytes, expected_hex: str) -> bool:
    """Constant-time check that ``seed`` is the one committed to.

    >>> commitment_matches(bytes(32), commitment(bytes(32)))
    True
    """
    return hmac.compare_digest(commitment(seed), expected_hex.lower())


SlotSource = Callable[[int, int], tuple[int, ...]]


class SlotCache:
    """The dice of every slot of one seed, computed once and kept.

    A day's cache is shared by every replay of that day, which is what makes
    verification cheap.

    >>> cache = SlotCache(bytes(32), 5)
    >>> cache(0, 0) == slot_dice(bytes(32), 0, 0, 5)
    True
    """

    __slots__ = ("_cache", "count", "seed")

    def __init__(self, seed: bytes, count: int) -> None:
        self.seed = check_seed(seed)
        self.count = count
        self._cache: dict[tuple[int, int], tuple[int, ...]] = {}

    def __call__(self, turn: int, roll: int) -> tuple[int, ...]:
        key = (turn, roll)
        dice = self._cache.get(key)
        if dice is None:
            dice = slot_dice(self.seed, turn, roll, self.count)
            self._cache[key] = dice
        return dice

    def __repr__(self) -> str:  # never show the seed
        return f"SlotCache(count={self.count}, slots={len(self._cache)})"
