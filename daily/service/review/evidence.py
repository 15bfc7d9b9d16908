"""Evidence across games and days, in Redis: the scouts of a day set and the players'
records of residuals. The logic is core code (:mod:`daily.fairplay.scouting`,
:mod:`daily.fairplay.history.residual`); this module keeps and reads what it needs.

* Finished scouts: the results consumer reads every ranked result's reveals from its
  log (:func:`sightings_of`) and keeps the scouts' sightings with their board
  (``lb:{D:R}:scouts``, :func:`keep_sightings`), with the salted hash of the network
  their player was created from (:mod:`daily.service.players.creation`: never the
  address).
* Unfinished scouts: every ranked start is indexed by its time (``started:{rN}:D:R``,
  written by the start script of :mod:`daily.service.games.store`), so the games
  started within :data:`~daily.fairplay.scouting.LINK_WINDOW` before a result are read
  (:func:`window_sightings`), and the whole day set for ``daily review stats``
  (:func:`unfinished_scouts`).
* Scouts by how they play: a finished game far from optimal play that rerolled the same
  positions whatever the dice (a split scout, :func:`daily.fairplay.scouting.plays_blind`)
  is kept with the board's scouts once its check has run (:func:`blind_sightings`).
* Copies: every checked result's decisions are indexed by bands of turns
  (``lb:{D:R}:copies``, band key -> the first game that played it, ``HSETNX``), and the
  earlier games of other players that share a band are compared turn by turn
  (:func:`copied_games`): near-identical logs on the same day's dice are copies.
* Residuals: ``workers.residuals.record_day_residuals`` writes, once the day's par is
  known, each player's score minus the hard bot's on the same dice
  (``fairplay:residual:{player}``, :func:`record_residuals`); :func:`records_of` reads
  them back for the consumer.
* The foresight record: the consumer writes the foresight test's statistic of every
  checked ranked game (``fairplay:foresight:{player}``, :func:`record_foresight`), and
  the sequential test over a player's games (:mod:`daily.fairplay.history.sequential`) reads
  it back (:func:`foresight_evidence`): for every checked game, not only at the top.
  An operator's clearance of a game the record held resets the sum through that game
  (:func:`reset_foresight`); a hold or a disqualification keeps it.
* Young games: every checked result of a young player (created in the last two days, or
  provisional) is kept with its board (``lb:{D:R}:young``, :func:`keep_young`), with
  its player's network, for the links of :mod:`daily.fairplay.links`.

A game on its way into the top of its board is looked up (:func:`evidence_of`): a
linked scout, a young game from its network, a young game or scout that revealed the
dice it profited from, a persistent residual or a persistent foresight record makes it
pending review.

>>> ruleset_residuals({"2026-11-28 yahtzee": "12.0", "2026-11-28 yacht": "3"}, "yahtzee")
[12.0]
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import redis

from daily.errors import DailyError
from daily.fairplay.history import sequential
from daily.fairplay.history.residual import KEPT, persistent
from daily.fairplay.links import (
    YoungGame,
    covering_games,
    profited_dice,
    revealed_dice,
    young_links,
)
from daily.fairplay.scouting import (
    LINK_WINDOW,
    Sighting,
    copy_bands,
    copy_share,
    decisions_of,
    is_copy,
    linked_scouts,
    plays_blind,
    reveals_of,
    scout_kind,
)
from daily.movelog import MoveLog
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.connections import as_text
from daily.service.results.result import Result
from daily.service.shards import SHARDS

#: Seconds the sightings of a board are kept (a day set is open two days).
SIGHTINGS_KEPT = 8 * 86400
#: Seconds a player's residuals are kept after the last one written.
RESIDUALS_KEPT = 90 * 86400
#: Seconds a player's foresight record is kept after the last game written.
FORESIGHT_KEPT = 400 * 86400


def _networks(conn: redis.Redis, prefix: str, player_ids: list[str]) -> list[str | None]:
    """The salted network hash each player was created from (None once forgotten)."""
    with conn.pipeline(transaction=False) as pipe:
        for player_id in player_ids:
            pipe.get(keymap.player_origin(prefix, player_id))
        origins = pipe.execute() if player_ids else []
    return [as_text(o).split(" ")[1] if o is not None else None for o in origins]


def sightings_of(conn: redis.Redis, prefix: str,
                 results: list[Result]) -> list[tuple[Result, Sighting]]:
    """The scouts among finished results, with their sightings (results without a
    readable log are none)."""
    found: list[tuple[Result, str, float]] = []
    for result in results:
        try:
            reveals = reveals_of(MoveLog.from_text(result.log)) if result.log else None
        except DailyError:
            continue
        kind = scout_kind(reveals) if reveals is not None else None
        if kind is not None and reveals is not None:
            found.append((result, kind, reveals.ratio))
    networks = _networks(conn, prefix, [r.player_id for r, _, _ in found])
    return [(r, Sighting(r.game_id, r.player_id, net, r.finished_at, kind, ratio))
            for (r, kind, ratio), net in zip(found, networks, strict=True)]


def keep_sightings(conn: redis.Redis, prefix: str,
                   sightings: list[tuple[Result, Sighting]]) -> None:
    """Keep finished scouts' sightings with their boards (idempotent)."""
    _keep_with_boards(conn, prefix, "scouts", sightings)


