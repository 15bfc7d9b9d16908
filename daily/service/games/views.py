"""What clients see of a game: the state document, the public result and the share text.

Pure functions of a stored record and its replay (plus the leaderboard standing once a
worker has recorded a finished ranked game). The dice in a state document are only
those of slots the game has reached; a practice seed shows once the game is over.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import redis

from daily.card import Card, ColumnTotals
from daily.game import Game
from daily.movelog import MoveLog
from daily.replay import turns_json
from daily.rules.placement import Placement
from daily.service.audit.receipts import accepted_of
from daily.service.clock import iso
from daily.service.games.codes import MARK_NAMES, box_marks, share_text
from daily.service.games.record import GameRecord
from daily.service.results.leaderboard import Leaderboard, Standing
from daily.service.results.stats import current_streak
from daily.service.review.gates import day_ceiling_value
from daily.service.review.queue import ReviewQueue


class Played(Protocol):
    """A game and its log: a :class:`daily.replay.ReplayResult` or a live position."""

    @property
    def game(self) -> Game: ...

    @property
    def log(self) -> MoveLog: ...


class GameViews:
    """Builds the documents of games (``public_url()`` gives the base of result links:
    :func:`daily.service.publicurl.public_base_url`)."""

    def __init__(
        self, conn: redis.Redis, prefix: str, public_url: Callable[[], str],
        names: Callable[[str], str | None], lang: Callable[[], str] = lambda: "en",
        clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    ) -> None:
        self.conn = conn
        self.prefix = prefix
        self.public_url = public_url  # the base URL for the request being served
        self.names = names
        self.lang = lang  # the language of share texts, for the request being served
        self.clock = clock

    def standing(self, record: GameRecord) -> Standing | None:
        """The standing of a finished ranked game on its board, once recorded."""
        if record.mode != "ranked" or not record.finished or record.date is None:
            return None
        board = Leaderboard(self.conn, record.date, record.ruleset, prefix=self.prefix)
        return board.standing_of_game(record.id)

    def streak(self, record: GameRecord) -> int:
        """The player's daily streak with this finished ranked game counted (0 else)."""
        if record.mode != "ranked" or not record.finished or record.day is None:
            return 0
        return current_streak(self.conn, record.player, self.clock(), prefix=self.prefix,
                              also=record.day)

    def url(self, record: GameRecord) -> str:
        """The public link of a finished game's result."""
        return f"{self.public_url()}/r/{record.code}"

    def share(
        self, record: GameRecord, card: Card, standing: Standing | None, *,
        versus: Sequence[tuple[str, int]] = (),
    ) -> str:
        """The share text of a finished game (:func:`daily.service.games.codes.share_text`)."""
        return share_text(
            card, date=record.date, url=self.url(record),
            rank=standing.rank if standing else None,
            players=standing.players if standing else None,
            tied=standing.tied if standing else 1,
            mode=record.mode, lang=self.lang(), versus=versus,
        )

    def state(
        self, record: GameRecord, played: Played, *, just_finished: bool = False,
        moved: str | None = None, versus: Sequence[tuple[str, int]] = (),
    ) -> dict[str, Any]:
        """The state document of a game (``docs/api.md``, "The game state").

        ``just_finished``: the request being answered finished the game, so no worker
        has put it on its board or reviewed it yet: rank, streak and review are not
        looked up. ``moved`` (``"roll"`` or ``"score"``, the decision just applied, the
        game not over): the lighter answer of a move, without ``history`` and ``log``
        but with ``last_turn``, the turn that decision filled (``None`` after a roll).
        ``versus``: the totals of the game's opponents, ``(level or name, total)``, for
        the share text of a finished game.
        """
        game = played.game
        rules = game.rules
        card = game.card
        light = moved is not None and not game.over
        log_json = {} if light else played.log.to_json()
        if (not game.over or record.challenge is not None) and "seed" in log_json:
            # A practice seed is shown once the game is over, unless a challenge uses it.
            log_json["seed"] = None
        over = game.over
        upper, total = upper_and_total(card)
        state: dict[str, Any] = {
            "id": record.id,
            "mode": record.mode,
            "ruleset": record.ruleset,
            "options": record.options,
            "date": record.date,
            "position": record.v,  # position_of(played.log), kept with the record
            "turn": min(game.turn + 1, rules.turns),
            "turns": rules.turns,
            "roll": 0 if over else game.roll + 1,
            "max_rolls": 0 if over else game.max_rolls,
            "rolls_left": game.rolls_left,
            "dice": list(game.dice),
            "turn_rolls": [list(r) for r in game.rolls],
            "over": over,
            "card": card_json(card),
            "choices": [] if over else choices_json(game.choices().options),
            "extra_bonus": card.extra_bonus,
            "extra_count": card.extra_count,
            "upper": upper,
            "total": total,
            "history": [] if light else turns_json(game.history),
            "log": log_json,
            "result": None,
        }
        if moved is not None and not over:
            del state["history"], state["log"]
            state["last_turn"] = (
                turns_json(game.history[-1:], len(game.history) - 1)[0]
                if moved == "score" and game.history else None
            )
        if over and record.code is not None:
            standing = None if just_finished else self.standing(record)
            streak = 0 if just_finished else self.streak(record)
            state["result"] = {
                "total": record.total,
                "code": record.code,
                "share_text": self.share(record, card, standing, versus=versus),
                "url": self.url(record),
                **standing_json(standing),
                "streak": None if just_finished or record.mode != "ranked" else streak,
                "finished_at": _finished_at(record),
                "review": None if just_finished else self.review(record),
                "receipt": record.receipt,
                "accepted": accepted_of(record).to_json() if record.receipt else None,
            }
        return state

    def review(self, record: GameRecord) -> dict[str, Any] | None:
        """The fair-play review of a ranked game, as its player sees it (None: not held)."""
        if record.mode != "ranked" or not record.finished:
            return None
        entry = ReviewQueue(self.conn, self.prefix).entry(record.id)
        return entry.public() if entry is not None else None

    def public_result(
        self, record: GameRecord, played: Played, *, revealed: bool
    ) -> dict[str, Any]:
        """What anyone with the code sees; the dice only once they are ``revealed``."""
        card = played.game.card
        standing = self.standing(record)
        out: dict[str, Any] = {
            "code": record.code,
            "ruleset": record.ruleset,
            "options": record.options,
            "date": record.date,
            "mode": record.mode,
            "player": {"name": self.names(record.player) or ""},
            "total": card.total,
            "card": card_json(card),
            "upper": upper_json(card),
            "extra_bonus": card.extra_bonus,
            "extra_count": card.extra_count,
            "finished_at": _finished_at(record),
            "revealed": revealed,
            **standing_json(standing),
            "share_text": self.share(record, card, standing),
            "url": self.url(record),
            "marks": [MARK_NAMES[m] for m in box_marks(card)],
            "review": self.review(record),
            "ceiling": None,
            "receipt": record.receipt,
        }
        if revealed and record.receipt:
            out["accepted"] = accepted_of(record).to_json()
        if revealed and record.date is not None:
            out["ceiling"] = day_ceiling_value(self.conn, self.prefix, record.date, record.ruleset)
        if revealed:
            out["history"] = turns_json(played.game.history)
            out["log"] = played.log.to_json()
        return out


