"""The game flow: starting games, moves bound to a position, finishing, submitted logs.

A move is ``read → check → decide → compare-and-set``:

1. take the record: the copy this process kept when it wrote the game's last move
   (:mod:`daily.service.games.cache`, with the game already replayed), if it is at the
   position the request names; else read it from Redis (one call of the move script,
   which also spends the request's rate limits);
2. check the owner and the **position** the request names (the number of decisions
   the player saw applied, ``daily-move/1``): a position that is no longer current is
   refused with ``stale_position`` and the current state, except a repeat of the last
   applied decision at its own position, which answers the same again and changes
   nothing (a safe retry);
3. replay the stored log with the core (or take the copy's replay) and apply the
   decision;
4. write the new record only if the stored text is still, byte for byte, the one the
   decision was made on (its SHA-1, compared by the move script in the same call that
   spends the rate limits; for the finishing move the same call claims the result code
   and appends the result to the results stream; on a cluster a position
   compare-and-set, and ``WATCH``/``MULTI`` for the finish). If another request got
   there first, the script answers the record as it is and the move starts over from
   step 2, where it is now either a repeat or stale: it is never applied at a position
   the player did not see. A copy is proven current only by this write; a move the
   rules refuse on a copy is checked again on the record from Redis before the refusal
   is answered.

So a move on the worker that wrote the game's previous one is one Redis call; from
another worker it is two (three with the token check).

Ranked play: the first start of (player, date, ruleset) is recorded atomically and
never erased; a second start returns that game, or refuses once it is over.
"""

from __future__ import annotations

import datetime as dt
import hmac
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, NamedTuple

import redis

from daily import calendar
from daily.card import Card
from daily.dice import SlotCache, SlotSource, parse_date
from daily.errors import IllegalMoveError, LogFormatError, RulesetError
from daily.game import Game
from daily.movelog import MoveLog, text_after
from daily.replay import ReplayResult, replay, turns_json
from daily.rules import Ruleset, canonical_name, get_ruleset
from daily.service.audit.receipts import Receipts
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.days.seeds import DaySeeds
from daily.service.games.cache import GameCache
from daily.service.games.log_checks import (
    check_consistent,
    check_revealed,
    check_same_game,
    parse_submitted,
    revealed_slots,
)
from daily.service.games.opponents import Opponents, hide_dice, parse_opponents
from daily.service.games.record import (
    Decision,
    GameRecord,
    last_decision,
    new_game_id,
    position_of,
)
from daily.service.games.store import GameStore, MovedOn, Stored
from daily.service.games.views import GameViews
from daily.service.limits import Pending
from daily.service.players.accounts import Player
from daily.service.publicurl import public_base_url
from daily.service.refusals import Conflict, Forbidden, Invalid, NotFound
from daily.service.results.stream import ResultStream
from daily.service.shards import shard_of

MODES = ("ranked", "practice")
#: How often a move starts over after losing a race (the second read settles it).
RACE_ROUNDS = 3


class _Unfinished(Exception):
    """A submitted log went on to a turn not shown yet (so it does not finish the game)."""


class _Position(NamedTuple):
    """A game mid-way after a move of this process, with what its log needs: the views
    show the log only in a full state document (not in the lighter answer of a move),
    and the next move of the cached copy needs only its seed and day, so the log is
    built when asked (:attr:`log`), from the game as it stands then."""

    game: Game
    seed: bytes | None
    day: dt.date | None

    @property
    def log(self) -> MoveLog:
        """The log of :attr:`game` as it stands now."""
        return MoveLog.of_game(self.game, seed=self.seed, day=self.day)


def _seed_and_day(played: ReplayResult | _Position) -> tuple[bytes | None, dt.date | None]:
    """The seed and day of a game's log, without building the log of a :class:`_Position`."""
    if isinstance(played, _Position):
        return played.seed, played.day
    return played.log.seed, played.log.day


