"""``daily witness init|add-log|serve`` and ``daily monitor``.

A witness is run by anyone who wants to keep a deployment honest: ``init`` makes its key
(printing its vkey, which the deployment lists in ``DAILY_WITNESSES`` and clients pass
to ``verify-day --witness``), ``add-log`` trusts a deployment's results key (its
``vkey`` in ``GET /api/v1/keys``), ``serve`` answers ``POST /add-checkpoint``.

>>> main = __import__("daily.cli", fromlist=["main"]).main
>>> main(["witness", "add-log", "--dir", "/nonexistent", "--vkey", "x"])
2
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from daily.witness.witness_dir import WitnessDir


def register(subparsers: Any) -> None:
    """Add ``witness`` and ``monitor`` to the ``daily`` command line."""
    witness = subparsers.add_parser("witness", help="run a C2SP witness of results logs")
    sub = witness.add_subparsers(dest="witness_command", required=True)
    init = sub.add_parser("init", help="create a witness key in DIR; prints its vkey")
    init.add_argument("--dir", type=Path, required=True, help="the witness's folder")
    init.add_argument("--name", required=True, help="its key name, e.g. witness.example/w1")
    init.set_defaults(handler=_init)
    add = sub.add_parser("add-log", help="trust a log key (a deployment's results key vkey)")
    add.add_argument("--dir", type=Path, required=True, help="the witness's folder")
    add.add_argument("--vkey", required=True, help="the log's vkey (GET /api/v1/keys)")
    add.add_argument("--origin-prefix", help="the origins it signs (default: <key name>/)")
    add.set_defaults(handler=_add_log)
    serve = sub.add_parser("serve", help="answer POST /add-checkpoint (C2SP tlog-witness)")
    serve.add_argument("--dir", type=Path, required=True, help="the witness's folder")
    serve.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=7380, help="port (default 7380)")
    serve.set_defaults(handler=_serve)
    monitor = subparsers.add_parser(
        "monitor", help="follow a deployment's days: each checkpoint consistent with the last",
        description="Read every sealed day set's C2SP tiles: check its checkpoint (log "
                    "signature, witness quorum), that the tiles reproduce its root and the "
                    "root of the last one seen (state in --dir). Exit 0 consistent, 1 a fork "
                    "or a failed check (one line), 2 bad input.")
    monitor.add_argument("url", help="the deployment's base URL, e.g. https://dice.example")
    monitor.add_argument("--dir", type=Path, required=True, help="where it keeps what it saw")
    monitor.add_argument("--witness", action="append", default=[], metavar="VKEY",
                         help="a witness's vkey (repeatable)")
    monitor.add_argument("--quorum", type=int, help="cosignatures required (default: all)")
    monitor.add_argument("--days", type=int, default=7, help="days back to follow (default 7)")
    monitor.add_argument("--today", help="the date to count --days back from (default: today)")
    monitor.add_argument("--tiles", metavar="URL",
                         help="where the logs' tiles are served (default: URL/tlog)")
    monitor.set_defaults(handler=_monitor)


def _init(args: argparse.Namespace) -> int:
    folder = WitnessDir.init(args.dir, args.name)
    print(f"created the witness {folder.name} in {folder.path}")
    print(folder.vkey())
    return 0


def _add_log(args: argparse.Namespace) -> int:
    log = WitnessDir(args.dir).add_log(args.vkey, args.origin_prefix)
    print(f"trusting {log.vkey} for the origins {log.origin_prefix}*")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from daily.witness.witness_app import serve

    folder = WitnessDir(args.dir)
    print(f"witness {folder.vkey()} on http://{args.host}:{args.port}", flush=True)
    serve(folder.path, args.host, args.port)
    return 0


def _monitor(args: argparse.Namespace) -> int:
    from daily.dice import parse_date
    from daily.witness.monitor import run_monitor

    today = parse_date(args.today) if args.today else None
    return run_monitor(args.url, args.dir, args.witness, args.quorum, args.days, today,
                       args.tiles)
