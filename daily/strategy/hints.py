"""The fast path of hints: a query is one compiled call on a per-process cache of turns.

:meth:`daily.strategy.advisor.Advisor.hint` answers through a :class:`HintEngine`. The
reference path (:meth:`Advisor.actions`: placements in Python, sorted actions) stays the
definition; this module computes the same numbers, in the same order, faster:

* the turn's keep values ``E[j][K]`` (``j`` = 1 .. rolls per turn - 1 rolls left) are
  computed once per between-turn state by :func:`turn_keeps`, which runs the levels of
  :func:`daily.strategy.kernel.turn_tables` that a decision can use (not the value of
  the turn before its first roll), and kept in a per-process LRU keyed by the state;
* :func:`hint_rows` values every legal box of the roll (points, extra and upper
  bonuses, the table's value of the next state, added in the reference's order) and
  every keep, and returns the ``limit`` best with the reference's tie-breaks;
* the JSON is built directly from those rows.

A query whose state is cached costs one compiled call; the first query of a turn also
runs :func:`turn_keeps` (a query on the last roll needs no keep values at all). The tests
compare this path with the reference on random positions of every exact ruleset.

>>> from daily.rules import get_ruleset
>>> from daily.strategy.spec import Position
>>> from daily.strategy.solver import solve
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> engine = HintEngine(solve(rules))
>>> engine.hint(Position(rules, (None,) * 12, (1, 1, 1, 1, 2), 0))["best"]["box"]
'ones'
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from daily.strategy import kernel, placing
from daily.strategy import spec as layout
from daily.strategy.spec import counts_to_dice, sub_multisets

if TYPE_CHECKING:  # pragma: no cover
    from daily.strategy.solver import StrategyTable
    from daily.strategy.spec import GameSpec, Position

#: Turn states kept per engine (and process). A Yahtzee slot holds 2 x 210 floats
#: (3.3 kB: the keeps of fewer than five dice, with two rolls left and with one), a
#: Maxi Yatzy one 2 x 462 (7.2 kB): 2,048 slots are 6.6 to 14.4 MiB, allocated when
#: the cache is first used and touched at once by a warm engine (:class:`TurnCache`).
TURNS = 2048


def work_size(P: np.ndarray) -> int:
    """The floats of scratch :func:`turn_keeps` needs: a level's values (every keep and
    roll), its best keeps (and one more), the box values of the rolls and the successors
    (twice: :func:`daily.strategy.kernel.box_values_lanes` reads them transposed too).

    >>> from daily.rules import get_ruleset
    >>> from daily.strategy.spec import GameSpec
    >>> work_size(GameSpec.from_rules(get_ruleset("yahtzee")).params)
    1333
    """
    n, nb, nk, nr = (
        int(P[i]) for i in (layout.P_DICE, layout.P_BOXES, layout.P_NKEEPS, layout.P_NROLLS))
    return nk + (nk + 1) + nr + 2 * nb * (n + 1)


@njit(cache=True)
def turn_keeps(
    mask, u, y, W, use_future, P, raw, alike, upper_face, joker_points, child, parent_or_none,
    E, work,
):  # pragma: no cover - compiled
    """Fill ``E[j - 1][K]``: the value of keeping ``K`` (fewer than all dice, ``K <
    roll0``) with ``j`` rolls left, for j = 1 .. R-1 (``E``: ``max(R - 1, 1)`` rows of
    ``roll0``, a slot of :class:`TurnCache`; ``work``: :func:`work_size` floats).

    The same arithmetic as :func:`daily.strategy.kernel.turn_tables`, without its last
    level: the value of the turn before its first roll, which no decision needs. A level
    is computed in ``work`` and only its keeps are kept: a decision never reads a full
    roll's value, so a slot is a third of a level's size (Yahtzee: 210 of 462).
    ``parent_or_none`` is the spec's ``parent`` with ``nk`` (the index of a value that
    is never the best) where a keep has no parent.
    """
    n, nb, nk, nr = P[layout.P_DICE], P[layout.P_BOXES], P[layout.P_NKEEPS], P[layout.P_NROLLS]
    r0, R = P[layout.P_ROLL0], P[layout.P_ROLLS]
    S = work[:nk]  # the level's values, keeps and rolls
    M = work[nk:2 * nk + 1]  # its best keeps; M[nk]: where a missing parent points
    v0 = work[2 * nk + 1:2 * nk + 1 + nr]
    at = 2 * nk + 1 + nr
    ns = nb * (n + 1)
    succ = work[at:at + ns].reshape((1, nb, n + 1))  # one lane
    kernel.fill_successors(mask, u, y, W, use_future, P, upper_face, succ[0])
    kernel.box_values_lanes(mask, np.full(1, y, dtype=np.int64), 1, P, raw, alike,
                            upper_face, joker_points, succ,
                            work[at + ns:at + 2 * ns].reshape((nb, n + 1, 1)),
                            v0.reshape((nr, 1)))
    M[nk] = placing.NEG  # never the best
    for j in range(1, R):
        for ki in range(r0, nk):  # the rolls: score (j = 1) or the best keep of j - 1
            S[ki] = v0[ki - r0] if j == 1 else M[ki]
        for ki in range(r0 - 1, -1, -1):  # the keeps, each after its children
            c = child[ki]
            s = 0.0
            for f in range(6):
                s += S[c[f]]
            S[ki] = s / 6.0
        Ej = E[j - 1]
        for ki in range(r0):
            Ej[ki] = S[ki]
        if j < R - 1:
            for ki in range(nk):  # parents before children: M of a parent is final
                m = S[ki]
                p = parent_or_none[ki]
                for f in range(6):  # branch-free: the missing parents are M[nk]
                    v = M[p[f]]
                    m = v if v > m else m
                M[ki] = m


@njit(cache=True)
def _before(value, group, own, index, rows, at):  # pragma: no cover - compiled
    """Whether a candidate sorts before row ``at`` of ``rows`` (the reference's order:
    total value, boxes before keeps, own value, then box order or keep order)."""
    if value != rows[at, 2]:
        return value > rows[at, 2]
    if group != rows[at, 0]:
        return group < rows[at, 0]
    if own != rows[at, 5]:
        return own > rows[at, 5]
    return index < rows[at, 6]


@njit(cache=True)
def _insert(
    rows, count, limit, group, ident, value, points, bonus, own, index
):  # pragma: no cover - compiled
    """Insert a candidate into the sorted ``rows`` (at most ``limit``); the new count."""
    at = count
    while at > 0 and _before(value, group, own, index, rows, at - 1):
        at -= 1
    if at >= limit:
        return count
    last = min(count, limit - 1)
    for i in range(last, at, -1):
        rows[i, :] = rows[i - 1, :]
    rows[at, 0] = group
    rows[at, 1] = ident
    rows[at, 2] = value
    rows[at, 3] = points
    rows[at, 4] = bonus
    rows[at, 5] = own
    rows[at, 6] = index
    return min(count + 1, limit)


@njit(cache=True)
def round4(x):  # pragma: no cover - compiled
    """``round(x, 4)`` exactly as Python computes it, or NaN where this cannot be sure.

    Python rounds the exact binary value of ``x`` to 4 decimals and returns the nearest
    double to that decimal. ``y = x * 10^4`` is off the exact product by at most 2.2e-7
    here (``0 <= y < 10^9``), so unless ``y`` lies within 10^-5 of a half-integer both
    round to the same integer ``n``, and ``n / 10^4`` (exact operands, one correctly
    rounded division) is that nearest double. Outside that (negative, huge or nearly a
    tie: NaN) the caller asks Python's :func:`round`.
    """
    y = x * 10000.0
    if not 0.0 <= y < 1e9:
        return np.nan
    n = np.floor(y)
    d = y - n  # exact: 0 <= y < 2^52
    if abs(d - 0.5) < 1e-5:
        return np.nan
    if d > 0.5:
        n += 1.0
    return n / 10000.0


@njit(cache=True)
def hint_rows(
    code, rolls_left, served, mask, u, y, base, W, use_future, P, raw, raw_served, alike,
    upper_face, joker_points, E, keep_start, keep_list, keeps, code_index, rows,
):  # pragma: no cover - compiled
    """Write the best actions in state (``mask``, ``u``, ``y``) into ``rows``, best
    first, as many as it has rows; return how many there are.

    ``code`` is the dice showing, in slot order, as base-7 digits (die ``i`` is digit
    ``i``). Each row: kind (0 box, 1 keep), box index or keep index, value (``base``
    plus the expected points to come), points (a keep: its hold mask, bit ``i`` for die
    ``i``, leftmost dice first), extra bonus, two sort keys, then the value and the loss
    against the best row as the answer shows them (:func:`round4`). A box's value is ``base
    + ((points + extra bonus + upper bonus if crossed) + value of the next state)`` as
    in :meth:`daily.strategy.advisor.Advisor.box_actions`; a keep's is ``base +
    E[rolls_left - 1][K]`` (:func:`turn_keeps`).
    """
    n, nb, r0 = P[layout.P_DICE], P[layout.P_BOXES], P[layout.P_ROLL0]
    nu, ny = P[layout.P_NU], P[layout.P_NY]
    dice = np.empty(n, dtype=np.int64)
    counts = 0
    for i in range(n):
        dice[i] = code % 7
        code //= 7
        counts += 7 ** (dice[i] - 1)
    r = code_index[counts] - r0
    rw = raw_served if served else raw
    limit = rows.shape[0]
    count = 0
    extra = placing.extra_bonus(r, mask, y, P, alike)
    mode, mbox, jok = placing.joker_mode(r, mask, P, alike, upper_face)
    first = placing.first_open(mask, nb)
    filled = 0
    for b in range(nb):
        filled += mask >> b & 1
    last_box = filled == nb - 1
    for b in range(nb):
        if not placing.box_allowed(b, mask, first, mode, mbox, P, upper_face):
            continue
        pts = placing.box_points(r, b, y, jok, P, rw, joker_points)
        nm, nu_next, y_next, gained = placing.placed(mask, u, y, b, pts, P, upper_face)
        gained += extra
        future = 0.0
        if use_future and not last_box:
            future = np.float64(W[kernel.state_idx(nm, nu_next, y_next, nu, ny)])
        gain = gained + future
        count = _insert(rows, count, limit, 0, b, base + gain, pts, extra, gain, b)
    if rolls_left > 0:
        for j in range(keep_start[r], keep_start[r + 1]):
            K = keep_list[j]
            v = E[rolls_left - 1, K]
            count = _insert(rows, count, limit, 1, K, base + v, 0, 0, v, j)
    for i in range(count):
        rows[i, 7] = round4(rows[i, 2])
        rows[i, 8] = round4(rows[0, 2] - rows[i, 2])
    need = np.empty(6, dtype=np.int64)
    for i in range(count):
        if rows[i, 0] == 1:
            K = int(rows[i, 1])
            for f in range(6):
                need[f] = keeps[K, f]
            bits = 0
            for d in range(n):
                if need[dice[d] - 1] > 0:
                    need[dice[d] - 1] -= 1
                    bits |= 1 << d
            rows[i, 3] = bits
    return count


#: What a compiled call of :class:`HintEngine` reads besides the table and the turn,
#: packed in one int64 array (:func:`pack_arrays`): entering compiled code costs time
#: for every array argument (each is unboxed), so a call takes 4 arrays, not 15.
PACKED = ("params", "raw", "raw_served", "alike", "upper_face", "joker_points", "child",
          "parent_or_none", "keep_start", "keep_list", "keeps", "code_index")
(K_P, K_RAW, K_RAW_SERVED, K_ALIKE, K_UPPER_FACE, K_JOKER_POINTS, K_CHILD, K_PARENT,
 K_KEEP_START, K_KEEP_LIST, K_KEEPS, K_CODE_INDEX) = range(len(PACKED))


def pack_arrays(arrays: list[np.ndarray]) -> np.ndarray:
    """One int64 array holding ``arrays`` (each of one or two dimensions): a header of
    (offset, rows, columns) per array, then their elements in order; :func:`packed1`
    and :func:`packed2` read them back as views.

    >>> pack = pack_arrays([np.array([7, 8]), np.array([[1, 2], [3, 4]])])
    >>> packed1(pack, 0).tolist(), packed2(pack, 1).tolist()
    ([7, 8], [[1, 2], [3, 4]])
    >>> pack_arrays([np.array([0.5])])
    Traceback (most recent call last):
    ...
    TypeError: array 0 holds float64, not integers: it cannot be packed
    """
    offset = 3 * len(arrays)
    header: list[int] = []
    for i, a in enumerate(arrays):
        if a.dtype.kind not in "iu":
            raise TypeError(f"array {i} holds {a.dtype}, not integers: it cannot be packed")
        if a.ndim not in (1, 2):
            raise TypeError(f"array {i} has {a.ndim} dimensions, not 1 or 2")
        rows, cols = (a.shape[0], 1) if a.ndim == 1 else a.shape
        header += [offset, rows, cols]
        offset += a.size
    return np.concatenate([np.array(header, dtype=np.int64)]
                          + [np.ascontiguousarray(a, dtype=np.int64).ravel() for a in arrays])


@njit(cache=True)
def packed1(pack, i):  # pragma: no cover - compiled
    """Array ``i`` of a :func:`pack_arrays` pack, one-dimensional."""
    at, rows = pack[3 * i], pack[3 * i + 1]
    return pack[at:at + rows]


@njit(cache=True)
def packed2(pack, i):  # pragma: no cover - compiled
    """Array ``i`` of a :func:`pack_arrays` pack, two-dimensional."""
    at, rows, cols = pack[3 * i], pack[3 * i + 1], pack[3 * i + 2]
    return pack[at:at + rows * cols].reshape((rows, cols))


@njit(cache=True)
def packed_turn_keeps(mask, u, y, W, use_future, pack, E, work):  # pragma: no cover - compiled
    """:func:`turn_keeps` with the spec's arrays read from ``pack``."""
    turn_keeps(mask, u, y, W, use_future, packed1(pack, K_P), packed2(pack, K_RAW),
               packed1(pack, K_ALIKE), packed1(pack, K_UPPER_FACE), packed1(pack, K_JOKER_POINTS),
               packed2(pack, K_CHILD), packed2(pack, K_PARENT), E, work)


