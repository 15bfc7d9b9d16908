"""Archives of closed days: one JSON-lines file per (date, ruleset), and rebuilds from it.

File ``<data>/archive/<date>/<ruleset>.jsonl``. The first line is a header, every
further line one verified result in rank order::

    {"format": "daily-archive/1", "date": "2026-11-29", "ruleset": "yahtzee",
     "players": 2, "frozen": true, "written_at": 1764500000.0, "cleared": ["g_..."]}
    {"rank": 1, "game_id": "g_...", "player_id": "p_...", "player_name": "Ada",
     "date": "2026-11-29", "ruleset": "yahtzee", "total": 262,
     "finished_at": 1764400000.5, "code": "DD-...", "log": {daily-log/1 ...}}

``cleared`` (optional; an older file has none) lists the games an operator cleared for
the public top (:mod:`daily.service.players.standing`), which a rebuild puts back.

Writing is atomic: the lines go to a temporary file in the same directory, which is
flushed, fsync'ed and renamed over the final name (then the directory is fsync'ed), so
a reader sees the old file or the whole new one, never half of it.

:func:`rebuild_board` reads an archive back into Redis: it builds the board under a
temporary key prefix and renames it into place in one transaction, so readers never
see a half-built board; the player statistics are re-recorded (idempotent by game id),
and :func:`daily.service.review.queue.rebuild_day` restores the day's fair-play review
entries from the file next to it as well.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from daily.dice import parse_date
from daily.errors import DailyError
from daily.movelog import MoveLog
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.atomicfile import write_atomic
from daily.service.connections import as_text
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stats import record_game

ARCHIVE_FORMAT = "daily-archive/1"
#: Report progress every this many entries.
PROGRESS_EVERY = 10_000

Progress = Callable[[int, int], None]


class ArchiveError(DailyError):
    """An archive file that cannot be read back: missing, wrong format, bad line."""


@dataclass(frozen=True)
class ArchiveSummary:
    """What an archive holds (or what was written)."""

    path: Path
    date: str
    ruleset: str
    players: int
    frozen: bool
    #: The games an operator cleared for the public top.
    cleared: tuple[str, ...] = ()


def archive_path(archive_dir: Path, date: str, ruleset: str) -> Path:
    """Where the archive of (date, ruleset) lives.

    >>> archive_path(Path("var/archive"), "2026-11-29", "kniffel").as_posix()
    'var/archive/2026-11-29/yahtzee.jsonl'
    """
    return archive_dir / parse_date(date).isoformat() / f"{canonical_name(ruleset)}.jsonl"


def write_archive(
    board: Leaderboard, archive_dir: Path, *, progress: Progress | None = None
) -> ArchiveSummary:
    """Write the board's results (rank order, with move logs) atomically to disk."""
    path = archive_path(archive_dir, board.date.isoformat(), board.ruleset)
    players = board.players()
    frozen = board.frozen()
    cleared = sorted(as_text(g) for g in board.conn.smembers(board.key("cleared")))
    header = {
        "format": ARCHIVE_FORMAT,
        "date": board.date.isoformat(),
        "ruleset": board.ruleset,
        "players": players,
        "frozen": frozen,
        "written_at": time.time(),
        "cleared": cleared,
    }

    def lines() -> Iterator[bytes]:
        yield (json.dumps(header, separators=(",", ":")) + "\n").encode()
        written = 0
        for entry, log in board.iter_results():
            line = {
                "rank": entry.rank,
                "game_id": entry.game_id,
                "player_id": entry.player_id,
                "player_name": entry.player_name,
                "date": header["date"],
                "ruleset": board.ruleset,
                "total": entry.score,
                "finished_at": entry.finished_at,
                "code": entry.code,
                "log": MoveLog.from_text(log).to_json() if log else None,
            }
            yield (json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
            written += 1
            if progress and written % PROGRESS_EVERY == 0:
                progress(written, players)
        if written != players:
            raise ArchiveError(
                f"board changed while archiving ({written} rows, {players} players);"
                " freeze it first",
                field="date",
            )

    write_atomic(path, lines())
    if progress:
        progress(players, players)
    return ArchiveSummary(path, str(header["date"]), board.ruleset, players, frozen,
                          tuple(cleared))


def read_archive(path: Path) -> tuple[ArchiveSummary, Iterator[Result]]:
    """The header of an archive and an iterator over its results (checked line by line).

    Errors name the file and line: ``ArchiveError: line 3: total: must be ...``.
    """
    try:
        handle = path.open(encoding="utf-8")
    except FileNotFoundError:
        raise ArchiveError(f"no archive at {path}", field="archive") from None
    first = handle.readline()
    try:
        header = json.loads(first)
    except ValueError:
        handle.close()
        raise ArchiveError(f"{path}: the first line is not a JSON header", field="line 1") from None
    if not isinstance(header, dict) or header.get("format") != ARCHIVE_FORMAT:
        handle.close()
        raise ArchiveError(f"{path}: not a {ARCHIVE_FORMAT} file", field="line 1")
    cleared = header.get("cleared") or []
    if not isinstance(cleared, list) or not all(isinstance(g, str) for g in cleared):
        handle.close()
        raise ArchiveError(f"{path}: cleared must be a list of game ids", field="line 1")
    summary = ArchiveSummary(
        path,
        str(header.get("date")),
        str(header.get("ruleset")),
        int(header.get("players", 0)),
        bool(header.get("frozen")),
        tuple(cleared),
    )

    def results() -> Iterator[Result]:
        with handle:
            for number, line in enumerate(handle, start=2):
                try:
                    obj: Any = json.loads(line)
                    result = Result.from_json(obj)
                except ValueError as exc:  # DailyError is a ValueError
                    message = exc.args[0] if exc.args else "not valid JSON"
                    raise ArchiveError(f"{path}: {message}", field=f"line {number}") from None
                if (result.date.isoformat(), result.ruleset) != (summary.date, summary.ruleset):
                    raise ArchiveError(
                        f"{path}: result of {result.date} {result.ruleset} in the wrong file",
                        field=f"line {number}",
                    )
                yield result

    return summary, results()


def rebuild_board(
    conn: redis.Redis,
    path: Path,
    *,
    prefix: str = "dd:",
    progress: Progress | None = None,
    expect: tuple[str, str] | None = None,
) -> ArchiveSummary:
    """Rebuild the board of an archive in Redis, replacing the live one atomically.

    ``expect`` = (date, ruleset) refuses an archive of another day set.

    Also re-records each game in its player's statistics (idempotent). Returns the
    archive summary; raises :class:`ArchiveError` if the file is bad or its count is off.
    """
    summary, results = read_archive(path)
    if expect is not None and (summary.date, summary.ruleset) != expect:
        raise ArchiveError(
            f"{path} holds {summary.date} {summary.ruleset}, not {expect[0]} {expect[1]}",
            field="archive",
        )
    live = Leaderboard(conn, summary.date, summary.ruleset, prefix=prefix)
    staging = Leaderboard(conn, summary.date, summary.ruleset, prefix=f"{prefix}{keymap.REBUILD}")
    staging.clear()
    count = 0

    def counted() -> Iterator[Result]:
        nonlocal count
        for result in results:
            record_game(conn, result, prefix=prefix)
            count += 1
            if progress and count % PROGRESS_EVERY == 0:
                progress(count, summary.players)
            yield result

    try:
        staging.record_many(counted())
        if count != summary.players:
            raise ArchiveError(
                f"{path}: header says {summary.players} players, file has {count}",
                field="players",
            )
        if summary.frozen:
            staging.freeze(time.time())
        staging.store_final_stats(staging.compute_final_stats())
    except BaseException:
        staging.clear()
        raise
    parts = ("rank", "entries", "players", "hist", "logs", "frozen", "final")
    with conn.pipeline(transaction=True) as pipe:
        for part in parts:
            pipe.delete(live.key(part))
        for part in parts:
            if conn.exists(staging.key(part)):
                pipe.rename(staging.key(part), live.key(part))
        if summary.cleared:
            pipe.sadd(live.key("cleared"), *summary.cleared)
        pipe.execute()
    if progress:
        progress(count, summary.players)
    return summary
