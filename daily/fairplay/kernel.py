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

from daily.strategy.kernel import (
    NEG,
    box_value,
    box_values,
    extra_bonus,
    fill_successors,
    first_open,
    joker_mode,
    keep_fits,
    state_idx,
    turn_tables,
)

#: Policies of :func:`walk`. ``MIXED`` plays ``argmax E(a) + rho * V(a)`` (``rho`` in
#: ``tau_p``): the informed cheater's family, from optimal play (0) to the ceiling (large).
REPLAY, SOFTMAX, GREEDY, FORESIGHT, NEXT_ROLL, PARTIAL, MIXED = 0, 1, 2, 3, 4, 5, 6


@njit(cache=True)
def dice_code(dice):  # pragma: no cover - compiled
    """Base-7 code of a multiset of dice (the key of ``code_index``)."""
    code = 0
    for i in range(dice.shape[0]):
        code += 7 ** (dice[i] - 1)
    return code


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
    nb, r0, served = P[1], P[13], P[14]
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
    nb, T, nu, ny, ub, ybox, forced = P[1], P[2], P[3], P[4], P[5], P[6], P[9]
    first = first_open(mask, nb)
    top = NEG
    for b in range(nb):
        if mask >> b & 1 or (forced == 1 and b != first):
            continue
        pts = best[t, b]
        if pts < 0:
            continue
        nm = mask | (1 << b)
        if upper_face[b] > 0:
            nxt = min(u + pts, T)
            bon = ub if T > 0 and u < T <= u + pts else 0
            v = pts + bon + H[state_idx(nm, nxt if T > 0 else 0, y, nu, ny)]
        elif b == ybox and ny == 2:
            v = pts + H[state_idx(nm, u, 1 if pts > 0 else 0, nu, ny)]
        else:
            v = pts + H[state_idx(nm, u, y, nu, ny)]
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
    n, nb, T, nu, ny, ybox = P[0], P[1], P[2], P[3], P[4], P[6]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        succ = np.empty((nb, n + 1))
        um = 0
        gain = 0
        for b in range(nb):
            if upper_face[b] > 0:
                if mask >> b & 1:
                    um |= 1 << (upper_face[b] - 1)
                else:
                    gain += n * upper_face[b]
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
def walk(
    slots, policy, tau_p, gain_min, budget, rng_seed, actions, betas_e, betas_v,
    W, H, P, raw, raw_served, alike, upper_face, joker_points, child, parent, keeps, py_order,
    code_index,
):  # pragma: no cover - compiled
    """Walk one game; see the module docstring.

    ``actions[d]`` (replay) is the hold mask of decision ``d`` as bits (bit ``i`` = keep
    die ``i``) or ``-(box + 1)``. Returns ``(loglik, decided, evidence, total)``:
    ``loglik[i, j]`` is the log-likelihood of the choices when ``P(a) ∝ exp(betas_e[i] *
    E(a) + betas_v[j] * V(a))`` (column 0, ``betas_v[0] = 0``, is the honest model);
    ``decided[d]`` the action taken; ``evidence[d]`` is (turn, roll, expected loss,
    hindsight value of the choice, hindsight value of the expected-best action, best
    hindsight value, the expected-best action coded like ``decided``, then
    :func:`positional`'s three columns); ``per[d, i, j]``
    is decision ``d``'s own log-likelihood (``loglik`` is their sum). A served roll
    (Generala: the first roll of a turn) is scored with its served points.
    """
    np.random.seed(rng_seed)
    n, nb, T, ny, ub = P[0], P[1], P[2], P[4], P[5]
    R, nk, nr, r0 = P[10], P[11], P[12], P[13]
    nmask = (1 << n) - 1  # masks 0 .. 2^n - 2 reroll at least one die
    maxd = nb * R
    loglik = np.zeros((betas_e.shape[0], betas_v.shape[0]))
    per = np.zeros((maxd, betas_e.shape[0], betas_v.shape[0]))
    decided = np.full(maxd, -9999, dtype=np.int64)
    evidence = np.zeros((maxd, 10))
    succ = np.empty((nb, n + 1))
    succ_h = np.empty((nb, n + 1))
    v0 = np.empty(nr)
    v0s = np.empty(nr)
    vh = np.empty(nr)
    E_all = np.empty((R + 1, nk))
    M_all = np.empty((R, nk))
    E_g = np.empty((R + 1, nk))
    M_g = np.empty((R, nk))
    v0_g = np.empty(nr)
    succ_g = np.empty((nb, n + 1))
    dice = np.empty(n, dtype=np.int64)
    after = np.empty(n, dtype=np.int64)
    counts = np.empty(6, dtype=np.int64)
    ends = np.empty(R**n, dtype=np.int64)
    na = nmask + nb
    ev = np.empty(na)
    vv = np.empty(na)
    code = np.empty(na, dtype=np.int64)
    mix = np.empty(na)
    kid = np.empty(na, dtype=np.int64)  # the kept multiset of a hold (-1: a box)
    mask = 0
    u = 0
    y = 0
    total = 0
    upper_raw = 0
    d = 0
    for t in range(nb):
        box_values(mask, u, y, W, True, P, raw, alike, upper_face, joker_points, succ, v0)
        box_values(mask, u, y, W, True, P, raw_served, alike, upper_face, joker_points, succ,
                   v0s)
        turn_tables(v0, v0s, P, child, parent, E_all, M_all)
        box_values(mask, u, y, H, True, P, raw, alike, upper_face, joker_points, succ_h, vh)
        if policy == GREEDY:
            box_values(mask, u, y, W, False, P, raw_served, alike, upper_face, joker_points,
                       succ_g, v0s)
            box_values(mask, u, y, W, False, P, raw, alike, upper_face, joker_points,
                       succ_g, v0_g)
            turn_tables(v0_g, v0s, P, child, parent, E_g, M_g)
        first = first_open(mask, nb)
        for i in range(n):
            dice[i] = slots[t, 0, i]
        roll = 0
        while True:
            rl = R - 1 - roll
            rw = raw_served if roll == 0 else raw
            r = code_index[dice_code(dice)] - r0
            extra = extra_bonus(r, mask, y, P, alike)
            mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
            # -- value every action: boxes, then hold masks --
            nc = 0
            for b in range(nb):
                v, _ = box_value(r, b, mask, y, succ, P, rw, upper_face, joker_points,
                                 mode, mbox, jok, first)
                if v > NEG:
                    vh_b, _ = box_value(r, b, mask, y, succ_h, P, rw, upper_face,
                                        joker_points, mode, mbox, jok, first)
                    ev[nc] = v + extra
                    vv[nc] = vh_b + extra
                    code[nc] = -(b + 1)
                    kid[nc] = -1
                    nc += 1
            if rl > 0:
                for m in range(nmask):
                    for f in range(6):
                        counts[f] = 0
                    for i in range(n):
                        if m >> i & 1:
                            counts[dice[i] - 1] += 1
                            after[i] = dice[i]
                        else:
                            after[i] = slots[t, roll + 1, i]
                    kc = 0
                    for f in range(6):
                        kc += counts[f] * 7**f
                    ev[nc] = E_all[rl, code_index[kc]]
                    kid[nc] = code_index[kc]
                    cnt = turn_rolls(slots[t], roll + 2, after, code_index, r0, ends)
                    top = NEG
                    for j in range(cnt):
                        if vh[ends[j]] > top:
                            top = vh[ends[j]]
                    vv[nc] = top
                    code[nc] = m
                    nc += 1
            # -- the expected-best action (boxes first win ties, then larger keeps) --
            ebest = 0
            for c in range(nc):
                if ev[c] > ev[ebest] + 1e-9:
                    ebest = c
            etop = ev[ebest]
            if code[ebest] >= 0:  # larger keep first, then leftmost dice, like the bots
                for j in range(py_order.shape[0]):
                    K = py_order[j]
                    if abs(E_all[rl, K] - etop) <= 1e-9 and keep_fits(keeps, K, dice, n):
                        lm = _leftmost_mask(dice, keeps[K])
                        for c in range(nc):
                            if code[c] == lm:
                                ebest = c
                        break
            vtop = NEG
            vbest = 0
            for c in range(nc):  # the best in hindsight; among those, the best expected
                if vv[c] > vtop + 1e-9:
                    vtop = vv[c]
                    vbest = c
                elif abs(vv[c] - vtop) <= 1e-9 and ev[c] > ev[vbest]:
                    vbest = c
            # -- choose --
            pick = -1
            if policy == REPLAY:
                for c in range(nc):
                    if code[c] == actions[d]:
                        pick = c
                if pick < 0:
                    return loglik, decided, evidence, -1, per  # not a legal action here
            elif policy == FORESIGHT:
                pick = vbest
            elif policy == MIXED:
                pick = ebest
                bv = ev[ebest] + tau_p * vv[ebest]
                for c in range(nc):
                    if ev[c] + tau_p * vv[c] > bv + 1e-9:
                        bv = ev[c] + tau_p * vv[c]
                        pick = c
            elif policy == PARTIAL:
                pick = ebest
                if budget > 0 and vtop - vv[ebest] >= gain_min:
                    pick = vbest
                    budget -= 1
            elif policy == NEXT_ROLL:
                pick = 0
                bv = NEG
                for c in range(nc):
                    if code[c] < 0:
                        val = ev[c]
                    else:
                        for i in range(n):
                            after[i] = dice[i] if code[c] >> i & 1 else slots[t, roll + 1, i]
                        val = M_all[rl - 1, code_index[dice_code(after)]]
                    if val > bv + 1e-9:
                        bv = val
                        pick = c
            elif policy == GREEDY:
                pick = 0
                bv = NEG
                for c in range(nc):
                    if code[c] < 0:
                        b = -code[c] - 1
                        val, _ = box_value(r, b, mask, y, succ_g, P, rw, upper_face,
                                           joker_points, mode, mbox, jok, first)
                        val += extra
                        if val > bv + 1e-9:
                            bv = val
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
            else:  # SOFTMAX over distinct actions (boxes, distinct keeps), like the bots
                if tau_p <= 0:
                    pick = ebest
                else:
                    s = 0.0
                    for c in range(nc):
                        if code[c] < 0 or _leftmost_mask(dice, _kept(dice, code[c])) == code[c]:
                            s += np.exp((ev[c] - etop) / tau_p)
                    x = np.random.random() * s
                    acc = 0.0
                    pick = ebest
                    for c in range(nc):
                        if code[c] < 0 or _leftmost_mask(dice, _kept(dice, code[c])) == code[c]:
                            acc += np.exp((ev[c] - etop) / tau_p)
                            if x < acc:
                                pick = c
                                break
            # -- the models' log-likelihoods --
            add_loglik(loglik, betas_e, betas_v, ev, vv, nc, pick, mix, per[d])
            decided[d] = code[pick]
            evidence[d, 0] = t
            evidence[d, 1] = roll
            evidence[d, 2] = etop - ev[pick]
            evidence[d, 3] = vv[pick]
            evidence[d, 4] = vv[ebest]
            evidence[d, 5] = vtop
            evidence[d, 6] = code[ebest]
            positional(evidence[d], kid, vv, nc, pick)
            d += 1
            a = code[pick]
            if a >= 0:
                for i in range(n):
                    if not (a >> i & 1):
                        dice[i] = slots[t, roll + 1, i]
                roll += 1
                continue
            b = -a - 1
            _, pts = box_value(r, b, mask, y, succ, P, rw, upper_face, joker_points,
                               mode, mbox, jok, first)
            total += pts + extra
            if upper_face[b] > 0:
                if ub > 0 and upper_raw < T <= upper_raw + pts:
                    total += ub
                upper_raw += pts
                u = min(T, u + pts) if T > 0 else 0
            if b == P[6] and ny == 2:
                y = 1 if pts > 0 else 0
            mask |= 1 << b
            break
    return loglik, decided[:d], evidence[:d], total, per[:d]


