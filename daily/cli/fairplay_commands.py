"""``daily ceiling`` and ``daily review``: the day's ceiling and the fair-play review queue.

* ``daily ceiling RULESET --seed HEX [--log]``: the best score possible knowing every
  slot of the seed's dice (``--log`` also prints a move log that scores it).
* ``daily review list [--state pending|held]``: the games waiting for a decision
  (pending review at the top of their board, or held), oldest first.
* ``daily review show GAME``: the evidence (the decisions that gave it away, the
  ceiling, the par, the linked scouts, the player's record across days).
* ``daily review stats DATE RULESET``: scout-like games (finished and unfinished),
  games from busy networks, the games in review for a link to young players, for
  another game's reveals covering their gains or for their foresight record, the
  decisions.
* ``daily review clear GAME`` / ``daily review hold GAME`` / ``daily review disqualify
  GAME [--note TEXT]``: decide. Idempotent; a cleared game takes its rank on the board,
  a held one stays off it waiting for a final decision.
* ``daily review clear-top DATE RULESET GAME``: clear a game on the board for the public
  top, whoever played it (a provisional player's, or one without a passkey:
  :mod:`daily.service.players.standing`). Idempotent; archived with the day.

>>> main = __import__("daily.cli", fromlist=["main"]).main
>>> main(["ceiling", "yacht", "--option", "forced_order=true", "--seed", "00" * 32])
ceiling 137 (yacht, seed 00000000...)
0
>>> main(["ceiling", "yacht", "--seed", "zz"])
2
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from daily.cli.core_commands import add_option_flag, rules_from_args
from daily.dice import parse_seed_hex
from daily.fairplay.ceiling import ceiling_of_seed


def register(sub: Any) -> None:
    """Add the fair-play commands to the ``daily`` parser."""
    p = sub.add_parser("ceiling", help="the best score possible knowing every slot of a seed")
    p.add_argument("ruleset", help="yahtzee, maxi-yatzy, ...")
    p.add_argument("--seed", required=True, help="the 64-hex-digit seed")
    p.add_argument("--log", action="store_true", help="also print a move log scoring it")
    add_option_flag(p)
    p.set_defaults(handler=_ceiling)

    review = sub.add_parser("review", help="the fair-play review queue (REDIS_URL)")
    rsub = review.add_subparsers(dest="review_command", required=True)
    listing = rsub.add_parser("list", help="the games waiting for a decision, oldest first")
    listing.add_argument("--limit", type=int, default=100)
    listing.add_argument("--state", choices=("pending", "held"),
                         help="only the games pending review, or only the held ones")
    listing.set_defaults(handler=_review_list)
    show = rsub.add_parser("show", help="the evidence against one game")
    show.add_argument("game_id")
    show.add_argument("--json", action="store_true", help="the stored entry as JSON")
    show.set_defaults(handler=_review_show)
    stats = rsub.add_parser("stats", help="a day set's review statistics (scout-like games...)")
    stats.add_argument("date")
    stats.add_argument("ruleset")
    stats.set_defaults(handler=_review_stats)
    for name, help_text in (("clear", "put the game on the board"),
                            ("hold", "keep a pending game off the board, undecided"),
                            ("disqualify", "keep the game off the board for good")):
        decide = rsub.add_parser(name, help=help_text)
        decide.add_argument("game_id")
        decide.add_argument("--note", help="a note kept with the decision")
        decide.set_defaults(handler=_review_decide, decision=name)
    top = rsub.add_parser("clear-top", help="let a game of a provisional player, or of one "
                          "without a passkey, stand on the public top")
    top.add_argument("date")
    top.add_argument("ruleset")
    top.add_argument("game_id")
    top.set_defaults(handler=_review_clear_top)


def _ceiling(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    seed = parse_seed_hex(args.seed)
    ceiling = ceiling_of_seed(rules, seed)
    print(f"ceiling {ceiling.value} ({rules.name}, seed {args.seed[:8].lower()}...)")
    if args.log:
        print(ceiling.perfect_log(seed=seed).to_text())
    return 0


def _queue() -> tuple[Any, Any]:
    from daily.service.config import load_config
    from daily.service.connections import redis_from_config
    from daily.service.review.queue import ReviewQueue

    config = load_config()
    return ReviewQueue(redis_from_config(config), config.key_prefix,
                       config.clock), config


def _review_list(args: argparse.Namespace) -> int:
    queue, _ = _queue()
    held = [e for e in queue.held(args.limit) if args.state in (None, e.state)]
    for entry in held:
        r = entry.result
        print(f"{r.game_id}  {r.date.isoformat()} {r.ruleset:10} total {r.total:4}"
              f"  {entry.state:7} {entry.reason_code:10}  ceiling {entry.verdict.get('ceiling')}"
              f"  {r.player_name or r.player_id}")
    pending = sum(1 for e in held if e.state == "pending")
    print(f"{len(held)} game(s) held for review ({pending} pending review at the top)")
    return 0


def _review_show(args: argparse.Namespace) -> int:
    from daily.service import keymap
    from daily.service.review.queue import describe

    queue, config = _queue()
    entry = queue.get(args.game_id)
    if args.json:
        print(json.dumps(entry.to_json(), indent=2, ensure_ascii=False))
        return 0
    r = entry.result
    raw = queue.conn.get(keymap.par(config.key_prefix, r.date, r.ruleset))
    print(describe(entry, json.loads(raw) if raw is not None else None))
    return 0


def _review_stats(args: argparse.Namespace) -> int:
    from daily.dice import parse_date
    from daily.rules import canonical_name
    from daily.service.review.evidence import unfinished_scouts

    queue, _ = _queue()
    date, ruleset = parse_date(args.date).isoformat(), canonical_name(args.ruleset)
    signals = queue.signals(date, ruleset)
    states: dict[str, int] = {}
    reasons = dict.fromkeys(("young_link", "reveal_cover", "foresight_record"), 0)
    for entry in queue.entries_of(date, ruleset):  # at arrival or by the close's re-check
        states[entry.state] = states.get(entry.state, 0) + 1
        reasons[entry.reason_code] = reasons.get(entry.reason_code, 0) + 1
    unfinished = unfinished_scouts(queue.conn, queue.prefix, date, ruleset)
    print(f"{date} {ruleset}: {signals['checked']} games checked,"
          f" {signals['scout_like']} scout-like (rerolled every die),"
          f" {signals['reveal_unused']} revealing far more than they used,"
          f" {len(unfinished)} unfinished scout-like,"
          f" {signals['plays_blind']} playing blind (the same positions rerolled, far"
          " from optimal play),"
          f" {signals['copied']} copies of another player's game,"
          f" {signals['busy_network']} from busy networks,"
          f" {signals['scout_linked']} linked to a scout,"
          f" {reasons['young_link']} linked to young players of their network,"
          f" {reasons['reveal_cover']} covered by another game's reveals,"
          f" {reasons['foresight_record']} held by their foresight record;"
          f" review: {', '.join(f'{n} {s}' for s, n in sorted(states.items())) or 'none'}")
    return 0


def _review_decide(args: argparse.Namespace) -> int:
    from daily.service.review.queue import require_state

    queue, config = _queue()
    outcome = queue.decide(args.game_id, require_state(args.decision),
                           archive_dir=config.archive_dir, note=args.note)
    print(f"{args.game_id}: {outcome}")
    return _append_to_log(queue, config, args.game_id)


def _review_clear_top(args: argparse.Namespace) -> int:
    from daily.dice import parse_date
    from daily.rules import canonical_name
    from daily.service.players.standing import Policy, PublicStanding
    from daily.service.results.archive import write_archive
    from daily.service.results.leaderboard import Leaderboard

    queue, config = _queue()
    date, ruleset = parse_date(args.date), canonical_name(args.ruleset)
    standing = PublicStanding(queue.conn, config.key_prefix, Policy.from_config(config))
    added = standing.clear(date, ruleset, args.game_id)
    board = Leaderboard(queue.conn, date, ruleset, prefix=config.key_prefix)
    if added and board.frozen():  # the archive of a closed day carries the clearances
        write_archive(board, config.archive_dir)
    print(f"{args.game_id}: {'cleared' if added else 'already cleared'} for the public top")
    return 0


def _append_to_log(queue: Any, config: Any, game_id: str) -> int:
    """After a decision on a day whose results log is sealed: append it to the log and
    sign a new head (:mod:`daily.service.audit.day_log`)."""
    from daily.service.audit.day_log import DayLog
    from daily.service.days.keyring import Keyring

    result = queue.get(game_id).result
    day_log = DayLog(queue.conn, config, result.date, result.ruleset)
    if day_log.latest() is None:
        return 0  # sealed at the close, with this decision in it
    sealed = day_log.seal(Keyring.load(config), config.clock())
    if sealed["appended"]:
        print(f"{result.date.isoformat()} {result.ruleset}: {sealed['appended']} decision(s) "
              f"appended to the results log; new signed head of {sealed['signed']} leaves")
    return 0
