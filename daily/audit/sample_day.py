"""A sample day's results log built from real games: for tests, vectors, benches and demos.

Random legal games (:mod:`daily.randomplay`) are played on a revealed day's seed, each
accepted with a receipt, decided (most cleared, some held or disqualified), put in
canonical order, hashed into the tree and signed with a head at the close, as the
service does.

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> day = build_day("yacht", "2026-11-29", bytes(32), key, games=5)
>>> day.head.size, len(day.lines()), day.tree.root().hex() == day.head.root
(5, 5, True)
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.board import canonical_order
from daily.audit.leaf import (
    CLEARED,
    DISQUALIFIED,
    HELD,
    Accepted,
    Decision,
    Leaf,
    instant,
    leaf_bytes,
)
from daily.audit.merkle import MerkleTree
from daily.audit.signing import SignedHead, sign_head, sign_receipt
from daily.movelog import MoveLog
from daily.randomplay import random_game
from daily.rules import get_ruleset

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@dataclass
class SampleDay:
    """The leaves of a day in canonical order, their tree and the head signing them."""

    leaves: list[Leaf]
    tree: MerkleTree
    head: SignedHead

    def lines(self) -> list[bytes]:
        """The log as served: one leaf's canonical bytes a line."""
        return [leaf_bytes(leaf) for leaf in self.leaves]


def decision_for(index: int) -> Decision:
    """The sample's decisions: every 7th game held, every 11th disqualified, else cleared.

    >>> decision_for(7), decision_for(1)
    (Decision(status='held', reason='foresight'), Decision(status='cleared', reason=None))
    """
    if index % 11 == 10:
        return Decision(DISQUALIFIED, "ceiling")
    if index % 7 == 0 and index:
        return Decision(HELD, "foresight")
    return Decision(CLEARED)


def close_time(date: str) -> str:
    """When the sample signs its head: the next day at 12:00 UTC.

    >>> close_time("2026-11-29")
    '2026-11-30T12:00:00.000Z'
    """
    day = dt.datetime.fromisoformat(date).replace(tzinfo=dt.UTC)
    return instant(day + dt.timedelta(days=1, hours=12))


def build_day(
    ruleset: str,
    date: str,
    seed: bytes,
    results_key: Ed25519PrivateKey,
    *,
    games: int = 10,
    rng_seed: int = 1,
    decide: Callable[[int], Decision] = decision_for,
) -> SampleDay:
    """A closed day of ``games`` random games on ``seed``, signed by ``results_key``;
    ``decide`` gives the decision of the i-th game played."""
    rng = random.Random(rng_seed)
    rules = get_ruleset(ruleset)
    day = dt.date.fromisoformat(date)
    start = dt.datetime(day.year, day.month, day.day, 10, tzinfo=dt.UTC)
    results = []
    for i in range(games):
        game = random_game(rules, seed, rng)
        code = "DD-" + "".join(rng.choice(_CROCKFORD) for _ in range(10))
        at = instant(start + dt.timedelta(milliseconds=rng.randrange(0, 36_000_000)))
        acc = Accepted(code, f"p-{i:04d}", rules.name, date,
                       MoveLog.of_game(game, day=day).to_text(), game.card.total, at)
        name = None if i == 3 else "Zoë \N{GAME DIE}" if i == 2 else f"Player {i}"
        results.append(Leaf.result(acc, sign_receipt(results_key, acc), name, decide(i)))
    leaves = canonical_order(results)
    tree = MerkleTree.of_leaves(leaf_bytes(leaf) for leaf in leaves)
    head = sign_head(results_key, date, rules.name, tree.size, tree.root(), close_time(date))
    return SampleDay(leaves, tree, head)


def append_decisions(
    day: SampleDay, results_key: Ed25519PrivateKey, decisions: list[Leaf], time: str
) -> SampleDay:
    """The day after a re-review: ``decisions`` appended and a new head signed at ``time``."""
    leaves = canonical_order([leaf for leaf in day.leaves if leaf.kind == "result"],
                             [leaf for leaf in day.leaves if leaf.kind != "result"] + decisions)
    tree = MerkleTree.of_leaves(leaf_bytes(leaf) for leaf in leaves)
    head = sign_head(results_key, day.head.date, day.head.ruleset, tree.size, tree.root(), time)
    return SampleDay(leaves, tree, head)
