"""Provisional players and the public top, end to end (docs/fairplay.md, "Provisional
players and the public top").

On a live server (real gunicorn, two workers taking requests in turn) with
``DAILY_PROVISIONAL_DAYS=3`` and the passkey requirement on, real Redis and a real
results consumer (``daily worker results --burst`` in its own process): veterans play
three days on the service clock (the live server's clock file); on the first, when
nobody stands yet, the top shows every game, marked. Then a fresh account's strong
game arrives on a board with players who stand: it is left out of the public top and
counted, its player's own rank is right, and it stays off after the close. After three
days of play the same account's game stands on the top. An operator's ``clear-top``
puts a game without a passkey on the top; the archive and a rebuild keep the days of
play and the clearance.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import redis

from daily.cli import main as cli_main
from daily.service import keymap
from daily.service.config import Config
from daily.service.results.archive import archive_path
from daily.service.results.stats import ranked_days
from daily.service.review.queue import rebuild_day
from tests.service.conftest import PREFIX, Player, play_out
from tests.service.test_worker_integration import run_worker_burst
from workers.rollover import roll_day

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

DAYS = 3


@pytest.fixture(scope="module")
def live_env(live_env: dict[str, str]) -> dict[str, str]:
    """The module's server: provisional for three days of play, passkeys required."""
    return {**live_env, "DAILY_PROVISIONAL_DAYS": str(DAYS),
            "DAILY_PUBLIC_TOP_REQUIRES_PASSKEY": "on"}


def at(day: int) -> dt.datetime:
    """11:00 UTC on a day of November 2026 (December past 30): the day of play is the
    next date, and three dates are open."""
    return dt.datetime(2026, 11, 1, 11, 0, tzinfo=dt.UTC) + dt.timedelta(days=day - 1)


def ranked(player: Player, date: str) -> dict[str, Any]:
    response = player.call("POST", "/games", {"ruleset": "yahtzee", "date": date,
                                              "mode": "ranked"})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def weak(player: Player, date: str) -> dict[str, Any]:
    """A ranked game that never rerolls and scores the first legal box: a low total."""
    state = ranked(player, date)
    while not state["over"]:
        box = next(c["box"] for c in state["choices"] if c["legal"])
        response = player.call("POST", f"/games/{state['id']}/score",
                               {"box": box, "position": state["position"]})
        assert response.status_code == 200, response.get_json()
        state = response.get_json()
    return state


def give_passkey(conn: redis.Redis, player: Player) -> None:
    """A passkey, as the passkey registration stores it (the hash is what counts)."""
    conn.hset(keymap.passkeys(PREFIX, player.id), "Y3JlZC0x", '{"sign_count": 0}')


def board(player: Player | None, client: Any, date: str) -> dict[str, Any]:
    path = f"/leaderboards/{date}/yahtzee"
    response = player.call("GET", path) if player else client.get("/api/v1" + path)
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def consume(config: Config) -> None:
    done = run_worker_burst(config)
    assert done.returncode == 0, done.stderr[-3000:]


def names(view: dict[str, Any]) -> list[str]:
    return [row["player"]["name"] for row in view["top"]]


