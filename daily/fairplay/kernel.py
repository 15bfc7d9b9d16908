"""Compiled kernels of fair play (numba): the day's ceiling and the walk through a game.

Slots and holds
---------------
A slot's dice do not depend on holds (spec v1): the die at position ``i`` shows
``slots[t, r, i]`` after reroll ``r`` of turn ``t`` if it was rerolled then. So at the
end of a turn die ``i`` shows the slot of the *last* roll that rerolled it, and every
choice of one roll per die, ``c[i]`` in ``0..R-1``, is reachable: reroll die ``i`` at
rolls ``1..c[i]`` and keep it afterwards. :func:`turn_rolls` lists the distinct sorted
rolls a turn can end with.

The ceiling
-----------
``H[state]`` is the best final score still to come from a between-turn state
(filled boxes, capped upper total, yahtzee flag) *knowing every slot*. The turn played
from a state is its number of filled boxes. Filling box ``b`` in turn ``t`` is best done
with the most points ``b`` can get from the rolls turn ``t`` can end with (more upper
points never hurt), except for all-alike rolls, whose joker rules and extra bonus
depend on the state and are valued roll by roll with :mod:`daily.strategy.kernel`.

The walk
--------
:func:`walk` goes through one game decision by decision. At each decision it values
every legal action (each hold mask that rerolls something, each legal box) twice:
``E``, the expected final score with optimal play after it (the strategy table), and
``V``, the final score it leads to with perfect play knowing every slot (``H``). It
either replays given actions or chooses them by a policy (for the simulations), and
sums the log-likelihood of the choices under the honest model (softmax over ``E``)
and the clairvoyant model (softmax over ``V``) at every temperature of a grid.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from daily.strategy import spec as layout
from daily.strategy.kernel import (
    box_values,
    columns_turn,
    dice_code,
    fill_successors,
    keep_fits,
    state_idx,
    turn_tables,
    upper_filled,
)
from daily.strategy.placing import (
    ANY_BOX,
    NEG,
    box_allowed,
    box_value,
    extra_bonus,
    first_open,
    joker_mode,
    placed,
)

#: Policies of :func:`walk`. ``MIXED`` plays ``argmax E(a) + rho * V(a)`` (``rho`` in
#: ``tau_p``): the informed cheater's family, from optimal play (0) to the ceiling (large).
REPLAY, SOFTMAX, GREEDY, FORESIGHT, NEXT_ROLL, PARTIAL, MIXED = 0, 1, 2, 3, 4, 5, 6


@njit(cache=True)
def turn_rolls(slots_t, first_roll, start, code_index, r0, out):  # pragma: no cover
    """Distinct roll indices (0-based among rolls) reachable from ``start``.

    ``start`` shows after roll ``first_roll - 1``; die ``i`` may end as ``start[i]`` or
    as ``slots_t[j, i]`` for any later roll ``j``. Writes them to ``out``; returns
    the count.
    """
    n = start.shape[0]
    R = slots_t.shape[0]
    k = R - first_roll + 1  # choices per die
    total = k**n
    dice = np.empty(n, dtype=np.int64)
    count = 0
    for combo in range(total):
        c = combo
        for i in range(n):
            ch = c % k
            c //= k
            dice[i] = start[i] if ch == 0 else slots_t[first_roll + ch - 1, i]
        r = code_index[dice_code(dice)] - r0
        seen = False
        for j in range(count):
            if out[j] == r:
                seen = True
                break
        if not seen:
            out[count] = r
            count += 1
    return count


@njit(cache=True, nogil=True)
def turn_bests(slots, code_index, P, raw, raw_served, alike):  # pragma: no cover - compiled
    """Per turn: the most points of each box over its non-alike end rolls, and alike rolls.

    A served roll (Generala: the first roll, scored without a reroll) counts with its
    served points. Returns ``(best[t, b]`` (-1: no such roll), ``alikes[t, k]``,
    ``n_alike[t]``, ``served_alike[t])``: the last is the first roll when it is all
    alike and served points exist (valued apart, with the served points), else -1.
    """
    T, R, n = slots.shape[0], slots.shape[1], slots.shape[2]
    nb, r0, served = P[layout.P_BOXES], P[layout.P_ROLL0], P[layout.P_SERVED]
    best = np.full((T, nb), -1, dtype=np.int64)
    alikes = np.full((T, 6), -1, dtype=np.int64)
    n_alike = np.zeros(T, dtype=np.int64)
    served_alike = np.full(T, -1, dtype=np.int64)
    out = np.empty(R**n, dtype=np.int64)
    for t in range(T):
        count = turn_rolls(slots[t], 1, slots[t, 0], code_index, r0, out)
        for j in range(count):
            r = out[j]
            if alike[r] >= 0:
                alikes[t, n_alike[t]] = r
                n_alike[t] += 1
                continue
            for b in range(nb):
                if raw[r, b] > best[t, b]:
                    best[t, b] = raw[r, b]
        if served == 1:
            first = code_index[dice_code(slots[t, 0])] - r0
            if alike[first] >= 0:
                served_alike[t] = first
            else:
                for b in range(nb):
                    if raw_served[first, b] > best[t, b]:
                        best[t, b] = raw_served[first, b]
    return best, alikes, n_alike, served_alike


@njit(cache=True)
def ceiling_state(
    mask, u, y, t, H, P, raw, raw_served, alike, upper_face, joker_points, best, alikes,
    n_alike, served_alike, succ,
):  # pragma: no cover - compiled
    """The best score still to come from one state at turn ``t`` knowing every slot."""
    nb, nu, ny = P[layout.P_BOXES], P[layout.P_NU], P[layout.P_NY]
    first = first_open(mask, nb)
    top = NEG
    for b in range(nb):
        pts = best[t, b]  # no joker: the points are the raw ones (doble_generala's are 0)
        if pts < 0 or not box_allowed(b, mask, first, ANY_BOX, -1, P, upper_face):
            continue
        nm, nxt, yn, gained = placed(mask, u, y, b, pts, P, upper_face)
        v = gained + H[state_idx(nm, nxt, yn, nu, ny)]
        if v > top:
            top = v
    if n_alike[t] > 0:
        fill_successors(mask, u, y, H, True, P, upper_face, succ)
    for k in range(n_alike[t] + 1):
        if k < n_alike[t]:
            r = alikes[t, k]
            pts_of = raw
        elif served_alike[t] >= 0:
            r = served_alike[t]
            pts_of = raw_served
        else:
            break
        bonus = extra_bonus(r, mask, y, P, alike)
        mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
        for b in range(nb):
            v, _ = box_value(
                r, b, mask, y, succ, P, pts_of, upper_face, joker_points, mode, mbox, jok,
                first,
            )
            if v > NEG and v + bonus > top:
                top = v + bonus
    return top


@njit(parallel=True, cache=True, nogil=True)
def ceiling_level(
    masks, t, H, P, raw, raw_served, alike, upper_face, joker_points, reach, best, alikes,
    n_alike, served_alike,
):  # pragma: no cover - compiled
    """Fill ``H`` for every reachable state of the masks of turn ``t`` (one level)."""
    n, nb, T, nu = P[layout.P_DICE], P[layout.P_BOXES], P[layout.P_THRESHOLD], P[layout.P_NU]
    ny, ybox = P[layout.P_NY], P[layout.P_YBOX]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        succ = np.empty((nb, n + 1))
        um, gain = upper_filled(mask, P, upper_face)
        nyl = ny if ybox >= 0 and (mask >> ybox & 1) == 1 else 1
        ref = -1
        for u in range(nu):
            if not reach[um, u]:
                continue
            hopeless = T > 0 and u + gain < T
            for y in range(nyl):
                if hopeless and ref >= 0:
                    H[state_idx(mask, u, y, nu, ny)] = H[state_idx(mask, ref, y, nu, ny)]
                    continue
                H[state_idx(mask, u, y, nu, ny)] = ceiling_state(
                    mask, u, y, t, H, P, raw, raw_served, alike, upper_face, joker_points,
                    best, alikes, n_alike, served_alike, succ,
                )
            if hopeless and ref < 0:
                ref = u


@njit(cache=True)
def add_loglik(loglik, betas_e, betas_v, ev, vv, nc, pick, mix, row):  # pragma: no cover
    """Add one decision's log-likelihood under every (beta_E, beta_V) of the grid to
    ``loglik``, and write it to ``row`` (the decision's own grid).

    The model is ``P(a) ∝ exp(beta_E * E(a) + beta_V * V(a))``; ``mix`` is scratch.
    """
    for i in range(betas_e.shape[0]):
        for j in range(betas_v.shape[0]):
            top = NEG
            for c in range(nc):
                mix[c] = betas_e[i] * ev[c] + betas_v[j] * vv[c]
                if mix[c] > top:
                    top = mix[c]
            s = 0.0
            for c in range(nc):
                s += np.exp(mix[c] - top)
            row[i, j] = mix[pick] - top - np.log(s)
            loglik[i, j] += row[i, j]


@njit(cache=True)
def _leftmost_mask(dice, keeps_row):  # pragma: no cover - compiled
    """Hold mask (bit i = keep die i) keeping the multiset ``keeps_row``, leftmost dice."""
    need = keeps_row.copy()
    m = 0
    for i in range(dice.shape[0]):
        f = dice[i] - 1
        if need[f] > 0:
            need[f] -= 1
            m |= 1 << i
    return m


@njit(cache=True)
def positional(row, kid, vv, nc, pick):  # pragma: no cover - compiled
    """Write the positional evidence of a hold to ``row[7:10]``: how many hold masks
    keep the same dice (the same multiset at other positions), how many of them are
    the best in hindsight, and whether the chosen one is (zeros for a box).

    Which of the equal dice a player keeps cannot depend on the dice to come unless the
    player knows them: for an honest player, whatever their habit, each of those masks
    is equally likely to be the best in hindsight (the slots are the same for every
    position), so the chosen one is with probability ``best / masks``.
    """
    row[7] = 0.0
    row[8] = 0.0
    row[9] = 0.0
    if kid[pick] < 0:
        return
    count = 0
    top = NEG
    for c in range(nc):
        if kid[c] == kid[pick]:
            count += 1
            if vv[c] > top:
                top = vv[c]
    best = 0
    for c in range(nc):
        if kid[c] == kid[pick] and vv[c] >= top - 1e-9:
            best += 1
    row[7] = count
    row[8] = best
    row[9] = 1.0 if vv[pick] >= top - 1e-9 else 0.0


@njit(cache=True)
def _kept(dice, m):  # pragma: no cover - compiled
    """The face counts of the dice a hold mask ``m`` keeps."""
    counts = np.zeros(6, dtype=np.int64)
    for i in range(dice.shape[0]):
        if m >> i & 1:
            counts[dice[i] - 1] += 1
    return counts


@njit(cache=True)
def _distinct(dice, code):  # pragma: no cover - compiled
    """Whether an action counts once in the softmax: a box, or a hold keeping its dice
    leftmost (the other holds of the same dice are the same keep)."""
    return code < 0 or _leftmost_mask(dice, _kept(dice, code)) == code


@njit(cache=True)
def _actions(na):  # pragma: no cover - compiled
    """Scratch of a decision's ``na`` actions at most: ``(ev, vv, mix)`` floats (the
    expected and hindsight values, the softmax's scratch) and ``(code, kid, pts, extra)``
    integers (the action coded as in :func:`walk`, the kept multiset of a hold or -1, a
    box's points and extra bonus)."""
    floats = (np.empty(na), np.empty(na), np.empty(na))
    ints = (np.empty(na, dtype=np.int64), np.empty(na, dtype=np.int64),
            np.empty(na, dtype=np.int64), np.empty(na, dtype=np.int64))
    return floats, ints


@njit(cache=True)
def value_boxes(
    r, mask, y, col, w, here, succ, succ_v, P, raw, alike, upper_face, joker_points, fl, it,
    nc,
):  # pragma: no cover - compiled
    """Add the legal boxes of roll ``r`` in one column (state ``mask``, ``y``) to the
    actions from ``nc`` on; return the new count. A box is worth ``w * (value - here) +
    extra bonus``, its ``E`` from the successors ``succ`` and its ``V`` from ``succ_v``;
    it is coded ``-(col * boxes + box + 1)``."""
    nb = P[layout.P_BOXES]
    ev, vv = fl[0], fl[1]
    code, kid, pts_of, extra_of = it
    first = first_open(mask, nb)
    extra = extra_bonus(r, mask, y, P, alike)
    mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
    for b in range(nb):
        v, pts = box_value(r, b, mask, y, succ, P, raw, upper_face, joker_points, mode, mbox,
                           jok, first)
        if v <= NEG:
            continue
        vh, _ = box_value(r, b, mask, y, succ_v, P, raw, upper_face, joker_points, mode, mbox,
                          jok, first)
        ev[nc] = w * (v - here) + extra
        vv[nc] = w * (vh - here) + extra
        code[nc] = -(col * nb + b + 1)
        kid[nc] = -1
        pts_of[nc] = pts
        extra_of[nc] = extra
        nc += 1
    return nc


@njit(cache=True)
def value_holds(
    slots_t, roll, dice, E_rl, hindsight, code_index, r0, fl, it, ends, nc
):  # pragma: no cover - compiled
    """Add every hold mask that rerolls something to the actions from ``nc`` on; return
    the new count. A hold's ``E`` is its keep's value ``E_rl`` (this many rolls left),
    its ``V`` the best ``hindsight[end]`` over the rolls the turn can end with after it."""
    n = dice.shape[0]
    ev, vv = fl[0], fl[1]
    code, kid = it[0], it[1]
    after = np.empty(n, dtype=np.int64)
    counts = np.empty(6, dtype=np.int64)
    for m in range((1 << n) - 1):  # masks 0 .. 2^n - 2 reroll at least one die
        for f in range(6):
            counts[f] = 0
        for i in range(n):
            if m >> i & 1:
                counts[dice[i] - 1] += 1
                after[i] = dice[i]
            else:
                after[i] = slots_t[roll + 1, i]
        kc = 0
        for f in range(6):
            kc += counts[f] * 7**f
        ev[nc] = E_rl[code_index[kc]]
        kid[nc] = code_index[kc]
        cnt = turn_rolls(slots_t, roll + 2, after, code_index, r0, ends)
        top = NEG
        for j in range(cnt):
            if hindsight[ends[j]] > top:
                top = hindsight[ends[j]]
        vv[nc] = top
        code[nc] = m
        nc += 1
    return nc


@njit(cache=True)
def expected_best(dice, E_rl, keeps, py_order, ev, code, nc):  # pragma: no cover - compiled
    """The expected-best action and the best expected value ``(index, E)``: boxes first
    win ties; among holds, the larger keep first, then the leftmost dice, like the bots."""
    ebest = 0
    for c in range(nc):
        if ev[c] > ev[ebest] + 1e-9:
            ebest = c
    etop = ev[ebest]
    if code[ebest] >= 0:
        for j in range(py_order.shape[0]):
            K = py_order[j]
            if abs(E_rl[K] - etop) <= 1e-9 and keep_fits(keeps, K, dice, dice.shape[0]):
                lm = _leftmost_mask(dice, keeps[K])
                for c in range(nc):
                    if code[c] == lm:
                        ebest = c
                break
    return ebest, etop


@njit(cache=True)
def hindsight_best(ev, vv, nc):  # pragma: no cover - compiled
    """The best action in hindsight (among those, the best expected): ``(index, V)``."""
    vtop = NEG
    vbest = 0
    for c in range(nc):
        if vv[c] > vtop + 1e-9:
            vtop = vv[c]
            vbest = c
        elif abs(vv[c] - vtop) <= 1e-9 and ev[c] > ev[vbest]:
            vbest = c
    return vbest, vtop


@njit(cache=True)
def choose(policy, tau_p, action, dice, ev, vv, code, nc, ebest, etop, vbest):  # pragma: no cover
    """The action a policy takes (``REPLAY``: the one coded ``action``, -1 when it is not
    legal here; ``FORESIGHT``; ``MIXED``; any other: ``SOFTMAX`` over distinct actions,
    like the bots, with temperature ``tau_p``)."""
    if policy == REPLAY:
        pick = -1
        for c in range(nc):
            if code[c] == action:
                pick = c
        return pick
    if policy == FORESIGHT:
        return vbest
    pick = ebest
    if policy == MIXED:
        bv = ev[ebest] + tau_p * vv[ebest]
        for c in range(nc):
            if ev[c] + tau_p * vv[c] > bv + 1e-9:
                bv = ev[c] + tau_p * vv[c]
                pick = c
        return pick
    if tau_p <= 0:
        return pick
    s = 0.0
    for c in range(nc):
        if _distinct(dice, code[c]):
            s += np.exp((ev[c] - etop) / tau_p)
    x = np.random.random() * s
    acc = 0.0
    for c in range(nc):
        if _distinct(dice, code[c]):
            acc += np.exp((ev[c] - etop) / tau_p)
            if x < acc:
                return c
    return pick


@njit(cache=True)
def record(
    d, t, roll, pick, ebest, etop, vtop, betas_e, betas_v, loglik, per, decided, evidence, fl, it,
    nc,
):  # pragma: no cover - compiled
    """Write decision ``d`` (the action ``pick``): its log-likelihoods, its action and
    its evidence row (see :func:`walk`)."""
    ev, vv, mix = fl
    code, kid = it[0], it[1]
    add_loglik(loglik, betas_e, betas_v, ev, vv, nc, pick, mix, per[d])
    decided[d] = code[pick]
    row = evidence[d]
    row[0] = t
    row[1] = roll
    row[2] = etop - ev[pick]
    row[3] = vv[pick]
    row[4] = vv[ebest]
    row[5] = vtop
    row[6] = code[ebest]
    positional(row, kid, vv, nc, pick)


@njit(cache=True)
def reroll(hold, dice, fresh):  # pragma: no cover - compiled
    """Reroll the dice a hold mask does not keep: they show ``fresh``."""
    for i in range(dice.shape[0]):
        if not (hold >> i & 1):
            dice[i] = fresh[i]


@njit(cache=True)
def _outputs(maxd, betas_e, betas_v):  # pragma: no cover - compiled
    """The outputs of a walk of ``maxd`` decisions at most: ``(loglik, per, decided,
    evidence)``."""
    ne, nv = betas_e.shape[0], betas_v.shape[0]
    return (np.zeros((ne, nv)), np.zeros((maxd, ne, nv)), np.full(maxd, -9999, dtype=np.int64),
            np.zeros((maxd, 10)))


@njit(cache=True)
def walk_turn(
    mask, u, y, greedy, W, H, P, raw, raw_served, alike, upper_face, joker_points, child,
    parent, succ, vals, tabs,
):  # pragma: no cover - compiled
    """The values of a turn for :func:`walk`: ``succ[0..2]`` (successors by ``W``, by
    ``H``, greedy), ``vals[0..3]`` (box values: ``v0``, served ``v0s``, hindsight ``vh``,
    greedy), ``tabs`` (``E_all``, ``M_all`` and, for the greedy policy, its own pair)."""
    box_values(mask, u, y, W, True, P, raw, alike, upper_face, joker_points, succ[0], vals[0])
    box_values(mask, u, y, W, True, P, raw_served, alike, upper_face, joker_points, succ[0],
               vals[1])
    turn_tables(vals[0], vals[1], P, child, parent, tabs[0], tabs[1])
    box_values(mask, u, y, H, True, P, raw, alike, upper_face, joker_points, succ[1], vals[2])
    if greedy:
        box_values(mask, u, y, W, False, P, raw_served, alike, upper_face, joker_points,
                   succ[2], vals[1])
        box_values(mask, u, y, W, False, P, raw, alike, upper_face, joker_points, succ[2],
                   vals[3])
        turn_tables(vals[3], vals[1], P, child, parent, tabs[2], tabs[3])


@njit(cache=True)
def choose_blind(
    policy, gain_min, budget, slots_t, roll, r, mask, y, dice, ebest, vbest, vtop, succ_g,
    E_g, M_rl, P, raw, alike, upper_face, joker_points, keeps, py_order, code_index, fl, it,
    nc,
):  # pragma: no cover - compiled
    """The choice of the policies only :func:`walk` plays: ``PARTIAL`` (foresight on at
    most ``budget`` decisions gaining ``gain_min``), ``NEXT_ROLL`` (knowing the next roll,
    ``M_rl``: the best decision's values with one roll fewer) and ``GREEDY`` (this turn's
    points, ``succ_g``, ``E_g``). Returns ``(pick, budget)``."""
    ev, vv = fl[0], fl[1]
    code = it[0]
    n, rl = dice.shape[0], slots_t.shape[0] - 1 - roll
    if policy == PARTIAL:
        if budget > 0 and vtop - vv[ebest] >= gain_min:
            return vbest, budget - 1
        return ebest, budget
    pick = 0
    bv = NEG
    if policy == NEXT_ROLL:
        after = np.empty(n, dtype=np.int64)
        for c in range(nc):
            if code[c] < 0:
                val = ev[c]
            else:
                for i in range(n):
                    after[i] = dice[i] if code[c] >> i & 1 else slots_t[roll + 1, i]
                val = M_rl[code_index[dice_code(after)]]
            if val > bv + 1e-9:
                bv = val
                pick = c
        return pick, budget
    first = first_open(mask, P[layout.P_BOXES])
    mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
    extra = extra_bonus(r, mask, y, P, alike)
    for c in range(nc):
        if code[c] < 0:
            val, _ = box_value(r, -code[c] - 1, mask, y, succ_g, P, raw, upper_face,
                               joker_points, mode, mbox, jok, first)
            if val + extra > bv + 1e-9:
                bv = val + extra
                pick = c
    if rl > 0:
        for j in range(py_order.shape[0]):
            K = py_order[j]
            if keep_fits(keeps, K, dice, n) and E_g[rl, K] > bv + 1e-9:
                bv = E_g[rl, K]
                lm = _leftmost_mask(dice, keeps[K])
                for c in range(nc):
                    if code[c] == lm:
                        pick = c
    return pick, budget


@njit(cache=True)
def value_actions(
    t, roll, r, dice, columns, mask, y, weights, here, succ, hindsight, E_rl, slots, P, raw,
    alike, upper_face, joker_points, code_index, fl, it, ends,
):  # pragma: no cover - compiled
    """Value every action of a decision (the legal boxes of every open column, then the
    holds when a roll is left) into ``fl`` and ``it``; return how many there are. One
    column (``columns`` false): a box's ``E`` is from ``succ[0]``, its ``V`` from
    ``succ[1]``; columns: both from the column's ``succ[c]``."""
    full = (1 << P[layout.P_BOXES]) - 1
    nc = 0
    for c in range(weights.shape[0]):
        if mask[c] != full:
            nc = value_boxes(r, mask[c], y[c], c, weights[c], here[c], succ[c if columns else 0],
                             succ[c if columns else 1], P, raw, alike, upper_face,
                             joker_points, fl, it, nc)
    if roll < slots.shape[1] - 1:
        nc = value_holds(slots[t], roll, dice, E_rl, hindsight, code_index,
                         P[layout.P_ROLL0], fl, it, ends, nc)
    return nc


@njit(cache=True)
def walk_game(
    slots, policy, tau_p, gain_min, budget, actions, betas_e, betas_v, W, H, P, raw,
    raw_served, alike, upper_face, joker_points, child, parent, keeps, py_order, code_index,
    weights, columns,
):  # pragma: no cover - compiled
    """The walk of :func:`walk` (one column, ``columns`` false, ``weights`` one 1) and of
    :func:`walk_columns` (its ``H`` and ``raw_served`` unused): at each decision, value
    the actions, choose one, record it, apply it; the outputs of :func:`walk`."""
    n, nb, R = P[layout.P_DICE], P[layout.P_BOXES], P[layout.P_ROLLS]
    nk, nr = P[layout.P_NKEEPS], P[layout.P_NROLLS]
    C = weights.shape[0]
    loglik, per, decided, evidence = _outputs(C * nb * R, betas_e, betas_v)
    succ = np.empty((max(C, 3), nb, n + 1))
    vals = np.empty((4, nr))
    tabs = (np.empty((R + 1, nk)), np.empty((R, nk)), np.empty((R + 1, nk)),
            np.empty((R, nk)))
    here = np.zeros(C)
    dice = np.empty(n, dtype=np.int64)
    ends = np.empty(R**n, dtype=np.int64)
    fl, it = _actions((1 << n) - 1 + C * nb)
    mask, u, y = np.zeros(C, np.int64), np.zeros(C, np.int64), np.zeros(C, np.int64)
    total = d = 0
    blind = not columns and policy in (PARTIAL, NEXT_ROLL, GREEDY)
    for t in range(C * nb):
        if columns:
            columns_turn(mask, u, y, W, True, P, raw, alike, upper_face, joker_points, child,
                         parent, weights, succ, here, vals[1], vals[0], tabs[0], tabs[1])
        else:
            walk_turn(mask[0], u[0], y[0], policy == GREEDY, W, H, P, raw, raw_served, alike,
                      upper_face, joker_points, child, parent, succ, vals, tabs)
        dice[:] = slots[t, 0]
        roll = 0
        while True:
            rl = R - 1 - roll
            rw = raw_served if roll == 0 else raw
            r = code_index[dice_code(dice)] - P[layout.P_ROLL0]
            nc = value_actions(t, roll, r, dice, columns, mask, y, weights, here, succ,
                               vals[0] if columns else vals[2], tabs[0][rl], slots, P, rw,
                               alike, upper_face, joker_points, code_index, fl, it, ends)
            ebest, etop = expected_best(dice, tabs[0][rl], keeps, py_order, fl[0], it[0], nc)
            vbest, vtop = hindsight_best(fl[0], fl[1], nc)
            if blind:
                pick, budget = choose_blind(
                    policy, gain_min, budget, slots[t], roll, r, mask[0], y[0], dice, ebest,
                    vbest, vtop, succ[2], tabs[2], tabs[1][max(rl - 1, 0)], P, rw, alike,
                    upper_face, joker_points, keeps, py_order, code_index, fl, it, nc)
            else:
                pick = choose(policy, tau_p, actions[d] if policy == REPLAY else 0, dice,
                              fl[0], fl[1], it[0], nc, ebest, etop, vbest)
                if pick < 0:
                    return loglik, decided, evidence, -1, per  # not a legal action here
            record(d, t, roll, pick, ebest, etop, vtop, betas_e, betas_v, loglik, per, decided,
                   evidence, fl, it, nc)
            d += 1
            a = it[0][pick]
            if a >= 0:
                reroll(a, dice, slots[t, roll + 1])
                roll += 1
                continue
            c, b = (-a - 1) // nb, (-a - 1) % nb
            mask[c], u[c], y[c], gained = placed(mask[c], u[c], y[c], b, it[2][pick], P,
                                                 upper_face)
            total += weights[c] * gained + it[3][pick]
            break
    return loglik, decided[:d], evidence[:d], total, per[:d]


@njit(cache=True)
def walk(
    slots, policy, tau_p, gain_min, budget, rng_seed, actions, betas_e, betas_v,
    W, H, P, raw, raw_served, alike, upper_face, joker_points, child, parent, keeps, py_order,
    code_index,
):  # pragma: no cover - compiled
    """Walk one game; see the module docstring.

    ``actions[d]`` (replay) is the hold mask of decision ``d`` as bits (bit ``i`` = keep
    die ``i``) or ``-(box + 1)``. Returns ``(loglik, decided, evidence, total, per)``:
    ``loglik[i, j]`` is the log-likelihood of the choices when ``P(a) ∝ exp(betas_e[i] *
    E(a) + betas_v[j] * V(a))`` (column 0, ``betas_v[0] = 0``, is the honest model);
    ``decided[d]`` the action taken; ``evidence[d]`` is (turn, roll, expected loss,
    hindsight value of the choice, hindsight value of the expected-best action, best
    hindsight value, the expected-best action coded like ``decided``, then
    :func:`positional`'s three columns); ``total`` the final score (-1 when a replayed
    action is not legal, the other outputs then unfinished); ``per[d, i, j]`` is decision
    ``d``'s own log-likelihood (``loglik`` is their sum). A served roll (Generala: the
    first roll of a turn) is scored with its served points.
    """
    np.random.seed(rng_seed)
    return walk_game(slots, policy, tau_p, gain_min, budget, actions, betas_e, betas_v, W, H,
                     P, raw, raw_served, alike, upper_face, joker_points, child, parent, keeps,
                     py_order, code_index, np.ones(1, dtype=np.int64), False)


@njit(cache=True)
def walk_columns(
    slots, policy, tau_p, rng_seed, actions, betas_e, betas_v, W, P, raw, alike, upper_face,
    joker_points, child, parent, keeps, py_order, code_index, weights,
):  # pragma: no cover - compiled
    """Walk one multi-column game (Triple Yahtzee) like :func:`walk`.

    ``E`` is the value of the lookahead player of :mod:`daily.strategy.triple` (``W`` and
    ``P`` of the one-column table; a box is worth its column's weight times points,
    bonus and the column's future value minus its value now, plus any extra bonus
    unweighted; a keep is valued by expectimax over the turn). ``V`` is hindsight
    *within the turn*: a keep's ``V`` is the best end of the turn reachable after it
    with the dice to come, valued the same way; a box's ``V`` is its ``E``. Boxes are
    coded ``-(column * boxes + box + 1)``. Policies: ``REPLAY``, ``SOFTMAX``,
    ``FORESIGHT`` and ``MIXED``. Returns ``(loglik, decided, evidence, total, per)``.
    """
    np.random.seed(rng_seed)
    return walk_game(slots, policy, tau_p, 0.0, 0, actions, betas_e, betas_v, W, W, P, raw,
                     raw, alike, upper_face, joker_points, child, parent, keeps, py_order,
                     code_index, weights, True)
