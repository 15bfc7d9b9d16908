"""The offline audit of a day's results log, and the check of one game's proof.

Given a verified, revealed day (descriptor, seed and key list:
:func:`daily.audit.verify.verify_day`), a signed head and the log's leaves,
:func:`audit_log` checks, in this order:

1. the head: for this day and ruleset, signed by a listed key (and the old head too);
2. every leaf, in log order: well formed, in canonical order (:mod:`daily.audit.board`),
   for this day; a result leaf's game replays on the day's dice to exactly its score
   (:func:`daily.audit.verify.verify_game`) and its receipt verifies with a listed key;
3. the number of leaves is the head's size, and their root is the head's root;
4. with an old head: the first ``old.size`` leaves hash to the old root, i.e. the RFC
   6962 consistency proof between the two heads verifies (nothing was rewritten);

then, for each receipt a player brings (:func:`parse_receipt`, the ``result`` object
the finish answered), that its result is a result leaf of the log (:func:`check_receipts`);
then recomputes the public board. The first difference raises
:class:`daily.audit.verify.VerificationFailed` with one line naming the leaf (0-based index and
code), the field, what was expected and what was found; malformed input raises
:class:`daily.audit.verify.VerificationInputError`. No server, Flask or Redis involved.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from daily.audit.board import Board, BoardBuilder, OrderChecker, OrderError
from daily.audit.canonical import NotCanonical, check_canonical
from daily.audit.leaf import RESULT, Accepted, Leaf
from daily.audit.merkle import MerkleTree, leaf_hash, verify_consistency
from daily.audit.proof import InclusionProof
from daily.audit.signing import (
    HeadError,
    SignedHead,
    receipt_key_id,
    verify_head,
    verify_receipt,
)
from daily.audit.verify import Descriptor, VerificationFailed, VerificationInputError, verify_game
from daily.dice import SlotCache
from daily.errors import DailyError
from daily.movelog import parse_log
from daily.rules import get_ruleset

#: Longest line of a log accepted, in characters.
MAX_LINE = 256 * 1024
#: How often (leaves) the progress callback is called.
PROGRESS_EVERY = 100_000


@dataclass
class AuditReport:
    """What the audit checked, line by line, and the board it recomputed."""

    lines: list[str] = field(default_factory=list)
    board: Board | None = None
    size: int = 0
    games: int = 0


@dataclass
class DayContext:
    """The verified day the log is checked against: descriptor, seed, and the results
    keys (:attr:`daily.audit.verify.DayReport.results_keys`: the one the ``day/2`` descriptor
    names, ``anchored``, or the key list's)."""

    descriptor: Descriptor
    seed: bytes
    keys: Mapping[str, Ed25519PublicKey]
    anchored: bool = False
    slots: SlotCache = field(init=False)

    def unknown_key(self, key_id: str) -> str:
        """Why ``key_id`` may not sign for this day (the end of a failure line)."""
        if self.anchored:
            return (f"{key_id}, which is not the day's results key "
                    f"({', '.join(self.keys)}, named by its descriptor)")
        return f"{key_id}, which is not in the key list (as a results key)"

    def __post_init__(self) -> None:
        rules = get_ruleset(self.descriptor.ruleset, self.descriptor.fields["options"])
        self.slots = SlotCache(self.seed, rules.dice)


def parse_head(obj: object, what: str = "head") -> SignedHead:
    """A signed head from its JSON (malformed: :class:`VerificationInputError`)."""
    try:
        return SignedHead.from_json(obj)
    except HeadError as exc:
        raise VerificationInputError(f"{what}: {exc}") from None


def check_head(day: DayContext, head: SignedHead, what: str = "head") -> str:
    """Raise :class:`VerificationFailed` unless ``head`` is this day's, signed by a listed
    key; returns the line that says so."""
    found = (head.date, head.ruleset)
    expected = (day.descriptor.date, day.descriptor.ruleset)
    if found != expected:
        raise VerificationFailed(
            f"{what}: date and ruleset: expected {expected[0]} {expected[1]}, "
            f"found {found[0]} {found[1]}"
        )
    public = day.keys.get(head.key_id)
    if public is None:
        raise VerificationFailed(f"{what}: key_id: signed by key {day.unknown_key(head.key_id)}")
    if not verify_head(public, head):
        raise VerificationFailed(
            f"{what}: signature: does not verify with key {head.key_id} "
            "(the head was altered or signed by another key)"
        )
    return f"{what}: ok ({head.size} leaves, root {head.root[:16]}..., signed {head.time} " \
           f"by key {head.key_id})"


def parse_leaf(line: str | bytes, number: int) -> Leaf:
    """The leaf of log line ``number`` (1-based): the line must be the canonical JSON
    of a leaf, byte for byte (:func:`daily.audit.canonical.parse_canonical`), since the
    line is what is hashed. Malformed: :class:`VerificationInputError`; well formed but
    not canonical (a duplicate key, whitespace, an escape, the key order): a
    :class:`VerificationFailed` naming the line and what is wrong.

    >>> parse_leaf(b'{"version": "daily-results-leaf/v1", "kind": "decision"}', 7)
    Traceback (most recent call last):
    ...
    daily.audit.verify.VerificationInputError: log line 7: code: is missing
    >>> parse_leaf(b'{"code":"DD-1","decided_at":"2026-12-01T08:00:00.000Z","decision":'
    ...            b'{"reason":null,"status":"held","status":"cleared"},"kind":"decision",'
    ...            b'"version":"daily-results-leaf/v1"}', 8)
    Traceback (most recent call last):
    ...
    daily.audit.verify.VerificationFailed: log line 8: not canonical JSON: the key 'status' \
appears twice in one object (a reader may keep either value)
    """
    if len(line) > MAX_LINE:
        raise VerificationInputError(f"log line {number}: longer than {MAX_LINE} characters")
    raw = line if isinstance(line, bytes) else line.encode("utf-8")
    try:  # orjson first, several times faster; json where it refuses (same messages)
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            obj = json.loads(raw)
    except (ValueError, RecursionError):
        raise VerificationInputError(f"log line {number}: not valid JSON") from None
    try:
        leaf = Leaf.from_json(obj)
        check_canonical(raw, obj)
    except NotCanonical as exc:
        raise VerificationFailed(f"log line {number}: not canonical JSON: {exc}") from None
    except DailyError as exc:
        raise VerificationInputError(f"log line {number}: {exc}") from None
    return leaf


@dataclass(frozen=True)
class PlayerReceipt:
    """A receipt a player was given: the result code, the receipt and, when the player
    has it, what it signs (the finish answers it; ``GET /results/{code}`` once revealed)."""

    code: str
    receipt: str
    accepted: Accepted | None
    source: str


def parse_receipt(obj: object, source: str = "receipt") -> PlayerReceipt:
    """The receipt of a ``result`` object as JSON (``code``, ``receipt`` and, if there,
    ``accepted``); malformed: :class:`VerificationInputError` naming ``source``.

    >>> parse_receipt({"code": "DD-1"}, "r.json")
    Traceback (most recent call last):
    ...
    daily.audit.verify.VerificationInputError: r.json: receipt: is missing (a ranked result's \
receipt, as the finish answered it)
    """
    if isinstance(obj, Mapping) and isinstance(obj.get("result"), Mapping):
        obj = obj["result"]  # the whole finish answer
    if not isinstance(obj, Mapping):
        raise VerificationInputError(f"{source}: a receipt file is the JSON of a result object")
    receipt = obj.get("receipt")
    if receipt is None:
        raise VerificationInputError(f"{source}: receipt: is missing (a ranked result's "
                                     "receipt, as the finish answered it)")
    try:
        receipt_key_id(receipt)
        accepted = (None if obj.get("accepted") is None
                    else Accepted.from_json(obj["accepted"]))
    except DailyError as exc:
        raise VerificationInputError(f"{source}: {exc}") from None
    code = obj.get("code", accepted.code if accepted is not None else None)
    if not isinstance(code, str) or (accepted is not None and accepted.code != code):
        raise VerificationInputError(f"{source}: code: is not the result code of the receipt")
    return PlayerReceipt(code, receipt, accepted, source)


def check_receipt_signature(day: DayContext, held: PlayerReceipt) -> None:
    """Raise :class:`VerificationFailed` unless the receipt (with what it signs) verifies
    with the day's results key; a receipt without ``accepted`` is matched by its bytes."""
    key_id = receipt_key_id(held.receipt)
    public = day.keys.get(key_id)
    if public is None:
        raise VerificationFailed(
            f"receipt {held.code} ({held.source}): made by key {day.unknown_key(key_id)}")
    if held.accepted is not None and not verify_receipt(public, held.accepted, held.receipt):
        raise VerificationFailed(
            f"receipt {held.code} ({held.source}): does not verify with key {key_id} "
            "(not the receipt of this result)")


def check_receipts(held: Iterable[PlayerReceipt], found: Mapping[str, tuple[int, Leaf]]
                   ) -> list[str]:
    """For each receipt, the line saying which leaf holds its result; the first whose
    result is not in the log raises :class:`VerificationFailed` naming its code.
    ``found`` is the result leaves of the receipts' codes, by code."""
    lines = []
    for receipt in held:
        at = found.get(receipt.code)
        leaf = at[1] if at is not None else None
        same = leaf is not None and leaf.receipt == receipt.receipt and (
            receipt.accepted is None or leaf.accepted == receipt.accepted)
        if at is None or leaf is None or not same:
            other = "" if at is None else (
                f"; leaf {at[0]} holds another result under that code")
            raise VerificationFailed(
                f"a signed receipt whose result is not in the log: {receipt.code} "
                f"({receipt.source}{other})")
        assert leaf.accepted is not None
        lines.append(
            f"receipt: ok ({receipt.code} is leaf {at[0]}, score {leaf.accepted.score}, "
            f"decision {leaf.decision.status})")
    return lines


def check_game(day: DayContext, leaf: Leaf, where: str) -> None:
    """Replay a result leaf's game to its score and check its receipt."""
    acc = leaf.accepted
    assert acc is not None
    for name, expected in (("date", day.descriptor.date), ("ruleset", day.descriptor.ruleset)):
        found = getattr(acc, name)
        if found != expected:
            raise VerificationFailed(
                f"{where}: accepted.{name}: expected {expected}, found {found}"
            )
    try:
        log = parse_log(acc.log)
        check = verify_game(day.descriptor, day.seed, log, slots=day.slots)
    except DailyError as exc:
        raise VerificationFailed(f"{where}: accepted.log: {exc}") from None
    if not log.complete:
        raise VerificationFailed(f"{where}: accepted.log: the game is not finished")
    if check.total != acc.score:
        raise VerificationFailed(
            f"{where}: accepted.score: expected {check.total} (the replay), found {acc.score}"
        )
    try:
        key_id = receipt_key_id(leaf.receipt)
    except HeadError as exc:
        raise VerificationFailed(f"{where}: {exc}") from None
    public = day.keys.get(key_id)
    if public is None:
        raise VerificationFailed(f"{where}: receipt: made by key {day.unknown_key(key_id)}")
    if not verify_receipt(public, acc, leaf.receipt or ""):
        raise VerificationFailed(
            f"{where}: receipt: does not verify with key {key_id} (forged, or the accepted "
            "game was changed)"
        )


class _InlineGames:
    """Checks each result leaf's game as it comes."""

    def __init__(self, day: DayContext) -> None:
        self.day = day

    def add(self, index: int, leaf: Leaf) -> None:
        check_game(self.day, leaf, f"leaf {index} ({leaf.code})")

    def drain(self) -> None:
        """Nothing is pending."""

    def close(self) -> None:
        """Nothing to stop."""


_worker_day: DayContext | None = None


def _start_worker(descriptor: Descriptor, seed: bytes, keys: dict[str, bytes],
                  anchored: bool) -> None:
    global _worker_day
    public = {key_id: Ed25519PublicKey.from_public_bytes(raw) for key_id, raw in keys.items()}
    _worker_day = DayContext(descriptor, seed, public, anchored)


def _check_batch(batch: list[tuple[int, Leaf]]) -> str | None:
    """In a worker: the first failure of a batch of games, or None."""
    assert _worker_day is not None
    for index, leaf in batch:
        try:
            check_game(_worker_day, leaf, f"leaf {index} ({leaf.code})")
        except VerificationFailed as exc:
            return str(exc)
    return None


class _PooledGames:
    """Checks the games in worker processes, batch by batch, failures taken in order."""

    BATCH = 500

    def __init__(self, day: DayContext, jobs: int) -> None:
        keys = {key_id: key.public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw)
                for key_id, key in day.keys.items()}
        self.pool = ProcessPoolExecutor(jobs, initializer=_start_worker,
                                        initargs=(day.descriptor, day.seed, keys, day.anchored))
        self.batch: list[tuple[int, Leaf]] = []
        self.pending: deque[Future[str | None]] = deque()
        self.limit = 2 * jobs

    def add(self, index: int, leaf: Leaf) -> None:
        self.batch.append((index, leaf))
        if len(self.batch) >= self.BATCH:
            self._submit()
            while len(self.pending) > self.limit:
                self._collect()

    def _submit(self) -> None:
        if self.batch:
            self.pending.append(self.pool.submit(_check_batch, self.batch))
            self.batch = []

    def _collect(self) -> None:
        failure = self.pending.popleft().result()
        if failure is not None:
            self.pending.clear()  # later batches can only hold later failures
            raise VerificationFailed(failure)

    def drain(self) -> None:
        """Wait for every game sent; raise the first failure among them."""
        self._submit()
        while self.pending:
            self._collect()

    def close(self) -> None:
        """Stop the workers (whatever is still pending is dropped)."""
        self.pool.shutdown(cancel_futures=True)