def _keep_with_boards(conn: redis.Redis, prefix: str, part: str,
                      entries: Sequence[tuple[Result, Sighting | YoungGame]]) -> None:
    """Keep each entry's JSON in its board's ``part`` hash, under its game id, for
    :data:`SIGHTINGS_KEPT` seconds (idempotent)."""
    if not entries:
        return
    with conn.pipeline(transaction=False) as pipe:
        for result, entry in entries:
            key = keymap.board(prefix, result.date, canonical_name(result.ruleset), part)
            pipe.hset(key, entry.game_id, json.dumps(entry.to_json()))
            pipe.expire(key, SIGHTINGS_KEPT)
        pipe.execute()


def blind_sightings(conn: redis.Redis, prefix: str,
                    checked: list[tuple[Result, float, int]]) -> list[tuple[Result, Sighting]]:
    """The scouts by how they play among checked results ``(result, expected loss,
    decisions)`` (:func:`daily.fairplay.scouting.plays_blind`), with their sightings."""
    found: list[tuple[Result, float]] = []
    for result, loss, decisions in checked:
        try:
            reveals = reveals_of(MoveLog.from_text(result.log)) if result.log else None
        except DailyError:
            continue
        if reveals is not None and plays_blind(reveals, loss, decisions):
            found.append((result, reveals.ratio))
    networks = _networks(conn, prefix, [r.player_id for r, _ in found])
    return [(r, Sighting(r.game_id, r.player_id, net, r.finished_at, "plays_blind", ratio))
            for (r, ratio), net in zip(found, networks, strict=True)]


def _decisions(text: str) -> tuple[str, ...] | None:
    try:
        return decisions_of(MoveLog.from_text(text)) if text else None
    except DailyError:
        return None


