"""The OpenAPI 3.1 document of ``/api/v1``, written by hand as data.

``tests/service/test_openapi.py`` runs schemathesis against the real app, so this
document and the behaviour cannot drift apart unnoticed.

>>> doc = openapi_document("https://dice.example")
>>> doc["servers"][0]["url"], "/api/v1/games/{game_id}/score" in doc["paths"]
('https://dice.example', True)
"""

from __future__ import annotations

from typing import Any

DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "example": "2026-11-29"}
NULLABLE_INT = {"type": ["integer", "null"]}
NULLABLE_STR = {"type": ["string", "null"]}
DICE = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    text = {
        400: "Malformed body", 401: "Missing or bad token", 403: "Not your game",
        404: "Not found", 405: "Method not allowed", 409: "Conflict with the game or day",
        413: "Body too large", 422: "A field, turn or roll at fault", 429: "Rate limited",
        503: "Not ready (keys) or Redis down",
    }
    out = {str(s): _json(_ref("Error"), text[s]) for s in statuses}
    out.setdefault("429", _json(_ref("Error"), text[429]))
    return out


def _body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _path_param(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema,
            "description": description}


GAME_ID = _path_param("game_id", {"type": "string", "maxLength": 40}, "A game id (g_...)")
AUTH = [{"bearer": []}]
POSITION = {"type": "integer", "minimum": 0, "maximum": 10000,
            "description": "the game's position the move was decided at (daily-move/1)"}
OPTIONAL_AUTH = [{"bearer": []}, {}]


