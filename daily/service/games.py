"""Games in Redis: ranked and practice play, revealed roll by roll, verified by replay.

A game's stored state is its move log so far (compact ``daily-log/1`` text) plus a
few facts (owner, mode, date). Every call rebuilds the position with the core
(:func:`daily.replay.replay` drives :class:`daily.game.Game`), applies one decision
and stores the new log, so any API instance can serve the next call and no rule is
implemented twice. The dice of a slot are computed only when the game reaches it,
i.e. after every decision before it has been stored.

Ranked play: the first start of (player, date, ruleset) is recorded atomically (one
Lua script) and never erased; a second start returns that game, or refuses once it is
over. Finishing stores the verified result, a result code, and appends the result to
the results stream (:meth:`daily.service.results_stream.ResultStream.append`) in the
same Redis transaction, so a finished game and its pending result exist together or
not at all.

Redis keys (``P`` = prefix)::

    P game:{rN}:<id>               STRING  JSON record of the game
    P ranked:{rN}:<date>:<ruleset>:<player>  STRING  the id of the player's ranked game
    P code:<code>                  STRING  game id of a result code

``{rN}`` is the hash tag of the game's shard (:mod:`daily.service.shards`): a ranked
game's id is drawn in its player's shard, so the start script, the moves and the finish
transaction (game record and result stream) each stay in one cluster slot. The result
code is claimed (SET NX) just before the finish transaction.

>>> new_game_id().startswith("g_")
True
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import redis

from daily import calendar
from daily.dice import SlotCache, SlotSource, parse_date
from daily.errors import DailyError
from daily.game import Game
from daily.movelog import MoveLog, parse_log
from daily.replay import ReplayResult, replay, turns_json
from daily.rules import Ruleset, canonical_name, get_ruleset
from daily.service.clock import Clock, iso
from daily.service.codes import new_code, share_text
from daily.service.config import Config
from daily.service.connections import redis_key
from daily.service.dayseeds import DaySeeds
from daily.service.errors import ApiError
from daily.service.leaderboard import Leaderboard
from daily.service.players import Player
from daily.service.results_stream import ResultStream
from daily.service.shards import game_key, new_game_id, ranked_key, shard_of

MODES = ("ranked", "practice")
#: Unfinished practice games are forgotten after this many seconds of inactivity.
PRACTICE_TTL = 30 * 24 * 3600
#: Games whose last written record one process keeps, to skip a read on the next move.
RECENT_GAMES = 10_000

# KEYS: ranked game   ARGV: game id, record JSON
_START_RANKED = """
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return false
"""


# KEYS: game   ARGV: expected JSON, new JSON, ttl seconds (0 = keep forever)
_SWAP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return 1
"""


class _StaleCopy(Exception):
    """The record changed since it was read (another request or process)."""


def _changed() -> ApiError:
    return ApiError(409, "conflict", "the game changed meanwhile; reload it", field="id")


