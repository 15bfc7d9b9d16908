"""The days' results logs on the service side: receipts, the log of a closed day, proofs.

The formats and the checks are the core's (:mod:`daily.audit`); this package signs and
stores them:

- :mod:`~daily.service.audit.receipts`: the receipt of a ranked game at its finish;
- :mod:`~daily.service.audit.day_log`: the log of a closed day and its signed heads, in
  Redis and beside the day's archive; sealed at the close, appended to by a re-review;
- :mod:`~daily.service.audit.routes`: ``/days/<date>/<ruleset>/head``, ``.../log`` and
  ``/results/<code>/proof``;
- :mod:`~daily.service.audit.wiring`: ``init_app``, the domain's registration on an app.
"""