def copied_games(conn: redis.Redis, prefix: str,
                 results: list[Result]) -> list[list[dict[str, Any]]]:
    """Index each result's decisions with its board (idempotent) and return, for each,
    the earlier games of other players of the same day set that took nearly the same
    decisions (:func:`daily.fairplay.scouting.is_copy`): ``[{"game_id", "player_id",
    "share"}]``, empty for none: a game is a copy of those that finished before it (a
    band points at the game that finished first, whatever order the games were taken
    in, so the close-time re-check finds a copy taken before its original). The earlier
    game's log is read from the board, else from the results of the same batch, else
    from the review."""
    given = results
    order = sorted(range(len(given)), key=lambda k: (given[k].finished_at, given[k].game_id))
    results = [given[k] for k in order]  # the batch's games in finish order
    plays = [_decisions(r.log) for r in results]
    keys = [keymap.board(prefix, r.date, canonical_name(r.ruleset), "copies") for r in results]
    with conn.pipeline(transaction=False) as pipe:
        for result, decisions, key in zip(results, plays, keys, strict=True):
            for band in copy_bands(decisions or ()):
                pipe.hsetnx(key, band, _owner(result))
                pipe.hget(key, band)
            pipe.expire(key, SIGHTINGS_KEPT)
        replies = pipe.execute() if results else []
    owners: list[set[tuple[str, str]]] = []
    earlier: list[tuple[str, str, str]] = []  # (key, band, owner): this one finished first
    at = 0
    for result, decisions, key in zip(results, plays, keys, strict=True):
        bands = copy_bands(decisions or ())
        own: set[tuple[str, str]] = set()
        for b, band in enumerate(bands):
            game_id, player_id, finished = as_text(replies[at + 2 * b + 1]).split(" ")
            if game_id == result.game_id or player_id == result.player_id:
                continue
            if float(finished) > result.finished_at:  # taken out of order: this one is first
                earlier.append((key, band, _owner(result)))
            else:
                own.add((game_id, player_id))
        at += 2 * len(bands) + 1
        owners.append(own)
    if earlier:  # the band points at the game that finished first
        with conn.pipeline(transaction=False) as pipe:
            for key, band, owner in earlier:
                pipe.hset(key, band, owner)
            pipe.execute()
    wanted = sorted({(r.date.isoformat(), canonical_name(r.ruleset), g)
                     for r, own in zip(results, owners, strict=True) for g, _ in own})
    with conn.pipeline(transaction=False) as pipe:
        for date, name, game_id in wanted:
            pipe.hget(keymap.board(prefix, date, name, "logs"), game_id)
        texts = dict(zip(wanted, pipe.execute() if wanted else [], strict=True))
    batch = {r.game_id: r.log for r in results}  # earlier games of the same batch
    out: list[list[dict[str, Any]]] = []
    for result, decisions, own in zip(results, plays, owners, strict=True):
        links = []
        for game_id, player_id in sorted(own):
            raw = texts.get((result.date.isoformat(), canonical_name(result.ruleset), game_id))
            text = (as_text(raw) if raw is not None else batch.get(game_id)
                    or _review_log(conn, prefix, game_id))
            other = _decisions(text)
            if decisions and other and is_copy(decisions, other):
                links.append({"game_id": game_id, "player_id": player_id,
                              "share": round(copy_share(decisions, other), 3)})
        out.append(links)
    back = [out[0]] * len(out)
    for k, found in zip(order, out, strict=True):
        back[k] = found
    return back


def _owner(result: Result) -> str:
    return f"{result.game_id} {result.player_id} {result.finished_at!r}"


def _review_log(conn: redis.Redis, prefix: str, game_id: str) -> str:
    """The move log of a game in review ("" when it is not)."""
    where = conn.hget(keymap.review_index(prefix), game_id)
    if where is None:
        return ""
    date, ruleset = as_text(where).split(" ")
    raw = conn.hget(keymap.board(prefix, date, ruleset, "review"), game_id)
    return Result.from_json(json.loads(raw)["result"]).log if raw is not None else ""


def copy_evidence(copies: list[dict[str, Any]]) -> dict[str, Any]:
    """The evidence of a copy (:func:`copied_games`), as a review entry keeps it."""
    return {
        "reason_code": "copy",
        "reason": "the game took the same decisions on the day's dice as an earlier game"
                  " of another player",
        "copies": copies,
    }


def kept_sightings(conn: redis.Redis, prefix: str, date: str,
                   ruleset: str) -> list[Sighting]:
    """The finished scouts kept for a day set."""
    raw = conn.hvals(keymap.board(prefix, date, canonical_name(ruleset), "scouts"))
    return [Sighting.from_json(json.loads(v)) for v in raw]


