"""The rate limiter on a real Redis: both scopes in one call, Retry-After, fail-open."""

from __future__ import annotations

import pytest
import redis

from daily.service.config import ConfigError
from daily.service.ratelimit import Limit, RateLimiter, parse_limit

pytestmark = pytest.mark.redis


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("600/minute", Limit(600, 60, "600 per 1 minute")),
        ("5 per second", Limit(5, 1, "5 per 1 second")),
        ("100 per 2 hours", Limit(100, 7200, "100 per 2 hours")),
        ("1/day", Limit(1, 86400, "1 per 1 day")),
        ("OFF", None),
    ],
)
def test_limits_parse(text, expected):
    assert parse_limit(text) == expected


@pytest.mark.parametrize("text", ["", "600", "0/minute", "ten/minute", "5/fortnight"])
def test_bad_limits_name_the_variable(text):
    with pytest.raises(ConfigError, match="DAILY_RATE_LIMIT"):
        parse_limit(text)


def test_ip_and_player_are_counted_together(redis_client):
    limiter = RateLimiter(redis_client, "trl:", parse_limit("3/minute"))
    assert [limiter.retry_after("1.2.3.4", "p_ada") for _ in range(3)] == [None] * 3
    wait = limiter.retry_after("1.2.3.4", None)
    assert wait is not None and 1 <= wait <= 60
    # Ada from another address is over her own limit; a newcomer there is not.
    assert limiter.retry_after("5.6.7.8", "p_ada") is not None
    assert limiter.retry_after("9.9.9.9", "p_bob") is None
    assert redis_client.ttl("trl:rl:ip:1.2.3.4") > 0


def test_off_counts_nothing(redis_client):
    limiter = RateLimiter(redis_client, "trl:", None)
    assert all(limiter.retry_after("1.2.3.4", "p_ada") is None for _ in range(10))
    assert redis_client.keys("trl:*") == []


def test_redis_down_lets_requests_through(caplog):
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    limiter = RateLimiter(dead, "trl:", parse_limit("1/minute"))
    assert limiter.retry_after("1.2.3.4", None) is None
    assert "rate limit not checked" in caplog.text