def standing_json(standing: Standing | None) -> dict[str, Any]:
    """``rank``, ``percentile``, ``better_than``, ``top``, ``players`` and ``tied`` of a
    result (each ``None`` until the game is on its board).

    >>> standing_json(Standing(2, 4, 2, 137, "g_1"))["better_than"]
    50.0
    >>> set(standing_json(None).values())
    {None}
    """
    if standing is None:
        return dict.fromkeys(("rank", "percentile", "better_than", "top", "players", "tied"))
    return {"rank": standing.rank, "percentile": standing.percentile,
            "better_than": standing.better_than, "top": standing.top,
            "players": standing.players, "tied": standing.tied}


def _finished_at(record: GameRecord) -> str:
    return iso(dt.datetime.fromtimestamp(record.finished_at or 0, dt.UTC))


def choices_json(options: Iterable[Placement]) -> list[dict[str, Any]]:
    """The ``choices`` of a state document: each open box, its points, whether it may
    be chosen and, if not, why (``reason`` in English, ``why`` for clients to translate).

    >>> from daily.rules import get_ruleset
    >>> from daily.rules.placement import placements
    >>> rules = get_ruleset("yatzy", {"forced_order": True})
    >>> choices_json(placements(rules, [None] * 15, (1, 1, 2, 3, 4)).options)[1]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'box': 'twos', 'points': 2, 'legal': False,
     'reason': 'forced order: fill the boxes top to bottom',
     'why': {'code': 'forced_order', 'box': 'ones'}}
    """
    # unpacked: a named tuple's fields by name cost an attribute lookup each, for
    # every open box of every move's answer
    return [{"box": box, "points": points, "legal": legal,
             "reason": why.text if why else None, "why": why.to_json() if why else None}
            for box, _, points, legal, why, _ in options]


