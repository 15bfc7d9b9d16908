"""Players: anonymous identities, their tokens, and what creating one costs.

- :mod:`~daily.service.players.accounts`: the player record, names, token hashes;
- :mod:`~daily.service.players.creation`: creation limits per address and network,
  and the proof-of-work;
- :mod:`~daily.service.players.signup`: a new player in one Redis call;
- :mod:`~daily.service.players.routes`: ``/players``;
- :mod:`~daily.service.players.wiring`: ``init_app``, the domain's registration on an app.
"""