def _started(conn: redis.Redis, prefix: str, date: str, ruleset: str,
             since: float, until: float) -> list[str]:
    """Ids of the ranked games of a day set started between ``since`` and ``until``."""
    with conn.pipeline(transaction=False) as pipe:
        for shard in range(SHARDS):
            pipe.zrangebyscore(keymap.started(prefix, date, ruleset, shard), since, until)
        found = pipe.execute()
    return [as_text(g) for ids in found for g in ids]


def _unfinished_sightings(conn: redis.Redis, prefix: str, ids: list[str],
                          batch: int = 500) -> list[Sighting]:
    """The scouts among the unfinished games ``ids`` (read in pipelined batches)."""
    records: list[dict[str, Any]] = []
    for start in range(0, len(ids), batch):
        with conn.pipeline(transaction=False) as pipe:
            for game_id in ids[start:start + batch]:
                pipe.get(keymap.game(prefix, game_id))
            raws = pipe.execute()
        # the stored game records (daily.service.games.record): their JSON fields
        records.extend(json.loads(raw) for raw in raws if raw is not None)
    found: list[tuple[dict[str, Any], str, float]] = []
    for record in records:
        if record.get("finished_at") is not None:
            continue
        try:
            reveals = reveals_of(MoveLog.from_text(record["log"]))
        except DailyError:
            continue
        kind = scout_kind(reveals)
        if kind is not None:
            found.append((record, kind, reveals.ratio))
    networks = _networks(conn, prefix, [str(r["player"]) for r, _, _ in found])
    return [Sighting(str(r["id"]), str(r["player"]), net, _started_at(str(r["created"])),
                     kind, ratio)
            for (r, kind, ratio), net in zip(found, networks, strict=True)]


def _started_at(created: str) -> float:
    return dt.datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()


def window_sightings(conn: redis.Redis, prefix: str, date: str, ruleset: str,
                     until: float, window: float = LINK_WINDOW) -> list[Sighting]:
    """The unfinished scouts of a day set started within ``window`` seconds before
    ``until``."""
    return _unfinished_sightings(conn, prefix,
                                 _started(conn, prefix, date, ruleset, until - window, until))


def unfinished_scouts(conn: redis.Redis, prefix: str, date: str,
                      ruleset: str) -> list[Sighting]:
    """Every unfinished scout of a day set (``daily review stats``: reads every ranked
    game of the day set that is not finished)."""
    name = canonical_name(ruleset)
    return _unfinished_sightings(conn, prefix,
                                 _started(conn, prefix, date, name, 0, float("inf")))


def ruleset_residuals(record: Mapping[Any, Any], ruleset: str) -> list[float]:
    """The residuals of one ruleset in a player's record (fields ``"<date> <ruleset>"``)."""
    out = []
    for field, value in sorted(record.items(), key=lambda kv: as_text(kv[0])):
        if as_text(field).split(" ")[1] == ruleset:
            out.append(float(as_text(value)))
    return out[-KEPT:]


def records_of(conn: redis.Redis, prefix: str, player_ids: list[str]) -> list[dict[Any, Any]]:
    """Players' records of residuals (one pipelined round trip)."""
    with conn.pipeline(transaction=False) as pipe:
        for player_id in player_ids:
            pipe.hgetall(keymap.residuals(prefix, player_id))
        return list(pipe.execute()) if player_ids else []


def record_residuals(conn: redis.Redis, prefix: str, date: str, ruleset: str,
                     rows: Iterable[tuple[str, int]], optimal: int) -> int:
    """Write each ``(player id, score)``'s residual against ``optimal`` (the hard bot's
    score on the day's dice); idempotent. Returns how many were written."""
    field = f"{date} {canonical_name(ruleset)}"
    count = 0
    with conn.pipeline(transaction=False) as pipe:
        for player_id, score in rows:
            key = keymap.residuals(prefix, player_id)
            pipe.hset(key, field, str(score - optimal))
            pipe.expire(key, RESIDUALS_KEPT)
            count += 1
        pipe.execute()
    return count


