"""Gunicorn settings of the Daily Dice web service (``gunicorn -c deploy/gunicorn.conf.py``).

Every value can be overridden from the environment (``GUNICORN_*`` below), the app
itself reads ``REDIS_URL`` and the other ``DAILY_*`` variables.
"""

import multiprocessing
import os

# No control socket under ~/.gunicorn, request limits, the hook that makes gunicorn's own
# 400/414/431 answers JSON (and warms the strategy engine) and the
# one that marks an exited worker's metrics dead (with PROMETHEUS_MULTIPROC_DIR set),
# shared with `daily serve`.
from daily.service.ops.webserver import (  # noqa: F401
    child_exit,
    control_socket_disable,
    limit_request_field_size,
    limit_request_fields,
    limit_request_line,
    post_worker_init,
)

wsgi_app = "daily.service.app:create_app()"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Requests are short and CPU-bound (replaying a move log): one process per core, a few
# threads each to overlap the Redis round trips. The worker classes compared on the
# same load (docs/performance.md): gthread is kept; GUNICORN_WORKER_CLASS overrides it.
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count()))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
# Threads only for gthread: gunicorn silently turns a sync worker with threads > 1 into
# gthread (a comparison of "sync" once measured gthread twice that way).
threads = int(os.environ.get("GUNICORN_THREADS", "4" if worker_class == "gthread" else "1"))
timeout = 30
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then (jitter avoids restarting them all at once).
max_requests = 20000
max_requests_jitter = 2000
# Behind nginx on the same host: trust its X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
# No access log by default: nginx in front keeps one (deploy/nginx/daily.conf), and
# gunicorn's costs about 4% of the CPU of a move under load. GUNICORN_ACCESSLOG=- logs to
# stdout (or a file path).
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# Import the app once in the master, so workers fork with it loaded.
preload_app = True
