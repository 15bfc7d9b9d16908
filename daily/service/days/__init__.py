"""Days: the secrets behind the dice, the signed day descriptors and the open window.

- :mod:`~daily.service.days.keyring`: the master seed secret and the Ed25519 keys;
- :mod:`~daily.service.days.seeds`: day seeds and the per-process cache of their dice;
- :mod:`~daily.service.days.descriptors`: the signed descriptors (``day/2``);
- :mod:`~daily.service.days.routes`: ``/days`` and ``/keys``;
- :mod:`~daily.service.days.today_routes`: ``/today``;
- :mod:`~daily.service.days.wiring`: ``init_app``, the domain's registration on an app.
"""
