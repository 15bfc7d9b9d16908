"""The results log of a closed day set: sealed at the close, appended to by a re-review.

At the close (:meth:`DayLog.seal`, run by the rollover once the board is frozen, and by
the job :func:`workers.seal.seal_day`) every accepted ranked result of the day set
becomes a *result* leaf (:class:`daily.audit.leaf.Leaf`): the accepted game and its
receipt (from the game's record; a game finished before receipts existed is signed
now), the player's name at the close and the fair-play decision - ``cleared`` (on the
board), ``held`` or ``disqualified`` with the review's reason code (``foresight``,
``ceiling``, ``unchecked``), or ``disqualified`` with the board's refusal
(``duplicate_player``, ``frozen``). The leaves are put in the canonical order
(:mod:`daily.audit.board`: sorted by :func:`daily.audit.board.order_bytes`, the lines
waiting on disk, :mod:`daily.service.audit.spill`), hashed into the RFC 6962 tree
(:mod:`daily.audit.merkle`) and a head is signed with the results key.

A decision taken after the close (``daily review clear``, ``hold`` or ``disqualify``)
runs :meth:`DayLog.seal` again: it compares each game's decision in the log (the last
about its code) with the review's and appends a *decision* leaf per change, then signs a
new head. Nothing is ever rewritten, so every head's log is a prefix of the next one's,
and :meth:`DayLog.consistency` proves it. Running it again changes nothing.

Storage (:mod:`daily.service.keymap`, ``P audit:{D:R}:<part>``, in the board's slot)::

    heads   LIST    every signed head, oldest first (JSON)
    hashes  STRING  the leaf hashes, 32 bytes each, in log order
    log     LIST    the leaf lines: zlib chunks of up to CHUNK lines (canonical JSON
                    + "\\n"), the result leaves first, then one chunk per appended batch
    index   HASH    result code -> index of its result leaf
    new:*   the three above while a fresh log is written (the close, a restore),
            renamed over them in one transaction

The decision leaves and hashes of a re-review are written in one transaction, a fresh
log staged then renamed in one; the head comes after them, so a crash leaves either
nothing new or leaves without a head, which the next run signs (or, at the close,
writes again). Beside the day's archive, ``<archive>/<D>/<R>.log.jsonl`` (the leaves, one per
line: exactly ``GET .../log``) and ``<R>.heads.jsonl`` (every head, one per line) are
rewritten atomically after each new head.

>>> chunk_of(5000, 1024)
4
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import json
import logging
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from redis.typing import EncodableT, FieldT

from daily import calendar
from daily.audit.board import BoardBuilder, order_bytes
from daily.audit.day_audit import parse_leaf
from daily.audit.leaf import RESULT, Accepted, Decision, Leaf, instant, leaf_bytes
from daily.audit.merkle import MerkleTree, leaf_hash
from daily.audit.proof import ConsistencyProof, InclusionProof
from daily.audit.signing import SignedHead, sign_head, sign_receipt
from daily.audit.verify import VerificationFailed, VerificationInputError
from daily.errors import StateError
from daily.service import keymap
from daily.service.atomicfile import atomic_writer, write_atomic
from daily.service.audit.bulk_reads import get_many, hget_many
from daily.service.audit.checkpoints import DayCheckpoints, after_head
from daily.service.audit.receipts import accepted_of
from daily.service.audit.spill import LineSorter
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.days.descriptors import published_results_key
from daily.service.days.keyring import Keyring
from daily.service.games.record import GameRecord
from daily.service.results.archive import archive_path
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stream import ResultStream
from daily.service.review.queue import CLEARED, DISQUALIFIED, ReviewQueue

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Leaf lines per zlib chunk of the stored log.
CHUNK = 1024
#: The zlib level of the chunks: 1 compresses a chunk of leaves in half the time of 6,
#: for some 7% more bytes.
ZLIB_LEVEL = 1
#: Games whose records (then names) are read per round trip at the close.
BATCH = 1000
#: Chunks a fresh log writes per round trip.
FLUSH = 16
#: The parts of the stored log, and the prefix of where a fresh log is staged.
PARTS = ("hashes", "log", "index")
STAGED = "new:"
#: The width of the instant that starts each :func:`order_bytes`.
_AT_WIDTH = len("2026-11-29T10:00:00.000Z")
#: The decision of every game on the board.
_CLEARED = Decision(CLEARED)
#: Seconds the lock of one day's log is held at most.
LOCK_SECONDS = 900
#: Trees a process keeps for proofs (by day set and size).
TREES_KEPT = 4

_TREES: OrderedDict[tuple[str, str, str, int], MerkleTree] = OrderedDict()
_TREES_LOCK = threading.Lock()


@contextlib.contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a seal: it makes millions of objects
    that form no cycles (records, leaves, bytes), and the collector's passes over them
    grow with the day (a fifth of a million-game close); reference counting frees them
    all the same."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def chunk_of(index: int, chunk: int = CHUNK) -> int:
    """The stored chunk of the result leaf ``index`` (result leaves fill whole chunks)."""
    return index // chunk


# The staged parts of a seal replace the day set's log at once: KEYS are the real parts,
# then their staged keys in the same order; a part that was not staged is deleted.
SWAP_LUA = """
local half = #KEYS / 2
for i = 1, half do
  redis.call('DEL', KEYS[i])
  if redis.call('EXISTS', KEYS[i + half]) == 1 then
    redis.call('RENAME', KEYS[i + half], KEYS[i])
  end
