"""Gunicorn settings of the live test server: the deployment's, plus one test hook.

``DAILY_TEST_HANDOFF`` (seconds, default 0): when set, each worker takes one
connection at a time and rests that long after each response, so a client's next
request is taken by another worker (consecutive requests land on alternate workers).
"""

import os
import time
from pathlib import Path

_DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
exec(compile(_DEPLOY.read_text(), str(_DEPLOY), "exec"))

wsgi_app = "tests.service.live_app:create()"
accesslog = None
_HANDOFF = float(os.environ.get("DAILY_TEST_HANDOFF", "0"))
if _HANDOFF > 0:
    worker_connections = 1


def post_request(worker: object, req: object, environ: object, resp: object) -> None:
    """Rest after a response, so that the other workers take the next connection."""
    if _HANDOFF > 0:
        time.sleep(_HANDOFF)
