"""Fair-play review of ranked results: the gates a result passes before the board shows
it, and the queue of held games an operator decides on. The detectors themselves are
core code (:mod:`daily.fairplay`).

- :mod:`~daily.service.review.gates`: the check the results worker runs on each result;
- :mod:`~daily.service.review.queue`: held games and the operator's decisions.
"""
