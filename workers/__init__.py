"""RQ jobs of Daily Dice: plain module-level functions that take ids or JSON.

Every job is idempotent (running it twice changes nothing) and lets failures raise,
so that RQ records them in its failed-job registry.

* :func:`workers.rollover.rollover` (queue ``days``, every minute from the scheduler):
  freeze, final statistics and archive of every closed day, then the par job.

Jobs find Redis through :func:`workers.runtime.job_connection` (the connection of the
worker running them) and the key prefix through ``DAILY_KEY_PREFIX``.

Finished ranked games do not go through RQ: ``daily worker results`` consumes them from
Redis Streams (:mod:`daily.service.results.stream`).
"""