@njit(cache=True)
def packed_hint_rows(
    code, rolls_left, served, mask, u, y, base, W, use_future, pack, E, fill, work, rows
):  # pragma: no cover - compiled
    """:func:`hint_rows` with the spec's arrays read from ``pack``, written into
    ``rows`` (``limit`` rows of 9): the number of rows filled. With ``fill`` it first
    fills the turn's slot ``E`` (:func:`turn_keeps`, scratch ``work``): the first query
    of a turn enters compiled code once, not twice."""
    if fill:
        packed_turn_keeps(mask, u, y, W, use_future, pack, E, work)
    return hint_rows(code, rolls_left, served, mask, u, y, base, W, use_future,
                     packed1(pack, K_P), packed2(pack, K_RAW), packed2(pack, K_RAW_SERVED),
                     packed1(pack, K_ALIKE), packed1(pack, K_UPPER_FACE),
                     packed1(pack, K_JOKER_POINTS), E, packed1(pack, K_KEEP_START),
                     packed1(pack, K_KEEP_LIST), packed2(pack, K_KEEPS),
                     packed1(pack, K_CODE_INDEX), rows)


def dice_code(dice: tuple[int, ...]) -> int:
    """The dice in slot order as base-7 digits (die ``i`` is digit ``i``).

    >>> dice_code((1, 2)), dice_code((6, 6, 6, 6, 6, 6))
    (15, 117648)
    """
    code = 0
    for d in reversed(dice):
        code = code * 7 + d
    return code