@dataclass
class GameRecord:
    """What Redis holds about one game."""

    id: str
    player: str
    mode: str
    ruleset: str
    options: dict[str, Any]
    date: str | None
    log: str
    created: str
    finished_at: float | None = None
    code: str | None = None
    total: int | None = None

    def dumps(self) -> str:
        """The stored JSON text."""
        return json.dumps(self.__dict__, separators=(",", ":"))

    @classmethod
    def loads(cls, raw: bytes | str) -> GameRecord:
        """The record from its stored JSON text."""
        return cls(**json.loads(raw))

    @property
    def day(self) -> dt.date | None:
        """The date of a day game (ranked, or practice on a revealed day)."""
        return dt.date.fromisoformat(self.date) if self.date else None


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
    ) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self.seeds = seeds
        self.results = results
        self.names = names
        self._start = conn.register_script(_START_RANKED)
        self._swap = conn.register_script(_SWAP)
        self._recent: dict[str, str] = {}

    # ----- keys -----------------------------------------------------------------

    def _game_key(self, game_id: str) -> str:
        return game_key(self.config.key_prefix, game_id)

    def _ranked_key(self, date: str, ruleset: str, player_id: str) -> str:
        return ranked_key(self.config.key_prefix, date, ruleset, player_id)

    def _code_key(self, code: str) -> str:
        return redis_key(self.config, "code", code)

    # ----- starting ---------------------------------------------------------------

    def start(self, player: Player, body: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        """Start (or resume) a game; returns the state and whether it is new."""
        _only_fields(body, ("ruleset", "date", "mode", "options"))
        mode = body.get("mode", "ranked")
        if mode not in MODES:
            raise ApiError(
                422, "invalid_field", f"mode is 'ranked' or 'practice', not {mode!r}",
                field="mode",
            )
        ruleset = canonical_name(body.get("ruleset"))
        options = body.get("options")
        date_raw = body.get("date")
        if mode == "ranked":
            if options not in (None, {}):
                raise ApiError(
                    422, "invalid_field", "ranked games use the day's rules; no options",
                    field="options",
                )
            if date_raw is None:
                raise ApiError(422, "invalid_field", "a ranked game names its date", field="date")
            return self._start_ranked(player, ruleset, parse_date(date_raw))
        return self._start_practice(player, ruleset, options, date_raw), True

    def _daily_ruleset(self, ruleset: str) -> None:
        if ruleset not in self.config.daily_rulesets:
            daily = ", ".join(self.config.daily_rulesets)
            raise ApiError(
                422, "invalid_field",
                f"{ruleset} has no daily set; the daily sets are {daily}", field="ruleset",
            )

    def _start_ranked(
        self, player: Player, ruleset: str, day: dt.date
    ) -> tuple[dict[str, Any], bool]:
        self._daily_ruleset(ruleset)
        now = self.clock()
        state = calendar.status(day, now)
        if state != "open":
            when = (
                f"opens at {iso(calendar.opens_at(day))}" if state == "upcoming"
                else f"closed at {iso(calendar.closes_at(day))}"
            )
            raise ApiError(
                422, "day_not_open", f"{day} is not open for ranked play: it {when}",
                field="date",
            )
        rules = get_ruleset(ruleset)
        record = GameRecord(
            id=new_game_id(shard_of(player.id)),  # in the slot of the player's ranked index
            player=player.id, mode="ranked", ruleset=ruleset, options={},
            date=day.isoformat(), log=MoveLog(ruleset, day=day).to_text(), created=iso(now),
        )
        existing = self._start(
            keys=[self._ranked_key(record.date or "", ruleset, player.id),
                  self._game_key(record.id)],
            args=[record.id, record.dumps()],
        )
        if existing is not None:
            old = self._load(existing.decode())
            if old.finished_at is not None:
                raise ApiError(
                    409, "already_ranked",
                    f"your ranked {ruleset} game of {day} is over ({old.total} points, "
                    f"{old.code}); you may still practise", field="date",
                )
            return self._state(old, self._replay(old, rules)), False
        return self._state(record, self._replay(record, rules)), True

    def _start_practice(
        self, player: Player, ruleset: str, options: Any, date_raw: Any
    ) -> dict[str, Any]:
        now = self.clock()
        if date_raw is not None:
            day = parse_date(date_raw)
            self._daily_ruleset(ruleset)
            if options not in (None, {}):
                raise ApiError(
                    422, "invalid_field", "a practice game on a day's dice uses the day's rules",
                    field="options",
                )
            if calendar.status(day, now) != "revealed":
                raise ApiError(
                    422, "day_not_revealed",
                    f"{day} is not revealed yet (at {iso(calendar.closes_at(day))}); "
                    "play it ranked, or practise on random dice", field="date",
                )
            rules = get_ruleset(ruleset)
            log = MoveLog(ruleset, day=day)
        else:
            if options is not None and not isinstance(options, Mapping):
                raise ApiError(422, "invalid_field", "options is an object", field="options")
            rules = get_ruleset(ruleset, options or {})
            log = MoveLog(
                ruleset, options=tuple(rules.non_default_options().items()),
                seed=secrets.token_bytes(32),
            )
        record = GameRecord(
            id=new_game_id(), player=player.id, mode="practice", ruleset=ruleset,
            options=rules.non_default_options(), date=log.day.isoformat() if log.day else None,
            log=log.to_text(), created=iso(now),
        )
        self.conn.set(self._game_key(record.id), record.dumps(), ex=PRACTICE_TTL)
        return self._state(record, self._replay(record, rules))

    # ----- reading ------------------------------------------------------------------

    def _load(self, game_id: str) -> GameRecord:
        raw = self.conn.get(self._game_key(game_id)) if _plausible_id(game_id) else None
        if raw is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}", field="id")
        return GameRecord.loads(raw)

    def _owned(self, player: Player, game_id: str) -> GameRecord:
        record = self._load(game_id)
        if not hmac.compare_digest(record.player, player.id):
            raise ApiError(403, "forbidden", "this game belongs to another player", field="id")
        return record

    def _slots(self, record: GameRecord, rules: Ruleset) -> SlotSource | None:
        if record.day is None:
            return None  # the practice seed is in the stored log
        return self.seeds.slots(record.ruleset, record.day, rules.dice)

    def _replay(self, record: GameRecord, rules: Ruleset | None = None) -> ReplayResult:
        rules = rules or get_ruleset(record.ruleset, record.options)
        return replay(MoveLog.from_text(record.log), slots=self._slots(record, rules))

    def for_advice(
        self, player: Player, game_id: str
    ) -> tuple[ReplayResult, SlotSource | None]:
        """One of the player's games, replayed, with its dice, for the strategy engine.

        Only practice games and games of revealed days: advice during an open day would
        hand ranked players the optimal move, so those get 403.
        """
        record = self._owned(player, game_id)
        if not self.revealed(record):
            raise ApiError(
                403,
                "forbidden",
                "hints and analysis are for practice games and revealed days only",
                field="id",
            )
        rules = get_ruleset(record.ruleset, record.options)
        slots = self._slots(record, rules)
        return replay(MoveLog.from_text(record.log), slots=slots), slots

    def get(self, player: Player, game_id: str) -> dict[str, Any]:
        """The state of one of the player's games."""
        record = self._owned(player, game_id)
        return self._state(record, self._replay(record))

    def ranked_game(self, player_id: str, date: str, ruleset: str) -> GameRecord | None:
        """The player's ranked game of a day set, if started."""
        raw = self.conn.get(self._ranked_key(date, ruleset, player_id))
        return self._load(raw.decode()) if raw is not None else None

    # ----- playing ----------------------------------------------------------------------

    def roll(self, player: Player, game_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Reroll the dice not held (``{"hold": "10100"}``)."""
        _only_fields(body, ("hold",))
        if "hold" not in body:
            raise ApiError(422, "invalid_field", "missing field 'hold'", field="hold")
        hold = body["hold"]
        return self._move(player, game_id, lambda game: game.reroll(hold))

    def score(self, player: Player, game_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Fill a box with the dice showing (``{"box": "full_house"}``)."""
        _only_fields(body, ("box",))
        if "box" not in body:
            raise ApiError(422, "invalid_field", "missing field 'box'", field="box")
        box = body["box"]
        if not isinstance(box, str):
            raise ApiError(422, "invalid_field", "box is a box id (a string)", field="box")
        return self._move(player, game_id, lambda game: game.score(box))

    def _check_playable(self, record: GameRecord) -> None:
        if record.mode == "ranked" and record.day is not None:
            now = self.clock()
            if calendar.status(record.day, now) != "open":
                raise ApiError(
                    409, "day_not_open",
                    f"{record.date} closed at {iso(calendar.closes_at(record.day))}; "
                    "an unfinished ranked game cannot go on", field="date",
                )

    def _move(
        self, player: Player, game_id: str, move: Callable[[Game], object]
    ) -> dict[str, Any]:
        """Apply one decision: read, replay, move, then compare-and-set the record.

        The read comes from this process's copy of what it last wrote when it has one
        (most consecutive calls of a game land on the same process); the
        compare-and-set against Redis catches a stale copy, and the move is then
        retried once from Redis.
        """
        cached = self._recent.get(game_id)
        if cached is not None:
            try:
                return self._attempt(player, game_id, move, cached)
            except _StaleCopy:
                self._recent.pop(game_id, None)
        try:
            return self._attempt(player, game_id, move, None)
        except _StaleCopy:
            raise _changed() from None

    def _attempt(
        self, player: Player, game_id: str, move: Callable[[Game], object],
        raw: str | None,
    ) -> dict[str, Any]:
        key = self._game_key(game_id)
        if raw is None:
            stored = self.conn.get(key) if _plausible_id(game_id) else None
            if stored is None:
                raise ApiError(404, "not_found", f"no game {game_id!r}", field="id")
            raw = stored.decode()
            record = GameRecord.loads(raw)
            if not hmac.compare_digest(record.player, player.id):
                raise ApiError(
                    403, "forbidden", "this game belongs to another player", field="id"
                )
        else:
            record = GameRecord.loads(raw)
            if not hmac.compare_digest(record.player, player.id):
                raise _StaleCopy
        if record.finished_at is not None:
            raise ApiError(409, "conflict", "the game is over", field="id")
        self._check_playable(record)
        rules = get_ruleset(record.ruleset, record.options)
        result = self._replay(record, rules)
        game = result.game
        move(game)
        log = MoveLog.of_game(game, seed=result.log.seed, day=result.log.day)
        record.log = log.to_text()
        if not game.over:
            ttl = PRACTICE_TTL if record.mode == "practice" else 0
            after = record.dumps()
            if not self._swap(keys=[key], args=[raw, after, ttl]):
                raise _StaleCopy
            self._remember(game_id, after)
            return self._state(record, _Position(game, log))
        final = replay(log, slots=self._slots(record, rules))
        with self.conn.pipeline(transaction=True) as pipe:  # also on a cluster client
            try:
                pipe.watch(key)
                if pipe.get(key) != raw.encode():
                    raise _StaleCopy
                self._finish(pipe, record, final)
                pipe.execute()
            except redis.WatchError:
                raise _StaleCopy from None
        self._recent.pop(game_id, None)
        return self._state(record, final)

    def _remember(self, game_id: str, raw: str) -> None:
        if len(self._recent) >= RECENT_GAMES:
            self._recent.clear()
        self._recent[game_id] = raw

    def _finish(self, pipe: Any, record: GameRecord, result: ReplayResult) -> None:
        """Store the verified result and (ranked) append it to the results stream."""
        if not result.complete:
            raise ApiError(422, "invalid_field", "the game is not finished", field="log")
        now = self.clock()
        code = new_code()
        # Claimed before the transaction (its key lives in another cluster slot); a
        # claim whose finish then fails names a game without that code: not found.
        while not self.conn.set(self._code_key(code), record.id, nx=True):
            code = new_code()  # pragma: no cover - 50 random bits
        record.code = code
        record.total = result.total  # computed by the core's replay, never by a client
        record.finished_at = now.timestamp()
        pipe.multi()
        pipe.set(self._game_key(record.id), record.dumps())
        if record.mode == "ranked":
            payload = {
                "game_id": record.id,
                "player_id": record.player,
                "player_name": self.names(record.player) or "",
                "date": record.date,
                "ruleset": record.ruleset,
                "total": record.total,
                "finished_at": record.finished_at,
                "code": code,
                "log": result.log.to_text(),
            }
            self.results.append(pipe, payload)

    def submit_log(
        self, player: Player, game_id: str, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Verify a client's whole move log against what the server revealed."""
        _only_fields(body, ("log",))
        if "log" not in body:
            raise ApiError(422, "invalid_field", "missing field 'log'", field="log")
        submitted = _parse_submitted(body["log"])
        key = self._game_key(game_id)
        with self.conn.pipeline(transaction=True) as pipe:  # also on a cluster client
            try:
                pipe.watch(key)
                record = self._owned(player, game_id)
                rules = get_ruleset(record.ruleset, record.options)
                stored = MoveLog.from_text(record.log)
                _check_same_game(submitted, stored)
                _check_consistent(submitted, stored)
                if record.finished_at is not None:
                    return self._state(record, self._replay(record, rules))
                self._check_playable(record)
                result = replay(submitted, slots=self._slots(record, rules)) \
                    if record.day else replay(submitted, seed=stored.seed)
                if not result.complete:
                    done = sum(1 for t in submitted.turns if t.box is not None)
                    raise ApiError(
                        422, "invalid_field",
                        f"the log fills {done} of {rules.turns} boxes; submit a finished game",
                        field="log.turns",
                    )
                record.log = result.log.to_text()
                self._finish(pipe, record, result)
                pipe.execute()
                self._recent.pop(game_id, None)
            except redis.WatchError:
                raise _changed() from None
        return self._state(record, result)

    # ----- results ------------------------------------------------------------------------

    def game_of_code(self, code: str) -> GameRecord:
        """The finished game a result code names."""
        raw = self.conn.get(self._code_key(code))
        record = self._load(raw.decode()) if raw is not None else None
        if record is None or record.code != code:  # none, or claimed by a failed finish
            raise ApiError(404, "not_found", f"no result {code}", field="code")
        return record

    def revealed(self, record: GameRecord) -> bool:
        """Whether the game's dice may be shown to anyone (random practice, closed day)."""
        return record.day is None or calendar.status(record.day, self.clock()) == "revealed"

    def standing(self, record: GameRecord) -> tuple[int | None, float | None, int | None]:
        """Rank, percentile and board size of a finished ranked game, once recorded."""
        if record.mode != "ranked" or record.finished_at is None or record.date is None:
            return None, None, None
        board = Leaderboard(self.conn, record.date, record.ruleset, prefix=self.config.key_prefix)
        standing = board.standing_of_game(record.id)
        if standing is None:
            return None, None, None
        return standing.rank, standing.percentile, standing.players

    def public_result(self, code: str) -> dict[str, Any]:
        """What anyone with the code sees; the dice only once they are revealed."""
        record = self.game_of_code(code)
        result = self._replay(record)
        rank, pct, players = self.standing(record)
        card = result.card
        revealed = self.revealed(record)
        out: dict[str, Any] = {
            "code": record.code,
            "ruleset": record.ruleset,
            "options": record.options,
            "date": record.date,
            "mode": record.mode,
            "player": {"name": self.names(record.player) or ""},
            "total": card.total,
            "card": _card_json(card),
            "upper": _upper_json(card),
            "extra_bonus": card.extra_bonus,
            "extra_count": card.extra_count,
            "finished_at": iso(dt.datetime.fromtimestamp(record.finished_at or 0, dt.UTC)),
            "revealed": revealed,
            "rank": rank,
            "percentile": pct,
            "players": players,
            "share_text": self._share(record, card, rank, players),
            "url": self._url(record),
        }
        if revealed:
            out["history"] = turns_json(result.history)
            out["log"] = result.log.to_json()
        return out

    def _url(self, record: GameRecord) -> str:
        return f"{self.config.public_url}/r/{record.code}"

    def _share(self, record: GameRecord, card: Any, rank: int | None, players: int | None) -> str:
        return share_text(
            card, date=record.date, url=self._url(record), rank=rank, players=players,
            mode=record.mode,
        )

    # ----- the state document -----------------------------------------------------------

    def _state(self, record: GameRecord, result: ReplayResult | _Position) -> dict[str, Any]:
        game = result.game
        rules = game.rules
        card = game.card
        log_json = result.log.to_json()
        if not game.over and "seed" in log_json:
            log_json["seed"] = None  # a practice seed is shown once the game is over
        over = game.over
        state: dict[str, Any] = {
            "id": record.id,
            "mode": record.mode,
            "ruleset": record.ruleset,
            "options": record.options,
            "date": record.date,
            "turn": min(game.turn + 1, rules.turns),
            "turns": rules.turns,
            "roll": 0 if over else game.roll + 1,
            "max_rolls": 0 if over else game.max_rolls,
            "rolls_left": game.rolls_left,
            "dice": list(game.dice),
            "turn_rolls": [list(r) for r in game.rolls],
            "over": over,
            "card": _card_json(card),
            "choices": [] if over else [
                {"box": p.box, "points": p.points, "legal": p.legal, "reason": p.reason}
                for p in game.choices().options
            ],
            "extra_bonus": card.extra_bonus,
            "extra_count": card.extra_count,
            "upper": _upper_json(card),
            "total": card.total,
            "history": turns_json(game.history),
            "log": log_json,
            "result": None,
        }
        if over and record.code is not None:
            rank, pct, players = self.standing(record)
            state["result"] = {
                "total": record.total,
                "code": record.code,
                "share_text": self._share(record, card, rank, players),
                "url": self._url(record),
                "rank": rank,
                "percentile": pct,
                "players": players,
                "finished_at": iso(dt.datetime.fromtimestamp(record.finished_at or 0, dt.UTC)),
            }
        return state


@dataclass(frozen=True)
class _Position:
    """A game mid-way, with its log (what :meth:`GameService._state` needs)."""

    game: Game
    log: MoveLog


def _plausible_id(game_id: str) -> bool:
    return (
        isinstance(game_id, str) and game_id.startswith("g_") and 3 <= len(game_id) <= 40
        and game_id[2:].isalnum()
    )


def _only_fields(body: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for name in body:
        if name not in allowed:
            raise ApiError(
                422, "invalid_field",
                f"unknown field {name!r}; allowed: {', '.join(allowed)}", field=str(name),
            )


def _card_json(card: Any) -> list[dict[str, Any]]:
    return [{"box": box, "points": pts} for box, pts in card.as_dict().items()]


def _upper_json(card: Any) -> dict[str, int]:
    rules = card.rules
    return {
        "total": card.upper_total,
        "threshold": rules.upper_bonus_threshold,
        "bonus": card.upper_bonus,
        "bonus_value": rules.upper_bonus,
        "to_go": card.upper_to_go,
    }


def _parse_submitted(raw: Any) -> MoveLog:
    """A submitted log (JSON object or text), with errors naming ``log.<field>``."""
    try:
        if isinstance(raw, str):
            return parse_log(raw)
        if isinstance(raw, Mapping):
            return MoveLog.from_json(raw)
    except DailyError as exc:
        field = f"log.{exc.field}" if exc.field and exc.field != "log" else "log"
        if exc.turn is not None:
            inner = {"hold": "holds"}.get(exc.field or "", exc.field)
            field = f"log.turns.{inner}" if inner else "log.turns"
        raise ApiError(
            422, "invalid_field", exc.message, field=field, turn=exc.turn, roll=exc.roll
        ) from None
    raise ApiError(422, "invalid_field", "log is a daily-log/1 object or text", field="log")


def _check_same_game(submitted: MoveLog, stored: MoveLog) -> None:
    if submitted.ruleset != stored.ruleset:
        raise ApiError(
            422, "log_mismatch",
            f"the log is for {submitted.ruleset}, this game is {stored.ruleset}",
            field="log.ruleset",
        )
    if submitted.options != stored.options:
        raise ApiError(
            422, "log_mismatch", "the log's options differ from this game's", field="log.options"
        )
    if stored.day is not None:
        if submitted.day != stored.day:
            raise ApiError(
                422, "log_mismatch", f"the log is not for the day {stored.day}", field="log.day"
            )
    elif submitted.seed is None or not hmac.compare_digest(submitted.seed, stored.seed or b""):
        raise ApiError(
            422, "log_mismatch", "the log does not name this game's seed", field="log.seed"
        )


def _check_consistent(submitted: MoveLog, stored: MoveLog) -> None:
    """Every decision the server recorded must be in the submitted log, unchanged."""
    for index, done in enumerate(stored.turns):
        if index >= len(submitted.turns):
            raise ApiError(
                422, "log_mismatch",
                f"the log stops before turn {index + 1}, which this game has played",
                field="log.turns", turn=index,
            )
        sent = submitted.turns[index]
        for roll, mask in enumerate(done.holds):
            if roll >= len(sent.holds) or sent.holds[roll] != mask:
                shown = sent.holds[roll] if roll < len(sent.holds) else "no reroll"
                raise ApiError(
                    422, "log_mismatch",
                    f"the log has {shown!r} where the game rerolled with hold {mask!r}",
                    field="log.turns.holds", turn=index, roll=roll + 1,
                )
        if done.box is not None:
            if len(sent.holds) != len(done.holds):
                raise ApiError(
                    422, "log_mismatch",
                    f"the log rerolls {len(sent.holds)} times where the game rerolled "
                    f"{len(done.holds)} times", field="log.turns.holds", turn=index,
                )
            if sent.box != done.box:
                raise ApiError(
                    422, "log_mismatch",
                    f"the log fills {sent.box!r} where the game filled {done.box!r}",
                    field="log.turns.category", turn=index,
                )


__all__ = ["GameRecord", "GameService", "SlotCache", "new_game_id"]
