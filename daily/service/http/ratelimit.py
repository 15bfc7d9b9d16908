"""The rate limits' Flask hook: every request counted, with its verified identity.

:func:`install_rate_limits` counts every request in a Flask hook (the arithmetic and
its Lua are :mod:`daily.service.limits`), with the identity the request's token
verifies (checked once per request, before the limits are counted); past a limit the
answer is 429 with ``Retry-After``. A game move, a hint, a ranked start and (one-call
creations) a new player do not count in a call of their own: the hook leaves their
counters with the request, the view takes them with :func:`counters_to_fold` and hands
them to the service, whose Redis script spends them in the same call; a request that
never reaches its script (refused before it: 401, 422, a move refused on the process's
copy) spends them once its answer is ready, and gets 429 instead when over a limit.

>>> too_many_requests(Refusal(9, "600 per 1 minute")).code
429
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import redis
from flask import Flask, Response, g, has_app_context, request
from werkzeug.exceptions import TooManyRequests

from daily.service.extensions import current
from daily.service.http.error_handlers import ApiError, handle_http_error
from daily.service.http.parsing import bearer_token, verified_player
from daily.service.limits import Pending, RateLimiter, Refusal, request_kind

log = logging.getLogger(__name__)


def too_many_requests(refusal: Refusal) -> TooManyRequests:
    """The 429 of a request over a rate limit (counted by the hook, not a script).

    >>> too_many_requests(Refusal(9, "600 per 1 minute")).retry_after
    9
    """
    return TooManyRequests(refusal.message, retry_after=refusal.retry_after)


#: Where the hook leaves a request's counters for its script (in Flask's ``g``).
_FOLDED = "daily_rate_counters"


def fold_into_script(pending: Pending | None) -> None:
    """Leave ``pending``, the counters of the request being served, to the Redis script
    the request makes (:func:`counters_to_fold`); the hook spends them after the answer
    if no script took them."""
    setattr(g, _FOLDED, pending)


def counters_to_fold() -> Pending | None:
    """The rate-limit counters of the request being served that its Redis script is to
    spend in the same call, unless spent already (``None`` outside a request, on a
    cluster, or for a request whose hook counted it). The script's caller marks them
    ``spent`` once the script answered.

    >>> counters_to_fold() is None
    True
    """
    if not has_app_context():
        return None
    pending: Pending | None = g.get(_FOLDED)
    return pending if pending is not None and not pending.spent else None


def spend_folded_now() -> None:
    """Spend this request's folded counters now, if its script has not (429 when over
    a limit): for a request that writes before any such script (a practice start, a
    challenge's), so that a refused request has changed nothing."""
    pending = counters_to_fold()
    if pending is None:
        return
    refusal = current(RateLimiter).spend(pending)
    if refusal is not None:
        raise too_many_requests(refusal)


def _verified_id() -> str | None:
    """The id of the player whose token this request carries, if the token checks out.

    A malformed header or an unknown token gives ``None`` here (the request is then
    counted against its IP); the view answers 401 if it needs a player.
    """
    try:
        token = bearer_token()
        player = verified_player(token) if token is not None else None
    except ApiError:
        return None
    except redis.RedisError as exc:
        log.warning("token not checked for the rate limit, Redis failed: %s", exc)
        return None
    return player.id if player is not None else None


def install_rate_limits(
    app: Flask, limiter: RateLimiter, *, unlimited: Iterable[str], folded: Iterable[str],
) -> None:
    """Count every request of ``app`` but those of the ``unlimited`` endpoints (probes,
    scrapers, static files); leave the counters of the ``folded`` endpoints to the
    request's script (:func:`counters_to_fold`) on a single server, and spend them after
    the answer when no script took them. ``RATELIMIT_ENABLED`` false in the app's config
    (tests) switches the limits off.

    >>> from daily.service.limits import parse_limits
    >>> app = Flask(__name__)
    >>> limiter = RateLimiter(redis.Redis(), "dd:", parse_limits("off", "off", "off"))
    >>> install_rate_limits(app, limiter, unlimited=(), folded=())  # off: no hook at all
    >>> dict(app.before_request_funcs)
    {}
    """
    if limiter.limits.off:
        return
    skip = frozenset(unlimited)
    fold = frozenset(() if limiter.cluster else folded)
    config = app.config

    @app.before_request
    def _rate_limit() -> None:
        if not config.get("RATELIMIT_ENABLED", True):
            return
        req = request._get_current_object()  # type: ignore[attr-defined]
        endpoint = req.endpoint
        if endpoint in skip:
            return
        ip = req.remote_addr or "unknown"
        kind = request_kind(req.method)
        if endpoint in fold:
            fold_into_script(limiter.pending(ip, _verified_id(), kind))
            return
        refusal = limiter.check(ip, _verified_id(), kind)
        if refusal is not None:
            raise too_many_requests(refusal)

    @app.after_request
    def _spend_unspent(response: Response) -> Response:
        pending = counters_to_fold()
        if pending is None:
            return response
        refusal = limiter.spend(pending)
        if refusal is None:
            return response
        return handle_http_error(too_many_requests(refusal))