def record_foresight(conn: redis.Redis, prefix: str,
                     rows: Iterable[tuple[Result, float]]) -> None:
    """Write each checked result's foresight statistic into its player's record (one
    field per day set: idempotent)."""
    rows = list(rows)
    if not rows:
        return
    with conn.pipeline(transaction=False) as pipe:
        for result, value in rows:
            key = keymap.foresight_record(prefix, result.player_id)
            pipe.hset(key, f"{result.date.isoformat()} {canonical_name(result.ruleset)}",
                      repr(round(float(value), 4)))
            pipe.expire(key, FORESIGHT_KEPT)
        pipe.execute()


def foresight_values(record: Mapping[Any, Any]) -> list[float]:
    """A player's foresight statistics in the order played (fields ``"<date> <ruleset>"``;
    the latest :data:`daily.fairplay.history.sequential.KEPT`), after the last reset
    (:func:`reset_foresight`: the games through the field ``reset`` names are left out).

    >>> foresight_values({"2026-11-29 yahtzee": "0.5", "2026-11-28 yacht": "3"})
    [3.0, 0.5]
    >>> foresight_values({"2026-11-29 yahtzee": "0.5", "2026-11-28 yacht": "3",
    ...                   RESET_FIELD: "2026-11-28 yacht"})
    [0.5]
    """
    fields = {as_text(k): v for k, v in record.items()}
    through = fields.pop(RESET_FIELD, None)
    ordered = sorted(fields.items())
    if through is not None:
        ordered = [(k, v) for k, v in ordered if k > as_text(through)]
    return [float(as_text(v)) for _, v in ordered][-sequential.KEPT:]


#: The field of a foresight record that names the last game an operator's clearance
#: reset the cumulative sum through.
RESET_FIELD = "reset"


def reset_foresight(conn: redis.Redis, prefix: str, result: Result) -> dict[str, Any]:
    """Reset the player's foresight record through ``result`` (a game held by the record
    that an operator cleared): the cumulative sum starts again from 0 after it, so the
    player's next honest game is not held by the same past. The statistics stay in the
    record; the reset only moves forward (idempotent). Returns what to keep with the
    decision: the field reset through, and the sum before and after."""
    key = keymap.foresight_record(prefix, result.player_id)
    field = f"{result.date.isoformat()} {canonical_name(result.ruleset)}"
    before = foresight_values(conn.hgetall(key))
    with conn.pipeline() as pipe:  # WATCH: the reset never moves back
        while True:
            try:
                pipe.watch(key)
                kept = pipe.hget(key, RESET_FIELD)
                pipe.multi()
                if kept is None or as_text(kept) < field:
                    pipe.hset(key, RESET_FIELD, field)
                pipe.expire(key, FORESIGHT_KEPT)
                pipe.execute()
                break
            except redis.WatchError:
                continue
    after = foresight_values(conn.hgetall(key))
    return {"method": sequential.METHOD, "through": field,
            "cusum_before": sequential.cusum(before), "cusum_after": sequential.cusum(after)}


def foresight_records(conn: redis.Redis, prefix: str,
                      player_ids: list[str]) -> list[list[float]]:
    """Players' foresight records (one pipelined round trip)."""
    with conn.pipeline(transaction=False) as pipe:
        for player_id in player_ids:
            pipe.hgetall(keymap.foresight_record(prefix, player_id))
        found = pipe.execute() if player_ids else []
    return [foresight_values(r) for r in found]


def foresight_evidence(values: list[float]) -> dict[str, Any] | None:
    """The evidence of a foresight record whose sequential test holds, or None.

    >>> foresight_evidence([0.0, 1.5]) is None
    True
    >>> foresight_evidence([4.0] * 6)["reason_code"]
    'foresight_record'
    """
    if not sequential.persistent(values):
        return None
    return {
        "reason_code": "foresight_record",
        "reason": "the player's games, day after day, keep taking decisions that only the"
                  " dice to come explain (the record's sequential test)",
        "foresight_record": {
            "method": sequential.METHOD, "cusum": sequential.cusum(values),
            "line": sequential.LINE, "drift": sequential.DRIFT, "games": len(values),
            "recent": [round(v, 3) for v in values[-10:]],
        },
    }


