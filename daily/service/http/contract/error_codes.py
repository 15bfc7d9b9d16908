"""Every error code the API can answer, with its status and when (``docs/api.md``).

The web client has a message in English and Italian for each of them
(``daily/web/static/i18n.js``; ``tests/web/test_errors_i18n.py`` checks both, and that
no code raised anywhere in the service is missing here), so a player always reads what
happened and what to do, never the API's English ``message``.

>>> ERROR_CODES["bad_group_code"].status, ERROR_CODES["unknown_group"].status
(422, 404)
"""

from __future__ import annotations

from typing import NamedTuple


class ErrorCode(NamedTuple):
    """The status an error code comes with, and when it is answered."""

    status: int
    when: str


ERROR_CODES: dict[str, ErrorCode] = {
    "bad_request": ErrorCode(400, "the body is not JSON, not an object or nested too deep; "
                                  "a request gunicorn cannot read"),
    "unauthorized": ErrorCode(401, "missing, malformed or unknown token"),
    "forbidden": ErrorCode(403, "another player's game; hints or analysis of a ranked "
                                "game while its day is open"),
    "not_in_group": ErrorCode(403, "a group's boards for a player who is not in it (404 "
                                   "when leaving a group one is not in)"),
    "not_found": ErrorCode(404, "unknown game, route, or a ruleset without a daily set"),
    "unknown_result": ErrorCode(404, "no finished game has this result code"),
    "unknown_challenge": ErrorCode(404, "no challenge has this code"),
    "unknown_group": ErrorCode(404, "no group has this code"),
    "not_in_log": ErrorCode(404, "a practice result, or a ranked one missing from its day's "
                                 "results log"),
    "no_such_head": ErrorCode(404, "no signed head of the day's log has that many leaves"),
    "method_not_allowed": ErrorCode(405, "the route does not take this method"),
    "already_ranked": ErrorCode(409, "your ranked game of that date and ruleset is over"),
    "day_not_open": ErrorCode(409, "a ranked start on a date not open, or a move in a "
                                   "ranked game whose day has closed"),
    "day_not_revealed": ErrorCode(409, "practice on the dice of a day not revealed yet"),
    "log_not_sealed": ErrorCode(409, "the day's results log before its close (with "
                                     "available_at)"),
    "illegal_move": ErrorCode(409, "a well-formed move the rules forbid here (with why)"),
    "game_over": ErrorCode(409, "a move in a game that is over"),
    "log_mismatch": ErrorCode(409, "a submitted log differs from what the game recorded"),
    "not_revealed": ErrorCode(409, "a submitted log goes past the dice shown"),
    "invalid_log": ErrorCode(409, "a submitted log its ruleset cannot read"),
    "log_unfinished": ErrorCode(409, "a submitted log that does not fill every box"),
    "conflict": ErrorCode(409, "the game changed meanwhile; a token rotated meanwhile"),
    "stale_position": ErrorCode(409, "the move names a position no longer current"),
    "opponents_unavailable": ErrorCode(409, "computer opponents asked for where none can "
                                            "play"),
    "group_full": ErrorCode(409, "the group has its most members"),
    "too_many_groups": ErrorCode(409, "the player is in the most groups a player may be in"),
    "too_large": ErrorCode(413, "body over the limit"),
    "uri_too_long": ErrorCode(414, "request line too long (gunicorn)"),
    "unsupported_media_type": ErrorCode(415, "a body that is not JSON"),
    "expectation_failed": ErrorCode(417, "an Expect header gunicorn refuses"),
    "headers_too_large": ErrorCode(431, "a header too long or too many (gunicorn)"),
    "invalid_field": ErrorCode(422, "the request does not match the document"),
    "bad_name": ErrorCode(422, "a player's name not of 1 to 24 characters, or with control "
                               "or format characters"),
    "bad_group_name": ErrorCode(422, "a group name not of 1 to 40 characters"),
    "bad_group_code": ErrorCode(422, "a group code not in its form (G- and 6 characters)"),
    "bad_challenge_code": ErrorCode(422, "a challenge code not in its form (CH- and 8 "
                                         "characters) nor a result code"),
    "bad_result_code": ErrorCode(422, "a result code not in its form (DD- and 10 "
                                      "characters)"),
    "pow_required": ErrorCode(422, "a new player needs a proof-of-work"),
    "pow_wrong": ErrorCode(422, "the proof-of-work lacks the asked zero bits"),
    "pow_stale": ErrorCode(422, "the proof-of-work's challenge is unknown, used or expired"),
    "rate_limited": ErrorCode(429, "too many requests (with Retry-After)"),
    "too_many_players": ErrorCode(429, "too many new players from this address or network"),
    # passkeys (daily.service.players.passkeys)
    "passkey_ticket_stale": ErrorCode(409, "a passkey ceremony's ticket unknown, used already "
                                           "(a replayed challenge) or expired"),
    "passkey_challenge": ErrorCode(422, "the passkey signed another challenge than its "
                                        "ticket's"),
    "passkey_origin": ErrorCode(422, "the passkey was made or used on another origin"),
    "passkey_rp_id": ErrorCode(422, "the passkey is for another relying-party id"),
    "passkey_malformed": ErrorCode(422, "a part of the passkey's credential cannot be read"),
    "passkey_invalid": ErrorCode(422, "the passkey's credential does not verify (signature, "
                                      "flags, algorithm)"),
    "unknown_passkey": ErrorCode(404, "no player has this passkey, or you have none with "
                                      "this id"),
    "passkey_counter": ErrorCode(409, "the passkey's sign counter did not go up"),
    "passkey_exists": ErrorCode(409, "the passkey is registered already"),
    "too_many_passkeys": ErrorCode(409, "the player has the most passkeys a player may have"),
    # reminders (daily.service.reminders)
    "push_service_refused": ErrorCode(403, "a reminder subscription whose endpoint is not on "
                                           "a push service the server sends to"),
    "internal": ErrorCode(500, "a bug; the traceback goes to the log"),
    "not_implemented": ErrorCode(501, "a method gunicorn does not know"),
    "unavailable": ErrorCode(503, "Redis unavailable, keys not set up, a strategy table not "
                                  "built yet"),
    "table_not_ready": ErrorCode(503, "a hint or analysis whose strategy table is being "
                                      "built or missing (with the table's state)"),
    "error": ErrorCode(0, "any other HTTP status (none is expected)"),
}