def audit_log(
    day: DayContext,
    head: SignedHead,
    lines: Iterable[str | bytes],
    *,
    old_head: SignedHead | None = None,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    receipts: Sequence[PlayerReceipt] = (),
) -> AuditReport:
    """Audit the whole log ``lines`` (JSON Lines, one leaf a line) against ``head``.

    Raises :class:`VerificationFailed` at the first difference (one precise line) and
    :class:`VerificationInputError` for malformed input. With ``jobs`` > 1 the games are
    replayed and their receipts checked in that many worker processes (the failure
    reported is still the first in log order). Each of ``receipts`` must verify with the
    day's results key and its result be a result leaf of the log (:func:`check_receipts`).
    """
    report = AuditReport()
    report.lines.append(check_head(day, head))
    for held in receipts:
        check_receipt_signature(day, held)
    wanted = {held.code for held in receipts}
    found: dict[str, tuple[int, Leaf]] = {}
    if old_head is not None:
        report.lines.append(check_head(day, old_head, "old head"))
        if old_head.size > head.size:
            raise VerificationFailed(
                f"old head: size: expected at most the head's {head.size}, found {old_head.size}"
            )
    order, board, hashes = OrderChecker(), BoardBuilder(), []
    games = _InlineGames(day) if jobs <= 1 else _PooledGames(day, jobs)
    try:
        for number, line in enumerate(lines, start=1):
            index = number - 1
            leaf = parse_leaf(line, number)
            try:
                order.check(index, leaf)
            except OrderError as exc:
                raise VerificationFailed(str(exc)) from None
            if leaf.kind == RESULT:
                games.add(index, leaf)
                report.games += 1
                if leaf.code in wanted:
                    found.setdefault(leaf.code, (index, leaf))
            board.add(leaf)
            hashes.append(leaf_hash(line if isinstance(line, bytes) else line.encode()))
            if progress is not None and number % PROGRESS_EVERY == 0:
                progress(number)
        games.drain()
    except (VerificationFailed, VerificationInputError):
        games.drain()  # a game before the leaf at fault may have failed first
        raise
    finally:
        games.close()
    report.size = len(hashes)
    report.lines.append(
        f"leaves: {report.size} well formed, in canonical order; {report.games} games replay "
        "to their scores on the day's dice, every receipt verifies"
    )
    if report.size != head.size:
        raise VerificationFailed(
            f"log: size: expected {head.size} leaves (the head), found {report.size}"
        )
    tree = MerkleTree(hashes)
    if tree.root() != head.root_bytes:
        raise VerificationFailed(
            f"log: root: expected {head.root} (the head), found {tree.root().hex()} "
            "(a leaf was changed)"
        )
    report.lines.append(f"root: ok (RFC 6962 tree of {report.size} leaves, {head.root})")
    if old_head is not None:
        proof = tree.consistency_proof(old_head.size)
        if not verify_consistency(old_head.size, head.size, old_head.root_bytes,
                                  head.root_bytes, proof):
            raise VerificationFailed(
                f"old head: root: expected {old_head.root} (the old head), found "
                f"{tree.subtree(0, old_head.size).hex()} over the log's first {old_head.size} "
                "leaves: the later head rewrites history"
            )
        report.lines.append(
            f"consistency: ok (the old head's {old_head.size} leaves are the first of the "
            f"{head.size}; proof of {len(proof)} hashes)"
        )
    report.lines.extend(check_receipts(receipts, found))
    report.board = board.board()
    return report


