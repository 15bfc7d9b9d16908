"""Day descriptors (format ``day/2``): signed, published ahead, seed shown once revealed.

A descriptor commits to a day set's seed before anyone plays it, and names the results
key that will sign the day's receipts and log heads::

    {"version": "day/2", "ruleset": "yahtzee", "options": {}, "date": "2026-11-29",
     "generator": "dice/v1", "commitment": "<hex sha256 of the seed>",
     "key_id": "<16 hex>", "results_key": {"id": "<16 hex>", "public_key": "<64 hex>"},
     "signature": "<128 hex Ed25519>"}

(A keyring without a results key signs ``day/1``: the same without ``results_key``.)
The day's receipts and heads are signed with the key its stored descriptor names
(:func:`day_results_key`), so a results key rotation applies to the days whose
descriptors are signed after it, never to one already published.

signed over :func:`daily.audit.verify.canonical_bytes` of the fields other than the
signature. When served it gains ``status``, ``opens_at`` and ``closes_at``, ``par``
once computed, and ``seed`` only when the status is ``revealed``.

Publication: the descriptor of date D is published from :data:`PUBLISH_AHEAD` before
D opens (two days), so clients can fetch past, current and next days. The first signed
form of each descriptor is stored in Redis (``<prefix>descriptor:<date>:<ruleset>``,
written with SET NX, kept by AOF) and served unchanged forever after: rotating the
signing key does not change a descriptor that may already have been published.

>>> import datetime as dt
>>> published_from(dt.date(2026, 11, 29)).isoformat()
'2026-11-26T10:00:00+00:00'
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Iterable
from typing import Any

import redis

from daily import calendar
from daily.audit.verify import DESCRIPTOR_V1, DESCRIPTOR_VERSION, canonical_bytes, results_key_entry
from daily.dice import GENERATOR, parse_date
from daily.errors import DateRangeError
from daily.rules import canonical_name, get_ruleset
from daily.service import keymap
from daily.service.clock import iso
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from daily.service.refusals import Invalid, NotFound, Unavailable

log = logging.getLogger(__name__)

#: How long before a day opens its descriptor is published.
PUBLISH_AHEAD = dt.timedelta(days=2)
#: The first date with a daily set; earlier dates have no descriptor.
FIRST_DAY = dt.date(2026, 1, 1)
#: Most dates one ``GET /days`` may span.
MAX_RANGE_DAYS = 31


def published_from(day: dt.date) -> dt.datetime:
    """The instant the descriptor of ``day`` becomes public (2 days before it opens)."""
    return calendar.opens_at(day) - PUBLISH_AHEAD


def last_published(now: dt.datetime) -> dt.date:
    """The latest date whose descriptor is public at ``now``.

    >>> last_published(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)).isoformat()
    '2026-12-02'
    """
    day = now.astimezone(dt.UTC).date() + dt.timedelta(days=4)
    while published_from(day) > now:
        day -= dt.timedelta(days=1)
    return day


def sign_descriptor(keyring: Keyring, ruleset: str, day: dt.date) -> dict[str, Any]:
    """A freshly signed descriptor of (ruleset, day) with default options.

    >>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    >>> ring = Keyring(bytes(32), Ed25519PrivateKey.from_private_bytes(bytes(32)))
    >>> d = sign_descriptor(ring, "yahtzee", dt.date(2026, 11, 29))
    >>> sorted(d)[:4], "seed" in d, d["key_id"] == ring.key_id, d["version"]
    (['commitment', 'date', 'generator', 'key_id'], False, True, 'day/1')
    >>> ring = Keyring(bytes(32), Ed25519PrivateKey.from_private_bytes(bytes(32)),
    ...                results_key=Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
    >>> d = sign_descriptor(ring, "yahtzee", dt.date(2026, 11, 29))
    >>> d["version"], d["results_key"]["id"] == ring.results_key_id
    ('day/2', True)
    """
    rules = get_ruleset(ruleset)
    results = keyring.results_public()
    fields: dict[str, Any] = {
        "version": DESCRIPTOR_VERSION if results is not None else DESCRIPTOR_V1,
        "ruleset": rules.name,
        "options": rules.non_default_options(),
        "date": day.isoformat(),
        "generator": GENERATOR,
        "commitment": keyring.commitment(rules.name, day),
        "key_id": keyring.key_id,
    }
    if results is not None:
        fields["results_key"] = results_key_entry(*results)
    fields["signature"] = keyring.sign(canonical_bytes(fields))
    return fields


def published_results_key(conn: redis.Redis, config: Config, keyring: Keyring,
                          ruleset: str, date: dt.date | str) -> str | None:
    """The id of the results key that signs the receipts and heads of a day set: the
    one its published descriptor names (signed and stored now if it was not yet), or
    None for a ``day/1`` descriptor (then the current results key signs)."""
    day = date if isinstance(date, dt.date) else parse_date(date)
    return day_results_key(DayDescriptors(conn, config, keyring).signed(ruleset, day))


def day_results_key(descriptor: dict[str, Any]) -> str | None:
    """The id of the results key a stored descriptor names (None for a ``day/1`` one).

    >>> day_results_key({"version": "day/2", "results_key": {"id": "ab", "public_key": ""}})
    'ab'
    >>> day_results_key({"version": "day/1"}) is None
    True
    """
    named = descriptor.get("results_key")
    return str(named["id"]) if isinstance(named, dict) else None


class DayDescriptors:
    """The published descriptors of the daily sets, cached in Redis."""

    def __init__(
        self,
        conn: redis.Redis,
        config: Config,
        keyring: Keyring,
        first_day: dt.date = FIRST_DAY,
    ) -> None:
        self.conn = conn
        self.config = config
        self.keyring = keyring
        self.first_day = first_day

    def __repr__(self) -> str:
        return f"DayDescriptors(rulesets={self.config.daily_rulesets}, keyring={self.keyring!r})"

    # ----- input checks ------------------------------------------------------------

    def daily_ruleset(self, name: Any, day: dt.date | None = None) -> str:
        """The canonical name of a daily set (of ``day`` when given); 404 otherwise."""
        canonical = canonical_name(name)
        sets = self.config.all_daily_rulesets if day is None else self.config.rulesets_on(day)
        if canonical not in sets:
            when = "" if day is None else f" on {day.isoformat()}"
            raise NotFound(
                f"{canonical} has no daily set{when}; daily sets: " + ", ".join(sets),
                field="ruleset",
            )
        return canonical

    def published_day(self, value: Any, now: dt.datetime, field: str = "date") -> dt.date:
        """A date whose descriptor is public at ``now``; 404 naming ``field`` otherwise."""
        day = _date(value, field)
        if day < self.first_day:
            raise NotFound(
                f"there is no daily set before {self.first_day.isoformat()}",
                field=field,
            )
        if published_from(day) > now:
            raise NotFound(
                f"the descriptor of {day.isoformat()} is published from {iso(published_from(day))}",
                field=field,
            )
        return day

    # ----- descriptors --------------------------------------------------------------

    def _key(self, ruleset: str, day: dt.date) -> str:
        return keymap.descriptor(self.config.key_prefix, day, ruleset)

    def signed(self, ruleset: str, day: dt.date) -> dict[str, Any]:
        """The signed descriptor as first published (signing and storing it if new)."""
        return self._signed_from(self.conn.get(self._key(ruleset, day)), ruleset, day)

    def _signed_from(
        self, raw: bytes | str | None, ruleset: str, day: dt.date
    ) -> dict[str, Any]:
        if raw is None:
            key = self._key(ruleset, day)
            fresh = sign_descriptor(self.keyring, ruleset, day)
            self.conn.set(key, json.dumps(fresh), nx=True)
            raw = self.conn.get(key)  # the first writer's, if another process won
            if raw is None:  # pragma: no cover - only if the key was deleted meanwhile
                return fresh
        stored: dict[str, Any] = json.loads(raw)
        self._check_consistent(stored, ruleset, day)
        return stored

    def _check_consistent(self, stored: dict[str, Any], ruleset: str, day: dt.date) -> None:
        # Commitments and key ids are public: safe to log.
        if stored.get("commitment") != self.keyring.commitment(ruleset, day):
            log.error(
                "published descriptor %s %s commits to %s, which the current master secret "
                "does not produce: the master secret was replaced",
                day,
                ruleset,
                stored.get("commitment"),
            )
            raise Unavailable(
                "this server's master secret does not match the published commitment",
                field="date",
            )
        if stored.get("key_id") not in self.keyring.public_key_map():
            # Signed by a key this process has not loaded yet (a rotation elsewhere):
            # still the published descriptor, so serve it unchanged.
            log.warning(
                "descriptor %s %s is signed by key %s, not in this process's key list",
                day,
                ruleset,
                stored.get("key_id"),
            )

    def _par_key(self, ruleset: str, day: dt.date) -> str:
        return keymap.par(self.config.key_prefix, day, ruleset)

    def served_many(
        self, sets: list[tuple[str, dt.date]], now: dt.datetime
    ) -> list[dict[str, Any]]:
        """Descriptors as served at ``now`` (one Redis round trip when all are stored).

        The seed is added only for a revealed day; ``par`` (JSON stored at
        ``<prefix>par:<date>:<ruleset>`` by the par job) once computed. The keys are read
        with a pipeline of ``GET``, not one ``MGET``: they lie in many cluster slots, and
        a cluster client sends the pipeline to each node holding some (one round trip
        per node; one in all on a single server).
        """
        if not sets:
            return []
        with self.conn.pipeline(transaction=False) as pipe:
            for name, day in sets:
                pipe.get(self._key(name, day))
                pipe.get(self._par_key(name, day))
            raws = pipe.execute()
        out = []
        for i, (name, day) in enumerate(sets):
            served = dict(self._signed_from(raws[2 * i], name, day))
            status = calendar.status(day, now)
            served["status"] = status
            served["opens_at"] = iso(calendar.opens_at(day))
            served["closes_at"] = iso(calendar.closes_at(day))
            par = raws[2 * i + 1]
            if par is not None:
                served["par"] = json.loads(par)
            if status == "revealed":
                served["seed"] = self.keyring.day_seed(name, day).hex()
                served["fairplay_key"] = self.keyring.fairplay_key(name, day).hex()
            out.append(served)
        return out

    def served(self, ruleset: str, day: dt.date, now: dt.datetime) -> dict[str, Any]:
        """The descriptor as served at ``now``: the seed only once the day is revealed."""
        return self.served_many([(ruleset, day)], now)[0]

    def publish_due(self, now: dt.datetime) -> list[tuple[str, str]]:
        """Sign and store every descriptor public at ``now`` up to the horizon.

        Descriptors are also signed lazily on first request; a scheduler may call this
        so that each day is stored before it opens. Returns the (date, ruleset) stored.
        """
        start = max(calendar.last_revealed(now), self.first_day)
        day, stop, done = start, last_published(now), []
        while day <= stop:
            for name in self.config.rulesets_on(day):
                self.signed(name, day)
                done.append((day.isoformat(), name))
            day += dt.timedelta(days=1)
        return done

    def get(self, date: Any, ruleset: Any, now: dt.datetime) -> dict[str, Any]:
        """``GET /days/<date>/<ruleset>``: one published descriptor."""
        self.daily_ruleset(ruleset)
        day = self.published_day(date, now)
        return self.served(self.daily_ruleset(ruleset, day), day, now)

    def between(
        self, start: Any, end: Any, rulesets: Iterable[str] | None, now: dt.datetime
    ) -> tuple[list[dict[str, Any]], str | None]:
        """``GET /days``: the published descriptors from ``start`` to ``end`` inclusive,
        and the first date of the next page.

        ``start`` defaults to the last revealed date and ``end`` to the last published
        one. A page spans at most :data:`MAX_RANGE_DAYS` dates: a longer range answers
        its first page and the ``from`` of the next. ``end`` before ``start`` is empty.
        Unpublished dates are left out.
        """
        first = calendar.last_revealed(now) if start is None else _date(start, "from")
        first = max(first, self.first_day)
        last = last_published(now)
        if end is not None:
            last = min(last, _date(end, "to"))
        names = (
            list(self.config.all_daily_rulesets)
            if rulesets is None
            else list(dict.fromkeys(self.daily_ruleset(r) for r in rulesets))
        )  # each ruleset once, however often (or under whichever alias) it was named
        page_end = first + dt.timedelta(days=MAX_RANGE_DAYS - 1)
        following = None
        if last > page_end:
            last, following = page_end, (page_end + dt.timedelta(days=1)).isoformat()
        sets: list[tuple[str, dt.date]] = []
        day = first
        while day <= last:
            sets.extend((name, day) for name in names if name in self.config.rulesets_on(day))
            day += dt.timedelta(days=1)
        return self.served_many(sets, now), following


def _date(value: Any, field: str) -> dt.date:
    try:
        return parse_date(value)
    except DateRangeError as exc:
        raise Invalid(exc.message, field=field) from None
    except ValueError:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise Invalid(f"{shown} is not a date of the form YYYY-MM-DD", field=field) from None
