"""``/days/<date>/<ruleset>/head|checkpoint|log|consistency`` and ``/results/<code>/proof``.

The signed log of a closed day set (:mod:`daily.service.audit.day_log`). Before its
close they answer 409 ``log_not_sealed`` with ``available_at``, when the head will
exist (the books close five minutes after the day, and the next rollover run seals the
log).
"""

from __future__ import annotations

import datetime as dt
import zlib
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, request

from daily.audit.proof import ConsistencyProof
from daily.audit.signing import SignedHead
from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service.audit.checkpoints import DayCheckpoints
from daily.service.audit.day_log import DayLog, head_expected_at
from daily.service.clock import iso
from daily.service.days.descriptors import FIRST_DAY, published_from
from daily.service.extensions import Basics, current
from daily.service.games.codes import parse_code
from daily.service.games.flow import GameService
from daily.service.http.contract.bodies import ConsistencyQuery, HeadQuery
from daily.service.http.contract.fields import Date, ResultCode, RulesetName
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import LogConsistency, LogHead, LogLeaf, LogProof
from daily.service.refusals import Conflict, Invalid, NotFound

bp = Blueprint("audit", __name__)

#: The media type of ``GET .../log``: JSON Lines, one leaf a line.
JSON_LINES = "application/jsonl"


def _day_log(date: str, ruleset: str) -> DayLog:
    """The log of a daily set; 404 for a date with no daily set (before the first one,
    or not published yet) or a ruleset without one that day."""
    services = current(Basics)
    day = parse_date(date)
    name = canonical_name(ruleset)
    if day < FIRST_DAY:
        raise NotFound(f"there is no daily set before {FIRST_DAY.isoformat()}", field="date")
    if published_from(day) > services.clock():
        raise NotFound(f"{day} has no daily set yet: its descriptor is published from "
                       f"{iso(published_from(day))}", field="date")
    if name not in services.config.rulesets_on(day):
        raise NotFound(f"{name} has no daily set on {day}", field="ruleset")
    return DayLog(services.conn, services.config, day, name)


def _not_sealed(day: dt.date, ruleset: str) -> Conflict:
    services = current(Basics)
    when = head_expected_at(services.config, day)
    late = "" if services.clock() < when else " (it is late: the rollover has not sealed it)"
    return Conflict(
        f"the results log of {day} {ruleset} is signed once its books close: from "
        f"{iso(when)}{late}", code="log_not_sealed", field="date",
        detail={"available_at": iso(when)},
    )


@bp.get("/days/<date>/<ruleset>/head")
@operation(LogHead, path={"date": Date, "ruleset": RulesetName}, query=HeadQuery,
           errors=(404, 409))
def head(date: str, ruleset: str, query: HeadQuery) -> dict[str, Any]:
    """The latest signed head of a closed day set's results log (or the head of ``size``).

    Every head signed so far is kept: a re-review after the close appends to the log and
    signs a new head, and ``/consistency`` proves the older log is a prefix of it.
    """
    log = _day_log(date, ruleset)
    found = _head(log, query.size)
    return found.to_json()


def _head(log: DayLog, size: int | None) -> SignedHead:
    """The latest head of a day's log, or its head of ``size`` (404 ``no_such_head``; 409
    while the log is not sealed)."""
    found = log.head(size)
    if found is None:
        if log.latest() is None:
            raise _not_sealed(log.day, log.ruleset)
        raise NotFound(f"no head of {size} leaves", code="no_such_head", field="size")
    return found


#: The media type of ``GET .../checkpoint`` (C2SP tlog-checkpoint).
CHECKPOINT_TEXT = "text/plain; charset=utf-8"


@bp.get("/days/<date>/<ruleset>/checkpoint")
@operation(None, path={"date": Date, "ruleset": RulesetName}, query=HeadQuery,
           errors=(404, 409), media_type=CHECKPOINT_TEXT)
