"""Friend challenges: the same dice for everyone who takes one, every ruleset and option set.

A challenge names a dice source: a day set (``date`` + ruleset), or a random seed of
its own (ruleset + options). It is made from a finished game's result code (that
game is the challenger's entry, on the same dice) or from ``{"ruleset", "options"}``;
a daily result code also works wherever a challenge code does.

Fair play:

* a challenge's seed never leaves the server; its games are practice games whose
  dice are not public (no dice on their result pages, no hints) while the challenge
  lives;
* a challenge on a day set that is still open gives no second route to that day's
  dice: taking it *is* starting (or resuming) your ranked game of that day, the one
  game the day allows you; once the day is revealed it is a practice game on its dice;
* with the score to beat, the challenger's card is shown turn by turn, each turn only
  after your own turn is scored (like the computer opponents);
* the turn-by-turn comparison of ``GET /challenges/<code>`` is shown only to a player
  whose own entry is finished.

Redis keys: :mod:`daily.service.keymap` (``challenge``, ``challenge_of``).

>>> new_challenge_code().startswith("CH-")
True
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import redis

from daily import calendar
from daily.rules import canonical_name, get_ruleset
from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.games.codes import PREFIX as RESULT_PREFIX
from daily.service.games.codes import parse_code, parse_crockford, random_code
from daily.service.players.accounts import Player
from daily.service.refusals import Invalid, NotFound, Unavailable
from daily.strategy.analysis import analyse
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import StrategyError

PREFIX = "CH-"
LENGTH = 8
#: Analyses of finished games one process keeps.
CACHED_ANALYSES = 1_000


def new_challenge_code() -> str:
    """A fresh challenge code: ``CH-`` and 8 Crockford characters (40 random bits)."""
    return random_code(PREFIX, LENGTH)


def parse_challenge_code(text: Any) -> str:
    """A typed challenge code in canonical form (or a result code, unchanged in meaning).

    >>> parse_challenge_code("ch-k7m2-q9xd"), parse_challenge_code("dd-abcdefghjk")
    ('CH-K7M2Q9XD', 'DD-ABCDEFGHJK')
    """
    if isinstance(text, str) and text.strip().upper().startswith(RESULT_PREFIX):
        return parse_code(text)
    return parse_crockford(text, PREFIX, LENGTH, "challenge code", field="challenge",
                           code="bad_challenge_code")


@dataclass
class Challenge:
    """What Redis holds about one challenge."""

    code: str
    ruleset: str
    options: dict[str, Any]
    date: str | None
    seed: str | None  # hex, never in a response
    created: str
    creator: str
    source: str | None = None  # the game id of the result it was made from
    extra: dict[str, Any] = field(default_factory=dict)

    def dumps(self) -> str:
        """The stored JSON text."""
        return json.dumps(self.__dict__, separators=(",", ":"))

    @classmethod
    def loads(cls, raw: bytes | str) -> Challenge:
        """The challenge from its stored JSON text."""
        return cls(**json.loads(raw))


class Challenges:
    """Create, take and show challenges; games are started through the game service."""

    def __init__(
        self, conn: redis.Redis, config: Config, clock: Clock, games: Any,
        tables: Callable[[Any], StrategyTable], public_url: Callable[[], str],
    ) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self.games = games
        self.tables = tables
        self.public_url = public_url
        self._analyses: OrderedDict[str, dict[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    # ----- keys -----------------------------------------------------------------

    def _key(self, code: str) -> str:
        return keymap.challenge(self.config.key_prefix, code)

    def _entries_key(self, code: str) -> str:
        return keymap.challenge(self.config.key_prefix, code, "entries")

    def _of_game_key(self, game_id: str) -> str:
        return keymap.challenge_of(self.config.key_prefix, game_id)

    # ----- creating ---------------------------------------------------------------

    def create(self, player: Player, body: Mapping[str, Any]) -> dict[str, Any]:
        """A challenge from ``{"code": result}`` or ``{"ruleset", "options"}``."""
        for name in body:
            if name not in ("code", "ruleset", "options"):
                raise Invalid(f"unknown field {name!r}; allowed: code, or ruleset and options",
                              field=name)
        if "code" in body:
            if "ruleset" in body or "options" in body:
                raise Invalid("give a result code or a ruleset with options, not both",
                              field="code")
            challenge = self._of_result(parse_code(body["code"]))
        else:
            challenge = self._fresh(player, body.get("ruleset"), body.get("options"))
        return self._link(challenge)

    def _link(self, challenge: Challenge) -> dict[str, Any]:
        return {"code": challenge.code, "url": f"{self.public_url()}/c/{challenge.code}"}

    def _store(self, challenge: Challenge) -> Challenge:
        while not self.conn.set(self._key(challenge.code), challenge.dumps(), nx=True):
            challenge.code = new_challenge_code()  # pragma: no cover - 40 random bits
        return challenge

    def _fresh(self, player: Player, ruleset_raw: Any, options: Any) -> Challenge:
        ruleset = canonical_name(ruleset_raw)
        if options is not None and not isinstance(options, Mapping):
            raise Invalid("options is an object", field="options")
        rules = get_ruleset(ruleset, options or {})
        return self._store(Challenge(
            code=new_challenge_code(), ruleset=ruleset, options=rules.non_default_options(),
            date=None, seed=secrets.token_bytes(32).hex(), created=iso(self.clock()),
            creator=player.id,
        ))

    def _of_result(self, code: str) -> Challenge:
        """The challenge of a finished game's result (made once, then the same one)."""
        record = self.games.game_of_code(code)
        existing = self.conn.get(self._of_game_key(record.id))
        if existing is not None:
            return self._load(as_text(existing))
        seed = None if record.date else self.games.seed_hex(record)
        challenge = self._store(Challenge(
            code=new_challenge_code(), ruleset=record.ruleset, options=dict(record.options),
            date=record.date, seed=seed, created=iso(self.clock()), creator=record.player,
            source=record.id,
        ))
        if not self.conn.set(self._of_game_key(record.id), challenge.code, nx=True):
            # Another request made it meanwhile: use theirs, drop ours.
            self.conn.delete(self._key(challenge.code))
            return self._load(as_text(self.conn.get(self._of_game_key(record.id)) or b""))
        self.conn.hsetnx(self._entries_key(challenge.code), record.player, record.id)
        if seed is not None:
            self.games.store.update(record.id, {"challenge": challenge.code})
        return challenge

    # ----- reading ------------------------------------------------------------------

    def _load(self, code: str) -> Challenge:
        raw = self.conn.get(self._key(code))
        if raw is None:
            raise NotFound(f"no challenge {code}", code="unknown_challenge", field="challenge")
        return Challenge.loads(raw)

    def resolve(self, text: Any) -> Challenge:
        """The challenge a typed code names: a challenge code or a result code."""
        code = parse_challenge_code(text)
        if code.startswith(RESULT_PREFIX):
            return self._of_result(code)
        return self._load(code)

    def entries(self, challenge: Challenge) -> dict[str, str]:
        """Player id -> game id of every entry."""
        raw = self.conn.hgetall(self._entries_key(challenge.code))
        return {as_text(k): as_text(v) for k, v in raw.items()}

    # ----- taking a challenge -------------------------------------------------------------

    def take(self, player: Player, body: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        """``POST /games {"challenge": code, "blind": false, "opponents": [...]}``."""
        for name in body:
            if name not in ("challenge", "blind", "opponents"):
                raise Invalid(f"unknown field {name!r} with a challenge; allowed: challenge, "
                              "blind, opponents", field=name)
        blind = body.get("blind", False)
        if not isinstance(blind, bool):
            raise Invalid("blind is true or false", field="blind")
        challenge = self.resolve(body["challenge"])
        mine = self.entries(challenge).get(player.id)
        if mine is not None:
            return self.games.get(player, mine), False
        rival = None if blind else self._rival(challenge, player.id)
        fields = {"challenge": challenge.code, "rival": rival}
        opponents = body.get("opponents")
        if challenge.date is not None:
            day = dt.date.fromisoformat(challenge.date)
            if calendar.status(day, self.clock()) != "revealed":
                # The day is open: the challenge is your ranked game of that day, and a
                # ranked game you finished already is simply your entry.
                played = self.games.ranked_game(player.id, challenge.date, challenge.ruleset)
                if played is not None and played.finished:
                    self.conn.hsetnx(self._entries_key(challenge.code), player.id, played.id)
                    return self.games.state(played), False
                state, created = self.games.start_for(
                    player, ruleset=challenge.ruleset, mode="ranked", date=challenge.date,
                    opponents=opponents, fields=fields,
                )
            else:
                state, created = self.games.start_for(
                    player, ruleset=challenge.ruleset, mode="practice", date=challenge.date,
                    opponents=opponents, fields=fields,
                )
        else:
            state, created = self.games.start_for(
                player, ruleset=challenge.ruleset, mode="practice", options=challenge.options,
                seed=bytes.fromhex(challenge.seed or ""), opponents=opponents, fields=fields,
            )
        self.conn.hsetnx(self._entries_key(challenge.code), player.id, state["id"])
        return state, created

    def _rival(self, challenge: Challenge, player_id: str) -> str | None:
        """The game to beat: the challenger's, else the best finished entry."""
        best: tuple[int, str] | None = None
        for owner, game_id in self.entries(challenge).items():
            if owner == player_id:
                continue
            record = self.games.store.load(game_id)
            if record.finished_at is None:
                continue
            if game_id == challenge.source:
                return game_id
            if best is None or (record.total or 0) > best[0]:
                best = (record.total or 0, game_id)
        return best[1] if best else None

    # ----- the public view ------------------------------------------------------------------

    def public(self, code: Any, viewer: Player | None) -> dict[str, Any]:
        """Entries with totals; with a finished own entry, the turn-by-turn comparison."""
        challenge = self.resolve(code)
        rows = []
        finished_games = []
        viewer_done = False
        for owner, game_id in self.entries(challenge).items():
            record = self.games.store.load(game_id)
            result = self.games.replay_record(record)
            done = len(result.game.history)
            finished = record.finished_at is not None
            you = viewer is not None and owner == viewer.id
            viewer_done = viewer_done or (you and finished)
            rows.append({
                "name": self.games.names(owner) or "",
                "total": result.game.card.total,
                "finished": finished,
                "turns_done": done,
                "you": you,
                "code": record.code if finished else None,
            })
            if finished:
                finished_games.append((rows[-1], record, result))
        rows.sort(key=lambda r: (not r["finished"], -r["total"]))
        out: dict[str, Any] = {
            "code": challenge.code,
            "url": f"{self.public_url()}/c/{challenge.code}",
            "ruleset": challenge.ruleset,
            "options": challenge.options,
            "date": challenge.date,
            "created": challenge.created,
            "entries": rows,
        }
        if viewer_done and finished_games:
            out["comparison"] = self._comparison(finished_games)
        return out

    def _comparison(self, games: list[tuple[dict[str, Any], Any, Any]]) -> list[dict[str, Any]]:
        """Turn by turn: each finished entry's box, points and the engine's loss."""
        losses = [self._losses(record, result) for _, record, result in games]
        turns = []
        count = max(len(result.game.history) for _, _, result in games)
        for t in range(count):
            players = []
            for (row, _, result), loss in zip(games, losses, strict=True):
                history = result.game.history
                if t >= len(history):
                    continue
                turn = history[t]
                players.append({
                    "name": row["name"], "you": row["you"], "box": turn.box,
                    "points": turn.points + turn.bonus,
                    "loss": None if loss is None else round(loss.get(t, 0.0), 2),
                })
            best = max(p["points"] for p in players)
            for p in players:
                p["gained"] = p["points"] - best
            turns.append({"turn": t + 1, "players": players})
        return turns

    def _losses(self, record: Any, result: Any) -> dict[int, float] | None:
        """Expected points each turn's decisions cost against optimal play (or None)."""
        with self._lock:
            cached = self._analyses.get(record.id)
        if cached is not None:
            return cached
        try:
            table = self.tables(result.rules)
        except (Unavailable, StrategyError):
            return None
        report = analyse(table, result.log, slots=self.games.slots_of(record))
        per_turn: dict[int, float] = {}
        for decision in report.decisions:
            per_turn[decision.turn] = per_turn.get(decision.turn, 0.0) + decision.loss
        with self._lock:
            self._analyses[record.id] = per_turn
            while len(self._analyses) > CACHED_ANALYSES:
                self._analyses.popitem(last=False)
        return per_turn