end
return half
"""


@dataclass(frozen=True)
class Game:
    """What the close knows of one accepted game before its record is read."""

    game_id: str
    player_id: str  # whose it is, as the board, the review or the refusal says
    decision: Decision
    result: Result | None  # from the review or the refused results (else the board's)


#: A batch of games read: the games, their records (``None``: gone), names by player.
Read = tuple[list[Game], list[bytes | None], dict[str, bytes | None]]


class DayLog:
    """The stored results log of one day set (Redis, and files beside its archive)."""

    def __init__(self, conn: redis.Redis, config: Config, day: dt.date, ruleset: str) -> None:
        self.conn = conn
        self.config = config
        self.prefix = config.key_prefix
        self.day = day
        self.ruleset = ruleset

    def key(self, part: str) -> str:
        """The Redis key of one part of the log."""
        return keymap.audit(self.prefix, self.day, self.ruleset, part)

    # -- reading -------------------------------------------------------------------

    def heads(self) -> list[SignedHead]:
        """Every signed head, oldest first (none before the close)."""
        return [SignedHead.from_json(json.loads(raw))
                for raw in self.conn.lrange(self.key("heads"), 0, -1)]

    def latest(self) -> SignedHead | None:
        """The latest signed head, if the log is sealed."""
        raw = self.conn.lindex(self.key("heads"), -1)
        return SignedHead.from_json(json.loads(raw)) if raw is not None else None

    def head(self, size: int | None = None) -> SignedHead | None:
        """The latest head, or the head of ``size`` leaves."""
        if size is None:
            return self.latest()
        return next((h for h in self.heads() if h.size == size), None)

    def size(self) -> int:
        """The number of leaves stored."""
        return int(self.conn.strlen(self.key("hashes"))) // 32

    def hashes(self) -> list[bytes]:
        """Every leaf hash, in log order."""
        raw = _raw(self.conn.get(self.key("hashes")) or b"")
        return [raw[i:i + 32] for i in range(0, len(raw), 32)]

    def chunks(self, page: int = 16) -> Iterator[bytes]:
        """The log as stored: leaf lines, a chunk at a time (canonical JSON + newline)."""
        start = 0
        while True:
            found = self.conn.lrange(self.key("log"), start, start + page - 1)
            for item in found:
                yield zlib.decompress(_raw(item))
            if len(found) < page:
                return
            start += page

    def leaves(self) -> Iterator[Leaf]:
        """Every leaf, in log order."""
        for chunk in self.chunks():
            for line in chunk.splitlines():
                yield Leaf.from_json(json.loads(line))

    def index_of(self, code: str) -> int | None:
        """The index of the result leaf of ``code``, if the log holds one."""
        raw = self.conn.hget(self.key("index"), code)
        return int(raw) if raw is not None else None

    def leaf_at(self, index: int) -> Leaf:
        """The result leaf at ``index``."""
        raw = self.conn.lindex(self.key("log"), chunk_of(index))
        if raw is None:
            raise StateError(f"leaf {index} is not in the log", field="index")
        line = zlib.decompress(_raw(raw)).splitlines()[index % CHUNK]
        return Leaf.from_json(json.loads(line))

    def tree(self, size: int) -> MerkleTree:
        """The tree of the first ``size`` leaves (a process keeps the last few)."""
        key = (self.prefix, self.day.isoformat(), self.ruleset, size)
        with _TREES_LOCK:
            kept = _TREES.get(key)
            if kept is not None:
                _TREES.move_to_end(key)
                return kept
        tree = MerkleTree(self.hashes()[:size])
        with _TREES_LOCK:
            _TREES[key] = tree
            while len(_TREES) > TREES_KEPT:
                _TREES.popitem(last=False)
        return tree

    def proof(self, code: str) -> InclusionProof | None:
        """The inclusion proof of the result leaf of ``code`` against the latest head
        (None if the log is not sealed or has no such leaf)."""
        head = self.latest()
        index = self.index_of(code)
        if head is None or index is None:
            return None
        return InclusionProof.build(self.tree(head.size), self.leaf_at(index), index, head)

    def consistency(self, old: SignedHead, new: SignedHead) -> ConsistencyProof:
        """The proof that the log of ``old`` is a prefix of the log of ``new``."""
        return ConsistencyProof.build(self.tree(new.size), old.size)

    # -- writing -------------------------------------------------------------------

    def _store(self, lines: Iterable[tuple[bytes, str | None]], start: int, chunk: int,
               fresh: bool, out: BinaryIO | None = None) -> int:
        """Store leaf lines (each with the code of a result leaf, or ``None``) at
        ``start``: chunks of ``chunk`` lines, their hashes and the index of their result
        leaves; returns how many. An append (``fresh`` false: a few decisions) is one
        transaction; a ``fresh`` log (the close, a restore) is written to the staged
        parts a round trip of :data:`FLUSH` chunks at a time, then renamed over what the
        log held (a run that died before signing its head included) in one transaction,
        so readers see the old log or the whole new one. ``out`` also receives the
        lines (the log file of a fresh seal)."""
        real = {part: self.key(part) for part in PARTS}
        into = {part: self.key(STAGED + part) for part in PARTS} if fresh else real
        if fresh:
            self.conn.delete(*into.values())
        count, queued = 0, 0
        hashes = bytearray()
        index: dict[FieldT, EncodableT] = {}
        batch: list[bytes] = []
        sha = leaf_hash
        with self.conn.pipeline(transaction=not fresh) as pipe:

            def put_chunk() -> None:
                text = b"\n".join(batch) + b"\n"
                pipe.rpush(into["log"], zlib.compress(text, ZLIB_LEVEL))
                if out is not None:
                    out.write(text)

            def put_rest() -> None:
                if hashes:
                    pipe.append(into["hashes"], bytes(hashes))
                if index:
                    pipe.hset(into["index"], mapping=index)

            for line, code in lines:
                batch.append(line)
                hashes += sha(line)
                if code is not None:
                    index[code] = start + count
                count += 1
                if len(batch) == chunk:
                    put_chunk()
                    batch = []
                    queued += 1
                    if fresh and queued == FLUSH:
                        put_rest()
                        pipe.execute()
                        hashes, index, queued = bytearray(), {}, 0
            if batch:
                put_chunk()
            put_rest()
            pipe.execute()
        if fresh:
            # One script on one server and on a cluster (the parts share the day set's
            # slot; a cluster pipeline refuses RENAME).
            self.conn.eval(SWAP_LUA, 2 * len(PARTS), *(real[part] for part in PARTS),
                           *(into[part] for part in PARTS))
        return count

    def signer(self, keyring: Keyring) -> tuple[str, Ed25519PrivateKey]:
        """The results key of this day set: the one its descriptor names (``day/2``),
        else the current one; :class:`daily.service.days.keyring.KeyringError` if the
        keyring lacks it."""
        named = published_results_key(self.conn, self.config, keyring, self.ruleset, self.day)
        return keyring.results_signer(named)

    def _publish(self, keyring: Keyring, now: dt.datetime, log_written: bool = False
                 ) -> SignedHead:
        """Sign the head of every stored leaf, store it, and write the files (the
        heads' only when the seal has just written the log's)."""
        _, key = self.signer(keyring)
        size = self.size()
        head = sign_head(key, self.day.isoformat(), self.ruleset, size,
                         self.tree(size).root(), instant(now))
        self.conn.rpush(self.key("heads"), json.dumps(head.to_json(), separators=(",", ":")))
        checkpoints = DayCheckpoints(self.conn, self.config, self.day, self.ruleset)
        checkpoints.publish(head, key)
        self.write_files(log=not log_written)
        checkpoints.save()
        return head

    def write_files(self, log: bool = True) -> tuple[Path, Path]:
        """Write the log (unless ``log`` is false) and the heads beside the day's
        archive (atomic replace)."""
        log_path, heads_path = self.files()
        if log:
            write_atomic(log_path, self.chunks())
        write_atomic(heads_path, (
            json.dumps(h.to_json(), separators=(",", ":")).encode() + b"\n"
            for h in self.heads()))
        return log_path, heads_path

    def files(self, archive: Path | None = None) -> tuple[Path, Path]:
        """The log's and the heads' files beside the day's archive (or beside
        ``archive``, a copy of it elsewhere)."""
        base = archive or archive_path(self.config.archive_dir, self.day.isoformat(),
                                       self.ruleset)
        return base.with_suffix(".log.jsonl"), base.with_suffix(".heads.jsonl")

    def restore(self, archive: Path | None = None) -> int | None:
        """Put the log and its heads back in Redis from their files (``daily rebuild``
        after Redis lost them), replacing what Redis holds; the number of leaves, or
        ``None`` when the day set has no heads file (its log was never sealed).

        The lines themselves are hashed (each must be the canonical JSON of its leaf,
        as every verifier requires: :func:`daily.audit.day_audit.parse_leaf`) and must
        hash to the latest head's size and root, so a truncated, edited or re-encoded
        file is refused (:class:`StateError`) and Redis is left as it was.
        """
        log_path, heads_path = self.files(archive)
        if not heads_path.exists():
            return None
        heads = _read_lines(heads_path, SignedHead.from_json, "heads")
        lines, hashes = _read_log(log_path)
        if not heads:
            raise StateError(f"{heads_path} holds no head", field="heads")
        latest = heads[-1]
        root = MerkleTree(hashes).root()
        if len(lines) != latest.size or root != latest.root_bytes:
            raise StateError(
                f"{log_path}: {len(lines)} leaves that do not hash to the latest head "
                f"({latest.size} leaves, root {latest.root[:16]}...)", field="log")
        self._store(lines, 0, CHUNK, fresh=True)
        with self.conn.pipeline(transaction=True) as pipe:
            pipe.delete(self.key("heads"))
            pipe.rpush(self.key("heads"), *(
                json.dumps(h.to_json(), separators=(",", ":")) for h in heads))
            pipe.execute()
        DayCheckpoints(self.conn, self.config, self.day, self.ruleset).restore(archive)
        return len(lines)

    # -- what the service knows of the day ------------------------------------------

    def games(self) -> Iterator[list[Game]]:
        """Every accepted game of the day set and its decision now, in batches of
        :data:`BATCH`: the board's (cleared; its ``players`` read with ``HSCAN``), the
        review's, and the results the board refused; the review's decision replaces
        the board's, the board's a refusal. (``HSCAN`` may give a game twice: the
        close keeps one leaf of the two same lines.)"""
        refused: dict[str, Game] = {}
        for game_id, doc in ResultStream(self.conn, prefix=self.prefix).rejected().items():
            try:
                result = Result.from_json(doc.get("result"))
            except ValueError:
                continue  # not a result at all: never accepted
            if (result.date, result.ruleset) != (self.day, self.ruleset):
                continue
            reason = str(doc.get("reason") or "refused")
            refused[game_id] = Game(game_id, result.player_id, Decision(DISQUALIFIED, reason),
                                    result)
        queue = ReviewQueue(self.conn, self.prefix)
        reviewed = {entry.result.game_id: Game(entry.result.game_id, entry.result.player_id,
                                               entry.decision, entry.result)
                    for entry in queue.entries_of(self.day.isoformat(), self.ruleset)}
        board = Leaderboard(self.conn, self.day, self.ruleset, prefix=self.prefix)
        batch: list[Game] = []
        for player, raw in self.conn.hscan_iter(board.key("players"), count=BATCH):
            game_id = as_text(raw)
            refused.pop(game_id, None)
            if game_id in reviewed:
                continue
            batch.append(Game(game_id, as_text(player), _CLEARED, None))
            if len(batch) == BATCH:
                yield batch
                batch = []
        batch.extend({**refused, **reviewed}.values())
        for start in range(0, len(batch), BATCH):
            yield batch[start:start + BATCH]

    def _read(self, games: list[Game] | None) -> Read | None:
        """The records of ``games`` and their players' names now, in two round trips."""
        if games is None:
            return None
        raws = get_many(self.conn, [keymap.game(self.prefix, g.game_id) for g in games])
        players = list(dict.fromkeys(game.player_id for game in games))
        names = hget_many(self.conn, [keymap.account(self.prefix, p) for p in players], "name")
        return games, raws, dict(zip(players, names, strict=True))

    def _result_lines(self, key: Ed25519PrivateKey, read: Read,
                      missing: list[Game]) -> Iterator[tuple[bytes, bytes]]:
        """The result leaf of each game read, as (:func:`order_bytes`, line) (a game
        finished before receipts existed is signed now); the games whose record is
        gone go to ``missing``."""
        games, raws, names = read
        found: list[tuple[Accepted, str | None, Decision]] = []
        for game, raw in zip(games, raws, strict=True):
            record = GameRecord.loads(raw) if raw is not None else None
            if record is not None and record.code is not None:
                found.append((accepted_of(record), record.receipt, game.decision))
            else:
                missing.append(game)
        return self._lines_of(key, found, names)

    def _lines_of(self, key: Ed25519PrivateKey,
                  found: list[tuple[Accepted, str | None, Decision]],
                  names: dict[str, bytes | None]) -> Iterator[tuple[bytes, bytes]]:
        """The lines of result leaves, with the players' names now (``names``, by
        player id; those it lacks are read in one round trip)."""
        lacking = list(dict.fromkeys(acc.player_id for acc, _, _ in found
                                     if acc.player_id not in names))
        if lacking:
            names = {**names, **dict(zip(lacking, hget_many(
                self.conn, [keymap.account(self.prefix, p) for p in lacking], "name"),
                strict=True))}
        for acc, receipt, decision in found:
            name = names[acc.player_id]
            leaf = Leaf.result(acc, receipt or sign_receipt(key, acc),
                               as_text(name) if name else None, decision)
            yield order_bytes(acc), leaf_bytes(leaf)

    def _missing_lines(self, key: Ed25519PrivateKey,
                       missing: list[Game]) -> Iterator[tuple[bytes, bytes]]:
        """The result leaves of games whose record is gone, built from their result
        (review, refusal, or the board's entry and move log), receipts signed now; one
        with none of these is left out, with an error in the service's log."""
        from_board = self._board_results({game.game_id for game in missing})
        found: list[tuple[Accepted, str | None, Decision]] = []
        for game in missing:
            result = game.result or from_board.get(game.game_id)
            if result is None or not result.log:
                log.error("game %s of %s %s has no record and no move log: left out of "
                          "the log", game.game_id, self.day, self.ruleset)
                continue
            found.append((Accepted(
                result.code, result.player_id, result.ruleset, result.date.isoformat(),
                result.log, result.total, instant(result.finished_at)), None, game.decision))
        for start in range(0, len(found), BATCH):
            yield from self._lines_of(key, found[start:start + BATCH], {})

    def _board_results(self, wanted: set[str]) -> dict[str, Result]:
        """The results of the board's games in ``wanted``, from its entries and logs."""
        board = Leaderboard(self.conn, self.day, self.ruleset, prefix=self.prefix)
        return {entry.game_id: Result(entry.game_id, entry.player_id, entry.player_name,
                                      self.day, self.ruleset, entry.score, entry.finished_at,
                                      entry.code, text)
                for entry, text in board.iter_results() if entry.game_id in wanted}

    def _seal_results(self, keyring: Keyring) -> int:
        """Write the result leaves of every accepted game (:meth:`games`) in canonical
        order, streamed: each batch's records and names read in two round trips (by a
        thread, a batch ahead), its lines built and put aside (:class:`LineSorter`),
        then sorted and stored
        (:meth:`_store`), the log file beside the archive written on the way (no
        head names it yet); memory holds a sort key per leaf, not the leaves. Returns
        how many."""
        _, key = self.signer(keyring)
        missing: list[Game] = []
        batches = self.games()
        with LineSorter() as sorter, ThreadPoolExecutor(1, "seal-read") as reader:
            ahead = reader.submit(lambda: self._read(next(batches, None)))
            while (read := ahead.result()) is not None:
                # the next batch is read while this one is built (Redis works meanwhile)
                ahead = reader.submit(lambda: self._read(next(batches, None)))
                for order, line in self._result_lines(key, read, missing):
                    sorter.add(order, line)
            if missing:
                for order, line in self._missing_lines(key, missing):
                    sorter.add(order, line)
            with atomic_writer(self.files()[0]) as out:
                return self._store(_one_per_code(sorter.sorted()), 0, CHUNK, fresh=True,
                                   out=out)

    def seal(self, keyring: Keyring, now: dt.datetime) -> dict[str, Any]:
        """Seal the log of the closed day set, or append the decisions changed since
        (see the module docstring). Idempotent; returns what it did."""
        board = Leaderboard(self.conn, self.day, self.ruleset, prefix=self.prefix)
        if not board.frozen():
            raise StateError(f"the board of {self.day} {self.ruleset} is not frozen yet",
                             field="date")
        lock = self.conn.lock(
            keymap.lock(self.prefix, f"audit:{self.day.isoformat()}:{self.ruleset}"),
            timeout=LOCK_SECONDS, blocking_timeout=LOCK_SECONDS)
        with lock, _cycle_collector_paused():
            fresh = self.latest() is None
            appended = self._seal_results(keyring) if fresh else self._append_decisions(now)
            latest = self.latest()
            signed = None
            if latest is None or latest.size != self.size():
                signed = self._publish(keyring, now, log_written=fresh)
        if signed is not None:
            after_head(self.config, self.day, self.ruleset, signed.size)
        return {"date": self.day.isoformat(), "ruleset": self.ruleset, "size": self.size(),
                "appended": appended, "signed": signed.size if signed else None}

    def _append_decisions(self, now: dt.datetime) -> int:
        """Append a decision leaf for each game in review whose decision differs from
        its last one in the log (board games stay cleared, refusals stay refused)."""
        built = BoardBuilder()
        last_decided = instant(now - dt.timedelta(days=36500))
        for leaf in self.leaves():
            built.add(leaf)
            if leaf.decided_at:
                last_decided = max(last_decided, leaf.decided_at)
        queue = ReviewQueue(self.conn, self.prefix)
        new: list[Leaf] = []
        for entry in queue.entries_of(self.day.isoformat(), self.ruleset):
            code = entry.result.code
            decision = entry.decision  # the review's decision is the game's
            logged = built.decision(code)
            if logged is None or logged == decision:
                continue  # not in the log (reported at the close), or unchanged
            decided = instant(dt.datetime.fromtimestamp(entry.updated_at, dt.UTC)
                              if entry.updated_at else now)
            new.append(Leaf.decision_leaf(code, decision, max(decided, last_decided)))
        new.sort(key=lambda leaf: (leaf.decided_at or "", leaf.code))
        if new:
            self._store(((leaf_bytes(leaf), None) for leaf in new), self.size(), 1,
                        fresh=False)
        return len(new)