def card_json(card: Card) -> list[dict[str, Any]]:
    """The boxes of a card in printed order, ``points`` null while open.

    >>> from daily.rules import get_ruleset
    >>> card_json(Card.empty(get_ruleset("yacht")).fill(1, 6, 0))[:2]
    [{'box': 'ones', 'points': None}, {'box': 'twos', 'points': 6}]
    """
    return [{"box": box, "points": pts}
            for box, pts in zip(card.rules.box_ids, card.scores, strict=True)]


def upper_and_total(card: Card) -> tuple[dict[str, int], int]:
    """:func:`upper_json` and ``card.total`` from one pass over the columns.

    >>> from daily.rules import get_ruleset
    >>> card = Card.empty(get_ruleset("yahtzee")).fill(5, 30, 0).fill(12, 50, 0)
    >>> upper_and_total(card) == (upper_json(card), card.total)
    True
    """
    rules = card.rules
    if len(rules.weights) == 1:  # most cards: one column, no sums over columns
        c = card.column(0)
        threshold = rules.upper_bonus_threshold
        upper = {"total": c.upper * c.weight, "threshold": threshold,
                 "bonus": c.bonus * c.weight, "bonus_value": rules.upper_bonus,
                 "to_go": max(0, threshold - c.upper)}
        return upper, (c.upper + c.bonus + c.lower) * c.weight + card.extra_bonus
    columns = card.columns
    total = sum((c.upper + c.bonus + c.lower) * c.weight for c in columns)
    return _upper(card, columns), total + card.extra_bonus


def upper_json(card: Card) -> dict[str, int]:
    """The upper section: total, bonus threshold, bonus earned and points still to go
    (``Card.upper_total``, ``upper_bonus`` and ``upper_to_go``, from one pass over the
    columns).

    >>> from daily.rules import get_ruleset
    >>> card = Card.empty(get_ruleset("yahtzee")).fill(5, 30, 0)
    >>> upper_json(card) == {"total": card.upper_total, "threshold": 63,
    ...     "bonus": card.upper_bonus, "bonus_value": 35, "to_go": card.upper_to_go}
    True
    """
    return _upper(card, card.columns)


def _upper(card: Card, columns: tuple[ColumnTotals, ...]) -> dict[str, int]:
    rules = card.rules
    threshold = rules.upper_bonus_threshold
    return {
        "total": sum(c.upper * c.weight for c in columns),
        "threshold": threshold,
        "bonus": sum(c.bonus * c.weight for c in columns),
        "bonus_value": rules.upper_bonus,
        "to_go": sum(max(0, threshold - c.upper) for c in columns),
    }