@njit(cache=True)
def _kept(dice, m):  # pragma: no cover - compiled
    counts = np.zeros(6, dtype=np.int64)
    for i in range(dice.shape[0]):
        if m >> i & 1:
            counts[dice[i] - 1] += 1
    return counts


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
    n, nb, T, nu, ny, ub = P[0], P[1], P[2], P[3], P[4], P[5]
    R, nk, nr, r0 = P[10], P[11], P[12], P[13]
    C = weights.shape[0]
    full = (1 << nb) - 1
    nmask = (1 << n) - 1
    maxd = C * nb * R
    loglik = np.zeros((betas_e.shape[0], betas_v.shape[0]))
    per = np.zeros((maxd, betas_e.shape[0], betas_v.shape[0]))
    decided = np.full(maxd, -9999, dtype=np.int64)
    evidence = np.zeros((maxd, 10))
    succ = np.empty((C, nb, n + 1))
    colv = np.empty(nr)
    v0 = np.empty(nr)
    here = np.empty(C)
    E_all = np.empty((R + 1, nk))
    M_all = np.empty((R, nk))
    dice = np.empty(n, dtype=np.int64)
    after = np.empty(n, dtype=np.int64)
    counts = np.empty(6, dtype=np.int64)
    ends = np.empty(R**n, dtype=np.int64)
    na = nmask + C * nb
    ev = np.empty(na)
    vv = np.empty(na)
    code = np.empty(na, dtype=np.int64)
    pts_of = np.empty(na, dtype=np.int64)
    extra_of = np.empty(na, dtype=np.int64)
    mix = np.empty(na)
    kid = np.empty(na, dtype=np.int64)  # the kept multiset of a hold (-1: a box)
    mask = np.zeros(C, dtype=np.int64)
    u = np.zeros(C, dtype=np.int64)
    y = np.zeros(C, dtype=np.int64)
    upper_raw = np.zeros(C, dtype=np.int64)
    total = 0
    d = 0
    for t in range(C * nb):
        for r in range(nr):
            v0[r] = NEG
        for c in range(C):
            here[c] = 0.0
            if mask[c] == full:
                continue
            here[c] = W[state_idx(mask[c], u[c], y[c], nu, ny)]
            box_values(mask[c], u[c], y[c], W, True, P, raw, alike, upper_face, joker_points,
                       succ[c], colv)
            w = weights[c]
            for r in range(nr):
                cand = w * (colv[r] - here[c])
                cand -= (w - 1) * extra_bonus(r, mask[c], y[c], P, alike)
                if cand > v0[r]:
                    v0[r] = cand
        turn_tables(v0, v0, P, child, parent, E_all, M_all)
        for i in range(n):
            dice[i] = slots[t, 0, i]
        roll = 0
        while True:
            rl = R - 1 - roll
            r = code_index[dice_code(dice)] - r0
            nc = 0
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
                    ev[nc] = weights[c] * (v - here[c]) + extra
                    vv[nc] = ev[nc]
                    code[nc] = -(c * nb + b + 1)
                    kid[nc] = -1
                    pts_of[nc] = pts
                    extra_of[nc] = extra
                    nc += 1
            if rl > 0:
                for m in range(nmask):
                    for f in range(6):
                        counts[f] = 0
                    for i in range(n):
                        if m >> i & 1:
                            counts[dice[i] - 1] += 1
                            after[i] = dice[i]
                        else:
                            after[i] = slots[t, roll + 1, i]
                    kc = 0
                    for f in range(6):
                        kc += counts[f] * 7**f
                    ev[nc] = E_all[rl, code_index[kc]]
                    kid[nc] = code_index[kc]
                    cnt = turn_rolls(slots[t], roll + 2, after, code_index, r0, ends)
                    top = NEG
                    for j in range(cnt):
                        if v0[ends[j]] > top:
                            top = v0[ends[j]]
                    vv[nc] = top
                    code[nc] = m
                    nc += 1
            ebest = 0
            for c in range(nc):
                if ev[c] > ev[ebest] + 1e-9:
                    ebest = c
            etop = ev[ebest]
            if code[ebest] >= 0:  # larger keep first, then leftmost dice, like the player
                for j in range(py_order.shape[0]):
                    K = py_order[j]
                    if abs(E_all[rl, K] - etop) <= 1e-9 and keep_fits(keeps, K, dice, n):
                        lm = _leftmost_mask(dice, keeps[K])
                        for c in range(nc):
                            if code[c] == lm:
                                ebest = c
                        break
            vtop = NEG
            vbest = 0
            for c in range(nc):
                if vv[c] > vtop + 1e-9:
                    vtop = vv[c]
                    vbest = c
                elif abs(vv[c] - vtop) <= 1e-9 and ev[c] > ev[vbest]:
                    vbest = c
            pick = -1
            if policy == REPLAY:
                for c in range(nc):
                    if code[c] == actions[d]:
                        pick = c
                if pick < 0:
                    return loglik, decided, evidence, -1, per
            elif policy == FORESIGHT:
                pick = vbest
            elif policy == MIXED:
                pick = ebest
                bv = ev[ebest] + tau_p * vv[ebest]
                for c in range(nc):
                    if ev[c] + tau_p * vv[c] > bv + 1e-9:
                        bv = ev[c] + tau_p * vv[c]
                        pick = c
            else:  # SOFTMAX over distinct actions
                if tau_p <= 0:
                    pick = ebest
                else:
                    s = 0.0
                    for c in range(nc):
                        if code[c] < 0 or _leftmost_mask(dice, _kept(dice, code[c])) == code[c]:
                            s += np.exp((ev[c] - etop) / tau_p)
                    x = np.random.random() * s
                    acc = 0.0
                    pick = ebest
                    for c in range(nc):
                        if code[c] < 0 or _leftmost_mask(dice, _kept(dice, code[c])) == code[c]:
                            acc += np.exp((ev[c] - etop) / tau_p)
                            if x < acc:
                                pick = c
                                break
            add_loglik(loglik, betas_e, betas_v, ev, vv, nc, pick, mix, per[d])
            decided[d] = code[pick]
            evidence[d, 0] = t
            evidence[d, 1] = roll
            evidence[d, 2] = etop - ev[pick]
            evidence[d, 3] = vv[pick]
            evidence[d, 4] = vv[ebest]
            evidence[d, 5] = vtop
            evidence[d, 6] = code[ebest]
            positional(evidence[d], kid, vv, nc, pick)
            d += 1
            a = code[pick]
            if a >= 0:
                for i in range(n):
                    if not (a >> i & 1):
                        dice[i] = slots[t, roll + 1, i]
                roll += 1
                continue
            c = (-a - 1) // nb
            b = (-a - 1) % nb
            w = weights[c]
            pts = pts_of[pick]
            total += w * pts + extra_of[pick]
            if upper_face[b] > 0:
                if ub > 0 and upper_raw[c] < T <= upper_raw[c] + pts:
                    total += w * ub
                upper_raw[c] += pts
                u[c] = min(T, u[c] + pts) if T > 0 else 0
            if b == P[6] and ny == 2:
                y[c] = 1 if pts > 0 else 0
            mask[c] |= 1 << b
            break
    return loglik, decided[:d], evidence[:d], total, per[:d]