class GameService:
    """The game flow on Redis; the blueprints call one method per endpoint."""

    def __init__(
        self,
        conn: redis.Redis,
        config: Config,
        clock: Clock,
        seeds: DaySeeds,
        results: ResultStream,
        names: Callable[[str], str | None],
        lang: Callable[[], str] = lambda: "en",
        opponents: Opponents | None = None,
        finished: Callable[[GameRecord], None] = lambda record: None,
        receipts: Receipts | None = None,
    ) -> None:
        self.conn = conn
        #: Signs the receipt of each accepted ranked game (None: no receipts, for tools).
        self.receipts = receipts
        #: Called once per game, when its finish is stored (never for a retry).
        self.finished = finished
        self.config = config
        self.clock = clock
        self.seeds = seeds
        self.results = results
        self.names = names
        self.store = GameStore(conn, config.key_prefix, config.ranked_days)
        self.views = GameViews(conn, config.key_prefix, lambda: public_base_url(config),
                               names, lang, clock)
        self.opponents = opponents or Opponents(config.tables_dir)
        self.cache = GameCache()

    # ----- starting ---------------------------------------------------------------

    def start(
        self, player: Player, *, ruleset: Any = None, mode: Any = "ranked", date: Any = None,
        options: Any = None, opponents: Any = None, network: str | None = None,
        counters: Pending | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Start (or resume) a game; returns the state and whether it is new.

        ``opponents`` lists computer opponents' levels (:mod:`daily.service.games.opponents`).
        ``network``: the salted note of the network a ranked game is started from
        (:meth:`daily.service.players.creation.CreationGuard.network_note`), kept in its
        record for the fair-play links. A ranked start is one Redis call, which also
        spends the request's rate-limit ``counters``.
        """
        if mode not in MODES:
            raise Invalid(f"mode is 'ranked' or 'practice', not {mode!r}", field="mode")
        name = canonical_name(ruleset)
        fields: dict[str, Any] = {"opponents": list(parse_opponents(opponents))}
        if mode == "ranked":
            if options not in (None, {}):
                raise Invalid("ranked games use the day's rules; no options", field="options")
            if date is None:
                raise Invalid("a ranked game names its date", field="date")
            if network is not None:
                fields["net"] = network
            return self._start_ranked(player, name, parse_date(date), fields, counters)
        return self._start_practice(player, name, options, date, fields), True

    def start_for(
        self, player: Player, *, ruleset: str, mode: str, date: str | None = None,
        options: dict[str, Any] | None = None, seed: bytes | None = None,
        opponents: Any = None, fields: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Start a game of a friend challenge: a day set (ranked while the day is open,
        practice once it is revealed) or a practice game on the challenge's own seed."""
        extra = {**(fields or {}), "opponents": list(parse_opponents(opponents))}
        if mode == "ranked":
            return self._start_ranked(player, ruleset, parse_date(date), extra)
        return self._start_practice(player, ruleset, options, date, extra, seed=seed), True

    def _daily_ruleset(self, ruleset: str, day: dt.date) -> None:
        if ruleset not in self.config.rulesets_on(day):
            daily = ", ".join(self.config.rulesets_on(day))
            raise NotFound(f"{ruleset} has no daily set on {day}; the daily sets are {daily}",
                           field="ruleset")

    def _start_ranked(
        self, player: Player, ruleset: str, day: dt.date, fields: dict[str, Any],
        counters: Pending | None = None,
    ) -> tuple[dict[str, Any], bool]:
        self._daily_ruleset(ruleset, day)
        now = self.clock()
        status = calendar.status(day, now)
        if status != "open":
            when = (
                f"opens at {iso(calendar.opens_at(day))}" if status == "upcoming"
                else f"closed at {iso(calendar.closes_at(day))}"
            )
            raise Conflict(f"{day} is not open for ranked play: it {when}",
                           code="day_not_open", field="date")
        fields["stand_ins"] = self.opponents.stand_ins(get_ruleset(ruleset),
                                                       fields.get("opponents") or ())
        record = GameRecord(
            # drawn in the player's shard: the ranked index and the game share a slot
            v=0, id=new_game_id(shard_of(player.id)), player=player.id, mode="ranked",
            ruleset=ruleset,
            options={}, date=day.isoformat(), log=MoveLog(ruleset, day=day).to_text(),
            created=iso(now), **fields,
        )
        existing = self.store.start_ranked(record, counters)
        if existing is not None:
            old = self.store.load(existing)
            if old.finished:
                raise Conflict(
                    f"your ranked {ruleset} game of {day} is over ({old.total} points, "
                    f"{old.code}); you may still practise", code="already_ranked", field="date",
                )
            return self.state(old), False
        return self._view_and_keep(record), True

    def _start_practice(
        self, player: Player, ruleset: str, options: Any, date: Any, fields: dict[str, Any],
        seed: bytes | None = None,
    ) -> dict[str, Any]:
        now = self.clock()
        if date is not None:
            day = parse_date(date)
            self._daily_ruleset(ruleset, day)
            if options not in (None, {}):
                raise Invalid("a practice game on a day's dice uses the day's rules",
                              field="options")
            if calendar.status(day, now) != "revealed":
                raise Conflict(
                    f"{day} is not revealed yet (at {iso(calendar.closes_at(day))}); "
                    "play it ranked, or practise on random dice",
                    code="day_not_revealed", field="date",
                )
            rules = get_ruleset(ruleset)
            log = MoveLog(ruleset, day=day)
        else:
            if options is not None and not isinstance(options, dict):
                raise Invalid("options is an object", field="options")
            rules = get_ruleset(ruleset, options or {})
            log = MoveLog(
                ruleset, options=tuple(rules.non_default_options().items()),
                seed=seed or secrets.token_bytes(32),
            )
        fields["stand_ins"] = self.opponents.stand_ins(rules, fields.get("opponents") or ())
        record = GameRecord(
            v=0, id=new_game_id(), player=player.id, mode="practice", ruleset=ruleset,
            options=rules.non_default_options(), date=log.day.isoformat() if log.day else None,
            log=log.to_text(), created=iso(now), **fields,
        )
        self.store.create_practice(record)
        return self._view_and_keep(record)

    def _view_and_keep(self, record: GameRecord) -> dict[str, Any]:
        """The state document of a game this process just stored, which it keeps
        replayed for its first move (:mod:`daily.service.games.cache`): that move is then
        one call of the move script, as every later one, instead of a read and a write."""
        played = self._replay(record)
        state = self._view(record, played)
        self.cache.put(Stored(record, record.dumps()), played)
        return state

    # ----- reading ------------------------------------------------------------------

    def _owned(self, record: GameRecord, player: Player) -> GameRecord:
        if not hmac.compare_digest(record.player, player.id):
            raise Forbidden("this game belongs to another player", field="id")
        return record

    def _slots(self, record: GameRecord, rules: Ruleset) -> SlotSource | None:
        if record.day is None:
            return None  # the practice seed is in the stored log
        return self.seeds.slots(record.ruleset, record.day, rules.dice)

    def _replay(self, record: GameRecord) -> ReplayResult:
        rules = get_ruleset(record.ruleset, record.options)
        return replay(record.move_log, slots=self._slots(record, rules))

    def state(self, record: GameRecord) -> dict[str, Any]:
        """The state document of a stored game."""
        return self._view(record, self._replay(record))

    def _view(
        self, record: GameRecord, played: Any, just_finished: bool = False,
        moved: str | None = None,
    ) -> dict[str, Any]:
        """The state document, with the opponents and the rival up to the scored turns
        (``just_finished``: by this request, so not on a board nor reviewed yet;
        ``moved``: the lighter answer of a move, :meth:`GameViews.state`)."""
        game = played.game
        done = len(game.history)
        opponents = self._opponents(record, game.rules, done)
        challenge = self._challenge_state(record, done)
        versus: list[tuple[str, int]] = []
        if game.over:  # how the game did against them, for the share text
            rival = challenge["rival"] if challenge else None
            if rival and rival["over"] and rival["name"]:
                versus.append((rival["name"], rival["total"]))
            versus += [(o["level"], o["total"]) for o in opponents if o["over"]]
        state = self.views.state(record, played, just_finished=just_finished, moved=moved,
                                 versus=versus)
        state["opponents"] = opponents
        state["challenge"] = challenge
        return state

    def get(self, player: Player, game_id: str) -> dict[str, Any]:
        """The state of one of the player's games."""
        return self.state(self._owned(self.store.load(game_id), player))

    def revealed(self, record: GameRecord) -> bool:
        """Whether the game's dice may be shown to anyone (random practice outside a
        friend challenge, closed day)."""
        if record.day is None:
            return record.challenge is None  # a challenge's seed stays on the server
        return calendar.status(record.day, self.clock()) == "revealed"

    def day_open(self, record: GameRecord) -> bool:
        """Whether the game is on the dice of a day not revealed yet: then no one sees
        the dice of its opponents' or rival's turns (their boxes and points only)."""
        return record.day is not None and not self.revealed(record)

    def _advisable(self, record: GameRecord, player: Player) -> GameRecord:
        """``record`` if it is the player's and advice on it is allowed (403 else)."""
        self._owned(record, player)
        if not self.revealed(record):
            raise Forbidden(
                "hints and analysis are for practice games and revealed days only", field="id"
            )
        return record

    def for_advice(
        self, player: Player, game_id: str
    ) -> tuple[ReplayResult, SlotSource | None]:
        """One of the player's games, replayed, with its dice, for the strategy engine.

        Only practice games and games of revealed days: advice during an open day would
        hand ranked players the optimal move, so those get 403.
        """
        record = self._advisable(self.store.load(game_id), player)
        rules = get_ruleset(record.ruleset, record.options)
        slots = self._slots(record, rules)
        return replay(record.move_log, slots=slots), slots

    @contextmanager
    def game_to_advise(
        self, player: Player, game_id: str, counters: Pending | None = None,
    ) -> Iterator[Game]:
        """One of the player's games where it stands, for a hint (403 as
        :meth:`for_advice`), read from Redis in the call that spends the request's
        rate-limit ``counters``.

        When the process's copy (:mod:`daily.service.games.cache`) is the stored record
        exactly, its game is lent for the block, out of the cache (no move of this
        process can change it meanwhile), instead of replaying the log; a copy that is
        not current is dropped. Read the game only, inside the block.
        """
        stored = self.store.read_spending(game_id, counters)
        record = self._advisable(stored.record, player)
        cached = self.cache.take(game_id)
        if cached is None or cached.stored.raw != stored.raw:
            yield self._replay(record).game
            return
        try:
            yield cached.played.game
        finally:
            self.cache.give_back(cached)

    def ranked_game(self, player_id: str, date: str, ruleset: str) -> GameRecord | None:
        """The player's ranked game of a day set, if started."""
        game_id = self.store.ranked_id(date, ruleset, player_id)
        return self.store.load(game_id) if game_id is not None else None

    def game_of_code(self, code: str) -> GameRecord:
        """The finished game a result code names."""
        game_id = self.store.game_id_of_code(code)
        record = self.store.load(game_id) if game_id is not None else None
        if record is None or record.code != code:  # none, or claimed by a failed finish
            raise NotFound(f"no result {code}", code="unknown_result", field="code")
        return record

    def public_result(self, code: str) -> dict[str, Any]:
        """What anyone with the code sees; the dice only once they are revealed."""
        record = self.game_of_code(code)
        return self.views.public_result(
            record, self._replay(record), revealed=self.revealed(record)
        )

    # ----- opponents and challenges ---------------------------------------------------

    def replay_record(self, record: GameRecord) -> ReplayResult:
        """A stored game replayed on its dice."""
        return self._replay(record)

    def slots_of(self, record: GameRecord) -> SlotSource | None:
        """The dice of a day game (None for a practice game: its seed is in the log)."""
        return self._slots(record, get_ruleset(record.ruleset, record.options))

    def seed_hex(self, record: GameRecord) -> str | None:
        """The seed of a practice game on random dice (server side only)."""
        seed = record.move_log.seed
        return seed.hex() if seed else None

    def _dice_source(self, record: GameRecord, rules: Ruleset) -> tuple[SlotSource, bytes]:
        if record.day is not None:
            seed = self.seeds.seed(record.ruleset, record.day)
            return self.seeds.slots(record.ruleset, record.day, rules.dice), seed
        seed = record.move_log.seed or b""
        return SlotCache(seed, rules.dice), seed

    def _opponents(self, record: GameRecord, rules: Ruleset, done: int) -> list[dict[str, Any]]:
        """The computer opponents up to the player's ``done`` scored turns (without
        their dice while the day is open)."""
        if not record.opponents:
            return []
        slots, seed = self._dice_source(record, rules)
        return self.opponents.state(record.id, rules, record.opponents, slots, seed, done,
                                    record.stand_ins, dice=not self.day_open(record))

    def _challenge_state(self, record: GameRecord, done: int) -> dict[str, Any] | None:
        """The challenge of an entry, with the rival's card up to ``done`` turns (without
        the rival's dice while the day is open)."""
        if record.challenge is None:
            return None
        out: dict[str, Any] = {"code": record.challenge, "rival": None}
        if record.rival:
            rival = self.store.load(record.rival)
            game = self._replay(rival).game
            turns = turns_json(game.history)
            shown = turns[:done]
            hidden = self.day_open(record)
            card = Card.empty(game.rules)
            for turn in shown:
                card = card.fill(game.rules.box_ids.index(turn["box"]), turn["points"],
                                 turn["bonus"])
            out["rival"] = {
                "name": self.names(rival.player) or "",
                "total": card.total,
                "turns": hide_dice(shown) if hidden else shown,
                "over": len(shown) == len(turns),
                "dice_hidden": hidden,
            }
        return out

    # ----- playing ----------------------------------------------------------------------

    def roll(
        self, player: Player, game_id: str, hold: Any, position: int,
        counters: Pending | None = None,
    ) -> dict[str, Any]:
        """Reroll the dice not held (``hold`` ``"10100"``) at ``position``, spending the
        request's rate-limit ``counters`` in the same Redis call."""
        return self._move(player, game_id, ("roll", hold), position, counters)

    def score(
        self, player: Player, game_id: str, box: Any, position: int,
        counters: Pending | None = None,
    ) -> dict[str, Any]:
        """Fill ``box`` with the dice showing at ``position`` (``counters`` as :meth:`roll`)."""
        if not isinstance(box, str):
            raise Invalid("box is a box id (a string)", field="box")
        return self._move(player, game_id, ("score", box), position, counters)

    def _check_playable(self, record: GameRecord) -> None:
        day = record.day
        if record.mode == "ranked" and day is not None and \
                calendar.status(day, self.clock()) != "open":
            raise Conflict(
                f"{record.date} closed at {iso(calendar.closes_at(day))}; "
                "an unfinished ranked game cannot go on", code="day_not_open", field="date",
            )

    def _move(
        self, player: Player, game_id: str, decision: Decision, position: int,
        counters: Pending | None = None,
    ) -> dict[str, Any]:
        """Apply one decision at ``position`` (see the module docstring)."""
        cached = self.cache.take(game_id)
        if cached is not None and cached.stored.record.v == position \
                and hmac.compare_digest(cached.stored.record.player, player.id):
            stored, played = cached.stored, cached.played
            try:
                return self._decide(player, stored, played, decision, position, counters)
            except (IllegalMoveError, Conflict, MovedOn):
                pass  # refused on the copy, or the copy was not current: ask Redis
        stored = self.store.read_spending(game_id, counters)
        for _ in range(RACE_ROUNDS):
            try:
                return self._decide(player, stored, None, decision, position, counters)
            except MovedOn as moved:
                # someone moved first: now this move is a repeat, or stale
                stored = moved.args[0] if moved.args else self.store.read(game_id)
        raise Conflict("the game changed meanwhile; reload it", field="id")

    def _decide(
        self, player: Player, stored: Stored, played: Any,
        decision: Decision, position: int, counters: Pending | None = None,
    ) -> dict[str, Any]:
        """Check and apply ``decision`` on ``stored`` (``played``: its replay, from the
        cache). Raises :class:`MovedOn` (with the current record, if known) when the
        write finds the game changed; the rules answer on a copy from the cache only
        once its write succeeded (an illegal move there is checked again on Redis's)."""
        record = self._owned(stored.record, player)
        if position != record.v:
            return self._elsewhere(record, decision, position)
        if record.finished:
            raise Conflict("the game is over", field="id")
        self._check_playable(record)
        result = played if played is not None else self._replay(record)
        game = result.game
        kind, value = decision
        try:
            if kind == "roll":
                game.reroll(value)
            else:
                game.score(value)
        except (LogFormatError, RulesetError) as exc:
            # A well-formed mask or box that does not fit this game (6 dice, no such box).
            raise IllegalMoveError(
                exc.message, field=exc.field, turn=exc.turn, roll=exc.roll
            ) from None
        seed, day = _seed_and_day(result)
        position_now = _Position(game, seed, day)
        text = text_after(record.log, kind, value, game.rules, game.over)
        after = record.advanced(text if text is not None else position_now.log.to_text())
        if game.over:
            self._finish(stored, after, game, position_now.log, player, counters)
            return self._view(after, position_now, just_finished=True)
        written = Stored(after, after.dumps())
        self.store.advance(stored, written, counters)  # MovedOn when raced
        self.cache.put(written, position_now)
        return self._view(after, position_now, moved=kind)

    def _elsewhere(
        self, record: GameRecord, decision: Decision, position: int
    ) -> dict[str, Any]:
        """A move named a position that is not the current one: a retry, or stale."""
        if position == record.v - 1 and last_decision(record.move_log) == decision:
            # the same move again: the same answer
            return self._view(record, self._replay(record), moved=decision[0])
        state = self.state(record)
        raise Conflict(
            f"the game is at position {record.v}, not {position}: it moved on since "
            "(another tab or a lost answer); here it is as it stands",
            code="stale_position", field="position", detail={"position": record.v},
            state=state,
        )

    def _finish(
        self, stored: Stored, after: GameRecord, game: Game, log: MoveLog,
        player: Player | None = None, counters: Pending | None = None,
    ) -> None:
        """Store the verified result and (ranked) append it to the results stream, in
        one step of the store (:meth:`GameStore.complete`); :class:`MovedOn`
        (with the current record, if known) when the game changed meanwhile. A ranked
        game is stored with its receipt, signed once its code is drawn."""
        after.total = game.card.total  # computed by the core's replay, never by a client
        after.finished_at = self.clock().timestamp()
        ranked = after.mode == "ranked"

        def coded() -> None:  # the code is drawn, the record not written yet
            if ranked and self.receipts is not None:
                after.receipt = self.receipts.sign(after)

        def payload() -> dict[str, Any]:
            # the verified player's name (a rename reaches the board when it is recorded)
            name = player.name if player is not None and player.id == after.player \
                else self.names(after.player)
            return {
                "game_id": after.id,
                "player_id": after.player,
                "player_name": name or "",
                "date": after.date,
                "ruleset": after.ruleset,
                "total": after.total,
                "finished_at": after.finished_at,
                "code": after.code,
                "log": log,  # verified: the result takes its text as it is
            }

        def publish(pipe: Any) -> None:  # into the finish transaction (cluster)
            if ranked:
                self.results.append(pipe, payload())

        def entry() -> tuple[str, str, str, str] | None:  # for the finish script (single server)
            coded()
            return self.results.entry(payload()) if ranked else None

        self.store.complete(stored, after, publish, entry, coded, counters)
        self.finished(after)

    # ----- a whole log ------------------------------------------------------------------

    def submit_log(self, player: Player, game_id: str, raw_log: Any) -> dict[str, Any]:
        """Verify a client's move log against what the server revealed; finish the game.

        Checks in this order (``docs/api.md``): parse, same game, revealed, consistent
        with the recorded decisions, then the rules (a replay that only reaches the
        slots shown) and finished; see :mod:`daily.service.games.log_checks`.
        """
        submitted = parse_submitted(raw_log)
        stored = self.store.read(game_id)
        record = self._owned(stored.record, player)
        recorded = record.move_log
        check_same_game(submitted, recorded)
        check_revealed(submitted, recorded, over=record.finished)
        check_consistent(submitted, recorded)
        if record.finished:
            return self.state(record)
        self._check_playable(record)
        rules = get_ruleset(record.ruleset, record.options)
        # Only the slots already shown: scoring the turn in progress of a log that does
        # not finish the game would deal the next turn's first roll.
        source = self._slots(record, rules) or SlotCache(recorded.seed or b"", rules.dice)
        shown = revealed_slots(recorded, over=False)

        def shown_only(turn: int, roll: int) -> tuple[int, ...]:
            if (turn, roll) not in shown:
                raise _Unfinished
            return source(turn, roll)

        try:
            result = replay(submitted, slots=shown_only)
        except _Unfinished:
            result = None
        if result is None or not result.complete:
            done = sum(1 for t in submitted.turns if t.box is not None)
            raise Conflict(f"the log fills {done} of {rules.turns} boxes; submit a finished game",
                           code="log_unfinished", field="log.turns")
        after = replace(record, v=position_of(result.log), log=result.log.to_text())
        try:
            self._finish(stored, after, result.game, result.log, player)
        except MovedOn:
            raise Conflict("the game changed meanwhile; reload it", field="id") from None
        return self._view(after, result, just_finished=True)