def roll_keeps(table: StrategyTable) -> tuple[np.ndarray, np.ndarray]:
    """For each roll, its keeps (sub-multisets of fewer than all dice) in the reference
    order: larger keeps first, then lexicographically. CSR form: roll ``r``'s keeps are
    ``keep_list[keep_start[r]:keep_start[r + 1]]``.

    >>> from daily.rules import get_ruleset
    >>> from daily.strategy.spec import GameSpec
    >>> from daily.strategy.solver import StrategyTable
    >>> spec = GameSpec.from_rules(get_ruleset("yacht"))
    >>> start, keeps = roll_keeps(StrategyTable(spec, np.zeros(1)))
    >>> int(start[-1]), [counts_to_dice(spec.keeps[k]) for k in keeps[:2]]
    (4116, [(6, 6, 6, 6), (6, 6, 6)])
    """
    spec = table.spec
    n = table.rules.dice
    start = [0]
    out: list[int] = []
    for r in range(spec.n_rolls):
        dice = counts_to_dice(spec.keeps[spec.roll0 + r])
        kept = [k for k in sub_multisets(dice) if len(k) < n]
        kept.sort(key=lambda k: -len(k))
        out.extend(spec.keep_of(k) for k in kept)
        start.append(len(out))
    return np.array(start, dtype=np.int64), np.array(out, dtype=np.int64)


