"""The C2SP transparency-log formats the results log speaks (c2sp.org), pure core.

- :mod:`~daily.audit.c2sp.note`: ``signed-note``: notes, Ed25519 signatures, vkeys;
- :mod:`~daily.audit.c2sp.checkpoint`: ``tlog-checkpoint``: a day set's head as a note;
- :mod:`~daily.audit.c2sp.cosignature`: ``tlog-cosignature`` v1 (Ed25519, timestamped);
- :mod:`~daily.audit.c2sp.addcheckpoint`: ``tlog-witness``: the ``add-checkpoint``
  request and the checks a witness makes before it cosigns;
- :mod:`~daily.audit.c2sp.quorum`: a checkpoint checked against the results keys and
  a quorum of witnesses (``daily verify-day --checkpoint``, ``daily monitor``);
- :mod:`~daily.audit.c2sp.tiles`: ``tlog-tiles``: a sealed log as static tiles.

The formats are in ``docs/protocol.md`` (*Checkpoints, witnesses and tiles*), with the
reference implementations' vectors in ``seeds/c2sp-vectors.json``.
"""
