"""The attackers of a board with history (issue 37): scouts, new accounts, copies and
aged accounts, against the public top and the review (``bench/fairplay.py --attacks``).

    .venv/bin/python bench/fairplay.py --attacks --ruleset yahtzee --days 200 --honest 60

Every simulated day has its own day seed (the day's dice, as the service draws them)
and secret parameters (:class:`daily.fairplay.daykey.DayParams`, from a fair-play key
made with a master of this run), and boards of 100, 1,000 and 10,000 honest players
(:data:`BOARDS`), of the noisy-optimal populations of ``bench/fairplay.py`` (a softmax
over the optimal expected values at temperatures 0.25 to 4 points, in equal numbers).
A share ``--standing`` of them stands on the public top (the rest are provisional or
without a passkey): the public top 10's line is the 10th best of those, the line of
the top where the stricter test runs on arrival is the board's own (every game).

**The board of 10,000 is sampled as its top tail.** Its 2,000 players at each of the
temperatures 0.25, 0.5 and 1 are played in full; of the 4,000 at 2 and 4, the 400 of
the board of 1,000 are played, as a sample of their upper tail. Players at 2 or 4
points lose 20 to 60 points to optimal play on average, so few of them reach a top 10
that 6,000 players at lower temperatures fill; the run counts how many of the sample
reach the board's public top-10 line (``tail_check``), and about nine times that many
rows are missing from the top 10. The line of the board of 10,000 is so at most the
real one: its figures of the cheaters on the top 10 are upper bounds. The boards of
1,000 and 100 are the first 200 and 20 of each temperature: every player played.

On each day:

* **honest games, checked** (``--honest`` a day, the same populations): the ordinary
  test, and the stricter one (its lines and the audit's, over their draw, as
  ``bench/fairplay.py`` computes them) for those that reach the top 1%; the review load
  of a board of ``n`` is ``n`` ordinary checks, the games entering the top on arrival
  (:func:`fairplay_lines.top_tests`), and the close-time re-check
  (:mod:`daily.service.review.recheck`) of the final public top 10's games that did not
  enter the top on arrival (ties, games of boards under 1,000 whose top is smaller than
  10): counted per day from a random order of arrival (:func:`untested_top10`). The
  re-check of a game tested on arrival draws the same audit and lines, so it gives the
  same verdict; a game's evidence that grew (a record, a copy) is the attackers' part;
* **split scouts**: two accounts, each rerolling a disjoint half of the positions at
  every reroll and filling the best box (``bench/evidence.py``); counted when the scout
  detector sees them (:func:`daily.fairplay.scouting.scout_kind`, or
  :func:`daily.fairplay.scouting.plays_blind` from the game's analysis), as
  ``daily review stats`` counts them;
* **opponents-channel scouts**: a game that never rerolls, with the three computer
  opponents: while the day is open the opponents show their boxes and points, not their
  dice, so it sees its own first rolls only (what any game sees); counted as above;
* **the provably-safe cheater** (a new account): the best-scoring of the informed
  cheater's candidate games (:func:`daily.fairplay.informed.candidates`) that is under
  the lowest ordinary lines and, by the bound over every subset
  (:func:`daily.fairplay.informed.subset_bounds`), under the lowest strict lines: held
  by no check of one game but the audit (one game in 200 entering the top);
* **the tie copy**: the same game, played by another new account (from a scout's
  network): linked by the copy link (:func:`daily.fairplay.scouting.is_copy`) when it
  scores at least optimal play on the day's dice (the rule of
  :func:`daily.service.review.gates.top_evidence`);
* **the aged cheater**: accounts that play optimal play (honest) until their last
  provisional day, then the gambling cheater's game (``bench/fairplay.py``: under the
  lowest strict lines for its own 32 subsets, the audit ignored) every day until
  held: on arrival at the top or at the close's re-check of the public top 10, held with
  the day's probability over the audit's draw, or by the record across days
  (:func:`daily.fairplay.history.residual.persistent`, its residuals against optimal play).
  :data:`RUNS` accounts per board, days drawn from the run. Its figures: the share of
  its cheating days on which its game stands unreviewed on the public top 10 (one
  account cheating each day, a fresh aged one ready when one is held), the account-days
  spent per such day, and the days until held.

Whether a game stands on the public top is the service's rule
(:func:`daily.service.players.standing.standing_rule`), with a passkey for every
attacker (software authenticators make them cheap). The account is held at
the top once its record of residuals or its foresight record (issue 37 item 4,
:data:`CUMULATIVE_FORESIGHT`) is evidence, whichever comes first. Not modelled:
links of a game to young players of its network (item 5c), honest copies and scout
links of honest games (no honest game links to a scout in this run: scouts have no
time or network here).

Counts and probabilities, not timings. The result is
``bench/results/fairplay-attacks-<ruleset>.json`` (``bench/benchjson.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import benchjson
import numpy as np
from benchjson import figure
from evidence import split_scout
from fairplay_lines import TEMPERATURES, exceeds, held_share, top_line, top_tests

from daily.fairplay import kernel
from daily.fairplay.ceiling import slots_of_seed
from daily.fairplay.daykey import (
    AUDIT_POSITIONAL_RANGE,
    AUDIT_SHARE,
    POSITIONAL_RANGE,
    STRICT_POSITIONAL_RANGE,
    STRICT_RANGE,
    THRESHOLD_RANGE,
    DayParams,
    audit_range,
    fairplay_key,
)
from daily.fairplay.foresight import Walked, positional_statistic, statistic
from daily.fairplay.history.residual import KEPT, persistent
from daily.fairplay.history.sequential import persistent as foresight_record
from daily.fairplay.informed import (
    SimDay,
    candidates,
    own_subsets,
    provably_safe,
    safe_lines,
    subset_bounds,
)
from daily.fairplay.scouting import is_copy, plays_blind, reveals_of, scout_kind
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import Ruleset, get_ruleset
from daily.service.players.standing import standing_rule
from daily.strategy.advisor import Advisor
from daily.strategy.analysis import analyse
from daily.strategy.simulate import play_slots
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import Position
from daily.strategy.tables.lookup import table_or_solve

#: The boards measured (players a day).
BOARDS = (100, 1_000, 10_000)
#: Players a day at each temperature of the board of 10,000 (the low ones), and of the
#: sample of its upper tail at the high ones (see the module text).
LOW, HIGH = (0.25, 0.5, 1.0), (2.0, 4.0)
FULL, TAIL = 2_000, 200
#: Aged accounts simulated per board, and the horizon of each (cheating days).
RUNS, HORIZON = 400, 365
#: The cumulative foresight evidence (issue 37 item 4): given the foresight statistics
#: of an account's ranked games, oldest first, whether its record holds its next game at
#: the top. The service's rule (reason ``foresight_record``), not a copy of it.
CUMULATIVE_FORESIGHT: Callable[[Sequence[float]], bool] | None = foresight_record


def day_seed(seed: int, day: int) -> bytes:
    """The simulated day's seed (its dice), from the run's seed.

    >>> len(day_seed(1, 0)), day_seed(1, 0) != day_seed(1, 1)
    (32, True)
    """
    return hashlib.blake2b(f"attacks-{seed}-{day}".encode(), digest_size=32).digest()


def boards_of(table: StrategyTable, slots: np.ndarray, seed: int) -> dict[str, np.ndarray]:
    """The day's honest totals: ``"low"`` (:data:`FULL` at each of :data:`LOW`, in
    order) and ``"high"`` (:data:`TAIL` at each of :data:`HIGH`)."""
    out = {}
    for name, temps, n in (("low", LOW, FULL), ("high", HIGH, TAIL)):
        many = np.repeat(slots[None], n, axis=0)
        out[name] = np.concatenate([
            play_slots(table, many, "medium", temperature=t, seed=seed * 10 + k)
            for k, t in enumerate(temps)])
    return out


def board(totals: dict[str, np.ndarray], players: int) -> np.ndarray:
    """A board of ``players`` from the day's totals (see the module text): the first
    ``players / 5`` of each temperature, or for 10,000 the low ones in full and the
    sample of the high ones.

    >>> t = {"low": np.arange(3 * FULL), "high": np.arange(2 * TAIL)}
    >>> len(board(t, 100)), len(board(t, 1_000)), len(board(t, 10_000))
    (100, 1000, 6400)
    """
    if players >= 5 * FULL:
        return np.concatenate([totals["low"], totals["high"]])
    each = players // len(TEMPERATURES)
    low = totals["low"].reshape(len(LOW), FULL)[:, :each].ravel()
    high = totals["high"].reshape(len(HIGH), TAIL)[:, :each].ravel()
    return np.concatenate([low, high])


def untested_top10(scores: np.ndarray, rng: np.random.Generator) -> int:
    """How many of a board's final top-10 games did not enter the top on arrival, the
    games arriving in a random order: a game is tested when fewer games than the top of
    the board then (:func:`fairplay_lines.top_line` of the players so far, itself included)
    scored more (a tie with the last place enters, as
    :func:`daily.service.review.gates.reaches_top` says).

    >>> untested_top10(np.full(10, 250.0), np.random.default_rng(1))  # ties all enter
    0
    >>> 0 < untested_top10(np.arange(50.0), np.random.default_rng(1)) <= 9  # a top of 1
    True
    """
    order = rng.permutation(len(scores))
    arrival = np.empty(len(scores), dtype=np.int64)
    arrival[order] = np.arange(len(scores))
    best = np.argsort(-scores, kind="stable")[:10]
    missed = 0
    for i in best:
        before = arrival < arrival[i]
        above = int(np.sum(before & (scores > scores[i])))
        missed += above >= top_line(int(arrival[i]) + 1)
    return missed


def decisions_of_walk(walked: Walked) -> tuple[str, ...]:
    """A walked game's decisions turn by turn (the kernel's codes: holds, then the box,
    negative), the form the copy link compares (:func:`daily.fairplay.scouting.is_copy`).

    >>> decisions_of_walk(Walked(np.zeros((1, 1)), np.zeros((0, 1, 1)),
    ...                          np.array([3, 7, -2, -5]), np.zeros((0, 10)), 0))
    ('3,7|-2', '|-5')
    """
    turns: list[str] = []
    holds: list[str] = []
    for code in walked.decided.tolist():
        if code < 0:
            turns.append(",".join(holds) + f"|{code}")
            holds = []
        else:
            holds.append(str(code))
    return tuple(turns)


def opponents_scout(advisor: Advisor, game: Game) -> Game:
    """A game that never rerolls: the best box for each first roll."""
    while not game.over:
        box = next(a for a in advisor.actions(Position.from_game(game)) if a.kind == "box")
        assert box.box is not None
        game.score(box.box)
    return game


def scout_seen(table: StrategyTable, game: Game, seed: bytes) -> dict[str, Any]:
    """What the scout detector says of a finished scout game, and what it showed."""
    log = MoveLog.of_game(game, seed=seed)
    reveals = reveals_of(log)
    report = analyse(table, log, seed=seed, with_optimal_total=False)
    kind = scout_kind(reveals)
    blind = plays_blind(reveals, report.expected_loss, len(report.decisions))
    return {"kind": kind, "blind": bool(blind), "detected": kind is not None or blind,
            "shown": round(reveals.shown, 4), "ratio": round(reveals.ratio, 3)}


def simulate(args: argparse.Namespace) -> dict[str, Any]:
    """Every day of the run (see the module text), then :func:`summarise`."""
    rules = get_ruleset(args.ruleset)
    if len(rules.weights) > 1:
        raise SystemExit("the attacks bench plays rulesets of one column")
    table = table_or_solve(rules)
    advisor = Advisor(table)
    master = args.seed.to_bytes(8, "big") * 4
    rng = np.random.default_rng(args.seed)
    half = rules.dice // 2
    honest: list[tuple[float, ...]] = []
    days: list[dict[str, Any]] = []
    started = time.perf_counter()
    for day in range(args.days):
        seed = day_seed(args.seed, day)
        slots = slots_of_seed(rules, seed)
        params = DayParams.from_key(fairplay_key(master, rules.name, f"sim-{day}"), rules.name)
        sim = SimDay(rules, table, slots, params)
        optimal = sim.walk(kernel.SOFTMAX, 0.0)
        totals = boards_of(table, slots, args.seed + day)
        lines: dict[str, Any] = {}
        for n in BOARDS:
            scores = np.sort(board(totals, n))[::-1]
            standing = scores[rng.random(len(scores)) < args.standing]
            lines[str(n)] = {
                "top": int(scores[min(len(scores), top_line(n)) - 1]),
                "public10": int(standing[min(len(standing), 10) - 1]) if len(standing) else 0,
                "untested": untested_top10(board(totals, n).astype(float), rng),
            }
        ten = lines[str(BOARDS[-1])]["public10"]
        tail = {"reach_top10": int(np.sum(totals["high"] >= ten)),
                "best": int(totals["high"].max())}
        # Honest games walked through the detector, held over the draw of the lines.
        top_1pct = lines["1000"]["top"]
        low_a = audit_range(rules.name)
        for k in range(args.honest):
            tau = TEMPERATURES[k % len(TEMPERATURES)]
            walked = sim.walk(kernel.SOFTMAX, tau, seed=day * 100_003 + k + 1)
            weights = sim.weights(walked)
            scr, scr_pos = sim.scrutiny(walked), positional_statistic(walked.evidence, weights)
            lam, pos = statistic(walked.loglik), positional_statistic(walked.evidence)
            p_ord = 1 - (1 - exceeds(lam, THRESHOLD_RANGE)) * (1 - exceeds(pos, POSITIONAL_RANGE))
            p_strict = 1 - (1 - p_ord) * (1 - exceeds(scr, STRICT_RANGE)) * (
                1 - exceeds(scr_pos, STRICT_POSITIONAL_RANGE))
            p_audit = 1 - (1 - p_ord) * (1 - exceeds(scr, low_a)) * (
                1 - exceeds(scr_pos, AUDIT_POSITIONAL_RANGE))
            honest.append((float(walked.total >= top_1pct), p_ord,
                           (1 - AUDIT_SHARE) * p_strict + AUDIT_SHARE * p_audit))
        # The cheaters' games.
        games = candidates(sim)
        public_ok = [statistic(w.loglik) < THRESHOLD_RANGE[0]
                     and positional_statistic(w.evidence) < POSITIONAL_RANGE[0] for w in games]
        line, line_pos = safe_lines(rules.name, gamble=True)
        gambling = max([optimal, *(w for w, ok in zip(games, public_ok, strict=True)
                                   if ok and _under(own_subsets(w, rng, 32), line, line_pos))],
                       key=lambda w: w.total)
        safe = max([optimal, *(w for w in games if provably_safe(w))],
                   key=lambda w: w.total)
        bound = subset_bounds(safe)
        own = own_subsets(safe, rng, 32)
        copy_linked = (is_copy(decisions_of_walk(safe), decisions_of_walk(safe))
                       and safe.total >= optimal.total)
        scouts = [scout_seen(table, split_scout(advisor, Game.from_seed(rules, seed), part),
                             seed) for part in (set(range(half)), set(range(half, rules.dice)))]
        channel = scout_seen(table, opponents_scout(advisor, Game.from_seed(rules, seed)), seed)
        days.append({
            "day": day, "optimal": optimal.total, "lines": lines, "tail": tail,
            "safe": _judged(safe, sim, lines, optimal.total) | {
                "bound": round(bound[0], 3), "bound_positional": round(bound[1], 3),
                "own_subsets": round(own[0], 3)},
            "copy": {"linked": bool(copy_linked)},
            "gambling": _judged(gambling, sim, lines, optimal.total),
            "split_scouts": scouts, "opponents_scout": channel,
        })
        if (day + 1) % max(1, args.days // 20) == 0 or day + 1 == args.days:
            print(f"  day {day + 1}/{args.days}: {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)
    return summarise(args, rules, np.array(honest), days, time.perf_counter() - started)


def _under(worst: tuple[float, float], line: float, line_pos: float) -> bool:
    return worst[0] < line and worst[1] < line_pos


def _judged(walked: Walked, sim: SimDay, lines: dict[str, Any], optimal: int) -> dict[str, Any]:
    """A cheater's game on the day: its gain, its chance of being held when tested at
    the top (over the audit's draw) and below it, and where it stands on each board."""
    return {"total": walked.total, "gain": walked.total - optimal,
            "statistic": round(statistic(walked.loglik), 3),
            "held_top": round(held_share(sim, walked, True)[0], 5),
            "held_low": round(held_share(sim, walked, False)[0], 5),
            "at_top": {n: bool(walked.total >= v["top"]) for n, v in lines.items()},
            "public10": {n: bool(walked.total >= v["public10"]) for n, v in lines.items()}}


def stands(ranked_days: int, provisional_days: int) -> bool:
    """Whether a game of a player with ``ranked_days`` (its own day included) stands on
    the public top: the service's rule, with a passkey and not cleared.

    >>> stands(1, 7), stands(7, 7)
    (False, True)
    """
    return standing_rule(ranked_days, True, False, provisional_days=provisional_days,
                         passkey_required=True).eligible


def aged(days: list[dict[str, Any]], n: str, ruleset: str, provisional_days: int,
         rng: np.random.Generator) -> dict[str, Any]:
    """The aged cheater on the board of ``n`` (see the module text)."""
    honest_days = max(provisional_days - 1, 0)
    spent, bad, cheated, until = 0, 0, 0, []
    for _ in range(RUNS):
        record = [0.0] * honest_days  # optimal play: no residual
        foresight = [0.0] * honest_days
        held_on = None
        for k in range(1, HORIZON + 1):
            d = days[int(rng.integers(len(days)))]["gambling"]
            tested = d["at_top"][n] or d["public10"][n]  # on arrival, or at the close
            evidence = persistent(record[-KEPT:], ruleset) or (
                CUMULATIVE_FORESIGHT is not None and CUMULATIVE_FORESIGHT(foresight))
            p = d["held_top"] if tested else d["held_low"]
            if (tested and evidence) or rng.random() < p:
                held_on = k
                break
            if d["public10"][n] and stands(honest_days + k, provisional_days):
                bad += 1
            record.append(float(d["gain"]))
            foresight.append(float(d["statistic"]))
        days_cheated = held_on - 1 if held_on is not None else HORIZON
        spent += honest_days + days_cheated + (held_on is not None)
        cheated += days_cheated
        until.append(np.inf if held_on is None else float(held_on))
    a = np.array(until)
    return {
        "accounts": RUNS, "honest_days": honest_days,
        "account_days": spent, "cheating_days": cheated, "contaminated_days": bad,
        "share_of_days_on_public_top10": round(bad / cheated, 4) if cheated else 0.0,
        "account_days_per_contaminated_day": round(spent / bad, 2) if bad else None,
        "days_until_held": {q: (None if not np.isfinite(v := np.quantile(a, p, method="lower"))
                                else int(v)) for q, p in (("p50", 0.5), ("p90", 0.9))},
        "held_within_horizon": round(float(np.isfinite(a).mean()), 3),
    }


def summarise(args: argparse.Namespace, rules: Ruleset, h: np.ndarray,
              days: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The run's figures (see the module text)."""
    top = h[:, 0] == 1
    fp_ord = float(h[:, 1].mean())
    fp_top = float(h[top, 2].mean()) if top.any() else 0.0
    held = np.where(top, h[:, 2], h[:, 1])
    rng = np.random.default_rng(args.seed + 1)
    per_board: dict[str, Any] = {}
    for n in (str(b) for b in BOARDS):
        untested = float(np.mean([d["lines"][n]["untested"] for d in days]))
        load = int(n) * fp_ord + top_tests(int(n)) * fp_top
        recheck = untested * fp_top
        safe_top10 = float(np.mean([d["safe"]["public10"][n] for d in days]))
        per_board[n] = {
            "review_load_per_100000_players": round((load + recheck) / int(n) * 1e5, 3),
            "recheck_load_per_100000_players": round(recheck / int(n) * 1e5, 3),
            "recheck_untested_top10_per_day": round(untested, 3),
            "new_account": {
                # By score, the provably-safe game would be on the public top 10 on this
                # share of days: the provisional rule keeps it off.
                "provably_safe_in_top10_by_score": round(safe_top10, 4),
                "provably_safe_on_public_top10_unreviewed": round(float(np.mean([
                    d["safe"]["public10"][n] and stands(1, args.provisional_days)
                    for d in days])), 4),
                "tie_copy_on_public_top10_unreviewed": round(float(np.mean([
                    d["safe"]["public10"][n] and stands(1, args.provisional_days)
                    and not d["copy"]["linked"] for d in days])), 4),
            },
            "aged": aged(days, n, rules.name, args.provisional_days, rng),
        }
    split = [s for d in days for s in d["split_scouts"]]
    channel = [d["opponents_scout"] for d in days]
    safe = [d["safe"] for d in days]
    tail = [d["tail"]["reach_top10"] for d in days]
    return {
        "ruleset": rules.name, "days": len(days), "boards": list(BOARDS),
        "honest_per_day": args.honest, "standing": args.standing,
        "provisional_days": args.provisional_days,
        "honest": {"games": len(h), "top_games": int(top.sum()),
                   "held_per_10000": round(1e4 * float(held.mean()), 3),
                   "ordinary_held_share": round(fp_ord, 7),
                   "top_held_share": round(fp_top, 6)},
        "boards_figures": per_board,
        "split_scouts": {"games": len(split),
                         "detected": sum(s["detected"] for s in split),
                         "by_kind": sum(s["kind"] is not None for s in split),
                         "by_play": sum(s["blind"] for s in split),
                         "shown_mean": round(float(np.mean([s["shown"] for s in split])), 3)},
        "opponents_scouts": {"games": len(channel),
                             "detected": sum(s["detected"] for s in channel),
                             "shown_mean": round(float(np.mean([s["shown"] for s in channel])), 3),
                             "opponents_dice_shown": 0},
        "provably_safe": {
            "mean_gain": round(float(np.mean([s["gain"] for s in safe])), 2),
            "max_gain": int(max(s["gain"] for s in safe)),
            "held_top_mean": round(float(np.mean([s["held_top"] for s in safe])), 6),
            "bound_max": round(max(s["bound"] for s in safe), 3),
            "own_subsets_max": round(max(s["own_subsets"] for s in safe), 3),
            "strict_low": STRICT_RANGE[0]},
        "tie_copies": {"games": len(days),
                       "linked": sum(d["copy"]["linked"] for d in days),
                       "below_optimal": sum(s["gain"] < 0 for s in safe)},
        "gambling_mean_gain": round(float(np.mean([d["gambling"]["gain"] for d in days])), 2),
        "tail_check": {"days_a_high_temperature_game_reaches_top10":
                       int(np.sum(np.array(tail) > 0)),
                       "games": int(sum(tail)), "sample": 2 * TAIL},
        "seconds": round(seconds, 1), "load_average": [round(x, 2) for x in os.getloadavg()],
        "per_day": days,
    }


def headline(s: dict[str, Any]) -> dict[str, benchjson.Figure]:
    """The figures of the aims, from :func:`summarise`'s summary."""
    out: dict[str, benchjson.Figure] = {
        "honest_held": figure(s["honest"]["held_per_10000"], "per 10,000 games",
                              games=s["honest"]["games"]),
        "split_scouts_detected": figure(
            round(100 * s["split_scouts"]["detected"] / max(1, s["split_scouts"]["games"]), 2),
            "% of scout games", games=s["split_scouts"]["games"]),
        "opponents_scouts_detected": figure(
            round(100 * s["opponents_scouts"]["detected"] / max(1, s["opponents_scouts"]["games"]),
                  2), "% of scout games", games=s["opponents_scouts"]["games"]),
        "provably_safe_gain": figure(s["provably_safe"]["mean_gain"], "points over optimal play"),
        "tie_copies_linked": figure(s["tie_copies"]["linked"], "games",
                                    games=s["tie_copies"]["games"]),
        "days": figure(s["days"], "days"),
    }
    for n, b in s["boards_figures"].items():
        out[f"review_load_{n}"] = figure(b["review_load_per_100000_players"],
                                         f"games per 100,000 players a day ({n} players)")
        out[f"new_account_on_public_top10_{n}"] = figure(
            round(100 * max(b["new_account"]["provably_safe_on_public_top10_unreviewed"],
                            b["new_account"]["tie_copy_on_public_top10_unreviewed"]), 2),
            f"% of days ({n} players)")
        out[f"aged_on_public_top10_{n}"] = figure(
            round(100 * b["aged"]["share_of_days_on_public_top10"], 2),
            f"% of cheating days ({n} players)")
        per = b["aged"]["account_days_per_contaminated_day"]
        out[f"aged_account_days_per_top10_day_{n}"] = figure(
            per if per is not None else float(b["aged"]["account_days"]),
            f"account-days ({n} players{'' if per is not None else '; no such day'})")
        held = b["aged"]["days_until_held"]["p50"]
        past = "" if held is not None else "; past the horizon"
        out[f"aged_days_until_held_{n}"] = figure(
            held if held is not None else HORIZON, f"cheating days, median ({n} players{past})")
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Simulate and record ``fairplay-attacks-<ruleset>``."""
    summary = simulate(args)
    if args.out is not None:
        os.environ["BENCH_RESULTS_DIR"] = str(args.out)
    benchjson.record(f"fairplay-attacks-{summary['ruleset']}", headline(summary),
                     notes=(f"{summary['days']} days; boards of 100, 1,000 and 10,000"
                            " players (10,000: its top tail, see bench/fairplay_attacks.py)"),
                     details=summary)
    return summary
