"""The review queue: ranked games kept off the public board until an operator decides.

A game the fair-play check flags (:mod:`daily.service.review.gates`) is kept here with
its result and the verdict, and nothing of it reaches the board (top, around-me,
histogram, percentile) or the player statistics. It is *pending* review when it would
have entered the top of its board (the stricter test, or the evidence across games and
days, raised it: :mod:`daily.service.review.evidence`), *held* when the ordinary test
flagged it (or an operator chose to keep a pending game off the board while looking
further). An operator then *clears* it (it is recorded on the board and takes its rank,
even on a closed day) or *disqualifies* it (it stays off the board for good, archived
as disqualified).

Every game's fair-play decision, with its reason code, is read from one place:
:meth:`ReviewQueue.decision`, a :class:`daily.audit.leaf.Decision` (a game never in
review is ``cleared`` without a reason); the codes are :data:`REASON_CODES`.

Every step is idempotent and ordered so that a crash anywhere is repaired by running
it again: :meth:`ReviewQueue.hold` writes with HSETNX; :meth:`ReviewQueue.clear`
marks the entry cleared first, then records the game (the board and the statistics
are idempotent by game id); the results consumer (``daily worker results``, through
:func:`daily.service.review.gates.review_gate`) skips the check for a game already in
review and follows its state (held: stays held; cleared: recorded; disqualified:
dropped).

Redis keys (``P`` = prefix; the board's hash tag keeps the review with its board)::

    P lb:{D:R}:review  HASH  game id -> JSON {"state", "result", "verdict", "updated_at"}
    P review:index     HASH  game id -> "D R" (where to find a game's entry)
    P review:open      ZSET  game id -> finished_at (pending and held games, oldest first)
    P lb:{D:R}:signals HASH  checked and the SIGNALS: counts of checked games

On disk, next to the day's archive: ``<data>/archive/<D>/<R>.review.jsonl``, a header
line (``daily-review/1``) then one entry per line, written atomically by the rollover
and after every decision on a closed day; :func:`restore_review` (run by ``daily
rebuild``) puts it back.

>>> ReviewQueue(None, "dd:").key("2026-11-29", "yahtzee")  # type: ignore[arg-type]
'dd:lb:{2026-11-29:yahtzee}:review'
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from daily.audit.leaf import CLEARED, DISQUALIFIED, HELD, PENDING, Decision
from daily.dice import parse_date
from daily.errors import DailyError, StateError
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.atomicfile import write_atomic
from daily.service.connections import as_text
from daily.service.players.standing import mark_cleared
from daily.service.results.archive import (
    ArchiveSummary,
    Progress,
    archive_path,
    rebuild_board,
    write_archive,
)
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stats import record_game
from daily.service.review.evidence import reset_foresight

REVIEW_FORMAT = "daily-review/1"
# The states of a game in review are the statuses of the results log's decisions.
STATES = (PENDING, HELD, CLEARED, DISQUALIFIED)
#: The states still waiting for an operator's decision (in ``review:open``).
OPEN = (PENDING, HELD)
#: The review statistics counted per board besides ``checked``.
SIGNALS = ("scout_like", "reveal_unused", "busy_network", "scout_linked", "plays_blind",
           "copied")
#: Why a game is in review (:class:`daily.audit.leaf.Decision`'s reason; a game never in
#: review has none): ``foresight`` (the ordinary likelihood test), ``strict`` (the
#: stricter test at the top), ``ceiling`` (scored the day's ceiling), ``unchecked`` (the
#: check could not run), ``scout_link`` (linked to a scout of the day), ``residual`` (the
#: player's record beats optimal play across days), ``copy`` (the same decisions as an
#: earlier game of another player on the day's dice), ``young_link`` (young players from
#: the game's network played the day), ``reveal_cover`` (another player's game showed
#: the dice it gained from), ``foresight_record`` (the player's foresight record across
#: days: :mod:`daily.fairplay.history.sequential`).
REASON_CODES = ("foresight", "strict", "ceiling", "unchecked", "scout_link", "residual",
                "copy", "young_link", "reveal_cover", "foresight_record")


class ReviewError(DailyError):
    """A review request that cannot be served: unknown game, or a decision already taken."""


#: The decision of a game never in review: cleared, no reason.
PASSED = Decision(CLEARED, None)


@dataclass(frozen=True)
class ReviewEntry:
    """One game in review."""

    state: str
    result: Result
    verdict: dict[str, Any]
    updated_at: float

    @property
    def reason(self) -> str:
        """Why the game was held, in plain words."""
        return str(self.verdict.get("reason") or "held for review")

    @property
    def reason_code(self) -> str:
        """Why the game went to review, one of :data:`REASON_CODES` (the evidence's
        own code when it raised the game, else from the check's method)."""
        code = self.verdict.get("reason_code")
        if code in REASON_CODES:
            return str(code)
        method = str(self.verdict.get("method", ""))
        if method.startswith("ceiling"):
            return "ceiling"
        if method == "unchecked":
            return "unchecked"
        return "strict" if "strict" in method else "foresight"

    @property
    def decision(self) -> Decision:
        """The game's fair-play decision and its reason code, as the day's results log
        records it (``verdict["decided_by"]`` says when an operator took it); a cleared
        game has no reason (the hold's is history, not the decision).

        >>> from daily.service.results.result import Result
        >>> result = Result("g", "p", None, dt.date(2026, 11, 29), "yahtzee", 1, 0.0, "DD-1", "")
        >>> ReviewEntry(CLEARED, result, {"reason_code": "scout_link"}, 0.0).decision
        Decision(status='cleared', reason=None)
        """
        return Decision(self.state, None if self.state == CLEARED else self.reason_code)

    def to_json(self) -> dict[str, Any]:
        """The stored JSON form."""
        return {
            "state": self.state,
            "result": self.result.to_json(),
            "verdict": self.verdict,
            "updated_at": self.updated_at,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ReviewEntry:
        """Parse the stored form (raises :class:`ReviewError` on a bad entry)."""
        state = obj.get("state")
        if state not in STATES:
            raise ReviewError(f"unknown review state {state!r}", field="state")
        verdict = obj.get("verdict")
        if not isinstance(verdict, dict):
            raise ReviewError("a review entry needs its verdict", field="verdict")
        return cls(str(state), Result.from_json(obj.get("result")), verdict,
                   float(obj.get("updated_at") or 0.0))

    def public(self) -> dict[str, Any] | None:
        """What the player sees (nothing once cleared): the state, the reason in plain
        words, and the figures a client needs to say it in its own language.

        ``state`` is ``pending_review`` (the game would enter the top of its board and
        waits for an operator), ``under_review`` (held) or ``disqualified``.
        ``reason_code`` is :attr:`reason_code`.
        """
        if self.state == CLEARED:
            return None
        v = self.verdict
        code = self.reason_code
        out: dict[str, Any] = {
            "state": {PENDING: "pending_review", HELD: "under_review"}.get(self.state,
                                                                         DISQUALIFIED),
            "reason": self.reason,
            "reason_code": code,
            "decisions": v.get("decisions"),
            "optimal_in_hindsight": v.get("optimal_in_hindsight"),
            "total": self.result.total,
        }
        return out


# KEYS: review index open   ARGV: game_id entry "D R" finished_at


class ReviewQueue:
    """The review state of every board, on one Redis connection."""

    def __init__(self, conn: redis.Redis, prefix: str = "dd:",
                 clock: Callable[[], dt.datetime] | None = None) -> None:
        self.conn = conn
        self.prefix = prefix
        #: The service's clock (:attr:`daily.service.config.Config.clock`): the time of
        #: every hold and decision, so a demo clock's decisions carry its time.
        self.clock = clock

    def _now(self) -> float:
        return self.clock().timestamp() if self.clock is not None else time.time()

    def key(self, date: str, ruleset: str) -> str:
        """The review hash of a board (same hash tag as the board)."""
        return keymap.board(self.prefix, parse_date(date), canonical_name(ruleset), "review")

    @property
    def index_key(self) -> str:
        """Game id -> "date ruleset"."""
        return keymap.review_index(self.prefix)

    @property
    def open_key(self) -> str:
        """The held games, by finish time."""
        return keymap.review_open(self.prefix)

    # -- reading -------------------------------------------------------------------

    def entry(self, game_id: str) -> ReviewEntry | None:
        """The review entry of a game, or None if it never was held."""
        where = self.conn.hget(self.index_key, game_id)
        if where is None:
            return None
        date, ruleset = as_text(where).split(" ")
        raw = self.conn.hget(self.key(date, ruleset), game_id)
        return ReviewEntry.from_json(json.loads(raw)) if raw is not None else None

    def get(self, game_id: str) -> ReviewEntry:
        """The review entry of a game (a :class:`ReviewError` if there is none)."""
        entry = self.entry(game_id)
        if entry is None:
            raise ReviewError(f"game {game_id} is not in review", field="game_id")
        return entry

    def decision(self, game_id: str) -> Decision:
        """A ranked game's fair-play decision: its review entry's, else :data:`PASSED`
        (cleared, no reason)."""
        entry = self.entry(game_id)
        return entry.decision if entry is not None else PASSED

    def held(self, limit: int = 100) -> list[ReviewEntry]:
        """The games waiting for a decision (pending and held), oldest first."""
        # redis-py types ZRANGE's reply for withscores=True too: members only here.
        found: list[bytes | str] = self.conn.zrange(  # type: ignore[assignment]
            self.open_key, 0, max(limit, 1) - 1
        )
        ids = [as_text(i) for i in found]
        return [e for e in (self.entry(i) for i in ids) if e is not None]

    def of_player(self, date: str, ruleset: str, player_id: str) -> ReviewEntry | None:
        """The player's game in review on a board, if any (boards hold few)."""
        for entry in self.entries_of(date, ruleset):
            if entry.result.player_id == player_id:
                return entry
        return None

    def entries_of(self, date: str, ruleset: str) -> list[ReviewEntry]:
        """Every review entry of one board (any state), by finish time."""
        raw = self.conn.hvals(self.key(date, ruleset))
        out = [ReviewEntry.from_json(json.loads(v)) for v in raw]
        out.sort(key=lambda e: (e.result.finished_at, e.result.game_id))
        return out

    # -- writing -------------------------------------------------------------------

    def hold(self, result: Result, verdict: Mapping[str, Any], state: str = HELD) -> bool:
        """Keep a game off the board for review (``state`` :data:`HELD` or
        :data:`PENDING`); False if it was already in review (nothing changes)."""
        if state not in OPEN:
            raise ReviewError(f"a game enters review {PENDING} or {HELD}", field="state")
        entry = ReviewEntry(state, result, dict(verdict), self._now())
        key = self.key(result.date.isoformat(), result.ruleset)
        added = bool(self.conn.hsetnx(key, result.game_id, _dumps(entry.to_json())))
        if not added:  # a second delivery: finish what a first one may have left undone
            raw = self.conn.hget(key, result.game_id)
            if raw is None or json.loads(raw)["state"] not in OPEN:
                return False
        self._index(result, held=True)
        return added

    def _index(self, result: Result, *, held: bool) -> None:
        """Point the global index at the game's board and put it in (or take it out of)
        the open queue. Separate from the board's review hash, which lives in the board's
        cluster slot; a pipeline, idempotent, so a repeated hold or restore completes it."""
        with self.conn.pipeline(transaction=False) as pipe:
            pipe.hset(self.index_key, result.game_id,
                      f"{result.date.isoformat()} {result.ruleset}")
            if held:
                pipe.zadd(self.open_key, {result.game_id: result.finished_at})
            else:
                pipe.zrem(self.open_key, result.game_id)
            pipe.execute()

    def _set_state(self, entry: ReviewEntry, state: str, note: str | None,
                   extra: Mapping[str, Any] | None = None) -> ReviewEntry:
        verdict = {**entry.verdict, **(extra or {}), "decided_by": "operator"}
        if note:
            verdict["operator_note"] = note
        new = ReviewEntry(state, entry.result, verdict, self._now())
        key = self.key(entry.result.date.isoformat(), entry.result.ruleset)
        self.conn.hset(key, entry.result.game_id, _dumps(new.to_json()))
        return new

    def decide(
        self, game_id: str, state: str, *, archive_dir: Path | None = None,
        note: str | None = None,
    ) -> str:
        """Clear, disqualify or hold a game in review; returns what happened. Idempotent.

        Clearing records the game on its board and in the player's statistics (on a
        closed day too: the final statistics and the archive are then rewritten); a game
        held by the player's foresight record (``foresight_record``) also resets the
        record's cumulative sum through it, kept with the decision as
        ``foresight_reset`` (:func:`daily.service.review.evidence.reset_foresight`).
        Holding keeps a pending game off the board, still waiting for a decision, and
        the record as it is. A game already decided the other way raises
        :class:`ReviewError`.
        """
        if state not in (CLEARED, DISQUALIFIED, HELD):
            raise ReviewError(f"a decision is {CLEARED}, {HELD} or {DISQUALIFIED}",
                              field="state")
        entry = self.get(game_id)
        allowed = (PENDING, HELD, state) if state != HELD else (PENDING, HELD)
        if entry.state not in allowed:
            raise ReviewError(f"game {game_id} is already {entry.state}", field="game_id")
        outcome = "already " + state if entry.state == state else state
        if entry.state != state:
            extra: dict[str, Any] = {}
            if state == CLEARED and entry.reason_code == "foresight_record":
                # cleared by an operator: the record's sum starts again after this game
                extra["foresight_reset"] = reset_foresight(self.conn, self.prefix,
                                                           entry.result)
            entry = self._set_state(entry, state, note, extra)
        if state == HELD:
            return outcome
        result = entry.result
        board = Leaderboard(self.conn, result.date, result.ruleset, prefix=self.prefix)
        if state == CLEARED:
            board.record(result, allow_frozen=True)
            record_game(self.conn, result, prefix=self.prefix)
            # reviewed by an operator: it stands on the public top whoever played it
            mark_cleared(self.conn, self.prefix, result.date, result.ruleset, [game_id])
        self.conn.zrem(self.open_key, game_id)
        if board.frozen() and archive_dir is not None:
            if state == CLEARED:
                board.store_final_stats(board.compute_final_stats())
                write_archive(board, archive_dir)
            write_review_archive(self, result.date.isoformat(), result.ruleset, archive_dir)
        return outcome

    def note_signals_many(self, games: list[tuple[str, str, str, Mapping[str, bool]]]) -> None:
        """Count checked games ``(date, ruleset, game id, signals)`` in their boards'
        review statistics, once per game, in two pipelined round trips (the ``SADD``,
        then the counts of the games not counted yet).

        The signals (:data:`SIGNALS`): ``scout_like``, it rerolled every die nearly
        every time; ``reveal_unused``, it showed far more dice than it used;
        ``busy_network``, its player came from a network that created many players that
        day; ``scout_linked``, a game at the top that followed a scout; ``plays_blind``, it
        rerolled the same positions whatever the dice, far from optimal play (a split
        scout, :func:`daily.fairplay.scouting.plays_blind`); ``copied``, a game at the top
        that took the same decisions as an earlier one of another player. Statistics for
        operators; only a link to a scout or a copy holds a game by itself.
        """
        keys = [keymap.board(self.prefix, parse_date(date), canonical_name(ruleset), "signals")
                for date, ruleset, *_ in games]
        with self.conn.pipeline(transaction=False) as pipe:
            for key, (_d, _r, game_id, _s) in zip(keys, games, strict=True):
                pipe.sadd(key + ":seen", game_id)
            added = pipe.execute()
        with self.conn.pipeline(transaction=False) as pipe:
            for key, new, (_d, _r, _g, signals) in zip(keys, added, games, strict=True):
                if not new:
                    continue
                pipe.hincrby(key, "checked", 1)
                for name in SIGNALS:
                    if signals.get(name):
                        pipe.hincrby(key, name, 1)
            pipe.execute()

    def signals(self, date: str, ruleset: str) -> dict[str, int]:
        """The board's review statistics (see :meth:`note_signals_many`)."""
        key = keymap.board(self.prefix, parse_date(date), canonical_name(ruleset), "signals")
        raw = self.conn.hgetall(key)
        out = {"checked": 0, **dict.fromkeys(SIGNALS, 0)}
        out.update({as_text(k): int(v) for k, v in raw.items()})
        return out

    def restore(self, entries: Iterable[ReviewEntry]) -> int:
        """Put archived entries back (a rebuild); returns how many."""
        count = 0
        for entry in entries:
            result = entry.result
            key = self.key(result.date.isoformat(), result.ruleset)
            self.conn.hset(key, result.game_id, _dumps(entry.to_json()))
            self._index(result, held=entry.state in OPEN)
            if entry.state == CLEARED:
                mark_cleared(self.conn, self.prefix, result.date, result.ruleset,
                             [result.game_id])
            count += 1
        return count


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def review_archive_path(archive_dir: Path, date: str, ruleset: str) -> Path:
    """Where the review entries of a closed day are kept.

    >>> review_archive_path(Path("var/archive"), "2026-11-29", "kniffel").as_posix()
    'var/archive/2026-11-29/yahtzee.review.jsonl'
    """
    return archive_path(archive_dir, date, ruleset).with_suffix(".review.jsonl")


def write_review_archive(queue: ReviewQueue, date: str, ruleset: str, archive_dir: Path) -> Path:
    """Write the board's review entries next to its archive (atomic replace)."""
    path = review_archive_path(archive_dir, date, ruleset)
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = queue.entries_of(date, ruleset)
    header = {"format": REVIEW_FORMAT, "date": parse_date(date).isoformat(),
              "ruleset": canonical_name(ruleset), "entries": len(entries)}
    text = "".join(_dumps(x) + "\n" for x in [header, *(e.to_json() for e in entries)])
    return write_atomic(path, [text.encode("utf-8")])


def read_review_archive(path: Path) -> list[ReviewEntry]:
    """The entries of a review archive (none when the file does not exist)."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        header = json.loads(lines[0]) if lines else {}
        if header.get("format") != REVIEW_FORMAT:
            raise ReviewError(f"{path}: not a {REVIEW_FORMAT} file", field="line 1")
        return [ReviewEntry.from_json(json.loads(line)) for line in lines[1:] if line]
    except ValueError as exc:  # bad JSON or a bad entry (DailyError is a ValueError)
        raise ReviewError(f"{path}: {exc}", field="review") from None


def restore_review(conn: redis.Redis, path: Path, *, prefix: str = "dd:") -> int:
    """Restore a closed day's review entries from their file (``daily rebuild``)."""
    return ReviewQueue(conn, prefix).restore(read_review_archive(path))


def rebuild_day(
    conn: redis.Redis, path: Path, *, prefix: str = "dd:", progress: Progress | None = None,
    expect: tuple[str, str] | None = None,
) -> ArchiveSummary:
    """Rebuild a closed day set from its files (``daily rebuild``): the board from its
    archive (:func:`~daily.service.results.archive.rebuild_board`, same arguments), then
    the review entries from the file next to it."""
    summary = rebuild_board(conn, path, prefix=prefix, progress=progress, expect=expect)
    restore_review(conn, path.with_suffix(".review.jsonl"), prefix=prefix)
    return summary


def describe(entry: ReviewEntry, par: Mapping[str, Any] | None = None) -> str:
    """The evidence of an entry for an operator, in lines of text."""
    r, v = entry.result, entry.verdict
    lines = [
        f"game {r.game_id} by {r.player_name or '(no name)'} ({r.player_id}):"
        f" {r.ruleset} {r.date.isoformat()}, total {r.total} [{entry.state}]",
        f"reason: {entry.reason}",
        f"ceiling (perfect game with foresight): {v.get('ceiling')}"
        + (f"; par: {', '.join(f'{k} {n}' for k, n in sorted(par.items()))}" if par else ""),
        f"players created from the same network that day: {v.get('network_new_players')}",
        f"check {v.get('method')}: statistic {v.get('statistic')} (limit {v.get('threshold')}),"
        f" {v.get('optimal_in_hindsight')} of {v.get('decisions')} decisions best in"
        f" hindsight, rerolled everything in {100 * float(v.get('scouting') or 0):.0f}%"
        " of rerolls",
    ]
    for tell in v.get("tells") or []:
        lines.append(f"  tell: {tell.get('text')}")
    for scout in v.get("scouts") or []:
        lines.append(f"  scout ({scout.get('link')}): game {scout.get('game_id')} by"
                     f" {scout.get('player_id')}, {scout.get('kind')}, {scout.get('ratio')}"
                     " dice shown per die used")
    for copy in v.get("copies") or []:
        lines.append(f"  copy of game {copy.get('game_id')} by {copy.get('player_id')}:"
                     f" {100 * float(copy.get('share') or 0):.0f}% of the turns played the"
                     f" same way (optimal play scored {v.get('optimal')} on these dice)")
    if v.get("recheck") == "close":
        lines.append("  held by the close-time re-check of the final top")
    if v.get("residuals"):
        lines.append("  residuals against optimal play, day by day: "
                     + ", ".join(f"{x:+g}" for x in v["residuals"]))
    for young in v.get("young") or []:
        lines.append(f"  young player {young.get('player_id')} ({young.get('why')}) from the"
                     f" same network: game {young.get('game_id')}")
    for cover in v.get("covering") or []:
        lines.append(f"  game {cover.get('game_id')} by {cover.get('player_id')} showed"
                     f" {100 * float(cover.get('share') or 0):.0f}% of the dice this game"
                     " gained from")
    record = v.get("foresight_record")
    if record:
        lines.append(f"  foresight record: cumulative sum {record.get('cusum')} over"
                     f" {record.get('games')} games (line {record.get('line')}); latest: "
                     + ", ".join(f"{x:g}" for x in record.get("recent") or []))
    reset = v.get("foresight_reset")
    if reset:
        lines.append(f"  foresight record reset through {reset.get('through')} by the"
                     f" clearance: cumulative sum {reset.get('cusum_before')} ->"
                     f" {reset.get('cusum_after')}")
    by = "an operator" if v.get("decided_by") == "operator" else "the check"
    lines.append(f"decision: {entry.state} ({entry.reason_code}, by {by})")
    if v.get("operator_note"):
        lines.append(f"note: {v['operator_note']}")
    return "\n".join(lines)


def require_state(value: str) -> str:
    """A decision name from the command line.

    >>> require_state("clear")
    'cleared'
    """
    states = {"clear": CLEARED, "disqualify": DISQUALIFIED, "hold": HELD}
    if value not in states:
        raise StateError(f"unknown decision {value!r}", field="decision")
    return states[value]
