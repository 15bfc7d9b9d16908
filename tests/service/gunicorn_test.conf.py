"""Gunicorn settings of the live test server: the deployment's, plus one test hook.

``DAILY_TEST_HANDOFF`` (seconds, default 0): when set, each worker takes one
connection at a time and closes it after one response (no keep-alive, so browsers too
open a new connection per request); after each response it rests until another worker
has answered a request, at most that long. While it rests only the other workers
accept, so a client's next request is taken by another worker: consecutive requests
land on alternate workers (strictly, as long as the next request comes within the
handoff time).
"""

import multiprocessing
import os
import sys
import time
from pathlib import Path

_DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
exec(compile(_DEPLOY.read_text(), str(_DEPLOY), "exec"))

wsgi_app = "tests.service.live_app:create()"
accesslog = None
# No control socket: every test server would share the one default path
# (~/.gunicorn/gunicorn.ctl), and closing it makes each stop wait.
control_socket_disable = True
_HANDOFF = float(os.environ.get("DAILY_TEST_HANDOFF", "0"))
#: The pid of the worker that answered last, shared by the workers (forked from here).
_LAST = multiprocessing.RawValue("q", 0)
if _HANDOFF > 0:
    worker_connections = 1
    keepalive = 0


def post_request(worker: object, req: object, environ: object, resp: object) -> None:
    """Rest after a response until another worker has answered (the handoff)."""
    if _HANDOFF > 0:
        me = os.getpid()
        _LAST.value = me
        deadline = time.monotonic() + _HANDOFF
        while _LAST.value == me and time.monotonic() < deadline:
            time.sleep(0.003)


def worker_exit(server: object, worker: object) -> None:
    """A worker that stops cleanly leaves at once: tearing down its interpreter (half a
    second of CPU on the test machine, per worker and stop) serves no test. A worker
    that fails (to boot, say) exits with its status as usual."""
    error = sys.exc_info()[1]
    if isinstance(error, SystemExit) and error.code in (0, None):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
