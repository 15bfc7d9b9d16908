"""A game in progress: the state machine every client, replay and bot drives.

The game reveals the dice slot by slot (spec v1): roll 0 of turn ``t`` shows slot
(t, 0) as soon as the previous turn is scored, and each reroll ``r`` shows slot
(t, r) only for the dice that were not kept.

>>> from daily.rules import get_ruleset
>>> game = Game.from_seed(get_ruleset("yahtzee"), bytes(32))
>>> game.dice, game.rolls_left
((5, 2, 2, 2, 3), 2)
>>> game.reroll("01110")
(2, 2, 2, 2, 3)
>>> game.score("twos"), game.turn, game.card.total
(8, 1, 8)
"""

from __future__ import annotations

from typing import NamedTuple

from daily.card import Card
from daily.dice import SlotCache, SlotSource, apply_holds
from daily.errors import IllegalMoveError, LogFormatError
from daily.rules import Ruleset
from daily.rules.placement import TurnOptions, place, placements

HOLD_CHARS = frozenset("01")
_OVER: dict[str, str | int] = {"code": "game_over"}
#: Every well-formed hold mask, by number of dice.
VALID_MASKS = {n: frozenset(format(v, f"0{n}b") for v in range(1 << n)) for n in range(1, 7)}


class TurnRecord(NamedTuple):
    """A scored turn: the dice of each roll, the box chosen and what it earned."""

    rolls: tuple[tuple[int, ...], ...]
    holds: tuple[str, ...]
    box: str
    points: int
    bonus: int

    @property
    def final_dice(self) -> tuple[int, ...]:
        """The dice the turn ended with."""
        return self.rolls[-1]


def check_mask(mask: object, dice: int, *, turn: int | None = None, roll: int | None = None) -> str:
    """A hold mask if well formed, else a :class:`LogFormatError` saying why.

    >>> check_mask("10100", 5)
    '10100'
    >>> check_mask("0110", 5, turn=6, roll=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.errors.LogFormatError: turn 7, roll 2: hold mask '0110' has 4 positions, ...
    """
    if mask.__class__ is str and mask in VALID_MASKS.get(dice, ()):
        return mask
    if not isinstance(mask, str):
        raise LogFormatError(
            f"a hold mask is a string of 0 and 1, not {mask!r}", turn=turn, roll=roll, field="hold"
        )
    if len(mask) != dice:
        shown = mask if len(mask) <= 16 else mask[:16] + "..."
        raise LogFormatError(
            f"hold mask {shown!r} has {len(mask)} positions, the game has {dice} dice",
            turn=turn, roll=roll, field="hold",
        )
    if not HOLD_CHARS.issuperset(mask):
        raise LogFormatError(
            f"hold mask {mask!r} may only hold '1' (keep) and '0' (reroll)",
            turn=turn, roll=roll, field="hold",
        )
    return mask


class Game:
    """The state of one game: card, turn, roll, dice and the rolls banked."""

    def __init__(self, rules: Ruleset, slots: SlotSource) -> None:
        self.rules = rules
        self._slots = slots
        self._scores: list[int | None] = [None] * len(rules.boxes)
        self._extra_bonus = 0
        self._extra_count = 0
        self._turns = rules.turns
        self._masks = VALID_MASKS[rules.dice]
        self.turn = 0
        self.bank = 0
        #: A served Generala ended the game as a win (option ``served_generala_wins``).
        self.won_outright = False
        self.history: list[TurnRecord] = []
        self._start_turn()

    @classmethod
    def from_seed(cls, rules: Ruleset, seed: bytes) -> Game:
        """A new game on the dice of ``seed``."""
        return cls(rules, SlotCache(seed, rules.dice))

    @property
    def card(self) -> Card:
        """The score card as it stands."""
        return Card(self.rules, tuple(self._scores), self._extra_bonus, self._extra_count)

    def _start_turn(self) -> None:
        self.holds: list[str] = []
        self._max_rolls = self.rules.max_rolls(self.bank)
        if self.turn < self._turns:
            self.dice = self._slots(self.turn, 0)
            self.rolls: list[tuple[int, ...]] = [self.dice]
        else:
            self.dice = ()
            self.rolls = []

    @property
    def over(self) -> bool:
        """Every box is filled."""
        return self.turn >= self._turns

    @property
    def roll(self) -> int:
        """0-based index of the roll now showing in this turn."""
        return len(self.holds)

    @property
    def max_rolls(self) -> int:
        """Rolls allowed in this turn (more than 3 only with saved rolls)."""
        return self._max_rolls

    @property
    def rolls_left(self) -> int:
        """Rerolls still allowed in this turn."""
        return 0 if self.turn >= self._turns else self._max_rolls - 1 - len(self.holds)

    def choices(self) -> TurnOptions:
        """The open boxes for the dice now showing, with points and legality."""
        if self.over:
            raise IllegalMoveError("the game is over", turn=self.turn, reason=_OVER)
        return placements(self.rules, self._scores, self.dice, first_roll=not self.holds)

    def reroll(self, mask: str) -> tuple[int, ...]:
        """Keep the dice marked '1' in ``mask`` and reroll the rest; returns the dice."""
        turn, roll = self.turn, len(self.holds) + 1
        if turn >= self._turns:
            raise IllegalMoveError("the game is over, no more rolls", turn=turn, reason=_OVER)
        if mask.__class__ is not str or mask not in self._masks:
            check_mask(mask, self.rules.dice, turn=turn, roll=roll)
        if "0" not in mask:
            raise IllegalMoveError(
                f"hold mask {mask!r} keeps every die; choose a box instead", turn=turn, roll=roll,
                reason={"code": "keeps_every_die"},
            )
        if roll >= self._max_rolls:
            raise IllegalMoveError(
                f"no rolls left: {self._max_rolls} rolls allowed in this turn",
                turn=turn,
                roll=roll,
                reason={"code": "no_rolls_left", "max_rolls": self._max_rolls},
            )
        self.dice = apply_holds(self.dice, mask, self._slots(turn, roll))
        self.holds.append(mask)
        self.rolls.append(self.dice)
        return self.dice

    def score(self, box: str) -> int:
        """Fill ``box`` with the dice now showing; returns the points it scored."""
        turn = self.turn
        if turn >= self._turns:
            why = "a served Generala won it" if self.won_outright else "every box is filled"
            raise IllegalMoveError(f"the game is over, {why}", turn=turn, reason=_OVER)
        index = self.rules.box_index(box)
        scores = self._scores
        if scores[index] is not None:
            raise IllegalMoveError(
                f"box {box!r} is already filled", turn=turn, field="box",
                reason={"code": "box_filled", "box": box},
            )
        first_roll = not self.holds
        points, bonus, reason = place(self.rules, scores, self.dice, index, first_roll=first_roll)
        if reason is not None:
            raise IllegalMoveError(
                f"box {box!r} is not allowed: {reason.text}", turn=turn, field="box",
                reason=reason.to_json(),
            )
        scores[index] = points
        if bonus:
            self._extra_bonus += bonus
            self._extra_count += 1
        self.history.append(TurnRecord(tuple(self.rolls), tuple(self.holds), box, points, bonus))
        if self.rules.saved_rolls:
            self.bank += self.rules.rolls_per_turn - 1 - len(self.holds)
        self.turn += 1
        if self.rules.served_wins and first_roll and points and index == self.rules.yahtzee_index:
            self.won_outright = True
            self._turns = self.turn  # the served Generala ends the game at once
        self._start_turn()
        return points
