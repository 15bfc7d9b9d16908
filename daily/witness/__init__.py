"""A C2SP ``tlog-witness`` anyone can run, and a monitor: tools outside the service.

- :mod:`~daily.witness.witness_dir`: the witness's folder (key, known logs, the last
  checkpoint cosigned per log, written atomically) and ``add-checkpoint`` on it;
- :mod:`~daily.witness.witness_app`: its HTTP server (Flask, run by gunicorn):
  ``daily witness serve``;
- :mod:`~daily.witness.monitor`: ``daily monitor``, which follows a deployment's days.

None of it imports the service's Redis code: a witness needs only the log's vkey.
"""