class TurnCache:
    """An LRU of turn values in one block of memory allocated when first used (and
    written by :meth:`warm`, so that its pages are mapped before any query): a miss
    hands out the slot of the least recently used state, to be filled in place. Nothing
    is allocated or freed per turn: with one small array per turn, a service's first
    2,048 turns each paid about three page faults for new heap pages (5,700 in the hint
    benchmark's first 5,801 turns), and every later turn a ``malloc`` and the ``free``
    of the evicted array.

    :meth:`slot` returns a state's slot and whether it is new: the caller fills a new
    one before it reads it, or hands it back with :meth:`forget`. A slot stays valid until
    ``turns`` other states have missed: a caller shared between threads holds
    :attr:`lock` around :meth:`slot`, the filling and its reading of the slot.

    >>> cache = TurnCache(2, (1,))
    >>> for mask in (1, 2, 1, 3, 2):
    ...     out, new = cache.slot(mask, 0, 0)
    ...     if new:
    ...         out.fill(mask)
    ...     print(float(out[0]), new)
    1.0 True
    2.0 True
    1.0 False
    3.0 True
    2.0 True
    >>> cache.cache_info()
    CacheInfo(hits=1, misses=4, maxsize=2, currsize=2)
    """

    def __init__(self, turns: int, shape: tuple[int, ...]):
        self.maxsize = turns
        self.lock = threading.Lock()
        self.shape = shape  # of a slot
        self._block: np.ndarray | None = None
        # Oldest first; an OrderedDict, whose move_to_end and popitem(last=False) are
        # O(1): in a plain dict used so, finding the oldest key skips the deleted entries
        # piling up at the front until the next resize.
        self._slots: OrderedDict[tuple[int, int, int], int] = OrderedDict()
        self._free: list[int] = []  # slots of forgotten states
        self._hits = self._misses = 0

    def warm(self) -> None:
        """Allocate the block and write it once, so that no query meets a page fault."""
        with self.lock:
            self._allocate().fill(0.0)

    def _allocate(self) -> np.ndarray:
        # Not written here: a short-lived engine (a fresh Advisor for one answer) maps
        # only the pages of the slots it fills, as a long-lived one would without warm().
        if self._block is None:
            self._block = np.empty((self.maxsize, *self.shape))
        return self._block

    def nbytes(self) -> int:
        """The bytes of the slots in use."""
        return len(self._slots) * int(np.prod(self.shape)) * 8

    def slot(self, mask: int, upper: int, flag: int) -> tuple[np.ndarray, bool]:
        """The slot of state (``mask``, ``upper``, ``flag``) and whether it is new (its
        contents are then another state's, or nothing, until the caller fills it)."""
        key = (mask, upper, flag)
        slots = self._slots
        slot = slots.get(key)
        if slot is not None:
            slots.move_to_end(key)  # now the most recent
            self._hits += 1
            return self._block[slot], False  # type: ignore[index]
        if self._free:
            slot = self._free.pop()
        elif len(slots) == self.maxsize:
            slot = slots.popitem(last=False)[1]  # the oldest's
        else:
            slot = len(slots)
        slots[key] = slot
        self._misses += 1
        return self._allocate()[slot], True

    def forget(self, mask: int, upper: int, flag: int) -> None:
        """Drop a state whose new slot was not filled: the next query of it misses.

        >>> cache = TurnCache(2, (1,))
        >>> cache.slot(5, 0, 0)[1]
        True
        >>> cache.forget(5, 0, 0)
        >>> cache.slot(5, 0, 0)[1], cache.cache_info().currsize
        (True, 1)
        """
        slot = self._slots.pop((mask, upper, flag), None)
        if slot is not None:
            self._free.append(slot)

    def cache_info(self) -> functools._CacheInfo:
        """Hits, misses, size and bound, as :func:`functools.lru_cache` reports them."""
        with self.lock:
            return functools._CacheInfo(self._hits, self._misses, self.maxsize,
                                        len(self._slots))


