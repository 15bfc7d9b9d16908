"""Groups: friends' leagues over the daily sets.

A group has a name and a short code to join by. Its members see, for each daily set,
a board of the members' ranked games of that day, the week's standings (Monday to
Sunday, per ruleset: days played and the sum of the totals) and each member's
streak (consecutive days, up to the given date, with a finished ranked game). Only
members see a group. The scores come from the ranked games themselves, so a group
shows exactly what the leaderboards show.

Redis keys: :mod:`daily.service.keymap` (``group``, ``player_groups``).

>>> new_group_code().startswith("G-")
True
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import redis

from daily import calendar, standings
from daily.dice import parse_date
from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.games.codes import parse_crockford, random_code
from daily.service.http.contract.fields import GROUP_NAME_MAX, GROUP_NAME_PATTERN, trim_name
from daily.service.players.accounts import Player
from daily.service.refusals import Conflict, Forbidden, Invalid, NotFound

PREFIX = "G-"
LENGTH = 6
MAX_NAME = GROUP_NAME_MAX
MAX_MEMBERS = 50
MAX_GROUPS = 20
#: How far back a streak is counted.
STREAK_DAYS = 30


def new_group_code() -> str:
    """A fresh group code: ``G-`` and 6 Crockford characters."""
    return random_code(PREFIX, LENGTH)


def parse_group_code(text: Any) -> str:
    """A typed group code in canonical form.

    >>> parse_group_code("g-ab1 2cd")
    'G-AB12CD'
    """
    return parse_crockford(text, PREFIX, LENGTH, "group code", code="bad_group_code")


def week_of(day: dt.date) -> tuple[dt.date, dt.date]:
    """Monday and Sunday of ``day``'s week.

    >>> week_of(dt.date(2026, 11, 29))
    (datetime.date(2026, 11, 23), datetime.date(2026, 11, 29))
    """
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


class Groups:
    """Create, join, leave and show groups."""

    def __init__(
        self, conn: redis.Redis, config: Config, clock: Clock,
        totals: Callable[[list[tuple[str, str, str]]], list[int | None]],
        names: Callable[[str], str | None],
        public_url: Callable[[], str] = lambda: "",
    ) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self.totals = totals  # (player, date, ruleset) -> total of a finished ranked game
        self.names = names
        self.public_url = public_url  # the base of invite links, for the request served

    def _key(self, code: str) -> str:
        return keymap.group(self.config.key_prefix, code)

    def _members_key(self, code: str) -> str:
        return keymap.group(self.config.key_prefix, code, "members")

    def _mine_key(self, player_id: str) -> str:
        return keymap.player_groups(self.config.key_prefix, player_id)

    # ----- membership -------------------------------------------------------------

    def create(self, player: Player, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new group named ``body["name"]``, with its creator as first member."""
        for name in body:
            if name != "name":
                raise Invalid(f"unknown field {name!r}; allowed: name",
                               field=name)
        title = body.get("name")
        if not isinstance(title, str) or not re.fullmatch(GROUP_NAME_PATTERN, title):
            raise Invalid(f"name is 1 to {MAX_NAME} characters, without control or format"
                          " characters", code="bad_group_name", field="name")
        record = {"code": new_group_code(), "name": " ".join(trim_name(title).split()),
                  "created": iso(self.clock()), "owner": player.id}
        while not self.conn.set(self._key(record["code"]), json.dumps(record), nx=True):
            record["code"] = new_group_code()  # pragma: no cover - 30 random bits
        self._add(player, record["code"])
        return self.summary(record, player)

    def _load(self, code: str) -> dict[str, Any]:
        raw = self.conn.get(self._key(code))
        if raw is None:
            raise NotFound(f"no group {code}", code="unknown_group", field="code")
        return dict(json.loads(raw))

    def _add(self, player: Player, code: str) -> None:
        if self.conn.scard(self._mine_key(player.id)) >= MAX_GROUPS:
            raise Conflict(f"a player is in at most {MAX_GROUPS} groups",
                           code="too_many_groups", field="code")
        if self.conn.zcard(self._members_key(code)) >= MAX_MEMBERS:
            raise Conflict(f"a group has at most {MAX_MEMBERS} members", code="group_full",
                           field="code")
        with self.conn.pipeline() as pipe:
            pipe.zadd(self._members_key(code), {player.id: self.clock().timestamp()}, nx=True)
            pipe.sadd(self._mine_key(player.id), code)
            pipe.execute()

    def join(self, player: Player, code_raw: Any) -> dict[str, Any]:
        """Join by code (joining twice changes nothing)."""
        record = self._load(parse_group_code(code_raw))
        if self.conn.zscore(self._members_key(record["code"]), player.id) is None:
            self._add(player, record["code"])
        return self.summary(record, player)

    def leave(self, player: Player, code_raw: Any) -> None:
        """Leave a group (leaving one you are not in is a 404)."""
        code = parse_group_code(code_raw)
        self._load(code)
        with self.conn.pipeline() as pipe:
            pipe.zrem(self._members_key(code), player.id)
            pipe.srem(self._mine_key(player.id), code)
            removed, _ = pipe.execute()
        if not removed:
            raise NotFound(f"you are not in group {code}", code="not_in_group", field="code")

    def members(self, code: str) -> list[str]:
        """Member ids in the order they joined."""
        found: list[bytes] = self.conn.zrange(self._members_key(code), 0, -1)  # type: ignore[assignment]
        return [as_text(m) for m in found]

    def url(self, code: str) -> str:
        """The group's invite link: the web app's page that offers to join it."""
        return f"{self.public_url()}/g/{code}"

    def invite(self, viewer: Player | None, code_raw: Any) -> dict[str, Any]:
        """What an invite link shows anyone who has it: the group's name and size, who
        invites (the name of the player who made the group) and whether the viewer is in
        it already (the code is what lets one join anyway)."""
        record = self._load(parse_group_code(code_raw))
        code = record["code"]
        member = viewer is not None and self.conn.zscore(
            self._members_key(code), viewer.id) is not None
        owner = record.get("owner")
        return {"code": code, "name": record["name"], "url": self.url(code),
                "members": int(self.conn.zcard(self._members_key(code))), "member": member,
                "inviter": (self.names(owner) or "") if owner else ""}

    def summary(self, record: dict[str, Any], player: Player) -> dict[str, Any]:
        """Code, name, invite link and members of a group."""
        return {
            "code": record["code"],
            "name": record["name"],
            "url": self.url(record["code"]),
            "members": [
                {"id": m, "name": self.names(m) or "", "you": m == player.id}
                for m in self.members(record["code"])
            ],
        }

    def mine(self, player: Player) -> list[dict[str, Any]]:
        """The player's groups, by name."""
        codes = sorted(as_text(c) for c in self.conn.smembers(self._mine_key(player.id)))
        out = []
        for code in codes:
            raw = self.conn.get(self._key(code))
            if raw is not None:
                record = json.loads(raw)
                out.append({"code": code, "name": record["name"], "url": self.url(code),
                            "members": self.conn.zcard(self._members_key(code))})
        return sorted(out, key=lambda g: g["name"].lower())

    # ----- boards -------------------------------------------------------------------

    def show(self, player: Player, code_raw: Any, date_raw: Any | None) -> dict[str, Any]:
        """The group's boards of a day, the week's standings and streaks (members only)."""
        code = parse_group_code(code_raw)
        record = self._load(code)
        members = self.members(code)
        if player.id not in members:
            raise Forbidden("only members see a group's boards", code="not_in_group",
                            field="code")
        now = self.clock()
        day = parse_date(date_raw) if date_raw is not None else max(calendar.open_dates(now))
        rulesets = list(self.config.daily_rulesets)
        monday, sunday = week_of(day)
        week = [monday + dt.timedelta(days=i) for i in range(7)]
        streak_days = [day - dt.timedelta(days=i) for i in range(STREAK_DAYS)]
        wanted = sorted({d for d in week + streak_days})
        queries = [(m, d.isoformat(), r) for m in members for d in wanted for r in rulesets]
        found = dict(zip(queries, self.totals(queries), strict=True))

        def total(member: str, d: dt.date, ruleset: str) -> int | None:
            return found.get((member, d.isoformat(), ruleset))

        names = {m: self.names(m) or "" for m in members}
        boards = []
        for ruleset in rulesets:
            rows: list[dict[str, Any]] = [
                {"id": m, "name": names[m], "you": m == player.id,
                 "total": total(m, day, ruleset)}
                for m in members
            ]
            rows = _ranked([r for r in rows if r["total"] is not None])
            boards.append({"date": day.isoformat(), "ruleset": ruleset, "rows": rows})
        week_rows = []
        for ruleset in rulesets:
            rows = []  # reused: one table per ruleset
            for m in members:
                scores = [s for d in week if (s := total(m, d, ruleset)) is not None]
                if scores:
                    rows.append({"id": m, "name": names[m], "you": m == player.id,
                                 "days": len(scores), "total": sum(scores)})
            rows.sort(key=lambda r: -r["days"])  # among equal totals, more days first
            week_rows.append({"ruleset": ruleset, "rows": _ranked(rows)})
        streaks: list[dict[str, Any]] = []
        for m in members:
            run = 0
            for i, d in enumerate(streak_days):
                played = any(total(m, d, r) is not None for r in rulesets)
                if played:
                    run += 1
                elif i > 0 or calendar.status(d, now) != "open":
                    break  # today may still be played: it does not break a streak yet
            streaks.append({"id": m, "name": names[m], "you": m == player.id,
                            "streak": run})
        streaks.sort(key=lambda s: -s["streak"])
        return {
            **self.summary(record, player),
            "date": day.isoformat(),
            "boards": boards,
            "week": {"from": monday.isoformat(), "to": sunday.isoformat(),
                     "standings": week_rows},
            "streaks": streaks,
        }


def _ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` (each with the member's ``id`` and a ``total``) in board order with their
    ranks, as :func:`daily.standings.standings` ranks a day's board: standard
    competition ranks, equal totals sharing one (1, 1, 3); among equals the order they
    came in. The member ids are left out of the answer.

    >>> [(r["name"], r["rank"]) for r in _ranked([{"id": "a", "name": "A", "total": 90},
    ...     {"id": "b", "name": "B", "total": 137}, {"id": "c", "name": "C", "total": 137}])]
    [('B', 1), ('C', 1), ('A', 3)]
    """
    ranked = standings.standings((r["id"], r["total"], float(i)) for i, r in enumerate(rows))
    by_id = {r["id"]: r for r in rows}
    out = []
    for row in ranked:
        entry = {k: v for k, v in by_id[row.game_id].items() if k != "id"}
        out.append({"rank": row.rank, **entry})
    return out
