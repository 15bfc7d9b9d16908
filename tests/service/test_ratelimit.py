"""The rate limiter on a real Redis: budgets per verified player or address, the
address ceiling, Retry-After, each limit off, fail-open."""

from __future__ import annotations

import pytest
import redis

from daily.service.config import ConfigError, load_config
from daily.service.limits import Limit, RateLimiter, parse_limit, parse_limits

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


def test_verified_players_and_addresses_have_budgets_of_their_own(redis_client):
    limiter = RateLimiter(redis_client, "trl:", parse_limits("3/minute", "2/minute", "8/minute"))
    assert [limiter.check("1.2.3.4", "p_ada", "write") for _ in range(3)] == [None] * 3
    refusal = limiter.check("1.2.3.4", "p_ada", "write")
    assert refusal is not None and 1 <= refusal.retry_after <= 60
    assert refusal.message == "3 write requests per 1 minute per player"
    # Ada from another address is over her own limit; her reads are not; an anonymous
    # request from her address spends the address's budget, not hers.
    assert limiter.check("5.6.7.8", "p_ada", "write") is not None
    assert limiter.check("5.6.7.8", "p_ada", "read") is None
    assert limiter.check("1.2.3.4", None, "write") is None
    assert limiter.check("1.2.3.4", "p_bob", "write") is None
    # Everything 1.2.3.4 was allowed counts against its ceiling: 3 + 1 + 1 so far.
    assert [limiter.check("1.2.3.4", "p_cy", "read") for _ in range(2)] == [None, None]
    assert limiter.check("1.2.3.4", "p_cy", "write") is None
    ceiling = limiter.check("1.2.3.4", "p_dee", "read")
    assert ceiling is not None and ceiling.message == "8 requests per 1 minute per address"
    assert 0 < redis_client.ttl("trl:rl:all:ip:1.2.3.4") <= 60
    assert redis_client.get("trl:rl:write:player:p_ada") == b"5"


def test_each_limit_can_be_off(redis_client):
    no_ceiling = RateLimiter(redis_client, "trl:", parse_limits("1/minute", "off", "off"))
    assert all(no_ceiling.check("1.2.3.4", None, "read") is None for _ in range(10))
    assert no_ceiling.check("1.2.3.4", None, "write") is None
    assert no_ceiling.check("1.2.3.4", None, "write") is not None
    assert redis_client.keys("trl:rl:all:*") == [] and redis_client.keys("trl:rl:read:*") == []


def test_off_counts_nothing(redis_client):
    limiter = RateLimiter(redis_client, "trl:", parse_limits("off", "1/minute", "1/minute"))
    assert limiter.limits.off
    assert all(limiter.check("1.2.3.4", "p_ada", "write") is None for _ in range(10))
    assert redis_client.keys("trl:*") == []


def test_redis_down_lets_requests_through(caplog):
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    limiter = RateLimiter(dead, "trl:", parse_limits("1/minute", "1/minute", "1/minute"))
    assert limiter.check("1.2.3.4", None, "read") is None
    assert "rate limit not checked" in caplog.text


def test_bad_settings_name_their_variable():
    with pytest.raises(ConfigError, match="DAILY_RATE_LIMIT_READS"):
        parse_limits("1/minute", "lots", "off")
    with pytest.raises(ConfigError, match="DAILY_RATE_LIMIT_IP"):
        parse_limits("1/minute", "off", "0/minute")


def test_a_bad_trusted_proxies_value_is_refused() -> None:
    with pytest.raises(ValueError, match="DAILY_TRUSTED_PROXIES: must be a whole number"):
        load_config({"DAILY_TRUSTED_PROXIES": "lots"})
