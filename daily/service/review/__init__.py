"""Fair-play review of ranked results: the gates a result passes before the board shows
it, and the queue of held games an operator decides on. The detectors themselves are
core code (:mod:`daily.fairplay`).

- :mod:`~daily.service.review.gates`: the check the results worker runs on each result;
- :mod:`~daily.service.review.queue`: games in review and the operator's decisions;
- :mod:`~daily.service.review.evidence`: evidence across games and days (scouts, copies,
  the players' records of residuals);
- :mod:`~daily.service.review.recheck`: the close-time re-check of the final top.
"""
