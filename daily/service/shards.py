"""Hash-tag shards: which cluster slot a game, its ranked index and its results share.

On a Redis/Valkey Cluster a transaction or a script may only touch keys of one slot.
The finish stores the finished game and appends its result in one transaction, and
starting a ranked game writes the player's ranked index and the game in one script.
So the keys of a game, of the ranked index pointing at it and of the result stream it
finishes into carry the same hash tag ``{rN.k}`` (written ``{rN}`` below; ``N`` = :func:`shard_of`,
0 .. :data:`SHARDS` - 1, and ``k`` puts shard ``N`` in the ``N``-th sixteenth of the
cluster's slots, so the shards spread evenly over the primaries):

* a game: ``P game:{rN}:<game id>`` with ``N = shard_of(game id)``;
* a ranked index: ``P ranked:{rN}:<date>:<ruleset>:<player>`` with
  ``N = shard_of(player id)``; a ranked game's id is drawn so that
  ``shard_of(game id)`` is the player's shard (:func:`new_game_id`);
* a result stream: ``P results:{rN}`` (:mod:`daily.service.results.stream`).

Boards (``{date:ruleset}``) and player statistics (``{player id}``) have tags of their
own. On a single server the tags change nothing. The keys themselves are built by
:mod:`daily.service.keymap`.

>>> shard_of("g_7k3m9q"), tag(shard_of("g_7k3m9q"))
(0, '{r0.63}')
>>> gid = new_game_id(shard=5)
>>> gid.startswith("g_") and len(gid) == 22 and shard_of(gid)
5
"""

from __future__ import annotations

import secrets
import zlib

from redis.crc import key_slot

#: Number of shards (fixed: every process must agree on it).
SHARDS = 16
CLUSTER_SLOTS = 16384
#: Game and player ids: digits and letters without i, l, o, u (easy to read back).
ID_ALPHABET = b"0123456789abcdefghjkmnpqrstvwxyz"
#: A random byte's letter (by its low 5 bits).
_BYTE_LETTER = bytes(ID_ALPHABET[b & 31] for b in range(256))
#: Candidate game ids drawn at once by :func:`new_game_id` (one read of random bytes).
_DRAWS = 16


def shard_of(ident: str) -> int:
    """The shard of a game or player id (CRC-32 of the id, modulo :data:`SHARDS`).

    >>> shard_of("p_000001") == shard_of("p_000001")
    True
    """
    return zlib.crc32(ident.encode()) % SHARDS


def _spread_tag(shard: int) -> str:
    """``{rN.k}`` with the smallest ``k`` whose slot lies in the shard's own sixteenth of
    the 16,384 cluster slots, so that shards spread evenly over any even slot split."""
    band = CLUSTER_SLOTS // SHARDS
    k = 0
    while key_slot(f"r{shard}.{k}".encode()) // band != shard:
        k += 1
    return f"{{r{shard}.{k}}}"


_TAGS = tuple(_spread_tag(shard) for shard in range(SHARDS))


def tag(shard: int) -> str:
    """The hash tag of a shard.

    >>> tag(7), key_slot(tag(7).encode()) // 1024
    ('{r7.2}', 7)
    """
    return _TAGS[shard]


def random_id(length: int) -> str:
    """``length`` characters of :data:`ID_ALPHABET`, each drawn uniformly from one
    random byte (its low 5 bits: 256 is a multiple of 32), 5 bits each.

    >>> ident = random_id(20)
    >>> len(ident), set(ident) <= set(ID_ALPHABET.decode())
    (20, True)
    """
    return secrets.token_bytes(length).translate(_BYTE_LETTER).decode()


def new_game_id(shard: int | None = None) -> str:
    """A fresh random game id (``g_`` and 20 characters of :data:`ID_ALPHABET`, 100
    bits), drawn until it falls in ``shard`` when one is asked for (16 draws on
    average, :data:`_DRAWS` at a time).

    >>> len({new_game_id() for _ in range(100)}), shard_of(new_game_id(shard=3))
    (100, 3)
    """
    while True:
        batch = random_id(20 * _DRAWS)
        for start in range(0, 20 * _DRAWS, 20):
            game_id = "g_" + batch[start:start + 20]
            if shard is None or shard_of(game_id) == shard:
                return game_id
