"""``/days`` and ``/keys``: signed day descriptors and the public keys that verify them.

The blueprint is thin: :class:`daily.service.days.descriptors.DayDescriptors` does the work.
The keyring is loaded from the service configuration and reloaded when the key files
change, so a rotation needs no restart (a test may put
a ready :class:`~daily.service.days.keyring.Keyring` in ``app.config["KEYRING"]`` and move the
first daily date with ``app.config["DAILY_FIRST_DAY"]``, a ``datetime.date``).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, current_app

from daily.service.audit.checkpoints import results_vkey
from daily.service.days.descriptors import FIRST_DAY, DayDescriptors
from daily.service.days.keyring import Keyring, KeyringError, KeyringLoader
from daily.service.extensions import Basics, current
from daily.service.http.contract.bodies import DaysQuery
from daily.service.http.contract.fields import Date, RulesetName
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Day, Days, Keys
from daily.service.refusals import Unavailable

log = logging.getLogger(__name__)

bp = Blueprint("days", __name__)

_EXTENSION = "daily.descriptors"
_LOADER = "daily.keyring_loader"


def _keyring() -> Keyring:
    fixed = current_app.config.get("KEYRING")
    if isinstance(fixed, Keyring):
        return fixed
    loader = current_app.extensions.get(_LOADER)
    if loader is None:
        loader = KeyringLoader(current(Basics).config)
        current_app.extensions[_LOADER] = loader
    try:
        return loader.get()
    except KeyringError as exc:  # the message names a file or variable, never a secret
        log.error("cannot load the keys: %s", exc)
        raise Unavailable("the service has no usable keys yet (run `daily keys init`)") from None


def descriptors() -> DayDescriptors:
    """The app's descriptor service, with the keyring as it is now on disk."""
    keyring = _keyring()
    cached = current_app.extensions.get(_EXTENSION)
    if cached is not None and cached.keyring is keyring:
        return cached
    services = current(Basics)
    first_day = current_app.config.get("DAILY_FIRST_DAY", FIRST_DAY)
    service = DayDescriptors(services.conn, services.config, keyring, first_day)
    current_app.extensions[_EXTENSION] = service
    return service


@bp.get("/days/<date>/<ruleset>")
@operation(Day, path={"date": Date, "ruleset": RulesetName}, errors=(404,))
def day(date: str, ruleset: str) -> dict[str, Any]:
    """One signed day descriptor; ``seed`` only once the day is revealed."""
    now = current(Basics).clock()
    return descriptors().get(date, ruleset, now)


@bp.get("/days")
@operation(Days, query=DaysQuery, errors=(404,))
def days(query: DaysQuery) -> dict[str, Any]:
    """Descriptors of a range of dates, 31 at most per page, for some or every daily ruleset.

    A longer range answers its first 31 dates and ``next``, the ``from`` of the next page;
    ``to`` before ``from`` is an empty range.
    """
    now = current(Basics).clock()
    rulesets = query.ruleset.split(",") if query.ruleset is not None else None
    found, following = descriptors().between(query.start, query.to, rulesets, now)
    return {"days": found, "next": following}


@bp.get("/keys")
@operation(Keys, errors=(503,), needs_redis=False)
def keys() -> dict[str, Any]:
    """Every public key that signed a descriptor, the current one ``active``."""
    config = current(Basics).config
    keys = descriptors().keyring.public_keys()
    for key in keys:
        if key["purpose"] == "results":
            key["vkey"] = results_vkey(config, bytes.fromhex(key["public_key"]))
    # The witnesses whose cosignatures the web page requires on a day's checkpoint.
    return {"keys": keys, "witnesses": [vkey for vkey, _ in config.witnesses]}

