"""The social domain registers itself on an app: challenges, groups and their blueprints
(after the games and the players).

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.rules import Ruleset
from daily.service.extensions import Basics, of, register
from daily.service.games.flow import GameService
from daily.service.games.opponents import strategy_table
from daily.service.http.openapi import API_PREFIX
from daily.service.players.accounts import Players
from daily.service.publicurl import public_base_url
from daily.service.social import challenge_routes, group_routes
from daily.service.social.challenges import Challenges
from daily.service.social.groups import Groups
from daily.strategy.solver import StrategyTable


def init_app(app: Flask) -> None:
    """Register challenges and groups on ``app``."""
    basics = of(app, Basics)
    conn, config, clock = basics.conn, basics.config, basics.clock
    games, players = of(app, GameService), of(app, Players)

    def tables(rules: Ruleset) -> StrategyTable:
        return strategy_table(rules, config.tables_dir)

    def player_name(player_id: str) -> str | None:
        player = players.get(player_id)
        return player.name if player else None

    register(app, Challenges(conn, config, clock, games, tables,
                             lambda: public_base_url(config)))
    register(app, Groups(conn, config, clock, games.store.ranked_totals, player_name,
                         lambda: public_base_url(config)))
    app.register_blueprint(challenge_routes.bp, url_prefix=API_PREFIX)
    app.register_blueprint(group_routes.bp, url_prefix=API_PREFIX)
