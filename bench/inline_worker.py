"""A measurement aid, not a worker the service deploys: gunicorn's gthread worker, except
that a connection the poller finds readable (kept alive, or new once its first bytes
arrive) is served on the worker's main thread, without the two hand-offs between that
thread and the pool (the pool's queue, then the pipe that wakes the main thread to put
the connection back in its poller). A new connection waits in the poller until it sends.

It shows what those hand-offs cost a request. Use it in a bench through gunicorn's
configuration, for example::

    GUNICORN_WORKER_CLASS=bench.inline_worker.InlineWorker GUNICORN_THREADS=1 \\
        python bench/hints_api.py --seconds 8 --clients 1,4

Why the service does not deploy it: a client that sends half a request holds the
main thread (and so every other connection of the worker, and its heartbeat) until
it sends the rest, where gthread loses one pool thread of several.
"""

from __future__ import annotations

from concurrent import futures
from typing import Any

from gunicorn.workers.gthread import _DEFER, ThreadWorker


class InlineWorker(ThreadWorker):
    """gthread, serving a connection with data on the main thread (module docstring)."""

    def enqueue_req(self, conn: Any) -> None:
        """Serve ``conn`` now, then put it back in the poller as gthread would."""
        done: futures.Future[Any] = futures.Future()
        if not conn.initialized and not conn.data_ready:
            done.set_result(_DEFER)  # nothing sent yet: the poller waits for it
        else:
            try:
                done.set_result(self.handle(conn))
            except Exception as exc:  # handed to finish_request, which closes the connection
                done.set_exception(exc)
        self.finish_request(conn, done)
