"""Running the service: ``daily serve`` on one machine, the scheduler, the web server.

- :mod:`~daily.service.ops.embedded`: the embedded Valkey and the whole stack;
- :mod:`~daily.service.ops.supervisor`: child processes kept running;
- :mod:`~daily.service.ops.scheduler`: RQ's cron scheduler and the jobs it enqueues;
- :mod:`~daily.service.ops.webserver`: the gunicorn settings;
- :mod:`~daily.service.ops.routes`: ``/health`` and ``/openapi.json``;
- :mod:`~daily.service.ops.wiring`: ``init_app``, the domain's registration on an app.
"""
