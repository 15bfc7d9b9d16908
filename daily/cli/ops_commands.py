"""``daily serve``, ``daily worker``, ``daily scheduler`` and ``daily rebuild``.

Configuration comes from the environment (see :mod:`daily.service.config`).

* ``daily serve``: the embedded stack (:mod:`daily.service.ops.embedded`), Ctrl-C stops it.
* ``daily worker results [--burst]``: the results consumer
  (:class:`daily.service.results.stream.ResultConsumer`); ``daily worker [days]``: an
  RQ worker on the ``days`` queue (rollover, archives, par).
* ``daily scheduler``: the rollover scheduler (:mod:`daily.service.ops.scheduler`).
* ``daily rebuild DATE RULESET [--archive FILE]``: rebuild a board from its archive,
  printing progress.

>>> main = __import__("daily.cli", fromlist=["main"]).main
>>> main(["rebuild", "2026-02-30", "yahtzee"])
2
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service.config import ConfigError, load_config
from daily.service.connections import (
    ALL_QUEUES,
    DAYS_QUEUE,
    RESULTS_STREAM,
    queue_redis_from_config,
    redis_from_config,
)
from daily.service.results.stream import BATCH, LINGER_MS

#: Seconds a results consumer told to stop (SIGTERM, Ctrl-C) gets to finish its batch.
STOP_GRACE = 3.0


def register(subparsers: Any) -> None:
    """Add the ops commands to the ``daily`` command line."""
    serve = subparsers.add_parser(
        "serve",
        help="run the service: embedded Redis (unless REDIS_URL), worker, scheduler, web",
    )
    serve.add_argument("--host", help="address the web server listens on (default DAILY_HOST"
                       " or 127.0.0.1; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=int, help="web server port (default DAILY_PORT or 8000)")
    serve.add_argument("--web-workers", type=int, default=2, help="gunicorn workers (default 2)")
    serve.add_argument(
        "--access-log", action="store_true",
        help="log a line per request (gunicorn's access log) and per job; off by default",
    )
    serve.add_argument(
        "--demo-day-minutes", type=float, metavar="N",
        help="demo clock: a day passes in N real minutes (data in <data>/demo, own keys;"
        " refused with REDIS_URL or production keys)",
    )
    serve.set_defaults(handler=_serve)

    worker = subparsers.add_parser(
        "worker",
        help="`daily worker results`: the results consumer; `daily worker [days]`: an RQ worker",
    )
    worker.add_argument(
        "queues", nargs="*", default=[DAYS_QUEUE],
        help="`results` (the results stream consumer, alone) or RQ queues (default: days)",
    )
    worker.add_argument(
        "--burst", action="store_true", help="stop when there is nothing left to do"
    )
    worker.add_argument("--name", help="worker or consumer name (default: host and pid)")
    worker.add_argument(
        "--quiet", action="store_true", help="log warnings and errors only, not every job"
    )
    worker.add_argument(
        "--simple",
        action="store_true",
        help="RQ: run jobs in the worker process (no fork per job)",
    )
    worker.add_argument(
        "--batch", type=int, default=BATCH,
        help=f"results: entries read per stream and call (default {BATCH})",
    )
    worker.add_argument(
        "--linger-ms", type=int, default=LINGER_MS,
        help=f"results: wait after a partial batch so that the next one gathers more "
        f"(default {LINGER_MS}; 0 reads again at once)",
    )
    worker.add_argument(
        "--rank-first", action="store_true",
        help="results: while the fair-play engine compiles (a fresh clone's first start),"
        " rank each game at once and check it once the engine is ready; the game stays off"
        " the public top until then (`daily serve` does this)",
    )
    worker.set_defaults(handler=_worker)

    scheduler = subparsers.add_parser("scheduler", help="run the rollover scheduler (REDIS_URL)")
    scheduler.add_argument(
        "--interval", type=int, help="seconds between rollovers (default 60)"
    )
    scheduler.add_argument(
        "--quiet", action="store_true", help="log warnings and errors only, not every job"
    )
    scheduler.set_defaults(handler=_scheduler)

    rebuild = subparsers.add_parser(
        "rebuild", help="rebuild the leaderboard of DATE RULESET from its archive"
    )
    rebuild.add_argument("date", help="YYYY-MM-DD")
    rebuild.add_argument("ruleset", help="yahtzee, maxi-yatzy, ...")
    rebuild.add_argument("--archive", type=Path, help="archive file (default: in the data dir)")
    rebuild.set_defaults(handler=_rebuild)


def _serve(args: argparse.Namespace) -> int:
    from daily.service.ops.embedded import EmbeddedStack, demo_config

    if not 1 <= args.web_workers <= 64:
        raise ConfigError("must be 1..64", field="--web-workers")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise ConfigError("must be 1..65535", field="--port")
    if args.host is not None and (not args.host or any(c.isspace() for c in args.host)):
        raise ConfigError("must be an address such as 127.0.0.1 or 0.0.0.0", field="--host")
    config = load_config()
    if args.host is not None:
        config = config.with_overrides(host=args.host)
    if args.port is not None:
        config = config.with_overrides(port=args.port)
    if args.demo_day_minutes is not None:
        config = demo_config(config, args.demo_day_minutes)
    return EmbeddedStack(config, web_workers=args.web_workers, access_log=args.access_log).run()


def _worker(args: argparse.Namespace) -> int:
    if RESULTS_STREAM in args.queues:
        if len(args.queues) > 1:
            raise ConfigError(
                "`results` is the results stream consumer: run it as its own process"
                " (`daily worker results`)", field="queues",
            )
        return _results_consumer(args)
    from rq import Queue, SimpleWorker, Worker

    unknown = [q for q in args.queues if q not in ALL_QUEUES]
    if unknown:
        raise ConfigError(
            f"unknown queue {unknown[0]!r}; queues: {', '.join((RESULTS_STREAM, *ALL_QUEUES))}",
            field="queues",
        )
    conn = queue_redis_from_config(load_config())
    queues = [Queue(name, connection=conn) for name in args.queues]
    worker_class = SimpleWorker if args.simple else Worker
    worker = worker_class(queues, connection=conn, name=args.name)
    # with_scheduler: moves retries that wait (Retry intervals) back onto their queue.
    worker.work(
        burst=args.burst, with_scheduler=True, logging_level="WARNING" if args.quiet else "INFO"
    )
    return 0


def _results_consumer(args: argparse.Namespace) -> int:
    import logging
    import os
    import signal
    import threading

    from daily.service.results.stream import ResultConsumer, pause_dir_hook
    from daily.service.review import postponed

    if not 1 <= args.batch <= 10_000:
        raise ConfigError("must be 1..10000", field="--batch")
    if not 0 <= args.linger_ms <= 1000:
        raise ConfigError("must be 0..1000 milliseconds", field="--linger-ms")
    config = load_config()
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s results %(levelname)s %(message)s",
    )
    pause_dir = os.environ.get("DAILY_TEST_PAUSE_DIR")  # tests only: see ResultConsumer
    conn = redis_from_config(config)
    consumer = ResultConsumer(
        conn, prefix=config.key_prefix, name=args.name,
        batch=args.batch, pause=pause_dir_hook(Path(pause_dir)) if pause_dir else None,
        gate=functools.partial(postponed.gate, conn, config),
        player_ttl=config.player_days * 86400, linger_ms=args.linger_ms,
    )
    def on_signal(*_: object) -> None:
        # Finish the batch in hand; one still busy after STOP_GRACE seconds (a check
        # computing a ceiling) is abandoned: its entries stay pending in the group and
        # the next consumer applies them (each result is applied atomically, once).
        consumer.stop()
        timer = threading.Timer(STOP_GRACE, os._exit, args=(0,))
        timer.daemon = True
        timer.start()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    # The engine compiles in the background: the loop starts at once, and the games of
    # its first seconds are ranked at once, checked when it is ready.
    postponed.start(conn, config, postpone=args.rank_first and not args.burst)
    logging.getLogger("daily.results").info("results consumer %s started", consumer.name)
    consumer.run(burst=args.burst)
    return 0


def _scheduler(args: argparse.Namespace) -> int:
    from daily.service.ops.scheduler import build_scheduler
    from workers.reminders import send_reminders
    from workers.rollover import rollover

    config = load_config()
    if args.interval is not None and not 1 <= args.interval <= 3600:
        raise ConfigError("must be 1..3600 seconds", field="--interval")
    build_scheduler(queue_redis_from_config(config), config, rollover, args.interval,
                    quiet=args.quiet, reminders=send_reminders).start()
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    from daily.service.audit.day_log import DayLog
    from daily.service.results.archive import archive_path
    from daily.service.review.queue import rebuild_day

    date = parse_date(args.date).isoformat()
    ruleset = canonical_name(args.ruleset)
    config = load_config()
    path = args.archive or archive_path(config.archive_dir, date, ruleset)
    conn = redis_from_config(config)

    def progress(done: int, total: int) -> None:
        pct = 100 * done / total if total else 100.0
        print(f"rebuild {date} {ruleset}: {done}/{total} ({pct:.0f}%)", file=sys.stderr)

    summary = rebuild_day(
        conn, path, prefix=config.key_prefix, progress=progress, expect=(date, ruleset)
    )
    print(f"rebuilt {summary.date} {summary.ruleset}: {summary.players} players from {path}")
    leaves = DayLog(conn, config, parse_date(date), ruleset).restore(Path(path))
    if leaves is not None:
        print(f"restored the results log of {date} {ruleset}: {leaves} leaves")
    return 0
