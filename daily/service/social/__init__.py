"""Friends: challenges on the same dice, and groups with their own boards.

- :mod:`~daily.service.social.challenges` and
  :mod:`~daily.service.social.challenge_routes` (``/challenges``);
- :mod:`~daily.service.social.groups` and :mod:`~daily.service.social.group_routes`
  (``/groups``);
- :mod:`~daily.service.social.wiring`: ``init_app``, the domain's registration on an app.
"""