@dataclass(frozen=True, eq=False)
class _Shared:
    """What every engine on one :class:`daily.strategy.spec.GameSpec` reads: built once
    per spec (50-100 ms of Python), so a new advisor on a table starts at once."""

    holds: list[str]
    kept: list[tuple[int, ...]]
    keep_texts: list[str]
    pack: np.ndarray  # the arrays of PACKED (pack_arrays)
    most_actions: int  # the most actions a position can have: every box and every keep


_SHARED: weakref.WeakKeyDictionary[GameSpec, _Shared] = weakref.WeakKeyDictionary()
_SHARED_LOCK = threading.Lock()


def _shared(table: StrategyTable) -> _Shared:
    spec = table.spec
    with _SHARED_LOCK:
        hit = _SHARED.get(spec)
    if hit is not None:
        return hit
    keep_start, keep_list = roll_keeps(table)
    code_index = np.full(7**6, -1, dtype=np.int64)
    for i, k in enumerate(spec.keeps):
        code_index[sum(int(c) * 7**f for f, c in enumerate(k))] = i
    n = table.rules.dice
    holds = ["".join("1" if bits >> i & 1 else "0" for i in range(n)) for bits in range(1 << n)]
    kept = [counts_to_dice(k) for k in spec.keeps]
    texts = ["keeping " + "-".join(map(str, k)) if k else "rerolling everything" for k in kept]
    parent_or_none = np.where(spec.parent < 0, spec.n_keeps, spec.parent)
    named = {"parent_or_none": parent_or_none, "keep_start": keep_start,
             "keep_list": keep_list, "code_index": code_index}
    pack = pack_arrays([named[k] if k in named else getattr(spec, k) for k in PACKED])
    most = spec.params[layout.P_BOXES] + int(np.diff(keep_start).max())
    built = _Shared(holds, kept, texts, pack, int(most))
    with _SHARED_LOCK:
        return _SHARED.setdefault(spec, built)


