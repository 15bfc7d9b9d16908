"""``daily keys init|rotate|list`` and ``daily verify-day``.

``verify-day`` works offline from files fetched earlier: the day descriptor
(``GET /api/v1/days/<date>/<ruleset>``, which carries the seed once the day is
revealed, or a ``GET /api/v1/days`` answer) and the public keys (``GET /api/v1/keys``).
With ``--head`` and ``--log`` (``GET .../head`` and ``GET .../log``) it also audits the
day's results log (:mod:`daily.audit.day_audit`) and prints the board it recomputed;
``--old-head`` checks that the log only grew since an earlier head, ``--proof`` checks
one game's proof (``GET /api/v1/results/<code>/proof``), ``--receipt`` (repeatable)
that the result of a receipt a player was given is in the log, ``--checkpoint`` the
day's C2SP checkpoint (``GET .../checkpoint``): its results-key signature and at least
``--quorum`` cosignatures of the ``--witness`` keys (:mod:`daily.cli.checkpoint_check`).
It prints each check it made. Exit status: 0 verified, 1 a check failed (one line on
stderr saying which), 2 bad input (unreadable file, malformed JSON, bad date).

>>> main = __import__("daily.cli", fromlist=["main"]).main
>>> main(["verify-day", "2026-13-01", "yahtzee", "--descriptor", "d.json", "--keys", "k.json"])
2
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from daily.audit.day_audit import (
    DayContext,
    PlayerReceipt,
    audit_log,
    board_lines,
    check_head,
    check_proof,
    parse_head,
    parse_proof,
    parse_receipt,
)
from daily.audit.proof import InclusionProof
from daily.audit.signing import SignedHead
from daily.audit.verify import (
    DayReport,
    VerificationFailed,
    VerificationInputError,
    format_dice,
    verify_day,
)
from daily.cli.checkpoint_check import check_checkpoint_file
from daily.dice import parse_date, parse_seed_hex
from daily.rules import canonical_name
from daily.service.config import load_config
from daily.service.days.keyring import Keyring, init_keys, rotate_signing_key

#: Largest JSON file verify-day reads (a results log is streamed, of any size).
MAX_INPUT_BYTES = 4 * 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"


def register(subparsers: Any) -> None:
    """Add ``keys`` and ``verify-day`` to the ``daily`` command line."""
    keys = subparsers.add_parser("keys", help="create, rotate and list the service keys")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)
    for name, handler, text in (
        ("init", _init, "create the master seed secret and the signing keys (never overwrites)"),
        ("rotate", _rotate, "make a new signing key; old public keys stay valid"),
        ("list", _list, "list the public keys"),
    ):
        cmd = keys_sub.add_parser(name, help=text, description=text)
        cmd.add_argument(
            "--data-dir", type=Path, help="data directory (default: $DAILY_DATA_DIR or ./var)"
        )
        if name == "list":
            cmd.add_argument("--json", action="store_true", help="print the GET /keys JSON")
        if name == "rotate":
            cmd.add_argument("--results", action="store_true",
                             help="rotate the results key (receipts, log heads) instead of "
                                  "the descriptors key")
        cmd.set_defaults(handler=handler)

    verify = subparsers.add_parser(
        "verify-day",
        help="verify a day offline: signature, seed commitment and dice",
        description=(
            "Verify a fetched day descriptor: the signature against the public keys, then, "
            "once the seed is revealed, its commitment and the dice. Exit 0 verified, "
            "1 a check failed, 2 bad input."
        ),
    )
    verify.add_argument("date", help="YYYY-MM-DD")
    verify.add_argument("ruleset", help="yahtzee, maxi-yatzy, ...")
    verify.add_argument(
        "--descriptor", required=True, help="file with GET /days/<date>/<ruleset> (- = stdin)"
    )
    verify.add_argument("--keys", required=True, help="file with GET /keys")
    verify.add_argument("--seed", help="the revealed seed (64 hex), if not in the descriptor")
    verify.add_argument(
        "--game", help="a game to check against the dice: daily-log/1, game state or result"
    )
    verify.add_argument("--dice", action="store_true", help="also print every roll of the day")
    verify.add_argument("--head", help="the day's signed head (GET .../head)")
    verify.add_argument(
        "--log", help="the day's results log, JSON Lines, gzip allowed (GET .../log; - = stdin)"
    )
    verify.add_argument("--old-head", help="an earlier head: check the log only grew since")
    verify.add_argument(
        "--proof", help="one game's proof (GET /results/<code>/proof), checked against --head"
    )
    verify.add_argument(
        "--receipt", action="append", default=[], metavar="FILE",
        help="a receipt you were given (the result object of the finish, or of GET "
             "/results/<code>, as JSON): its result must be in --log (repeatable)",
    )
    verify.add_argument(
        "--checkpoint", help="the day's checkpoint with its cosignatures (GET .../checkpoint)"
    )
    verify.add_argument(
        "--witness", action="append", default=[], metavar="VKEY",
        help="a witness's vkey whose cosignature counts (repeatable)",
    )
    verify.add_argument(
        "--quorum", type=int, metavar="K",
        help="valid witness cosignatures the checkpoint needs (default: every --witness)",
    )
    verify.add_argument(
        "--jobs", type=int, default=1, metavar="N",
        help="replay the log's games in N processes (default 1)",
    )
    verify.set_defaults(handler=_verify_day)


def _keys_dir(args: argparse.Namespace) -> Path:
    data_dir = args.data_dir if args.data_dir is not None else load_config().data_dir
    return Path(data_dir) / "keys"


def _init(args: argparse.Namespace) -> int:
    keys_dir = _keys_dir(args)
    created = init_keys(keys_dir)
    ring = Keyring.from_dir(keys_dir)
    if not created:
        print(f"keys already exist in {keys_dir}; nothing changed (active key {ring.key_id})")
        return 0
    for path in created:
        print(f"created {path}")
    print(f"active signing key {ring.key_id}")
    print(f"active results key {ring.results_key_id}")
    return 0


def _rotate(args: argparse.Namespace) -> int:
    keys_dir = _keys_dir(args)
    kind = "results" if args.results else "signing"
    old, new = rotate_signing_key(keys_dir, "results" if args.results else "descriptors")
    print(f"retired {kind} key {old} (its public key stays listed, its signatures verify)")
    print(f"active {kind} key {new}")
    print("running web processes sign with it from their next request on")
    return 0


def _list(args: argparse.Namespace) -> int:
    ring = Keyring.from_dir(_keys_dir(args))
    keys = ring.public_keys()
    if args.json:
        print(json.dumps({"keys": keys}, indent=2))
        return 0
    for key in keys:
        mark = "active " if key["active"] else "retired"
        print(f"{key['id']}  {mark}  {key['purpose']:<11}  {key['algorithm']}  "
              f"{key['created'] or '-'}")
    return 0


def _read_json(name: str, field: str) -> Any:
    try:
        if name == "-":
            text = sys.stdin.read(MAX_INPUT_BYTES + 1)
        else:
            with open(name, encoding="utf-8") as handle:
                text = handle.read(MAX_INPUT_BYTES + 1)
    except UnicodeDecodeError:
        raise VerificationInputError(f"{name} is not UTF-8 text", field=field) from None
    if len(text) > MAX_INPUT_BYTES:
        raise VerificationInputError(f"{name} is larger than {MAX_INPUT_BYTES} bytes", field=field)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise VerificationInputError(f"{name} is not valid JSON", field=field) from None


def _verify_day(args: argparse.Namespace) -> int:
    date = parse_date(args.date).isoformat()
    ruleset = canonical_name(args.ruleset)
    seed = None if args.seed is None else parse_seed_hex(args.seed.lower())
    descriptor = _read_json(args.descriptor, "descriptor")
    keys = _read_json(args.keys, "keys")
    game = None if args.game is None else _read_json(args.game, "game")
    auditing = any(v is not None for v in (args.head, args.log, args.old_head, args.proof))
    if args.log is not None and args.head is None:
        raise VerificationInputError("--log needs the --head it is checked against", field="head")
    if args.old_head is not None and args.log is None:
        raise VerificationInputError("--old-head needs the --log of the later head", field="log")
    head = None if args.head is None else parse_head(_read_json(args.head, "head"))
    old_head = (None if args.old_head is None
                else parse_head(_read_json(args.old_head, "old-head"), "old head"))
    proof = None if args.proof is None else parse_proof(_read_json(args.proof, "proof"))
    if args.receipt and args.log is None:
        raise VerificationInputError("--receipt needs the --log its result is looked up in",
                                     field="log")
    receipts = [parse_receipt(_read_json(name, "receipt"), name) for name in args.receipt]
    try:
        report = verify_day(descriptor, keys, date=date, ruleset=ruleset, seed=seed, game=game)
        for line in report.lines:
            print(line)
        if args.dice and report.dice:
            for line in format_dice(report.dice):
                print(line)
        audited = None
        if auditing:
            audited = _audit(report, head, old_head, proof, args.log, args.jobs, receipts)
        if args.checkpoint is not None or args.witness or args.quorum is not None:
            for line in check_checkpoint_file(args.checkpoint, report, date, ruleset,
                                              args.witness, args.quorum, head):
                print(line)
    except VerificationFailed as exc:
        sys.stdout.flush()
        print(f"daily: verification failed: {exc}", file=sys.stderr)
        return 1
    if audited is not None:
        print(f"verified: {date} {ruleset}, {audited}")
    elif report.complete:
        print(f"verified: {date} {ruleset}")
    else:
        print(f"signature verified: {date} {ruleset} (seed not revealed yet)")
    return 0


def _audit(
    report: DayReport,
    head: SignedHead | None,
    old_head: SignedHead | None,
    proof: InclusionProof | None,
    log: str | None,
    jobs: int = 1,
    receipts: Sequence[PlayerReceipt] = (),
) -> str:
    """The results-log part of ``verify-day``: the proof, then the whole log (or only
    the head). Returns what was verified."""
    if not report.complete or report.descriptor is None or report.seed is None:
        raise VerificationInputError(
            "the results log can be audited once the day's seed is revealed", field="seed"
        )
    day = DayContext(report.descriptor, report.seed, report.results_keys, report.anchored)
    if proof is not None:
        for line in check_proof(day, proof, head):
            print(line)
    if log is None:
        if proof is not None:
            return f"the proof of {proof.leaf.code}"
        assert head is not None
        print(check_head(day, head))
        return f"the head of {head.size} leaves"
    assert head is not None
    with _open_log(log) as handle:
        audit = audit_log(
            day, head, _log_lines(handle, log), old_head=old_head, progress=_progress,
            jobs=jobs, receipts=receipts,
        )
    for line in audit.lines:
        print(line)
    assert audit.board is not None
    for line in board_lines(audit.board):
        print(line)
    held = f" and {len(receipts)} receipt{'s' if len(receipts) != 1 else ''} in it" \
        if receipts else ""
    return f"results log of {audit.size} leaves{held}"


def _progress(count: int) -> None:
    print(f"... {count} leaves checked", file=sys.stderr, flush=True)


def _open_log(name: str) -> IO[bytes] | gzip.GzipFile:
    handle = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
    if isinstance(handle, io.BufferedReader) and handle.peek(2)[:2] == GZIP_MAGIC:
        return gzip.GzipFile(fileobj=handle)
    return handle


def _log_lines(handle: IO[bytes] | gzip.GzipFile, name: str) -> Iterator[bytes]:
    """The lines of a log file (a final newline ends the last line; no blank lines)."""
    try:
        for number, line in enumerate(handle, start=1):
            line = line.rstrip(b"\r\n")
            if not line.strip():
                raise VerificationInputError(f"log line {number}: empty", field="log")
            yield line
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise VerificationInputError(f"{name} cannot be read: {exc}", field="log") from None
