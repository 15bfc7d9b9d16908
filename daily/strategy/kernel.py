"""Compiled kernels of the solver (numba): one turn's values, and a level of states.

The kernels take the arrays of :class:`daily.strategy.spec.GameSpec`; ``P`` is its
parameter vector, read through the ``P_*`` constants of :mod:`daily.strategy.spec`.
Inside a turn:

* ``v0[r]``: the best box for roll ``r`` (points, bonuses, value of the next state);
* level ``j`` (``j`` rolls left): ``E[j][K]`` is the expected value of keeping ``K``
  and rerolling the rest, ``E[j][roll] = M[j-1][roll]``; ``M[j][K]`` is the best keep
  among the sub-multisets of ``K`` (for a roll: the best decision with ``j`` rolls left);
* the state's value is ``E[R][empty]``: the first roll of a turn keeps nothing.

Generala scores a combination made on the turn's first roll (served) higher: ``v0s``
holds the box values with the served points, and the first roll's decision takes
``max(M[R-1][roll], v0s[roll])`` (keeping every die is never a reroll, so scoring is the
only way to use the served value). ``doble_generala`` scores only while the flag
``y`` says the generala box holds points.

Where a roll may go and what it scores (forced order, Yahtzee's forced joker,
extra-Yahtzee bonus) is :mod:`daily.strategy.placing`, the compiled form of
:func:`daily.rules.placement.placements`; the tests compare the two on every relevant card.

>>> import numpy as np
>>> state_idx(3, 10, 1, 64, 2)
405
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from daily.strategy.placing import (
    ANY_BOX,
    NEG,
    box_allowed,
    box_points,
    box_value,
    extra_bonus,
    first_open,
    joker_mode,
    outcome,
    outcomes,
    pick_box,
    placed,
)
from daily.strategy.spec import (
    P_BOXES,
    P_DICE,
    P_NKEEPS,
    P_NROLLS,
    P_NU,
    P_NY,
    P_ROLL0,
    P_ROLLS,
    P_SERVED,
    P_THRESHOLD,
    P_YBOX,
)


@njit(cache=True)
def state_idx(mask: int, upper: int, flag: int, nu: int, ny: int) -> int:
    """Index of a between-turn state in the value array."""
    return (mask * nu + upper) * ny + flag


@njit(cache=True)
def fill_successors(mask, u, y, W, use_future, P, upper_face, succ):  # pragma: no cover
    """Fill ``succ[b, k]``: bonus and value of the next state after box ``b``.

    For an upper box ``succ[b, k]`` counts ``k`` dice of its face (points included);
    for the yahtzee box (with the extra bonus) ``k`` is 1 when it gets points; for any
    other box ``k`` is 0 (:func:`daily.strategy.placing.outcome`). ``W`` is any value
    array indexed by :func:`state_idx`.
    """
    n, nu, ny = P[P_DICE], P[P_NU], P[P_NY]
    for b in range(P[P_BOXES]):
        for k in range(0 if mask >> b & 1 else outcomes(b, n, P, upper_face)):
            nm, nxt, yn, own = successor(mask, u, y, b, k, P, upper_face)
            succ[b, k] = own + (W[state_idx(nm, nxt, yn, nu, ny)] if use_future else 0.0)


@njit(cache=True)
def successor(mask, u, y, b, k, P, upper_face):  # pragma: no cover - compiled
    """Successor ``k`` of box ``b`` (:func:`daily.strategy.placing.outcome`): the next
    state and the points it adds on the way (an upper box's points and bonus, else 0:
    the points of other boxes depend on the roll)."""
    f = upper_face[b]
    nm, nxt, yn, gained = placed(mask, u, y, b, f * k if f > 0 else k, P, upper_face)
    return nm, nxt, yn, gained if f > 0 else 0


@njit(cache=True)
def box_values(
    mask, u, y, W, use_future, P, raw, alike, upper_face, joker_points, succ, v0
):  # pragma: no cover - compiled
    """Fill ``v0[r]``: the best legal box for each roll, with bonuses and future value."""
    fill_successors(mask, u, y, W, use_future, P, upper_face, succ)
    first = first_open(mask, P[P_BOXES])
    for r in range(P[P_NROLLS]):
        best, _, _ = pick_box(r, mask, y, first, succ, P, raw, alike, upper_face, joker_points)
        v0[r] = best + extra_bonus(r, mask, y, P, alike)


@njit(cache=True)
def turn_tables(v0, v0s, P, child, parent, E_all, M_all):  # pragma: no cover - compiled
    """Like :func:`turn_value` but keeps every level: ``E_all[j]``, ``M_all[j]``."""
    R, nk, nr, r0 = P[P_ROLLS], P[P_NKEEPS], P[P_NROLLS], P[P_ROLL0]
    served = P[P_SERVED]
    for r in range(nr):
        M_all[0, r0 + r] = v0[r]
    for j in range(1, R + 1):
        for ki in range(nk - 1, -1, -1):
            if ki >= r0:
                E_all[j, ki] = M_all[j - 1, ki]
                if j == R and served == 1 and v0s[ki - r0] > E_all[j, ki]:
                    E_all[j, ki] = v0s[ki - r0]
            else:
                s = 0.0
                for f in range(6):
                    s += E_all[j, child[ki, f]]
                E_all[j, ki] = s / 6.0
        if j < R:
            for ki in range(nk):
                m = E_all[j, ki]
                for f in range(6):
                    p = parent[ki, f]
                    if p >= 0 and M_all[j, p] > m:
                        m = M_all[j, p]
                M_all[j, ki] = m
    return E_all[R, 0]


@njit(cache=True)
def state_turn(
    mask, u, y, W, use_future, P, raw, raw_served, alike, upper_face, joker_points, child,
    parent,
):  # pragma: no cover - compiled
    """Every within-turn value of one state: ``(v0, E_all, M_all)``.

    ``E_all[R][roll]`` is the value of the first roll (served points included).
    """
    n, nb, R, nk, nr = P[P_DICE], P[P_BOXES], P[P_ROLLS], P[P_NKEEPS], P[P_NROLLS]
    succ = np.empty((nb, n + 1))
    v0 = np.empty(nr)
    v0s = np.empty(nr)
    box_values(mask, u, y, W, use_future, P, raw, alike, upper_face, joker_points, succ, v0)
    if P[P_SERVED] == 1:
        box_values(mask, u, y, W, use_future, P, raw_served, alike, upper_face, joker_points,
                   succ, v0s)
    E_all = np.full((R + 1, nk), np.nan)
    M_all = np.full((R, nk), np.nan)
    turn_tables(v0, v0s, P, child, parent, E_all, M_all)
    return v0, E_all, M_all


@njit(cache=True)
def lane_successors(
    mask, lanes_u, lanes_y, nl, W, use_future, P, upper_face, succ, S
):  # pragma: no cover - compiled
    """``S[ln, b, k]``: :func:`fill_successors` of lane ``ln`` (state ``mask``,
    ``lanes_u[ln]``, ``lanes_y[ln]``) for the ``nl`` lanes; ``succ`` is scratch."""
    nb, n = P[P_BOXES], P[P_DICE]
    for ln in range(nl):
        fill_successors(mask, lanes_u[ln], lanes_y[ln], W, use_future, P, upper_face, succ)
        for b in range(nb):
            for k in range(n + 1):
                S[ln, b, k] = succ[b, k]


@njit(cache=True)
def box_values_lanes(
    mask, lanes_y, nl, P, raw, alike, upper_face, joker_points, S, ST, V0
):  # pragma: no cover - compiled
    """:func:`box_values` of ``nl`` states of one box mask at once: ``V0[r, ln]`` for lane
    ``ln``, whose successors are ``S[ln]`` (``ST[b, k, ln]`` the same, lanes innermost).

    Box by box, each roll's candidates for every lane in one contiguous (vectorised)
    pass, with the same arithmetic as :func:`box_values`, so the values are identical;
    the all-alike rolls, where the joker rule and the extra bonus apply, are then redone
    lane by lane with :func:`daily.strategy.placing.pick_box`.
    """
    nb, n, nr = P[P_BOXES], P[P_DICE], P[P_NROLLS]
    for b in range(nb):
        for k in range(n + 1):
            for ln in range(nl):
                ST[b, k, ln] = S[ln, b, k]
    first = first_open(mask, nb)
    for r in range(nr):
        for ln in range(nl):
            V0[r, ln] = NEG
    for b in range(nb):
        if box_allowed(b, mask, first, ANY_BOX, -1, P, upper_face):
            for r in range(nr):
                lanes_best(r, b, lanes_y, nl, P, raw, upper_face, joker_points, ST, V0)
    for r in range(nr):
        if alike[r] < 0:
            continue
        for ln in range(nl):
            best, _, _ = pick_box(r, mask, lanes_y[ln], first, S[ln], P, raw, alike, upper_face,
                                  joker_points)
            V0[r, ln] = best + extra_bonus(r, mask, lanes_y[ln], P, alike)


@njit(cache=True)
def lanes_best(r, b, lanes_y, nl, P, raw, upper_face, joker_points, ST, V0):  # pragma: no cover
    """Raise ``V0[r, ln]`` to the value of roll ``r`` in the allowed box ``b`` (no joker)
    for every lane: the flag of a lane (``lanes_y``) may change the points
    (doble_generala), so both readings are made once and each lane takes its own."""
    upper = upper_face[b] > 0
    p0 = box_points(r, b, 0, False, P, raw, joker_points)
    p1 = box_points(r, b, 1, False, P, raw, joker_points)
    k0, k1 = outcome(b, p0, P, upper_face), outcome(b, p1, P, upper_face)
    own0 = 0 if upper else p0  # an upper box's points are in its successors
    own1 = 0 if upper else p1
    if own0 == own1 and k0 == k1:
        for ln in range(nl):
            v = own0 + ST[b, k0, ln]
            if v > V0[r, ln]:
                V0[r, ln] = v
    else:
        for ln in range(nl):
            v = own1 + ST[b, k1, ln] if lanes_y[ln] != 0 else own0 + ST[b, k0, ln]
            if v > V0[r, ln]:
                V0[r, ln] = v


@njit(cache=True)
def turn_values(V0, V0S, nl, P, child, parent, E, M):  # pragma: no cover - compiled
    """The value of a turn before its first roll for ``nl`` lanes at once: ``E[0, ln]``
    from ``V0[:, ln]`` (and ``V0S[:, ln]`` when served points exist); ``E``/``M`` are
    (keeps x lanes) scratch. Lane by lane the arithmetic of :func:`turn_tables`, in the
    same order, so the values are identical; lanes innermost, so it vectorises."""
    R, nk, nr, r0 = P[P_ROLLS], P[P_NKEEPS], P[P_NROLLS], P[P_ROLL0]
    served = P[P_SERVED]
    for r in range(nr):
        for ln in range(nl):
            M[r0 + r, ln] = V0[r, ln]
    for j in range(1, R + 1):
        for ki in range(nk - 1, -1, -1):
            if ki >= r0:
                for ln in range(nl):
                    E[ki, ln] = M[ki, ln]
                if j == R and served == 1:
                    for ln in range(nl):
                        if V0S[ki - r0, ln] > E[ki, ln]:
                            E[ki, ln] = V0S[ki - r0, ln]
            else:
                c0, c1, c2 = child[ki, 0], child[ki, 1], child[ki, 2]
                c3, c4, c5 = child[ki, 3], child[ki, 4], child[ki, 5]
                for ln in range(nl):
                    s = 0.0
                    s += E[c0, ln]
                    s += E[c1, ln]
                    s += E[c2, ln]
                    s += E[c3, ln]
                    s += E[c4, ln]
                    s += E[c5, ln]
                    E[ki, ln] = s / 6.0
        if j < R:
            for ki in range(nk):
                for ln in range(nl):
                    M[ki, ln] = E[ki, ln]
                for f in range(6):
                    p = parent[ki, f]
                    if p >= 0:
                        for ln in range(nl):
                            if M[p, ln] > M[ki, ln]:
                                M[ki, ln] = M[p, ln]


@njit(cache=True)
def upper_filled(mask, P, upper_face):  # pragma: no cover - compiled
    """The filled upper faces of box mask ``mask`` (bit ``f - 1`` for face ``f``, the
    row of ``reach``) and the most points its open upper boxes can still add."""
    um = 0
    gain = 0
    for b in range(P[P_BOXES]):
        if upper_face[b] > 0:
            if (mask >> b & 1) == 1:
                um |= 1 << (upper_face[b] - 1)
            else:
                gain += P[P_DICE] * upper_face[b]
    return um, gain


@njit(cache=True)
def mask_work(masks, P, upper_face, reach):  # pragma: no cover - compiled
    """How many states :func:`solve_masks` computes for each box mask (its work, for
    the progress of a build): the reachable upper totals and flags, the totals from
    which the bonus is out of reach counted once."""
    T, nu = P[P_THRESHOLD], P[P_NU]
    ny, ybox = P[P_NY], P[P_YBOX]
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        mask = masks[i]
        um, gain = upper_filled(mask, P, upper_face)
        nyl = ny if ybox >= 0 and (mask >> ybox & 1) == 1 else 1
        hopeless = 0
        for u in range(nu):
            if reach[um, u]:
                if T > 0 and u + gain < T:
                    hopeless = 1
                else:
                    out[i] += nyl
        out[i] += hopeless * nyl
    return out


#: States of one box mask computed together by :func:`solve_masks` (the lanes).
LANES = 16


@njit(parallel=True, cache=True)
def solve_masks(
    masks, W, P, raw, raw_served, alike, upper_face, joker_points, child, parent, reach
):  # pragma: no cover - compiled
    """Compute ``W`` for every reachable state whose box mask is in ``masks``.

    Every successor state (one more box filled) must already be in ``W``. The states of
    a mask (its upper totals and flags) go through the turn :data:`LANES` at a time.
    """
    n, nb, T, nu = P[P_DICE], P[P_BOXES], P[P_THRESHOLD], P[P_NU]
    ny, ybox, nk, nr = P[P_NY], P[P_YBOX], P[P_NKEEPS], P[P_NROLLS]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        succ = np.empty((nb, n + 1))
        S = np.empty((LANES, nb, n + 1))
        ST = np.empty((nb, n + 1, LANES))
        V0 = np.empty((nr, LANES))
        V0S = np.empty((nr, LANES))
        E = np.empty((nk, LANES))
        M = np.empty((nk, LANES))
        work_u = np.empty(nu * ny, dtype=np.int64)
        work_y = np.empty(nu * ny, dtype=np.int64)
        um, gain = upper_filled(mask, P, upper_face)
        nyl = 1
        if ybox >= 0 and (mask >> ybox & 1) == 1:
            nyl = ny
        # While the bonus is out of reach, the upper total changes nothing: the first
        # such total (ref) is computed, the others copy its value.
        ref = -1
        nw = 0
        for u in range(nu):
            if not reach[um, u]:
                continue
            hopeless = T > 0 and u + gain < T
            if hopeless and ref >= 0:
                continue
            for y in range(nyl):
                work_u[nw] = u
                work_y[nw] = y
                nw += 1
            if hopeless:
                ref = u
        for lo in range(0, nw, LANES):
            nl = min(LANES, nw - lo)
            lanes_u = work_u[lo : lo + nl]
            lanes_y = work_y[lo : lo + nl]
            lane_successors(mask, lanes_u, lanes_y, nl, W, True, P, upper_face, succ, S)
            box_values_lanes(mask, lanes_y, nl, P, raw, alike, upper_face, joker_points, S, ST,
                             V0)
            if P[P_SERVED] == 1:
                box_values_lanes(mask, lanes_y, nl, P, raw_served, alike, upper_face,
                                 joker_points, S, ST, V0S)
            turn_values(V0, V0S, nl, P, child, parent, E, M)
            for ln in range(nl):
                W[state_idx(mask, lanes_u[ln], lanes_y[ln], nu, ny)] = E[0, ln]
        if ref >= 0:
            for u in range(ref + 1, nu):
                if reach[um, u] and T > 0 and u + gain < T:
                    for y in range(nyl):
                        W[state_idx(mask, u, y, nu, ny)] = W[state_idx(mask, ref, y, nu, ny)]


@njit(cache=True)
def keep_fits(keeps, K, dice, n):  # pragma: no cover - compiled
    """Whether the keep ``K`` (face counts) is a sub-multiset of the ``n`` dice."""
    for f in range(6):
        c = 0
        for i in range(n):
            if dice[i] == f + 1:
                c += 1
        if keeps[K, f] > c:
            return False
    return True


@njit(cache=True)
def apply_keep(keeps, K, dice, fresh, need, n):  # pragma: no cover - compiled
    """Keep the leftmost dice of keep ``K``; every other die takes its ``fresh`` value."""
    for f in range(6):
        need[f] = keeps[K, f]
    for i in range(n):
        if need[dice[i] - 1] > 0:
            need[dice[i] - 1] -= 1
        else:
            dice[i] = fresh[i]


@njit(cache=True)
def dice_code(dice):  # pragma: no cover - compiled
    """Base-7 code of a multiset of dice (the key of ``code_index``)."""
    code = 0
    for i in range(dice.shape[0]):
        code += 7 ** (dice[i] - 1)
    return code


@njit(cache=True)
def turn_scratch(P):  # pragma: no cover - compiled
    """Scratch of :func:`play_turn`: the dice, a keep's counts, the candidates' values and
    actions (a keep index, or ``-(box + 1)``)."""
    na = P[P_NKEEPS] + P[P_BOXES]
    return (np.empty(P[P_DICE], dtype=np.int64), np.empty(6, dtype=np.int64), np.empty(na),
            np.empty(na, dtype=np.int64))


@njit(cache=True)
def choice(level, temperature, cand_v, nc, best):  # pragma: no cover - compiled
    """The candidate a bot takes: ``level`` 1 draws by softmax over the values at
    ``temperature`` (``best`` the largest), any other the first best (boxes come first,
    so they win ties)."""
    pick = 0
    if level == 1 and temperature > 0:
        s = 0.0
        for c in range(nc):
            s += np.exp((cand_v[c] - best) / temperature)
        x = np.random.random() * s
        pick = nc - 1
        acc = 0.0
        for c in range(nc):
            acc += np.exp((cand_v[c] - best) / temperature)
            if x < acc:
                return c
        return pick
    bv = NEG
    for c in range(nc):
        if cand_v[c] > bv:
            bv = cand_v[c]
            pick = c
    return pick


@njit(cache=True)
def play_turn(
    level, temperature, slots_t, mask, y, succ, E_all, P, raw, raw_served, alike, upper_face,
    joker_points, keeps, py_order, code_index, dice, need, cand_v, cand_a,
):  # pragma: no cover - compiled
    """Play one turn on its slots ``slots_t`` (rolls, dice) by the decisions of
    :func:`play_games` (``succ``: the successors, ``E_all``: the turn's keep values);
    returns the box chosen, its points and the extra bonus."""
    n, nb, R = P[P_DICE], P[P_BOXES], P[P_ROLLS]
    first = first_open(mask, nb)
    dice[:] = slots_t[0]
    for roll in range(1, R + 1):
        r = code_index[dice_code(dice)] - P[P_ROLL0]
        rw = raw_served if roll == 1 else raw
        extra = extra_bonus(r, mask, y, P, alike)
        mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
        nc = 0
        best = NEG
        for b in range(nb):
            v, pts = box_value(r, b, mask, y, succ, P, rw, upper_face, joker_points, mode, mbox,
                               jok, first)
            if v > NEG:
                cand_v[nc] = v + extra
                cand_a[nc] = -(b + 1)
                best = max(best, v + extra)
                nc += 1
        for j in range(py_order.shape[0] if roll < R else 0):
            K = py_order[j]
            if keep_fits(keeps, K, dice, n):
                cand_v[nc] = E_all[R - roll, K]
                cand_a[nc] = K
                best = max(best, cand_v[nc])
                nc += 1
        a = cand_a[choice(level, temperature, cand_v, nc, best)]
        if a < 0:
            b = -a - 1
            _, pts = box_value(r, b, mask, y, succ, P, rw, upper_face, joker_points, mode, mbox,
                               jok, first)
            return b, pts, extra
        apply_keep(keeps, a, dice, slots_t[roll], need, n)
    return -1, 0, 0  # never: the last roll is always scored


@njit(cache=True)
def play_games(
    slots, level, temperature, rng_seed, W, P, raw, raw_served, alike, upper_face,
    joker_points, child, parent, keeps, py_order, code_index,
):  # pragma: no cover - compiled
    """Play one game per row of ``slots`` (games, turns, rolls, dice); return the totals.

    ``level`` 0 easy (this turn's points only), 1 medium (softmax over the optimal
    values with ``temperature``, seeded by ``rng_seed``), 2 hard (optimal). Decisions
    and tie-breaks are those of :class:`daily.strategy.bots.Bot`.
    """
    np.random.seed(rng_seed)
    n, nb = P[P_DICE], P[P_BOXES]
    R, nk, nr = P[P_ROLLS], P[P_NKEEPS], P[P_NROLLS]
    G = slots.shape[0]
    totals = np.zeros(G, dtype=np.int64)
    succ = np.empty((nb, n + 1))
    v0 = np.empty(nr)
    v0s = np.empty(nr)
    E_all = np.empty((R + 1, nk))
    M_all = np.empty((R, nk))
    dice, need, cand_v, cand_a = turn_scratch(P)
    use_future = level != 0
    for g in range(G):
        mask = u = y = total = 0
        for t in range(nb):
            box_values(mask, u, y, W, use_future, P, raw, alike, upper_face, joker_points,
                       succ, v0)
            if P[P_SERVED] == 1:
                box_values(mask, u, y, W, use_future, P, raw_served, alike, upper_face,
                           joker_points, succ, v0s)
            turn_tables(v0, v0s, P, child, parent, E_all, M_all)
            b, pts, extra = play_turn(level, temperature, slots[g, t], mask, y, succ, E_all, P,
                                      raw, raw_served, alike, upper_face, joker_points, keeps,
                                      py_order, code_index, dice, need, cand_v, cand_a)
            mask, u, y, gained = placed(mask, u, y, b, pts, P, upper_face)
            total += gained + extra
        totals[g] = total
    return totals


@njit(cache=True)
def columns_turn(
    mask, u, y, W, use_future, P, raw, alike, upper_face, joker_points, child, parent, weights,
    succ, here, colv, v0, E_all, M_all,
):  # pragma: no cover - compiled
    """The values of a multi-column turn (:func:`play_triple_games`, the fair-play walk):
    each open column's value now (``here``, 0 without ``use_future``) and successors
    (``succ[c]``), ``v0[r]`` the best weighted box of any column for roll ``r`` (extra
    bonus unweighted), and the turn's ``E_all``, ``M_all``."""
    nu, ny, nr = P[P_NU], P[P_NY], P[P_NROLLS]
    full = (1 << P[P_BOXES]) - 1
    for r in range(nr):
        v0[r] = NEG
    for c in range(weights.shape[0]):
        here[c] = 0.0
        if mask[c] == full:
            continue
        if use_future:
            here[c] = W[state_idx(mask[c], u[c], y[c], nu, ny)]
        box_values(mask[c], u[c], y[c], W, use_future, P, raw, alike, upper_face, joker_points,
                   succ[c], colv)
        w = weights[c]
        for r in range(nr):
            cand = w * (colv[r] - here[c])
            cand -= (w - 1) * extra_bonus(r, mask[c], y[c], P, alike)
            if cand > v0[r]:
                v0[r] = cand
    turn_tables(v0, v0, P, child, parent, E_all, M_all)


@njit(cache=True)
def play_triple_games(
    slots, use_future, W, P, raw, alike, upper_face, joker_points, child, parent, keeps,
    py_order, code_index, weights,
):  # pragma: no cover - compiled
    """Play one multi-column game per row of ``slots``; return the totals.

    ``W`` and ``P`` are those of the one-column table. The decisions and tie-breaks are
    those of :class:`daily.strategy.triple.TripleAdvisor`: a box is worth its column's
    weight times (points, bonus and the column's future value minus its value now),
    plus any extra-Yahtzee bonus unweighted; a keep is valued by expectimax over the
    turn with the best box of any column at its end. ``use_future`` false: greedy.
    """
    n, nb = P[P_DICE], P[P_BOXES]
    R, nk, nr, r0 = P[P_ROLLS], P[P_NKEEPS], P[P_NROLLS], P[P_ROLL0]
    C = weights.shape[0]
    G = slots.shape[0]
    full = (1 << nb) - 1
    totals = np.zeros(G, dtype=np.int64)
    succ = np.empty((C, nb, n + 1))
    colv = np.empty(nr)
    v0 = np.empty(nr)
    here = np.empty(C)
    E_all = np.empty((R + 1, nk))
    M_all = np.empty((R, nk))
    dice = np.empty(n, dtype=np.int64)
    need = np.empty(6, dtype=np.int64)
    mask = np.zeros(C, dtype=np.int64)
    u = np.zeros(C, dtype=np.int64)
    y = np.zeros(C, dtype=np.int64)
    for g in range(G):
        total = 0
        for c in range(C):
            mask[c] = 0
            u[c] = 0
            y[c] = 0
        for t in range(C * nb):
            columns_turn(mask, u, y, W, use_future, P, raw, alike, upper_face, joker_points,
                         child, parent, weights, succ, here, colv, v0, E_all, M_all)
            dice[:] = slots[g, t, 0]
            roll = 1
            while True:
                r = code_index[dice_code(dice)] - r0
                rl = R - roll
                best = NEG
                best_c = -1
                best_b = -1
                best_k = -1
                best_pts = 0
                best_extra = 0
                for c in range(C):
                    if mask[c] == full:
                        continue
                    first = first_open(mask[c], nb)
                    extra = extra_bonus(r, mask[c], y[c], P, alike)
                    mode, mbox, jok = joker_mode(r, mask[c], P, alike, upper_face)
                    for b in range(nb):
                        v, pts = box_value(r, b, mask[c], y[c], succ[c], P, raw, upper_face,
                                           joker_points, mode, mbox, jok, first)
                        if v <= NEG:
                            continue
                        d = weights[c] * (v - here[c]) + extra
                        if d > best:
                            best = d
                            best_c = c
                            best_b = b
                            best_pts = pts
                            best_extra = extra
                if rl > 0:
                    for j in range(py_order.shape[0]):
                        K = py_order[j]
                        if keep_fits(keeps, K, dice, n) and E_all[rl, K] > best:
                            best = E_all[rl, K]
                            best_k = K
                if best_k >= 0:
                    apply_keep(keeps, best_k, dice, slots[g, t, roll], need, n)
                    roll += 1
                    continue
                c = best_c
                b = best_b
                w = weights[c]
                mask[c], u[c], y[c], gained = placed(mask[c], u[c], y[c], b, best_pts, P,
                                                     upper_face)
                total += w * gained + best_extra
                break
        totals[g] = total
    return totals
