"""Offline checks of a day: its descriptor and dice, its results log (leaves, Merkle
tree, receipts, signed heads) and the audit.

Pure core (no Flask, no Redis): the service builds the log with it at the close of a
day and signs receipts at the finish; ``daily verify-day --head --log`` audits a day
with it, offline. The formats are public (``docs/protocol.md``, *Results log*):

- :mod:`~daily.audit.canonical`: the canonical JSON bytes that are hashed and signed;
- :mod:`~daily.audit.verify`: a day's descriptor, keys, seed, dice and games, offline;
- :mod:`~daily.audit.leaf`: an accepted result, and the leaves of the log;
- :mod:`~daily.audit.merkle`: the RFC 6962 Merkle tree, inclusion and consistency proofs;
- :mod:`~daily.audit.signing`: receipts and signed tree heads (Ed25519);
- :mod:`~daily.audit.board`: the canonical order of the leaves and the board they make;
- :mod:`~daily.audit.proof`: a game's inclusion proof document;
- :mod:`~daily.audit.day_audit`: the offline audit of a whole day;
- :mod:`~daily.audit.sample_day`: a day of real random games, for tests, vectors and benches.
"""