def _one_per_code(pairs: Iterable[tuple[bytes, bytes]]) -> Iterator[tuple[bytes, str]]:
    """The sorted result lines, each with its code, the same line met twice kept once;
    :class:`StateError` for two different leaves of one code."""
    last_order, last_line = b"", b""
    for order, line in pairs:
        if order == last_order:
            if line == last_line:
                continue
            raise StateError(f"two different result leaves of {order[_AT_WIDTH:].decode()}",
                             field="code")
        last_order, last_line = order, line
        yield line, order[_AT_WIDTH:].decode()


def _read_lines(path: Path, parse: Callable[[Any], T], field: str) -> list[T]:
    """Each non-blank line of a JSON Lines file, parsed; :class:`StateError` naming the
    file and the line at fault."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise StateError(f"{path} cannot be read: {exc.strerror}", field=field) from None
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.append(parse(json.loads(line)))
        except (ValueError, KeyError, TypeError) as exc:
            raise StateError(f"{path}: line {number}: {exc}", field=field) from None
    return out


def _read_log(path: Path) -> tuple[list[tuple[bytes, str | None]], list[bytes]]:
    """The lines of a log file, each with the code of a result leaf (else ``None``),
    and their hashes, checked as a verifier reads them; :class:`StateError` naming the
    file and the line at fault."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise StateError(f"{path} cannot be read: {exc.strerror}", field="log") from None
    out: list[tuple[bytes, str | None]] = []
    hashes = []
    for number, line in enumerate(lines, start=1):
        try:
            leaf = parse_leaf(line, number)
        except (VerificationFailed, VerificationInputError) as exc:
            raise StateError(f"{path}: {exc}", field="log") from None
        out.append((line, leaf.code if leaf.kind == RESULT else None))
        hashes.append(leaf_hash(line))
    return out, hashes


def _raw(value: bytes | str) -> bytes:
    """A binary Redis reply (the service's connections do not decode replies)."""
    return value if isinstance(value, bytes) else value.encode("latin-1")


def head_expected_at(config: Config, day: dt.date) -> dt.datetime:
    """When the head of ``day`` should exist: the books close, and the next rollover
    run (every ``DAILY_ROLLOVER_INTERVAL`` seconds) seals the log."""
    return calendar.books_close_at(day) + dt.timedelta(seconds=config.rollover_interval)