def _schemas() -> dict[str, Any]:
    where = {
        "field": {"type": "string"},
        "turn": {"type": "integer", "minimum": 1},
        "roll": {"type": "integer", "minimum": 1},
    }
    card = {"type": "array", "items": _obj(
        ["box", "points"], box={"type": "string"}, points=NULLABLE_INT)}
    upper = _obj(
        ["total", "threshold", "bonus", "bonus_value", "to_go"],
        total={"type": "integer"}, threshold={"type": "integer"}, bonus={"type": "integer"},
        bonus_value={"type": "integer"}, to_go={"type": "integer"},
    )
    history = {"type": "array", "items": _obj(
        ["turn", "rolls", "holds", "box", "points", "bonus"],
        turn={"type": "integer"}, rolls={"type": "array", "items": DICE},
        holds={"type": "array", "items": {"type": "string"}}, box={"type": "string"},
        points={"type": "integer"}, bonus={"type": "integer"},
    )}
    finished = _obj(
        ["total", "code", "share_text", "url", "rank", "percentile"],
        total={"type": "integer"}, code={"type": "string"}, share_text={"type": "string"},
        url={"type": "string"}, rank=NULLABLE_INT, percentile={"type": ["number", "null"]},
        players=NULLABLE_INT, finished_at={"type": "string"},
    )
    row = _obj(
        ["rank", "player", "score"],
        rank={"type": "integer"},
        player=_obj(["id", "name"], id={"type": "string"}, name={"type": "string"}),
        score={"type": "integer"}, finished_at={"type": "number"}, code={"type": "string"},
    )
    return {
        "Error": _obj(["error"], error=_obj(
            ["status", "code", "message"], status={"type": "integer"},
            code={"type": "string", "examples": ["invalid_field", "illegal_move"]},
            message={"type": "string"}, **where,
        )),
        "Player": _obj(["id", "name"], id={"type": "string"}, name={"type": "string"}),
        "NewPlayer": _obj(["player", "token"], player=_ref("Player"),
                          token={"type": "string", "description": "shown once; keep it"}),
        "Me": _obj(
            ["id", "name", "stats", "history"], id={"type": "string"}, name={"type": "string"},
            stats=_obj(
                ["games", "average", "best", "current_streak", "longest_streak"],
                games={"type": "integer"}, average={"type": ["number", "null"]},
                best=NULLABLE_INT, current_streak={"type": "integer"},
                longest_streak={"type": "integer"}, by_ruleset={"type": "object"},
            ),
            history={"type": "array", "items": _obj(
                ["date", "ruleset", "total", "code"], date=DATE, ruleset={"type": "string"},
                total={"type": "integer"}, code={"type": "string"})},
        ),
        "Today": _obj(
            ["now", "open_dates", "rulesets", "next_reveal_at", "sets"],
            now={"type": "string"}, open_dates={"type": "array", "items": DATE},
            rulesets={"type": "array", "items": {"type": "string"}},
            next_reveal_at={"type": "string"},
            sets={"type": "array", "items": _obj(
                ["date", "ruleset", "status", "opens_at", "closes_at", "played"],
                date=DATE, ruleset={"type": "string"},
                status={"enum": ["open", "revealed", "upcoming"]},
                opens_at={"type": "string"}, closes_at={"type": "string"},
                played={"oneOf": [{"type": "null"}, _obj(
                    ["game_id", "over", "total", "code"], game_id={"type": "string"},
                    over={"type": "boolean"}, total=NULLABLE_INT, code=NULLABLE_STR)]},
            )},
        ),
        "Game": _obj(
            ["id", "mode", "ruleset", "options", "date", "position", "turn", "turns", "roll",
             "max_rolls", "rolls_left", "dice", "over", "card", "choices", "extra_bonus",
             "extra_count", "upper", "total", "history", "log", "result"],
            id={"type": "string"}, mode={"enum": ["ranked", "practice"]},
            position={"type": "integer", "minimum": 0,
                      "description": "decisions applied so far (daily-move/1)"},
            ruleset={"type": "string"}, options={"type": "object"},
            date={"type": ["string", "null"]}, turn={"type": "integer", "minimum": 1},
            turns={"type": "integer"},
            roll={"type": "integer", "minimum": 0,
                  "description": "rolls made so far in this turn (0 once over)"},
            max_rolls={"type": "integer"}, rolls_left={"type": "integer", "minimum": 0},
            dice=DICE, turn_rolls={"type": "array", "items": DICE}, over={"type": "boolean"},
            card=card,
            choices={"type": "array", "items": _obj(
                ["box", "points", "legal", "reason", "why"], box={"type": "string"},
                points={"type": "integer"}, legal={"type": "boolean"}, reason=NULLABLE_STR,
                why={"oneOf": [{"type": "null"}, _obj(
                    ["code", "box"], code={"type": "string"}, box={"type": "string"})]})},
            extra_bonus={"type": "integer"}, extra_count={"type": "integer"}, upper=upper,
            total={"type": "integer"}, history=history,
            log={"type": "object", "description": "daily-log/1 so far (docs/protocol.md)"},
            result={"oneOf": [{"type": "null"}, finished]},
            opponents={"type": "array", "items": _ref("Opponent"),
                       "description": "computer opponents, up to your scored turns"},
            challenge={"oneOf": [{"type": "null"}, _obj(
                ["code", "rival"], code={"type": "string"},
                rival={"oneOf": [{"type": "null"}, _ref("Rival")]})]},
        ),
        "Opponent": _obj(
            ["level", "total", "turns", "over", "expected"],
            level={"enum": ["easy", "medium", "hard"]}, total={"type": "integer"},
            turns=history, over={"type": "boolean"},
            expected={"type": ["number", "null"],
                      "description": "the level's mean total (hard: the exact optimum)"},
        ),
        "Rival": _obj(["name", "total", "turns", "over"], name={"type": "string"},
                      total={"type": "integer"}, turns=history, over={"type": "boolean"}),
        "Challenge": _obj(
            ["code", "url", "ruleset", "options", "date", "entries"],
            code={"type": "string"}, url={"type": "string"}, ruleset={"type": "string"},
            options={"type": "object"}, date={"type": ["string", "null"]},
            created={"type": "string"},
            entries={"type": "array", "items": _obj(
                ["name", "total", "finished", "turns_done", "you"], name={"type": "string"},
                total={"type": "integer"}, finished={"type": "boolean"},
                turns_done={"type": "integer"}, you={"type": "boolean"}, code=NULLABLE_STR)},
            comparison={"type": "array", "description": "once your own entry is finished",
                        "items": _obj(["turn", "players"], turn={"type": "integer"},
                                      players={"type": "array", "items": _obj(
                                          ["name", "box", "points", "gained", "loss"],
                                          name={"type": "string"}, you={"type": "boolean"},
                                          box={"type": "string"}, points={"type": "integer"},
                                          gained={"type": "integer"},
                                          loss={"type": ["number", "null"]})})},
        ),
        "Group": _obj(
            ["code", "name", "members"], code={"type": "string"}, name={"type": "string"},
            members={"type": "array", "items": _obj(["name", "you"], name={"type": "string"},
                                                    you={"type": "boolean"})},
        ),
        "Result": _obj(
            ["code", "ruleset", "date", "mode", "player", "total", "card", "upper",
             "extra_bonus", "revealed", "rank", "percentile"],
            code={"type": "string"}, ruleset={"type": "string"},
            date={"type": ["string", "null"]}, mode={"enum": ["ranked", "practice"]},
            player=_obj(["name"], name={"type": "string"}), total={"type": "integer"},
            card=card, upper=upper, extra_bonus={"type": "integer"},
            revealed={"type": "boolean"}, rank=NULLABLE_INT,
            percentile={"type": ["number", "null"]}, share_text={"type": "string"},
            url={"type": "string"},
            history={**history, "description": "only once the dice are revealed"},
            log={"type": "object", "description": "only once the dice are revealed"},
        ),
        "Leaderboard": _obj(
            ["date", "ruleset", "frozen", "players", "top", "me", "around", "histogram", "par"],
            date=DATE, ruleset={"type": "string"}, frozen={"type": "boolean"},
            players={"type": "integer"}, top={"type": "array", "items": row},
            me={"oneOf": [{"type": "null"}, _obj(
                ["rank", "percentile", "score"], rank={"type": "integer"},
                percentile={"type": "number"}, score={"type": "integer"})]},
            around={"type": "array", "items": row},
            histogram=_obj(["bin_width", "bins"], bin_width={"type": "integer"},
                           bins={"type": "array", "items": _obj(
                               ["from", "to", "count"], **{
                                   "from": {"type": "integer"}, "to": {"type": "integer"},
                                   "count": {"type": "integer"}})}),
            par={"type": ["object", "null"]},
        ),
        "Day": _obj(
            ["version", "ruleset", "options", "date", "generator", "commitment", "key_id",
             "signature", "status", "opens_at", "closes_at"],
            version={"const": "day/1"}, ruleset={"type": "string"},
            options={"type": "object"}, date=DATE, generator={"type": "string"},
            commitment={"type": "string"}, key_id={"type": "string"},
            signature={"type": "string"}, status={"enum": ["open", "revealed", "upcoming"]},
            opens_at={"type": "string"}, closes_at={"type": "string"},
            seed={"type": "string", "description": "only once revealed"},
            par={"type": ["object", "null"]},
        ),
    }