class HintEngine:
    """Hints of one table, exact and fast; one per advisor (and so per table and process).

    ``turns`` bounds the per-process cache of turn states (an LRU); ``greedy`` values the
    actions by this turn's points only, like the easy bot. Safe to share between threads.
    """

    def __init__(self, table: StrategyTable, *, greedy: bool = False, turns: int = TURNS):
        spec = table.spec
        self.table = table
        self.rules = table.rules
        self.greedy = greedy
        shared = _shared(table)
        self._holds, self._kept, self._keep_texts = shared.holds, shared.kept, shared.keep_texts
        self._box_ids = [b.id for b in self.rules.boxes]
        self._box_words = [b.replace("_", " ") for b in self._box_ids]
        self._upper = [i for i, f in enumerate(spec.upper_face) if f]
        p = spec.params
        self._threshold = int(p[layout.P_THRESHOLD])
        self._nu, self._ny = int(p[layout.P_NU]), int(p[layout.P_NY])
        self._ybox = int(p[layout.P_YBOX])
        self._first = int(p[layout.P_ROLLS]) - 1
        self._bonus = self.rules.upper_bonus
        self._served = bool(self.rules.served)
        self._no_keeps = np.zeros((1, 1))
        # A plain array on the table's memory: a memory map (an ndarray subclass) costs
        # every compiled call about 1 us more to dispatch.
        self._values = np.asarray(table.values)
        self._nb = int(p[layout.P_BOXES])
        self._pack = shared.pack
        self._most = shared.most_actions
        self._rows: dict[int, np.ndarray] = {}  # an answer's rows by their number
        # A slot: the keeps' values with 1 .. R-1 rolls left (turn_keeps).
        shape = (max(self.rules.rolls_per_turn - 1, 1), spec.roll0)
        self.turn_keeps = TurnCache(turns, shape)
        self._work = np.empty(work_size(p))  # turn_keeps' scratch, used under the lock
        # Small pure functions of their arguments, memoized (bounded, thread-safe).
        self.card = functools.lru_cache(maxsize=4 * turns)(self._card)
        self.dice_code = functools.lru_cache(maxsize=None)(dice_code)  # <= 6^dice

    def _turn_keeps(self, mask: int, upper: int, flag: int, out: np.ndarray) -> None:
        """Fill a slot ``out`` with the turn values of a state (for benchmarks)."""
        with self.turn_keeps.lock:
            packed_turn_keeps(mask, upper, flag, self._values, not self.greedy, self._pack,
                              out, self._work)

    def warm(self) -> None:
        """Allocate the turn cache now (:meth:`TurnCache.warm`), as a process's long-lived
        advisor does (:func:`daily.strategy.tables.lookup.get_advisor`)."""
        self.turn_keeps.warm()

    def cache_bytes(self) -> int:
        """The bytes of turn values the LRU holds now."""
        return self.turn_keeps.nbytes()

    def _card(self, scores: tuple[int | None, ...]) -> tuple[int, int, int, int]:
        """A card's state (mask, capped upper total, flag) and its total without the
        extra bonuses (:attr:`daily.card.Card.total` of a one-column card)."""
        mask = total = upper = 0
        for i, s in enumerate(scores):
            if s is not None:
                mask |= 1 << i
                total += s
        for i in self._upper:
            upper += scores[i] or 0
        if self._bonus and upper >= self._threshold:
            total += self._bonus
        flag = 1 if self._ny == 2 and scores[self._ybox] else 0
        return mask, min(upper, self._threshold), flag, total

    def rows(self, pos: Position, limit: int) -> tuple[list[list[float]], int]:
        """The ``limit`` best actions of ``pos`` as rows (see :func:`hint_rows`) and the
        card's total, which their values include. A position has at most every box and
        every keep of its roll: a larger ``limit`` returns them all."""
        mask, upper, flag, total = self.card(pos.scores)
        total += pos.extra_bonus
        left = pos.rolls_left
        served = self._served and left == self._first
        code = self.dice_code(pos.dice)
        with self.turn_keeps.lock:  # the turn's slot, the scratch and the rows are this call's
            keeps, fill = self.turn_keeps.slot(mask, upper, flag) if left else (
                self._no_keeps, False)
            limit = min(limit, self._most)  # more rows than actions would stay empty
            out = self._rows.get(limit)
            if out is None:
                out = self._rows[limit] = np.empty((limit, 9))
            try:
                count = packed_hint_rows(code, left, served, mask, upper, flag, total,
                                         self._values, not self.greedy, self._pack, keeps,
                                         fill, self._work, out)
            except BaseException:
                if fill:  # the slot was not filled: never read it as this state's
                    self.turn_keeps.forget(mask, upper, flag)
                raise
            return out[:count].tolist(), total

    def hint(self, pos: Position, top: int = 3) -> dict[str, Any]:
        """The best action and the next ``top`` alternatives, as JSON (the same answer as
        :func:`daily.strategy.advisor.hint_json` on the reference actions)."""
        lines, total = self.rows(pos, top + 1)
        acts: list[dict[str, Any]] = []
        box_ids, box_words, holds, kept, keep_texts = (
            self._box_ids, self._box_words, self._holds, self._kept, self._keep_texts)
        best = lines[0][2]
        for kind, ident, value, points, bonus, _own, _index, shown, loss in lines:
            if shown != shown:  # NaN: too near a tie for the compiled rounding
                shown = round(value, 4)
            k = int(ident)
            if kind == 0:
                pts = int(points)
                act = {"kind": "box", "value": shown, "box": box_ids[k], "points": pts,
                       "bonus": int(bonus), "text": f"scoring {pts} in {box_words[k]}"}
            else:
                act = {"kind": "keep", "value": shown, "hold": holds[int(points)],
                       "kept": list(kept[k]), "text": keep_texts[k]}
            if acts:
                act["loss"] = loss if loss == loss else round(best - value, 4)
            acts.append(act)
        return {"best": acts[0], "alternatives": acts[1:], "rolls_left": pos.rolls_left,
                "dice": list(pos.dice), "total": total}
