"""Results: finished ranked games on their way to the boards, and what is kept of them.

- :mod:`~daily.service.results.stream`: the results stream and its consumers;
- :mod:`~daily.service.results.result`: a verified ranked result on its way to a board;
- :mod:`~daily.service.results.leaderboard`: the daily boards in Redis;
- :mod:`~daily.service.results.stats`: per-player statistics and streaks;
- :mod:`~daily.service.results.archive`: closed days on disk, and rebuilds;
- :mod:`~daily.service.results.routes`: ``/leaderboards``;
- :mod:`~daily.service.results.result_routes`: ``/results/<code>``;
- :mod:`~daily.service.results.wiring`: ``init_app``, the domain's registration on an app.
"""