def checkpoint(date: str, ruleset: str, query: HeadQuery) -> Response:
    """The latest head (or the head of ``size``) as a C2SP checkpoint: a signed note
    (``text/plain``) signed by the results key, with every witness cosignature collected.

    Its origin is ``<deployment>/<date>/<ruleset>``; the results key's note key name is
    ``<deployment>`` (its ``vkey`` in ``GET /keys``).
    """
    log = _day_log(date, ruleset)
    found = _head(log, query.size)
    note = DayCheckpoints(log.conn, log.config, log.day, log.ruleset).cosigned(found.size)
    if note is None:
        raise NotFound(f"the head of {found.size} leaves has no checkpoint (signed before "
                       "checkpoints existed)", code="no_such_head", field="size")
    response = Response(note.encode(), mimetype="text/plain")
    response.headers["Content-Type"] = CHECKPOINT_TEXT
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/days/<date>/<ruleset>/log")
@operation(LogLeaf, path={"date": Date, "ruleset": RulesetName}, errors=(404, 409),
           media_type=JSON_LINES)
def day_log(date: str, ruleset: str) -> Response:
    """A closed day set's whole results log: JSON Lines, one leaf a line, in log order
    (gzip when the request accepts it).

    The lines are the canonical JSON of the leaves: the bytes the Merkle tree hashes.
    The log may grow after the close (a re-review appends); the latest head says how
    many leaves it commits to.
    """
    log = _day_log(date, ruleset)
    if log.latest() is None:
        raise _not_sealed(log.day, log.ruleset)
    compress = request.accept_encodings["gzip"] > 0
    body = _gzipped(log.chunks()) if compress else log.chunks()
    response = Response(body, mimetype=JSON_LINES)
    response.headers["Vary"] = "Accept-Encoding"
    if compress:
        response.headers["Content-Encoding"] = "gzip"
    name = f"{log.day.isoformat()}-{log.ruleset}.jsonl"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _gzipped(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """One gzip stream (RFC 1952) of the chunks, produced as they come."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    for chunk in chunks:
        out = packer.compress(chunk)
        if out:
            yield out
    yield packer.flush()


@bp.get("/days/<date>/<ruleset>/consistency")
@operation(LogConsistency, path={"date": Date, "ruleset": RulesetName},
           query=ConsistencyQuery, errors=(404, 409, 422))
def consistency(date: str, ruleset: str, query: ConsistencyQuery) -> dict[str, Any]:
    """The proof that the log of an older head is a prefix of a later head's (RFC 6962);
    by default from the head signed at the close to the latest. ``from=0`` is the empty
    tree (RFC 6962 allows it: the proof is empty, ``old`` null, its root SHA-256 of
    nothing); ``from`` beyond ``to`` is a wrong range (422 naming both)."""
    log = _day_log(date, ruleset)
    latest = log.latest()
    if latest is None:
        raise _not_sealed(log.day, log.ruleset)
    if query.old is not None and query.new is not None and query.old > query.new:
        raise Invalid(f"from ({query.old}) is beyond to ({query.new}): the older head is "
                      "the smaller", field="from")
    new = log.head(query.new) if query.new is not None else latest
    if new is None:
        raise NotFound(f"no head of {query.new} leaves", code="no_such_head", field="to")
    if query.old is not None and query.old > new.size:
        raise Invalid(f"from ({query.old}) is beyond the {new.size} leaves of the later head "
                      "(to)", field="from")
    if query.old == 0:
        proof = ConsistencyProof(0, new.size, ())
        return {**proof.to_json(), "old": None, "new": new.to_json()}
    old = log.head(query.old) if query.old is not None else log.heads()[0]
    if old is None:
        raise NotFound(f"no head of {query.old} leaves", code="no_such_head", field="from")
    proof = log.consistency(old, new)
    return {**proof.to_json(), "old": old.to_json(), "new": new.to_json()}


@bp.get("/results/<code>/proof")
@operation(LogProof, path={"code": ResultCode}, errors=(404, 409))
def proof(code: str) -> dict[str, Any]:
    """A ranked result's leaf (with its receipt), its inclusion proof and the latest
    signed head of its day set's log."""
    services = current(Basics)
    record = current(GameService).game_of_code(parse_code(code))
    if record.mode != "ranked" or record.day is None:
        raise NotFound(f"{record.code} is a practice result: only ranked results are in "
                       "a day's log", code="not_in_log", field="code")
    log = DayLog(services.conn, services.config, record.day, record.ruleset)
    found = log.proof(record.code or "")
    if found is None:
        if log.latest() is None:
            raise _not_sealed(log.day, log.ruleset)
        raise NotFound(f"{record.code} is not in the log of {record.date} {record.ruleset}",
                       code="not_in_log", field="code")
    return found.to_json()