def _origins(conn: redis.Redis, prefix: str, player_ids: list[str]) -> list[str | None]:
    """The origin ("<day> <network hash>") of each player created in the last two days."""
    with conn.pipeline(transaction=False) as pipe:
        for player_id in player_ids:
            pipe.get(keymap.player_origin(prefix, player_id))
        origins = pipe.execute() if player_ids else []
    return [as_text(o) if o is not None else None for o in origins]


def _start_networks(conn: redis.Redis, prefix: str, game_ids: list[str]) -> list[str | None]:
    """The network each ranked game was started from ("<day> <network hash>", the
    ``net`` of its stored record, :mod:`daily.service.games.record`), None when unknown."""
    with conn.pipeline(transaction=False) as pipe:
        for game_id in game_ids:
            pipe.get(keymap.game(prefix, game_id))
        raws = pipe.execute() if game_ids else []
    out: list[str | None] = []
    for raw in raws:
        net = json.loads(raw).get("net") if raw is not None else None
        out.append(str(net) if net else None)
    return out


def networks_of(conn: redis.Redis, prefix: str,
                results: list[Result]) -> list[tuple[tuple[str, ...], bool]]:
    """For each result: the networks it is known from (its start's, its player's
    creation's while remembered) and whether its player was created in the last two
    days (two pipelined round trips)."""
    origins = _origins(conn, prefix, [r.player_id for r in results])
    starts = _start_networks(conn, prefix, [r.game_id for r in results])
    return [(tuple(n for n in (start, origin) if n is not None), origin is not None)
            for start, origin in zip(starts, origins, strict=True)]


def keep_young(conn: redis.Redis, prefix: str, results: list[Result],
               provisional: Mapping[str, bool]) -> list[YoungGame]:
    """Keep the young players' results with their boards (idempotent): a player created
    in the last two days (``new``) or ``provisional`` (by game id), with the networks
    the game is known from. Returns what was kept."""
    kept: list[tuple[Result, YoungGame]] = []
    for result, (networks, new) in zip(results, networks_of(conn, prefix, results),
                                       strict=True):
        if not new and not provisional.get(result.game_id):
            continue
        kept.append((result, YoungGame(result.game_id, result.player_id, networks,
                                       result.finished_at, "new" if new else "provisional")))
    _keep_with_boards(conn, prefix, "young", kept)
    return [young for _, young in kept]


def kept_young(conn: redis.Redis, prefix: str, date: str, ruleset: str) -> list[YoungGame]:
    """The young games kept for a day set."""
    raw = conn.hvals(keymap.board(prefix, date, canonical_name(ruleset), "young"))
    return [YoungGame.from_json(json.loads(v)) for v in raw]


def _covering(conn: redis.Redis, prefix: str, result: Result, verdict: Mapping[str, Any],
              young: list[YoungGame], scouts: list[Sighting]) -> list[dict[str, Any]]:
    """The young games and scouts of the result's day set that revealed every die it
    profited from (:func:`daily.fairplay.links.covering_games`)."""
    try:
        log = MoveLog.from_text(result.log)
    except DailyError:
        return []
    tells = [(int(t["turn"]), int(t["roll"])) for t in verdict.get("tells") or ()]
    profited = profited_dice(log, tells)
    owners = {g.game_id: g.player_id for g in young}
    owners.update({s.game_id: s.player_id for s in scouts})
    owners.pop(result.game_id, None)
    if not profited or not owners:
        return []
    ids = sorted(owners)
    texts = conn.hmget(keymap.board(prefix, result.date, canonical_name(result.ruleset),
                                    "logs"), ids)
    candidates = []
    for game_id, raw in zip(ids, texts, strict=True):
        other = _parsed(as_text(raw)) if raw is not None else None
        if other is not None:
            candidates.append((game_id, owners[game_id], revealed_dice(other)))
    return [{"game_id": g, "player_id": p, "share": share}
            for g, p, share in covering_games(profited, result.player_id, candidates)]


