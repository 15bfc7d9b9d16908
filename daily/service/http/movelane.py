"""The move lane: ``POST /api/v1/games/<id>/roll``, ``/score`` and ``/hint``, and the two
calls that begin a game (``POST /api/v1/players`` and a ranked ``POST /api/v1/games``),
answered without Flask's request machinery.

Moves are nearly all of the API's traffic (39 of the 41 calls of a Yahtzee game, and a
player who asks for hints makes as many hints), and Flask's request context, routing,
hook dispatch and response object cost about as much CPU as a warm move itself
(``docs/performance.md``); a hint is the same kind of call (a read of the game and a
few microseconds of the strategy engine, :func:`daily.service.games.advice_routes.hint_answer`).
A new player and a ranked start come once per game each, but each cost several moves
through Flask, half of it Flask's own. The lane is a WSGI middleware in front of the
Flask app (behind ``ProxyFix``, so it sees the client's address and scheme). It serves
those calls by the same functions as the views (:func:`daily.service.games.routes.
start_answer`, :func:`daily.service.players.routes.new_player_answer`, the game service),
with the same rate limits (spent in the game's own Redis call for a move or a ranked
start, and spent afterwards when the call never got there; spent first for a new
player, as Flask's hook does), metrics, security headers
(:func:`daily.service.http.headers.security_headers`), JSON text
(:meth:`daily.service.http.jsonprovider.OrjsonProvider.encode`) and error documents
(:func:`daily.service.http.error_handlers.error_answer`).

Everything else goes to Flask untouched: other paths and methods, practice starts and
challenges, a new player whose request carries a token, and every call refused before
the service is asked (no token or an unknown one, a body that is not valid, a body too
large or without a ``Content-Length``, a malformed game id, Redis out of reach for the
token check). Flask refuses those exactly as it does for any endpoint, and counts them
against the limits once; the lane has spent nothing by then.

``DAILY_MOVE_LANE=off`` sends all of them through Flask too; on a Redis Cluster
(``DAILY_REDIS_CLUSTER=on``) they always go through Flask, which counts the limits
apart from the call there.
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

from daily.service.games.advice_routes import hint_answer
from daily.service.games.routes import start_answer
from daily.service.http.contract.bodies import Hint, NewPlayer, RankedStart, Roll, Score
from daily.service.http.contract.fields import GAME_ID_PATTERN
from daily.service.http.error_handlers import (
    ErrorAnswer,
    error_answer,
    http_error_answer,
    too_many_requests,
)
from daily.service.http.headers import security_headers
from daily.service.http.jsonprovider import OrjsonProvider
from daily.service.http.parsing import bearer_of, nesting_exceeds
from daily.service.http.ratelimit import Pending, request_kind
from daily.service.http.served import serving
from daily.service.players.accounts import Player
from daily.service.players.routes import new_player_answer

if TYPE_CHECKING:
    from daily.service.services import Services

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
#: What the lane answers: status, document, extra headers.
Answer = tuple[int, dict[str, Any], tuple[tuple[str, str], ...]]

_GAMES_PATH = "/api/v1/games"
_PLAYERS_PATH = "/api/v1/players"
_MOVE_PATH = re.compile(r"/api/v1/games/([^/]*)/(roll|score|hint)")
_GAME_ID = re.compile(GAME_ID_PATTERN.removeprefix("^").removesuffix("$"))
_DIGITS = re.compile(r"[0-9]{1,9}")


class MoveLane:
    """The WSGI app: the lane for the calls it can serve, ``flask_app``'s own
    ``wsgi_app`` for everything else (see the module).

    >>> from daily.service.app import create_app
    >>> from daily.service.config import load_config
    >>> app = create_app(load_config({"REDIS_URL": "redis://127.0.0.1:6379/15"}))
    >>> lane = MoveLane(app, app.extensions["daily"])
    >>> lane.endpoint["roll"], lane.endpoint["start"]
    ('/api/v1/games/<game_id>/roll', '/api/v1/games')
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
        #: The metrics label of each call (the Flask rule that serves it otherwise).
        self.endpoint = {kind: rules[f"games.{kind}"] for kind in ("roll", "score", "start")}
        self.endpoint["hint"] = rules["strategy.hint"]
        self.endpoint["player"] = rules["players.create"]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Serve one request (WSGI)."""
        path = environ.get("PATH_INFO", "") if environ.get("REQUEST_METHOD") == "POST" else ""
        found = _MOVE_PATH.fullmatch(path) if path.startswith(_GAMES_PATH) else None
        if found is None and path not in (_GAMES_PATH, _PLAYERS_PATH):
            return self.inner(environ, start_response)
        started = time.perf_counter()
        raw = self._body(environ)
        if raw is None:
            return self.inner(environ, start_response)
        try:
            if found is not None:
                kind = found.group(2)
                answer = self._move_call(environ, found.group(1), kind, raw)
            elif path == _GAMES_PATH:
                kind, answer = "start", self._start_call(environ, raw)
            else:
                kind, answer = "player", self._player_call(environ, raw)
        except redis.RedisError:  # Redis away for the token check: Flask answers 503
            return self.inner(environ, start_response)
        if answer is None:
            return self.inner(environ, start_response)  # Flask refuses it, as ever
        status, document, extra = answer
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

    def _move_call(self, environ: dict[str, Any], game_id: str, kind: str,
                   raw: bytes) -> Answer | None:
        """A roll, score or hint that reaches the game service, else ``None``."""
        move = self._move(kind, raw) if _GAME_ID.fullmatch(game_id) else None
        player = self._player(environ) if move is not None else None
        if player is None or move is None:
            return None
        services = self.services

        def call(pending: Pending | None) -> tuple[int, dict[str, Any]]:
            if isinstance(move, Hint):
                return 200, hint_answer(services, player, game_id, move.top, pending)
            if isinstance(move, Roll):
                return 200, services.games.roll(player, game_id, move.hold, move.position,
                                                pending)
            return 200, services.games.score(player, game_id, move.box, move.position,
                                             pending)

        return self._serve(environ, player.id, call, folded=True)

    def _start_call(self, environ: dict[str, Any], raw: bytes) -> Answer | None:
        """A ranked start with a valid body and token, else ``None`` (practice starts
        and challenges, which spend the limits before storing anything, go to Flask)."""
        body = _json_object(raw)
        if body is None or "challenge" in body or body.get("mode", "ranked") != "ranked":
            return None
        try:
            start = RankedStart.model_validate(body)
        except ValidationError:
            return None
        player = self._player(environ)
        if player is None:
            return None
        services = self.services

        def call(pending: Pending | None) -> tuple[int, dict[str, Any]]:
            state, status = start_answer(services, player, start, pending)
            return status, state

        return self._serve(environ, player.id, call, folded=True)

    def _player_call(self, environ: dict[str, Any], raw: bytes) -> Answer | None:
        """A creation with a valid body and no token (the limits then count the
        address alone), else ``None``."""
        body = _json_object(raw) if raw else {}
        if body is None or "HTTP_AUTHORIZATION" in environ:
            return None
        try:
            new = NewPlayer.model_validate(body)
        except ValidationError:
            return None
        services = self.services
        limits = bool(self.flask.config.get("RATELIMIT_ENABLED", True))

        def call(pending: Pending | None) -> tuple[int, dict[str, Any]]:
            address = environ.get("REMOTE_ADDR") or "unknown"
            return 201, new_player_answer(services, new, address, services.clock(),
                                          limits=limits, spend=pending)

        # The counters go with the creation's own call unless a proof-of-work is asked
        # for: its challenge is used up when checked, so the limits are spent first, as
        # Flask's hook does, and a refused request keeps its challenge.
        folded = services.new_players.one_call and not services.creation.bits
        return self._serve(environ, None, call, folded=folded)

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
        body = _json_object(raw)
        if body is None:
            return None
        try:
            if kind == "hint":
                return Hint.model_validate(body)
            return Roll.model_validate(body) if kind == "roll" else Score.model_validate(body)
        except ValidationError:
            return None

    def _serve(
        self, environ: dict[str, Any], player_id: str | None,
        call: Callable[[Pending | None], tuple[int, dict[str, Any]]], *, folded: bool,
    ) -> Answer:
        """Status, document and extra headers of ``call``, as the view and Flask's hooks
        and error handlers would answer it. The request's rate-limit counters go to
        ``call`` when its script spends them (``folded``, as ``FOLDED_ENDPOINTS``),
        spent afterwards if it never got there; otherwise they are spent first, and a
        refusal is answered without calling it."""
        services = self.services
        limiter = services.limiter
        pending: Pending | None = None
        if not limiter.limits.off and self.flask.config.get("RATELIMIT_ENABLED", True):
            address = environ.get("REMOTE_ADDR") or "unknown"  # as Request.remote_addr
            pending = limiter.pending(address, player_id, request_kind("POST"))
        answer: ErrorAnswer | None = None
        status, state = 200, dict[str, Any]()
        try:
            if pending is not None and not folded:
                refusal = limiter.spend(pending)
                if refusal is not None:
                    raise too_many_requests(refusal)
            with serving(environ):  # the share text's language and link, if asked
                status, state = call(pending)
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
        return status, state, ()


def _json_object(raw: bytes) -> dict[str, Any] | None:
    """The body as a JSON object, else ``None`` (Flask then names what is wrong)."""
    if nesting_exceeds(raw):
        return None
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return body if isinstance(body, dict) else None