def test_a_fresh_account_stays_off_the_public_top_until_it_has_played_its_days(
    service_config: Config, redis_client: redis.Redis, make_player: Any, client: Any,
    clock: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    conn = redis_client
    clock.set(at(26))
    ada, bob, cy = make_player("Ada"), make_player("Bob"), make_player("Cy")
    for veteran in (ada, bob):
        give_passkey(conn, veteran)
    # Day one: nobody stands yet (a new deployment): every game shows, marked.
    for day, veteran in ((26, ada), (26, bob), (26, cy)):
        weak(veteran, f"2026-11-{day}")
    consume(service_config)
    first = board(ada, client, "2026-11-26")
    assert first["top_open"] is True and len(first["top"]) == 3
    assert all("provisional" in row["marks"] for row in first["top"])
    assert first["left_out"] == {"games": 0, "provisional": 0, "no_passkey": 0}
    assert "no_passkey" in next(r for r in first["top"] if r["player"]["name"] == "Cy")["marks"]
    assert first["provisional_days"] == DAYS
    assert next(r for r in first["around"] if r["player"]["name"] == "Ada")["marks"] == [
        "provisional"]

    # Two more days of play for the veterans.
    for day in (27, 28):
        clock.set(at(day))
        for veteran in (ada, bob, cy):
            weak(veteran, f"2026-11-{day}")
    consume(service_config)
    me = ada.call("GET", "/players/me").get_json()["public_top"]
    assert me == {"ranked_days": 3, "first_ranked_date": "2026-11-27", "provisional": False,
                  "provisional_days": DAYS, "days_left": 0, "passkey": True,
                  "passkey_required": True, "stands": True}

    # A fresh account (with a software passkey) plays a strong game on the 29th.
    clock.set(at(29))
    for veteran in (ada, bob, cy):
        weak(veteran, "2026-11-29")
    fresh = make_player("Eve")
    give_passkey(conn, fresh)
    strong = play_out(fresh, ranked(fresh, "2026-11-29"))
    consume(service_config)
    view = board(fresh, client, "2026-11-29")
    weak_total = max(row["score"] for row in view["top"])
    assert strong["total"] > weak_total  # the best game of the board
    assert names(view) == ["Ada", "Bob"] or names(view) == ["Bob", "Ada"]
    assert view["top_open"] is False and all(row["marks"] == [] for row in view["top"])
    assert view["left_out"] == {"games": 2, "provisional": 1, "no_passkey": 1}
    assert view["top"][0]["rank"] == 2  # the board's ranks: Eve's game counts for her
    assert view["me"]["rank"] == 1 and view["me"]["percentile"] == 100.0
    assert view["around"][0]["marks"] == ["provisional"] and view["players"] == 4
    assert sum(b["count"] for b in view["histogram"]["bins"]) == 4
    assert view["around"][0]["game_id"] == view["me"]["game_id"] == strong["id"]
    anonymous = board(None, client, "2026-11-29")
    assert "Eve" not in names(anonymous) and anonymous["me"] is None
    profile = fresh.call("GET", "/players/me").get_json()["public_top"]
    assert profile["provisional"] is True and profile["days_left"] == DAYS - 1
    assert profile["ranked_days"] == 1 and profile["first_ranked_date"] == "2026-11-30"

    # Eve plays her days; her game of the 29th stays off (counted up to its close).
    clock.set(at(30))
    play_out(fresh, ranked(fresh, "2026-11-30"))
    clock.set(at(31))
    weak(ada, "2026-12-01")
    last = play_out(fresh, ranked(fresh, "2026-12-01"))
    consume(service_config)
    assert fresh.call("GET", "/players/me").get_json()["public_top"]["stands"] is True
    assert "Eve" not in names(board(None, client, "2026-11-29"))
    later = board(fresh, client, "2026-12-01")
    assert not later["top_open"] and later["left_out"]["games"] == 0
    assert names(later)[0] == "Eve" and later["top"][0]["marks"] == []
    assert later["top"][0]["score"] == last["total"]

    # The operator clears Cy's game of the 29th (no passkey): it stands.
    monkeypatch.setenv("REDIS_URL", service_config.redis_url or "")
    monkeypatch.setenv("DAILY_KEY_PREFIX", PREFIX)
    monkeypatch.setenv("DAILY_DATA_DIR", str(service_config.data_dir))
    capsys.readouterr()
    cy_game = next(r["game_id"] for r in view["around"] if r["player"]["name"] == "Cy")
    assert cli_main(["review", "clear-top", "2026-11-29", "yahtzee", cy_game]) == 0
    assert "cleared for the public top" in capsys.readouterr().out
    assert cli_main(["review", "clear-top", "2026-11-29", "yahtzee", "g_nope"]) == 2
    assert "not on the board" in capsys.readouterr().err
    cleared = board(None, client, "2026-11-29")
    assert "Cy" in names(cleared) and "Eve" not in names(cleared)
    assert cleared["left_out"] == {"games": 1, "provisional": 1, "no_passkey": 0}

    # After the close: the same top; the archives and a rebuild keep the days of play
    # and the clearance.
    dates = ["2026-11-29", "2026-11-30", "2026-12-01"]
    for date in dates:
        day = dt.date.fromisoformat(date)
        roll_day(conn, service_config, day, "yahtzee",
                 dt.datetime.combine(day, dt.time(12, 10), dt.UTC) + dt.timedelta(days=1))
    closed = board(None, client, "2026-11-29")
    assert closed["frozen"] and names(closed) == names(cleared)
    for key in conn.scan_iter(f"{PREFIX}player:{{{fresh.id}}}:*"):
        conn.delete(key)
    conn.delete(keymap.board(PREFIX, "2026-11-29", "yahtzee", "cleared"))
    assert ranked_days(conn, fresh.id, prefix=PREFIX) == (0, None)
    for date in dates:
        rebuild_day(conn, Path(archive_path(service_config.archive_dir, date, "yahtzee")),
                    prefix=PREFIX)
    assert ranked_days(conn, fresh.id, prefix=PREFIX) == (3, dt.date(2026, 11, 30))
    rebuilt = board(None, client, "2026-11-29")
    assert names(rebuilt) == names(cleared) and rebuilt["left_out"] == cleared["left_out"]


def test_a_private_deployment_turns_both_conditions_off(
    live_variants: Any, service_config: Config, redis_url: str, clock: Any
) -> None:
    clock.set(at(29))
    server = live_variants(DAILY_PROVISIONAL_DAYS="0", DAILY_PUBLIC_TOP_REQUIRES_PASSKEY="off")
    client = server.client()
    ada, bob = Player(client, "Ada"), Player(client, "Bob")
    weak(ada, "2026-11-29")
    play_out(bob, ranked(bob, "2026-11-29"))
    consume(service_config)
    view = board(ada, client, "2026-11-29")
    assert names(view) == ["Bob", "Ada"] and [r["rank"] for r in view["top"]] == [1, 2]
    assert all(row["marks"] == [] for row in (*view["top"], *view["around"]))
    assert view["top_open"] is False and view["left_out"]["games"] == 0
    assert view["provisional_days"] == 0
    me = ada.call("GET", "/players/me").get_json()["public_top"]
    assert me["stands"] and not me["provisional"] and not me["passkey_required"]
