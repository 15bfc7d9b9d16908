"""The receipt of a ranked game: signed by the results key the moment it is accepted.

A finished ranked game is *accepted* when the finish stores it (with its result code
and its entry in the results stream). Its :class:`daily.audit.leaf.Accepted` - code,
player id, ruleset, date, move log (compact text), score and the acceptance time in
milliseconds - is signed with the results key the day's descriptor names (``day/2``;
the current results key for a ``day/1`` day), :func:`daily.audit.signing.sign_receipt`,
and the receipt is stored in the game's
record, in the same write: a finished ranked game never exists without its receipt.
The close (:mod:`daily.service.audit.day_log`) puts the same receipt in the game's
leaf. Signing is one Ed25519 signature (about 50 µs), in the finishing request.

>>> from daily.service.games.record import GameRecord
>>> record = GameRecord(v=26, id="g_1", player="p_1", mode="ranked", ruleset="yacht",
...     options={}, date="2026-11-29", log="dl1~yacht~-~d2026-11-29~", created="",
...     finished_at=1795946400.25, code="DD-ABCDEFGHJK", total=0)
>>> accepted_of(record).accepted_at
'2026-11-29T10:00:00.250Z'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from daily.audit.leaf import Accepted, instant
from daily.audit.signing import sign_receipt
from daily.service.days.keyring import Keyring, KeyringError
from daily.service.refusals import Unavailable

if TYPE_CHECKING:  # the games import this module
    from daily.service.games.record import GameRecord


def accepted_of(record: GameRecord) -> Accepted:
    """What the receipt of a finished ranked game signs (and its leaf holds)."""
    if record.code is None or record.total is None or record.finished_at is None \
            or record.date is None:
        raise ValueError(f"game {record.id} is not a finished day game")
    return Accepted(record.code, record.player, record.ruleset, record.date, record.log,
                    record.total, instant(record.finished_at))


def receipt_of(keyring: Keyring, record: GameRecord, named: str | None = None) -> str:
    """The receipt of ``record`` by the results key ``named`` (the day's), or the
    keyring's current one (:class:`KeyringError` when there is none)."""
    _, key = keyring.results_signer(named)
    return sign_receipt(key, accepted_of(record))


#: The results key a day set's descriptor names: (keyring, ruleset, date) -> key id.
DayKey = Callable[[Keyring, str, str], "str | None"]


class Receipts:
    """Signs the receipts of one process's finishes with the keyring as it is now
    (``keyring()``: reloaded after a rotation, :class:`daily.service.days.keyring.
    KeyringLoader`), each with the results key its day's descriptor names
    (``day_key``; a published descriptor never changes, so each day's is kept)."""

    def __init__(self, keyring: Callable[[], Keyring], day_key: DayKey | None = None) -> None:
        self.keyring = keyring
        self.day_key = day_key
        self._named: dict[tuple[str, str], str | None] = {}

    def sign(self, record: GameRecord) -> str:
        """The receipt of a finished ranked game; :class:`Unavailable` (503, nothing
        stored) while the service has no results key (or lacks the day's)."""
        try:
            ring = self.keyring()
            named = None
            if self.day_key is not None and record.date is not None:
                day = (record.ruleset, record.date)
                if day not in self._named:
                    if len(self._named) > 64:
                        self._named.clear()
                    self._named[day] = self.day_key(ring, *day)
                named = self._named[day]
            return receipt_of(ring, record, named)
        except KeyringError as exc:
            raise Unavailable(f"the service cannot sign receipts yet: {exc}") from None
