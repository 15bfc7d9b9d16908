"""A practice game in the terminal, for ``daily play``.

Commands at the prompt: ``r 135`` rerolls keeping dice 1, 3 and 5 (``r`` alone rerolls
all), a box id or its number from the list scores the dice there, ``q`` quits.

>>> import io
>>> from daily.rules import get_ruleset
>>> out = io.StringIO()
>>> play_interactive(get_ruleset("yacht"), bytes(32), io.StringIO("q\\n"), out)
1
>>> "Dice:" in out.getvalue()
True
"""

from __future__ import annotations

from typing import TextIO

from daily.card import Card
from daily.errors import DailyError
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import Ruleset

HELP = "r [positions to keep] rerolls, a box name or number scores, q quits"


def keep_mask(positions: str, dice: int) -> str:
    """The hold mask that keeps the 1-based ``positions`` (e.g. "135").

    >>> keep_mask("135", 5)
    '10101'
    >>> keep_mask("7", 5)
    Traceback (most recent call last):
    ...
    daily.errors.DailyError: keep: position 7 is not a die (1 to 5)
    """
    keep = set()
    for ch in positions.replace(" ", "").replace(",", ""):
        if not ch.isdigit() or not 1 <= int(ch) <= dice:
            raise DailyError(f"position {ch} is not a die (1 to {dice})", field="keep")
        keep.add(int(ch))
    return "".join("1" if i in keep else "0" for i in range(1, dice + 1))


def render_card(card: Card) -> str:
    """The score card as aligned text, with totals."""
    rules = card.rules
    lines = [f"{box:<16} {'' if s is None else s:>4}" for box, s in card.as_dict().items()]
    if len(rules.weights) > 1:
        for n, col in enumerate(card.columns, start=1):
            lines.append(
                f"{f'column {n} x{col.weight}':<16} {col.total:>4}"
                f"  (upper {col.upper}, bonus {col.bonus}, lower {col.lower})"
            )
    if rules.upper_bonus:
        lines.append(f"{'upper total':<16} {card.upper_total:>4}")
        lines.append(f"{'upper bonus':<16} {card.upper_bonus:>4}")
    if rules.extra_yahtzee_bonus:
        lines.append(f"{'extra bonus':<16} {card.extra_bonus:>4}")
    lines.append(f"{'TOTAL':<16} {card.total:>4}")
    return "\n".join(lines)


def _show_turn(game: Game, out: TextIO) -> None:
    positions = "  ".join(f"{i}:[{d}]" for i, d in enumerate(game.dice, start=1))
    out.write(f"\nTurn {game.turn + 1}/{game.rules.turns}, roll {game.roll + 1}, ")
    out.write(f"{game.rolls_left} rolls left\nDice: {positions}\n")
    choices = game.choices()
    for n, p in enumerate(choices.options, start=1):
        mark = "" if p.legal else f"  (not allowed: {p.reason})"
        out.write(f"  {n:>2}. {p.box:<16} {p.points:>4}{mark}\n")
    if choices.bonus:
        out.write(f"  extra bonus +{choices.bonus} when scored\n")
    if game.rules.served and not game.holds:
        out.write("  first roll: a combination scored now is served\n")


def _choose_box(game: Game, answer: str) -> str:
    options = game.choices().options
    if answer.isdigit():
        n = int(answer)
        if not 1 <= n <= len(options):
            raise DailyError(f"choose a box from 1 to {len(options)}", field="box")
        return options[n - 1].box
    return answer


def play_interactive(rules: Ruleset, seed: bytes, inp: TextIO, out: TextIO) -> int:
    """Play until the card is full (0) or the player quits or input ends (1)."""
    game = Game.from_seed(rules, seed)
    out.write(f"Daily Dice practice: {rules.title}. {HELP}\n")
    while not game.over:
        _show_turn(game, out)
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\nbye\n")
            return 1
        answer = line.strip()
        try:
            if answer in ("q", "quit"):
                out.write("bye\n")
                return 1
            if answer == "r" or answer.startswith("r "):
                game.reroll(keep_mask(answer[1:], rules.dice))
            elif answer in ("?", "h", "help"):
                out.write(HELP + "\n")
            elif answer:
                box = _choose_box(game, answer)
                out.write(f"{box}: {game.score(box)}\n")
        except DailyError as exc:
            out.write(f"! {exc}\n")
    if game.won_outright:
        out.write("\nServed Generala: the game is won at once.\n")
    out.write("\n" + render_card(game.card) + "\n")
    out.write(f"log: {MoveLog.of_game(game, seed=seed).to_text()}\n")
    return 0
