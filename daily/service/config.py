"""Service configuration, read from the environment with safe embedded defaults.

Nothing secret has a default: the master seed secret and the signing key come from
files in the data directory (created by ``daily keys init``), from files named by
``DAILY_MASTER_SECRET_FILE`` / ``DAILY_SIGNING_KEY_FILE``, or from the environment
(``DAILY_MASTER_SECRET`` as hex).

| variable | meaning | default |
|---|---|---|
| ``DAILY_DATA_DIR`` | keys, archives, strategy tables, embedded Redis files | ``./var`` |
| ``REDIS_URL`` | Redis to use; unset means start the embedded server | unset |
| ``DAILY_KEY_PREFIX`` | prefix of every Redis key (lets tests and tenants share a DB) | ``dd:`` |
| ``DAILY_PUBLIC_URL`` | base URL used in share texts and links | ``http://127.0.0.1:8000`` |
| ``DAILY_RULESETS`` | the daily sets, comma separated | ``yahtzee,maxi-yatzy`` |
| ``DAILY_MAX_BODY`` | request body limit in bytes | ``65536`` |
| ``DAILY_RATE_LIMIT`` | limit per IP and per player (``N/unit``, ``off``) | ``600/minute`` |
| ``DAILY_HOST`` / ``DAILY_PORT`` | where ``daily serve`` listens | ``127.0.0.1`` / ``8000`` |
| ``DAILY_TRUSTED_PROXIES`` | reverse proxies in front of the app (0..5) | ``0`` |
| ``DAILY_ROLLOVER_INTERVAL`` | seconds between rollover runs (1..3600) | ``60`` |
| ``DAILY_PAR_JOBS`` | ``off`` skips the par job at rollover | ``on`` |
| ``DAILY_REDIS_CLUSTER`` | ``on``: ``REDIS_URL`` is a cluster node (docs/deploy.md) | ``off`` |
| ``DAILY_QUEUE_REDIS_URL`` | standalone Redis of RQ (needed with a cluster) | ``REDIS_URL`` |
| ``DAILY_MASTER_SECRET`` | master seed secret as hex (production) | unset |
| ``DAILY_MASTER_SECRET_FILE`` | file holding it | ``<data>/keys/master.secret`` |
| ``DAILY_SIGNING_KEY_FILE`` | current Ed25519 private key (PEM) | in ``<data>/keys/`` |

>>> cfg = load_config({"DAILY_DATA_DIR": "/tmp/dd", "DAILY_RULESETS": "yahtzee"})
>>> cfg.data_dir.as_posix(), cfg.redis_url, cfg.daily_rulesets
('/tmp/dd', None, ('yahtzee',))
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from daily.errors import DailyError
from daily.rules import canonical_name


class ConfigError(DailyError):
    """A configuration value that cannot be used."""


@dataclass(frozen=True)
class Config:
    """The service settings. Secrets are not held here, only where to find them."""

    data_dir: Path
    redis_url: str | None
    key_prefix: str
    public_url: str
    daily_rulesets: tuple[str, ...]
    max_body: int
    rate_limit: str
    host: str
    port: int
    trusted_proxies: int
    rollover_interval: int
    par_jobs: bool
    master_secret_hex: str | None
    master_secret_file: Path | None
    signing_key_file: Path | None
    #: ``DAILY_REDIS_CLUSTER=on``: ``REDIS_URL`` names a node of a Redis/Valkey Cluster.
    redis_cluster: bool = False
    #: ``DAILY_QUEUE_REDIS_URL``: the standalone Redis of the RQ queues (default REDIS_URL).
    queue_redis_url: str | None = None

    def __repr__(self) -> str:  # never print a secret
        return (
            f"Config(data_dir={self.data_dir!s}, redis_url={'set' if self.redis_url else None},"
            f" key_prefix={self.key_prefix!r})"
        )

    @property
    def keys_dir(self) -> Path:
        """Where ``daily keys init`` keeps the secrets."""
        return self.data_dir / "keys"

    @property
    def archive_dir(self) -> Path:
        """Where closed days are archived as JSON lines."""
        return self.data_dir / "archive"

    @property
    def tables_dir(self) -> Path:
        """Where strategy tables are stored."""
        return self.data_dir / "tables"

    def with_overrides(self, **changes: Any) -> Config:
        """A copy with some fields replaced (for tests)."""
        return replace(self, **changes)


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"must be a whole number, not {raw!r}", field=name) from None
    if not low <= value <= high:
        raise ConfigError(f"must be between {low} and {high}, not {value}", field=name)
    return value


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in ("on", "1", "yes", "true"):
        return True
    if raw in ("off", "0", "no", "false"):
        return False
    raise ConfigError(f"must be on or off, not {raw!r}", field=name)


def _path(env: Mapping[str, str], name: str) -> Path | None:
    raw = env.get(name)
    return Path(raw) if raw else None


def load_config(env: Mapping[str, str] | None = None) -> Config:
    """Read the configuration from ``env`` (default: ``os.environ``).

    >>> load_config({"DAILY_PORT": "http"})
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_PORT: must be a whole number, not 'http'
    """
    env = os.environ if env is None else env
    rulesets_raw = env.get("DAILY_RULESETS", "yahtzee,maxi-yatzy")
    try:
        rulesets = tuple(canonical_name(r.strip()) for r in rulesets_raw.split(",") if r.strip())
    except DailyError as exc:
        raise ConfigError(exc.message, field="DAILY_RULESETS") from None
    if not rulesets:
        raise ConfigError("names no ruleset", field="DAILY_RULESETS")
    prefix = env.get("DAILY_KEY_PREFIX", "dd:")
    if not prefix or any(c.isspace() for c in prefix):
        raise ConfigError("must be non-empty, without spaces", field="DAILY_KEY_PREFIX")
    return Config(
        data_dir=Path(env.get("DAILY_DATA_DIR") or "var"),
        redis_url=env.get("REDIS_URL") or None,
        key_prefix=prefix,
        public_url=(env.get("DAILY_PUBLIC_URL") or "http://127.0.0.1:8000").rstrip("/"),
        daily_rulesets=rulesets,
        max_body=_int(env, "DAILY_MAX_BODY", 65536, 1024, 16 * 1024 * 1024),
        rate_limit=env.get("DAILY_RATE_LIMIT") or "600/minute",
        host=env.get("DAILY_HOST") or "127.0.0.1",
        port=_int(env, "DAILY_PORT", 8000, 1, 65535),
        trusted_proxies=_int(env, "DAILY_TRUSTED_PROXIES", 0, 0, 5),
        rollover_interval=_int(env, "DAILY_ROLLOVER_INTERVAL", 60, 1, 3600),
        par_jobs=_switch(env, "DAILY_PAR_JOBS", True),
        master_secret_hex=env.get("DAILY_MASTER_SECRET") or None,
        master_secret_file=_path(env, "DAILY_MASTER_SECRET_FILE"),
        signing_key_file=_path(env, "DAILY_SIGNING_KEY_FILE"),
        redis_cluster=_switch(env, "DAILY_REDIS_CLUSTER", False),
        queue_redis_url=env.get("DAILY_QUEUE_REDIS_URL") or None,
    )