def _paths() -> dict[str, Any]:
    name = {"type": "string", "minLength": 1, "maxLength": 24}
    ruleset_name = {"type": "string", "examples": ["yahtzee", "maxi-yatzy"]}
    start_body = {
        "type": "object", "additionalProperties": False,
        "anyOf": [{"required": ["ruleset"]}, {"required": ["challenge"]}],
        "properties": {
            "ruleset": ruleset_name, "date": DATE,
            "mode": {"enum": ["ranked", "practice"]},
            "options": {"type": "object", "description": "practice on random dice only"},
            "opponents": {"type": "array", "maxItems": 3,
                          "items": {"enum": ["easy", "medium", "hard"]}},
            "challenge": {"type": "string", "maxLength": 40,
                          "description": "a challenge code (CH-...) or a result code (DD-...)"},
            "blind": {"type": "boolean", "description": "with a challenge: hide the rival"},
        },
    }
    group_code = _path_param("code", {"type": "string", "maxLength": 40}, "G- and 6 characters")
    game = _json(_ref("Game"), "The game state")
    return {
        "/api/v1/health": {"get": {
            "summary": "Health", "responses": {
                "200": _json(_obj(["status", "redis"], status={"const": "ok"},
                                  redis={"const": "ok"}), "Healthy"),
                "503": _json(_obj(["status", "redis"]), "Redis down"),
            }}},
        "/api/v1/openapi.json": {"get": {
            "summary": "This document", "responses": {"200": _json({"type": "object"}, "OK"),
                                                      **_errors(429)}}},
        "/api/v1/players": {"post": {
            "summary": "Create an anonymous player",
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "properties": {"name": name}}, required=False),
            "responses": {"201": _json(_ref("NewPlayer"), "Created"),
                          **_errors(400, 413, 422)}}},
        "/api/v1/players/me": {
            "get": {"summary": "You, your stats and history", "security": AUTH,
                    "responses": {"200": _json(_ref("Me"), "OK"), **_errors(401)}},
            "patch": {"summary": "Rename yourself", "security": AUTH,
                      "requestBody": _body({"type": "object", "additionalProperties": False,
                                            "required": ["name"], "properties": {"name": name}}),
                      "responses": {"200": _json(_ref("Player"), "Renamed"),
                                    **_errors(400, 401, 413, 422)}},
        },
        "/api/v1/players/me/token": {
            "post": {"summary": "Rotate your token: a new one, the old one stops working",
                     "security": AUTH,
                     "requestBody": _body({"type": "object", "additionalProperties": False,
                                           "properties": {}}, required=False),
                     "responses": {"200": _json(_ref("NewPlayer"), "The new token"),
                                   **_errors(400, 401, 409, 413, 422)}},
            "delete": {"summary": "Revoke your token: nobody can act as you any more",
                       "security": AUTH,
                       "responses": {"204": {"description": "Revoked"},
                                     **_errors(401, 409)}},
        },
        "/api/v1/today": {"get": {
            "summary": "Open dates and sets", "security": OPTIONAL_AUTH,
            "responses": {"200": _json(_ref("Today"), "OK"), **_errors(401)}}},
        "/api/v1/games": {"post": {
            "summary": "Start (or resume) a game", "security": AUTH,
            "requestBody": _body(start_body),
            "responses": {"201": _json(_ref("Game"), "Started"),
                          "200": _json(_ref("Game"), "Your ranked game, resumed"),
                          **_errors(400, 401, 404, 409, 413, 422, 503)}}},
        "/api/v1/games/{game_id}": {"get": {
            "summary": "A game of yours", "security": AUTH, "parameters": [GAME_ID],
            "responses": {"200": game, **_errors(401, 403, 404, 503)}}},
        "/api/v1/games/{game_id}/roll": {"post": {
            "summary": "Reroll the dice not held", "security": AUTH, "parameters": [GAME_ID],
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "required": ["hold", "position"], "properties": {"hold": {
                                      "type": "string", "pattern": "^[01]{5,6}$"},
                                      "position": POSITION}}),
            "responses": {"200": game, **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/api/v1/games/{game_id}/score": {"post": {
            "summary": "Fill a box", "security": AUTH, "parameters": [GAME_ID],
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "required": ["box", "position"], "properties": {"box": {
                                      "type": "string", "examples": ["full_house"]},
                                      "position": POSITION}}),
            "responses": {"200": game, **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/api/v1/games/{game_id}/log": {"post": {
            "summary": "Submit the whole move log for verification", "security": AUTH,
            "parameters": [GAME_ID],
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "required": ["log"], "properties": {"log": {
                                      "type": ["object", "string"],
                                      "description": "daily-log/1 JSON or text"}}}),
            "responses": {"200": _json(_ref("Game"), "The verified, finished game"),
                          **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/api/v1/games/{game_id}/hint": {"post": {
            "summary": "The best action now and its alternatives (practice or revealed days)",
            "security": AUTH, "parameters": [GAME_ID],
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "properties": {"top": {"type": "integer", "minimum": 0,
                                                         "maximum": 20}}}, required=False),
            "responses": {"200": _json(_obj(["best", "alternatives", "dice", "rolls_left"],
                                            best={"type": "object"},
                                            alternatives={"type": "array"},
                                            dice={"type": "array"},
                                            rolls_left={"type": "integer"}), "The hint"),
                          **_errors(400, 401, 403, 404, 409, 413, 422, 503)}}},
        "/api/v1/games/{game_id}/analysis": {"get": {
            "summary": "A finished game against optimal play (practice or revealed days)",
            "security": AUTH, "parameters": [GAME_ID],
            "responses": {"200": _json(_obj(["format", "total", "rating", "expected_loss"],
                                            format={"const": "daily-analysis/1"},
                                            total={"type": "integer"},
                                            rating={"type": "number"},
                                            expected_loss={"type": "number"}), "The analysis"),
                          **_errors(401, 403, 404, 409, 503)}}},
        "/api/v1/results/{code}": {"get": {
            "summary": "A shared result", "parameters": [_path_param(
                "code", {"type": "string", "maxLength": 40}, "DD- and up to 12 characters")],
            "responses": {"200": _json(_ref("Result"), "OK"), **_errors(404, 422)}}},
        "/api/v1/challenges": {"post": {
            "summary": "Make a friend challenge", "security": AUTH,
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "properties": {"code": {"type": "string", "maxLength": 40},
                                                 "ruleset": ruleset_name,
                                                 "options": {"type": "object"}}}),
            "responses": {"201": _json(_obj(["code", "url"], code={"type": "string"},
                                            url={"type": "string"}), "Made"),
                          **_errors(400, 401, 404, 413, 422)}}},
        "/api/v1/challenges/{code}": {"get": {
            "summary": "A challenge's entries (and the comparison once yours is finished)",
            "security": OPTIONAL_AUTH, "parameters": [_path_param(
                "code", {"type": "string", "maxLength": 40}, "CH-... or a result code DD-...")],
            "responses": {"200": _json(_ref("Challenge"), "OK"), **_errors(401, 404, 422)}}},
        "/api/v1/groups": {
            "get": {"summary": "Your groups", "security": AUTH,
                    "responses": {"200": _json(_obj(["groups"], groups={"type": "array"}), "OK"),
                                  **_errors(401)}},
            "post": {"summary": "Create a group", "security": AUTH,
                     "requestBody": _body({"type": "object", "additionalProperties": False,
                                           "required": ["name"], "properties": {"name": {
                                               "type": "string", "maxLength": 40}}}),
                     "responses": {"201": _json(_ref("Group"), "Created"),
                                   **_errors(400, 401, 409, 413, 422)}},
        },
        "/api/v1/groups/{code}": {"get": {
            "summary": "A group's boards of a day, the week's standings and streaks",
            "security": AUTH, "parameters": [
                group_code, {"name": "date", "in": "query", "required": False, "schema": DATE}],
            "responses": {"200": _json(_obj(["code", "name", "members", "date", "boards",
                                             "week", "streaks"]), "OK"),
                          **_errors(401, 403, 404, 422)}}},
        "/api/v1/groups/{code}/members": {"post": {
            "summary": "Join a group", "security": AUTH, "parameters": [group_code],
            "responses": {"200": _json(_ref("Group"), "Joined"),
                          **_errors(400, 401, 404, 409, 413, 422)}}},
        "/api/v1/groups/{code}/members/me": {"delete": {
            "summary": "Leave a group", "security": AUTH, "parameters": [group_code],
            "responses": {"204": {"description": "Left"}, **_errors(401, 404, 422)}}},
        "/api/v1/leaderboards/{date}/{ruleset}": {"get": {
            "summary": "A day set's board", "security": OPTIONAL_AUTH,
            "parameters": [
                _path_param("date", DATE, "YYYY-MM-DD"),
                _path_param("ruleset", ruleset_name, "A daily ruleset"),
                {"name": "limit", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
            ],
            "responses": {"200": _json(_ref("Leaderboard"), "OK"), **_errors(401, 404, 422)}}},
        "/api/v1/days/{date}/{ruleset}": {"get": {
            "summary": "A signed day descriptor",
            "parameters": [_path_param("date", DATE, "YYYY-MM-DD"),
                           _path_param("ruleset", ruleset_name, "A daily ruleset")],
            "responses": {"200": _json(_ref("Day"), "OK"), **_errors(404, 422, 503)}}},
        "/api/v1/days": {"get": {
            "summary": "Descriptors of a range of dates (at most 31)",
            "parameters": [
                {"name": "from", "in": "query", "required": False, "schema": DATE},
                {"name": "to", "in": "query", "required": False, "schema": DATE},
                {"name": "ruleset", "in": "query", "required": False,
                 "schema": {"type": "string"}},
            ],
            "responses": {"200": _json(_obj(["days"], days={"type": "array",
                                                            "items": _ref("Day")}), "OK"),
                          **_errors(404, 422, 503)}}},
        "/api/v1/keys": {"get": {
            "summary": "Public keys that verify descriptors",
            "responses": {"200": _json(_obj(["keys"], keys={"type": "array", "items": _obj(
                ["id", "algorithm", "public_key", "active"], id={"type": "string"},
                algorithm={"const": "Ed25519"}, public_key={"type": "string"},
                created={"type": ["string", "null"]}, active={"type": "boolean"})}), "OK"),
                **_errors(503)}}},
    }


def openapi_document(server_url: str) -> dict[str, Any]:
    """The whole document, with ``server_url`` as the server."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Daily Dice API", "version": "1.0.0",
            "description": "The same dice for everyone, every day. See docs/api.md.",
        },
        "servers": [{"url": server_url}],
        "paths": _paths(),
        "components": {
            "schemas": _schemas(),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