def _parsed(text: str) -> MoveLog | None:
    try:
        return MoveLog.from_text(text)
    except DailyError:
        return None


def evidence_of(conn: redis.Redis, prefix: str, results: list[Result],
                verdicts: list[Mapping[str, Any] | None] | None = None,
                provisional: list[bool] | None = None,
                ) -> list[dict[str, Any] | None]:
    """For results on their way into the top of their boards: the evidence that makes
    each pending review (``{"reason_code", "reason", ...}``), or None. ``verdicts``: each
    result's verdict as JSON (its tells name the dice it profited from), when known;
    ``provisional``: whether each result's player is provisional, when known. The links
    to young games are made for a game whose player is not young itself (a young
    player's game stands on the public top only while nothing else does, marked).

    In this order: a scout linked to the game
    (:func:`daily.fairplay.scouting.linked_scouts`); a young game of the day set from the
    same network (:func:`daily.fairplay.links.young_links`); a young game or scout that
    revealed every die the game profited from (:func:`daily.fairplay.links.
    covering_games`); a record of residuals that persistently beats optimal play
    (:func:`daily.fairplay.history.residual.persistent`); a foresight record whose sequential
    test holds (:func:`foresight_evidence`).
    """
    if not results:
        return []
    networks = _networks(conn, prefix, [r.player_id for r in results])
    records = records_of(conn, prefix, [r.player_id for r in results])
    foresight = foresight_records(conn, prefix, [r.player_id for r in results])
    given = verdicts if verdicts is not None else [None] * len(results)
    known = networks_of(conn, prefix, results)
    provisional = provisional if provisional is not None else [False] * len(results)
    boards: dict[tuple[str, str], tuple[list[Sighting], list[YoungGame]]] = {}
    out: list[dict[str, Any] | None] = []
    for result, network, record, values, verdict, (nets, new), young_player in zip(
            results, networks, records, foresight, given, known, provisional, strict=True):
        date, name = result.date.isoformat(), canonical_name(result.ruleset)
        if (date, name) not in boards:
            boards[(date, name)] = (kept_sightings(conn, prefix, date, name),
                                    kept_young(conn, prefix, date, name))
        kept, young = boards[(date, name)]
        scouts = kept + window_sightings(conn, prefix, date, name, result.finished_at)
        links = linked_scouts(result.game_id, result.player_id, network, result.finished_at,
                              scouts)
        residuals = ruleset_residuals(record, name)
        established = not (new or young_player)
        neighbours = (young_links(result.game_id, result.player_id, nets, young)
                      if established else [])
        covers = (_covering(conn, prefix, result, verdict, young, kept)
                  if established and verdict is not None and not links and not neighbours
                  else [])
        if links:
            out.append({
                "reason_code": "scout_link",
                "reason": "the game follows a game that showed the day's dice without"
                          " playing them, from the same network or shortly before",
                "scouts": [{**s.to_json(), "link": how} for s, how in links],
            })
        elif neighbours:
            out.append({
                "reason_code": "young_link",
                "reason": "new or provisional players from the network the game was played"
                          " from played the same day's dice",
                "young": [g.to_json() for g in neighbours],
            })
        elif covers:
            out.append({
                "reason_code": "reveal_cover",
                "reason": "another player's game showed every die this game gained from"
                          " before it was rolled",
                "covering": covers,
            })
        elif persistent(residuals, name):
            out.append({
                "reason_code": "residual",
                "reason": "the player's scores keep beating optimal play on the same dice"
                          " across days",
                "residuals": residuals,
            })
        else:
            out.append(foresight_evidence(values))
    return out
