"""The daily service: the JSON API on Flask, its state in Redis, and the glue its jobs
call. One package per domain, each with its service code and its blueprint:

- :mod:`~daily.service.players`: anonymous identities, tokens, creation limits;
- :mod:`~daily.service.days`: the secrets, day seeds, signed descriptors, ``/today``;
- :mod:`~daily.service.games`: starting and playing games, result codes, opponents,
  hints;
- :mod:`~daily.service.results`: the results stream, boards, statistics, archives;
- :mod:`~daily.service.review`: the fair-play gates and the review queue;
- :mod:`~daily.service.social`: challenges and groups;
- :mod:`~daily.service.ops`: ``daily serve``, supervision, the scheduler, ``/health``;
- :mod:`~daily.service.http`: the edge (request parsing, the API contract, errors,
  rate limits, headers, metrics, OpenAPI).

Beside them: the app factory (:mod:`~daily.service.app`), what the domains keep on an app
(:mod:`~daily.service.extensions`), the configuration (:mod:`~daily.service.config`),
the clock (:mod:`~daily.service.clock`), the connections to Redis
(:mod:`~daily.service.connections`), every Redis key (:mod:`~daily.service.keymap`,
with the cluster shards of :mod:`~daily.service.shards`), the public URL
(:mod:`~daily.service.publicurl`) and the domain refusals that the edge maps to HTTP
(:mod:`~daily.service.refusals`). The rules, dice, logs, replay, strategy and fair-play
detectors are the core, outside this package.
"""