def check_proof(
    day: DayContext, proof: InclusionProof, head: SignedHead | None = None
) -> list[str]:
    """Check one game's proof: its head (``head`` if given, else the proof's own), the
    leaf's game and receipt, and the audit path to the head's root. Returns the lines."""
    if head is not None and proof.head != head:
        raise VerificationFailed(
            f"proof: head: expected the given head (size {head.size}, root {head.root[:16]}...), "
            f"found size {proof.head.size}, root {proof.head.root[:16]}..."
        )
    lines = [check_head(day, proof.head)]
    where = f"proof: leaf {proof.index} ({proof.leaf.code})"
    if proof.leaf.kind == RESULT:
        check_game(day, proof.leaf, where)
    if not proof.verifies():
        raise VerificationFailed(
            f"{where}: audit_path: does not lead to the head's root {proof.head.root}"
        )
    lines.append(
        f"proof: ok ({proof.leaf.code} is leaf {proof.index} of {proof.head.size}; "
        f"decision {proof.leaf.decision.status})"
    )
    return lines


def parse_proof(obj: object) -> InclusionProof:
    """An inclusion proof from its JSON (malformed: :class:`VerificationInputError`)."""
    try:
        return InclusionProof.from_json(obj)
    except DailyError as exc:
        raise VerificationInputError(f"proof: {exc}") from None


def board_lines(board: Board) -> list[str]:
    """The recomputed board as printed lines: counts, rows, histogram, summary.

    >>> from daily.audit.board import board_of
    >>> board_lines(board_of([]))[0]
    'board: 0 cleared, 0 held, 0 disqualified, 0 pending; the public board holds the 0 \
cleared games'
    """
    counts = ", ".join(f"{n} {status}" for status, n in board.decisions.items())
    out = [f"board: {counts}; the public board holds the {len(board.rows)} cleared games"]
    for row in board.rows:
        out.append(f"{row.rank:>6} {row.percentile:>5.1f}% {row.score:>5} {row.code} "
                   f"{row.name if row.name is not None else '-'}")
    bins = ", ".join(f"{b['from']}-{b['to']}: {b['count']}" for b in board.histogram["bins"])
    out.append(f"histogram: {bins or 'empty'}")
    s = board.summary
    out.append(f"summary: players {s['players']}, mean {s['mean']}, median {s['median']}, "
               f"best {s['best']}, worst {s['worst']}")
    return out
