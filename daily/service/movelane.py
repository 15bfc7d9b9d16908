"""The move lane: ``POST /api/v1/games/<id>/roll``, ``/score`` and ``/hint`` answered
without Flask's request machinery.

Moves are nearly all of the API's traffic (39 of the 41 calls of a Yahtzee game, and a
player who asks for hints makes as many hints), and Flask's request context, routing,
hook dispatch and response object cost about as much CPU as a warm move itself
(``docs/performance.md``); a hint is the same kind of call (a read of the game and a
few microseconds of the strategy engine, :func:`daily.service.api.strategy.hint_answer`).
The lane is a WSGI middleware in front of the Flask app (behind ``ProxyFix``, so it
sees the client's address and scheme). It serves every move that reaches the game
service, by the same calls as the views of :mod:`daily.service.api.games`, with the
same rate limits (spent in the move's own Redis call, and spent afterwards when the
move never got there), metrics, security headers
(:func:`daily.service.headers.security_headers`), JSON text
(:meth:`daily.service.jsonout.OrjsonProvider.encode`) and error documents
(:func:`daily.service.errors.error_answer`).

Everything else goes to Flask untouched: other paths and methods, and every move
refused before the game service is asked (no token or an unknown one, a body that is
not a valid move, a body too large or without a ``Content-Length``, a malformed game
id, Redis out of reach for the token check). Flask refuses those exactly as it does
for any endpoint, and counts them against the limits once; the lane has spent nothing
by then.

``DAILY_MOVE_LANE=off`` sends moves through Flask too; on a Redis Cluster
(``DAILY_REDIS_CLUSTER=on``) they always go through Flask, which counts the limits
apart from the move there.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import orjson
import redis
from flask import Flask
from pydantic import ValidationError
from werkzeug.http import HTTP_STATUS_CODES

from daily.service.api.strategy import hint_answer
from daily.service.contract.bodies import Hint, Roll, Score
from daily.service.contract.fields import GAME_ID_PATTERN
from daily.service.errors import ErrorAnswer, error_answer, http_error_answer, too_many_requests
from daily.service.headers import security_headers
from daily.service.jsonout import OrjsonProvider
from daily.service.players import Player
from daily.service.ratelimit import Pending
from daily.service.requests import bearer_of
from daily.service.served import serving

if TYPE_CHECKING:
    from daily.service.app import Services

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_MOVE_PATH = re.compile(r"/api/v1/games/([^/]*)/(roll|score|hint)")
_GAME_ID = re.compile(GAME_ID_PATTERN.removeprefix("^").removesuffix("$"))
_DIGITS = re.compile(r"[0-9]{1,9}")


class MoveLane:
    """The WSGI app: the lane for the moves it can serve, ``flask_app``'s own
    ``wsgi_app`` for everything else (see the module).

    >>> from daily.service.app import create_app
    >>> from daily.service.config import load_config
    >>> app = create_app(load_config({"REDIS_URL": "redis://127.0.0.1:6379/15"}))
    >>> lane = MoveLane(app, app.extensions["daily"])
    >>> lane.endpoint["roll"]
    '/api/v1/games/<game_id>/roll'
    """

    def __init__(self, flask_app: Flask, services: Services) -> None:
        self.flask = flask_app
        self.inner: WsgiApp = flask_app.wsgi_app
        self.services = services
        provider = flask_app.json
        if not isinstance(provider, OrjsonProvider):
            raise TypeError("the move lane writes JSON as the app's OrjsonProvider does")
        self.json = provider
        rules = {rule.endpoint: rule.rule for rule in flask_app.url_map.iter_rules()}
        #: The metrics label of each move (the Flask rule that serves it otherwise).
        self.endpoint = {kind: rules[f"games.{kind}"] for kind in ("roll", "score")}
        self.endpoint["hint"] = rules["strategy.hint"]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Serve one request (WSGI)."""
        found = _MOVE_PATH.fullmatch(environ.get("PATH_INFO", "")) \
            if environ.get("REQUEST_METHOD") == "POST" else None
        if found is None:
            return self.inner(environ, start_response)
        started = time.perf_counter()
        body = self._body(environ)
        if body is None:
            return self.inner(environ, start_response)
        game_id, kind = found.group(1), found.group(2)
        move = self._move(kind, body) if _GAME_ID.fullmatch(game_id) else None
        try:
            player = self._player(environ) if move is not None else None
        except redis.RedisError:  # Redis away: Flask answers 503, as to any call
            return self.inner(environ, start_response)
        if player is None or move is None:
            return self.inner(environ, start_response)  # Flask refuses it, as ever
        status, document, extra = self._serve(environ, player, game_id, move)
        data = self.json.encode(document)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                   *extra]
        secure = environ.get("wsgi.url_scheme") in ("https", "wss")  # as Request.is_secure
        headers += security_headers({name.lower() for name, _ in headers}, secure,
                                    self.services.config)
        self.services.metrics.observe("POST", self.endpoint[kind], status,
                                      time.perf_counter() - started)
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}", headers)
        return [data]

    def _body(self, environ: dict[str, Any]) -> bytes | None:
        """The body, read whole when its length is declared and within the limit; then
        ``wsgi.input`` is a buffer of it, for Flask if the move goes there after all."""
        length = environ.get("CONTENT_LENGTH") or ""
        if "HTTP_TRANSFER_ENCODING" in environ or not _DIGITS.fullmatch(length) \
                or int(length) > self.services.config.max_body:
            return None
        raw: bytes = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(raw)
        return raw

    def _player(self, environ: dict[str, Any]) -> Player | None:
        """The player the bearer token names, if it is one."""
        token = bearer_of(environ.get("HTTP_AUTHORIZATION") or "")
        return self.services.players.authenticate(token) if token is not None else None

    @staticmethod
    def _move(kind: str, raw: bytes) -> Roll | Score | Hint | None:
        """The body as a valid move, else ``None`` (Flask then names what is wrong)."""
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(body, dict):
            return None
        try:
            if kind == "hint":
                return Hint.model_validate(body)
            return Roll.model_validate(body) if kind == "roll" else Score.model_validate(body)
        except ValidationError:
            return None

    def _serve(
        self, environ: dict[str, Any], player: Player, game_id: str,
        move: Roll | Score | Hint,
    ) -> tuple[int, dict[str, Any], tuple[tuple[str, str], ...]]:
        """Status, document and extra headers of a move, as the view and Flask's hooks
        and error handlers would answer it."""
        services = self.services
        limiter = services.limiter
        pending: Pending | None = None
        if not limiter.limits.off and self.flask.config.get("RATELIMIT_ENABLED", True):
            address = environ.get("REMOTE_ADDR") or "unknown"  # as Request.remote_addr
            pending = limiter.pending(address, player.id, "write")
        answer: ErrorAnswer | None = None
        state: dict[str, Any] = {}
        try:
            with serving(environ):  # the share text's language and link, if asked
                if isinstance(move, Hint):
                    state = hint_answer(services, player, game_id, move.top, pending)
                elif isinstance(move, Roll):
                    state = services.games.roll(player, game_id, move.hold, move.position,
                                                pending)
                else:
                    state = services.games.score(player, game_id, move.box, move.position,
                                                 pending)
        except Exception as exc:  # answered as Flask's handlers answer it (logged if unknown)
            answer = error_answer(exc)
        if pending is not None and not pending.spent:  # refused before its Redis call
            try:
                refusal = limiter.spend(pending)
            except Exception as exc:  # as Flask answers a failing after-request hook
                answer = error_answer(exc)
            else:
                if refusal is not None:
                    answer = http_error_answer(too_many_requests(refusal))
        if answer is not None:
            return answer.status, answer.body, answer.headers
        return 200, state, ()
