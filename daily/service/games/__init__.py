"""Games in Redis: ranked and practice play, revealed roll by roll, verified by replay.

A game's stored state is its move log so far (compact ``daily-log/1`` text), its
position (the number of decisions applied) and a few facts (owner, mode, date). A call
rebuilds the position with the core (:func:`daily.replay.replay` drives
:class:`daily.game.Game`), or takes the replayed copy its process kept when it wrote
the game last, applies one decision and stores the new log only if the stored record
is still the one it decided on, so any process can serve the next call and no rule is
implemented twice. The dice of a slot are computed only when the game reaches it.

The package along its seams:

- :mod:`~daily.service.games.record`: the stored record, game ids, positions;
- :mod:`~daily.service.games.store`: the records in Redis (the move script: rate
  limits, compare-and-set on the record's SHA-1, the finish; on a cluster the position
  compare-and-set and the finishing transaction);
- :mod:`~daily.service.games.cache`: the replayed games a process keeps;
- :mod:`~daily.service.games.flow`: :class:`GameService`, starting and moving;
- :mod:`~daily.service.games.views`: the state document, public result, share text;
- :mod:`~daily.service.games.log_checks`: the checks of a submitted move log;
- :mod:`~daily.service.games.wiring`: ``init_app``, the domain's registration on an app.

Refusals are domain errors (:mod:`daily.service.refusals`), mapped to HTTP at the edge.
"""

from daily.service.games.flow import GameService
from daily.service.games.record import GameRecord, new_game_id

__all__ = ["GameRecord", "GameService", "new_game_id"]
