"""Service configuration, read from the environment with safe embedded defaults.

This module's tables are the one list of the environment variables Daily Dice reads;
``docs/deploy.md`` shows them as rendered by :func:`environment_table`
(``python tools/render_env_table.py`` rewrites that copy, and a test fails when the two
differ or when :func:`load_config` reads a variable the table does not list).

Nothing secret has a default: the master seed secret and the signing key come from
files in the data directory (created by ``daily keys init``), from files named by
``DAILY_MASTER_SECRET_FILE`` / ``DAILY_SIGNING_KEY_FILE``, or from the environment
(``DAILY_MASTER_SECRET`` as hex).

| variable | meaning | default |
|---|---|---|
| ``DAILY_DATA_DIR`` | keys, archives, strategy tables, embedded Redis files | ``./var`` |
| ``REDIS_URL`` | Redis to use; unset means start the embedded server | unset |
| ``DAILY_KEY_PREFIX`` | prefix of every Redis key (lets tests and tenants share a DB) | ``dd:`` |
| ``DAILY_PUBLIC_URL`` | base URL of share texts and links | the request's host |
| ``DAILY_PASSKEY_ORIGIN`` | origin of passkey ceremonies (``https://host``) | the public URL |
| ``DAILY_PASSKEY_RP_ID`` | passkeys' relying-party id: that host or a parent | the origin's host |
| ``DAILY_RULESETS`` | daily sets; ``sun:a/b`` adds a weekly special | ``yahtzee,maxi-yatzy`` |
| ``DAILY_MAX_BODY`` | request body limit in bytes (1024..16 MiB) | ``65536`` |
| ``DAILY_RATE_LIMIT`` | writes per verified player, else per IP (``off``: none) | ``600/minute`` |
| ``DAILY_RATE_LIMIT_READS`` | reads (GET) per verified player, else per IP | ``1200/minute`` |
| ``DAILY_RATE_LIMIT_IP`` | every request from one IP, verified or not | ``6000/minute`` |
| ``DAILY_AUTH_CACHE_SECONDS`` | a process trusts a token it checked this long (0..60) | ``2`` |
| ``DAILY_PLAYER_DAYS`` | days an unused player is kept (each day of use restarts it) | ``180`` |
| ``DAILY_RANKED_DAYS`` | days ranked games and codes stay after their day closes | ``400`` |
| ``DAILY_PROVISIONAL_DAYS`` | days of play before a player is on the public top | ``7`` |
| ``DAILY_PUBLIC_TOP_REQUIRES_PASSKEY`` | the public top needs a passkey (``off``: none) | ``on`` |
| ``DAILY_HSTS`` | ``on``: HSTS on every answer (else only on https requests) | ``off`` |
| ``DAILY_PLAYER_LIMIT`` | new players per IP (``N/unit``, ``off``) | ``30/hour`` (1) |
| ``DAILY_PLAYER_NET_LIMIT`` | new players per /24 (IPv4) or /48 (IPv6) | ``300/hour`` (1) |
| ``DAILY_PLAYER_POW_BITS`` | proof-of-work for a new player, 0 (none) to 26 bits | ``0`` |
| ``DAILY_FAIRPLAY_RULESETS`` | rulesets checked for fair play (2) | every ruleset |
| ``DAILY_FAIRPLAY_CEILING_ONLY`` | of those, checked for a ceiling score only | ``off`` |
| ``DAILY_RECHECK_TOP`` | places of the final top checked again at the close (0..100) | ``10`` |
| ``DAILY_HOST`` / ``DAILY_PORT`` | where ``daily serve`` listens | ``127.0.0.1`` / ``8000`` |
| ``DAILY_TRUSTED_PROXIES`` | reverse proxies in front of the app (0..5; 1 behind nginx) | ``0`` |
| ``DAILY_ROLLOVER_INTERVAL`` | seconds between rollover runs (1..3600) | ``60`` |
| ``DAILY_PAR_JOBS`` | ``off`` skips the par and ceiling jobs at rollover | ``on`` |
| ``DAILY_TABLES_DIR`` | where the strategy tables are | ``<data>/tables`` |
| ``DAILY_TABLES_AT_START`` | tables ``daily serve`` builds first, if missing | ``yahtzee,yatzy`` |
| ``DAILY_TABLES_IN_BACKGROUND`` | tables it builds after the start | ``maxi-yatzy`` |
| ``DAILY_WARM_AT_START`` | ``off``: web workers do not warm the strategy engine at start | ``on`` |
| ``DAILY_DEMO_CLOCK`` | ``REAL,VIRTUAL,MINUTES``, set by ``serve --demo-day-minutes`` | unset |
| ``DAILY_REDIS_CLUSTER`` | ``on``: ``REDIS_URL`` is a cluster node (docs/deploy.md) | ``off`` |
| ``DAILY_QUEUE_REDIS_URL`` | standalone Redis of RQ (needed with a cluster) | ``REDIS_URL`` |
| ``DAILY_MASTER_SECRET`` | master seed secret as hex (production) | unset |
| ``DAILY_MASTER_SECRET_FILE`` | file holding it | ``<data>/keys/master.secret`` |
| ``DAILY_SIGNING_KEY_FILE`` | current Ed25519 private key (PEM) | in ``<data>/keys/`` |
| ``DAILY_RESULTS_KEY_FILE`` | current results key (receipts, heads; PEM) | in ``<data>/keys/`` |
| ``DAILY_WITNESSES`` | witnesses that cosign checkpoints: ``VKEY URL``, comma-separated | none |
| ``DAILY_VAPID_KEY_FILE`` | VAPID key of Web Push reminders (P-256, PEM) | in ``<data>/keys/`` |
| ``DAILY_PUSH_SERVICES`` | push services reminders go to (origins; ``*.``: subdomains) | (3) |
| ``DAILY_PUSH_CONTACT`` | VAPID contact of reminders (``mailto:`` or ``https:`` URL) | public URL |
| ``DAILY_PUSH_DAYS`` | days a reminder subscription is kept after its last renewal | ``60`` |
| ``DAILY_REMINDER_INTERVAL`` | seconds between runs of the reminders job (10..3600) | ``300`` |

(1) ``off`` when ``DAILY_RATE_LIMIT`` is ``off``, unless set.

(3) ``https://fcm.googleapis.com``, ``https://*.push.services.mozilla.com``,
``https://*.notify.windows.com`` and ``https://*.push.apple.com``: a subscription whose
endpoint is elsewhere is refused, so the server never posts to an address a client chose.

Read by the web server rather than by :func:`load_config`: the ``GUNICORN_`` ones by
``deploy/gunicorn.conf.py`` only (``daily serve`` takes ``--web-workers`` instead), the
metrics directory by both:

| variable | meaning | default |
|---|---|---|
| ``PROMETHEUS_MULTIPROC_DIR`` | empty directory of workers' metrics | ``<data>/metrics`` (serve) |
| ``GUNICORN_BIND`` | address of ``deploy/gunicorn.conf.py`` | ``127.0.0.1:8000`` |
| ``GUNICORN_WORKERS`` | worker processes | one per core |
| ``GUNICORN_WORKER_CLASS`` | gunicorn's worker class | ``gthread`` |
| ``GUNICORN_THREADS`` | threads per worker | ``4`` (gthread), else ``1`` |
| ``GUNICORN_FORWARDED_ALLOW_IPS`` | peers whose ``X-Forwarded-*`` it believes | ``127.0.0.1`` |
| ``GUNICORN_ACCESSLOG`` | access log (``-``: standard output) | none |
| ``GUNICORN_LOGLEVEL`` | gunicorn's log level | ``info`` |

The new-player limits are ``off`` by default when ``DAILY_RATE_LIMIT`` is ``off``:

>>> [load_config(env).player_limit for env in
...  ({}, {"DAILY_RATE_LIMIT": "off"}, {"DAILY_RATE_LIMIT": "off", "DAILY_PLAYER_LIMIT": "9/hour"})]
['30/hour', 'off', '9/hour']

(2) Every ranked ruleset must be checked: a configuration that ranks a ruleset no
fair-play check covers (:mod:`daily.fairplay.coverage`) is refused, naming it:

>>> env = {"DAILY_RULESETS": "yahtzee,sun:generala", "DAILY_FAIRPLAY_RULESETS": "yahtzee"}
>>> try:
...     load_config(env)
... except ConfigError as exc:
...     print(exc.field, "|", exc.message[:52])
DAILY_FAIRPLAY_RULESETS | ranks generala, which no fair-play check covers: add

>>> cfg = load_config({"DAILY_DATA_DIR": "/tmp/dd", "DAILY_RULESETS": "yahtzee"})
>>> cfg.data_dir.as_posix(), cfg.redis_url, cfg.daily_rulesets
('/tmp/dd', None, ('yahtzee',))

The weekly special: an item ``<weekday>:<ruleset>/<ruleset>/...`` adds a third set on
that day of the week, rotating through the rulesets one week after the other (the
week count is the number of whole weeks since 1970-01-01, modulo the list):

>>> cfg = load_config({"DAILY_RULESETS": "yahtzee,maxi-yatzy,sun:yatzy/yacht/generala/triple"})
>>> import datetime as dt
>>> cfg.rulesets_on(dt.date(2026, 11, 29)), cfg.rulesets_on(dt.date(2026, 12, 6))[-1]
(('yahtzee', 'maxi-yatzy', 'yacht'), 'generala')
>>> cfg.rulesets_on(dt.date(2026, 11, 30))
('yahtzee', 'maxi-yatzy')
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from daily.audit.c2sp.cosignature import parse_witness_vkey
from daily.audit.c2sp.note import NoteError
from daily.errors import DailyError
from daily.fairplay.coverage import CHECKS, uncovered
from daily.rules import canonical_name
from daily.service.clock import Clock, DemoClock, system_clock

#: The file that makes a data directory a demo's (written by ``daily serve --demo-...``).
DEMO_CLOCK_FILE = "clock"


class ConfigError(DailyError):
    """A configuration value that cannot be used."""


def environment_table() -> str:
    """The environment variables' tables of this module's docstring, as Markdown.

    ``docs/deploy.md`` holds this text between its ``env`` markers
    (``python tools/render_env_table.py`` writes it there).

    >>> table = environment_table()
    >>> table.splitlines()[:2]
    ['| variable | meaning | default |', '|---|---|---|']
    >>> "| `REDIS_URL` |" in table, "``" in table
    (True, False)
    """
    lines = (__doc__ or "").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| variable"))
    end = next(i for i, line in enumerate(lines) if line.startswith(">>>"))
    while not lines[end - 1].startswith("|"):
        end -= 1
    text = "\n".join(lines[start:end]).replace("``", "`")
    return re.sub(r":(?:func|mod|class):`~?([\w.]+)`", r"`\1`", text) + "\n"


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class WeeklySpecial:
    """A third daily set on one day of the week, rotating through some rulesets."""

    weekday: int  # 0 = Monday, as datetime.date.weekday()
    rotation: tuple[str, ...]

    def on(self, day: dt.date) -> str | None:
        """The special ruleset of ``day`` (``None`` on the other days of the week).

        >>> WeeklySpecial(6, ("yatzy", "yacht")).on(dt.date(2026, 11, 29))
        'yacht'
        """
        if day.weekday() != self.weekday:
            return None
        weeks = (day - dt.date(1970, 1, 1)).days // 7
        return self.rotation[weeks % len(self.rotation)]


@dataclass(frozen=True)
class Config:
    """The service settings. Secrets are not held here, only where to find them."""

    data_dir: Path
    redis_url: str | None
    key_prefix: str
    public_url: str | None
    daily_rulesets: tuple[str, ...]
    max_body: int
    rate_limit: str
    player_limit: str
    player_net_limit: str
    player_pow_bits: int
    fairplay_rulesets: tuple[str, ...]
    rate_limit_reads: str
    rate_limit_ip: str
    host: str
    port: int
    trusted_proxies: int
    player_days: int
    ranked_days: int
    hsts: bool
    rollover_interval: int
    par_jobs: bool
    master_secret_hex: str | None
    master_secret_file: Path | None
    signing_key_file: Path | None
    results_key_file: Path | None = None
    tables_at_start: tuple[str, ...] = ("yahtzee", "yatzy")
    tables_in_background: tuple[str, ...] = ("maxi-yatzy",)
    #: Web workers warm the strategy engine in the background as they start.
    warm_at_start: bool = True
    demo_clock: DemoClock | None = None
    tables_path: Path | None = None
    #: The weekly special (``None``: the same sets every day).
    weekly_special: WeeklySpecial | None = None
    #: ``DAILY_REDIS_CLUSTER=on``: ``REDIS_URL`` names a node of a Redis/Valkey Cluster.
    redis_cluster: bool = False
    #: Seconds a process trusts a token it has verified (the bound on how long a revoked
    #: or rotated token keeps working in the other processes).
    auth_cache_seconds: int = 2
    #: ``DAILY_QUEUE_REDIS_URL``: the standalone Redis of the RQ queues (default REDIS_URL).
    queue_redis_url: str | None = None
    #: ``DAILY_PROVISIONAL_DAYS``: a player is provisional (their games count for them but
    #: stay off the public top) until they have this many days of ranked play
    #: (:mod:`daily.service.players.standing`); 0: nobody is provisional.
    provisional_days: int = 7
    #: ``DAILY_PUBLIC_TOP_REQUIRES_PASSKEY``: standing on the public top also needs a passkey.
    public_top_requires_passkey: bool = True
    #: ``DAILY_FAIRPLAY_CEILING_ONLY``: checked rulesets held only for scoring the ceiling,
    #: even once their strategy table is built (the full test is not calibrated for them).
    fairplay_ceiling_only: tuple[str, ...] = ()
    #: ``DAILY_PASSKEY_ORIGIN``: the origin WebAuthn ceremonies happen on (``None``: the
    #: public URL, :func:`daily.service.publicurl.passkey_party`).
    passkey_origin: str | None = None
    #: ``DAILY_PASSKEY_RP_ID``: the relying-party id (``None``: the origin's host).
    passkey_rp_id: str | None = None
    #: ``DAILY_WITNESSES``: (cosignature/v1 vkey, base URL) of each witness the seal
    #: submits its checkpoints to.
    witnesses: tuple[tuple[str, str], ...] = ()
    #: ``DAILY_RECHECK_TOP``: how many places of the final public top the close-time
    #: re-check (:mod:`daily.service.review.recheck`) checks again (0: none).
    recheck_top: int = 10
    #: ``DAILY_VAPID_KEY_FILE``: the VAPID key of reminders (``None``: ``<keys>/vapid.key``).
    vapid_key_file: Path | None = None
    #: ``DAILY_PUSH_SERVICES``: the origins (scheme, host or ``*.`` suffix, port) that
    #: reminder subscriptions may name as their endpoint.
    push_services: tuple[str, ...] = ()
    #: ``DAILY_PUSH_CONTACT``: the VAPID ``sub`` claim (``None``: the public URL).
    push_contact: str | None = None
    #: ``DAILY_PUSH_DAYS``: a reminder subscription lives this long after its last renewal.
    push_days: int = 60
    #: ``DAILY_REMINDER_INTERVAL``: seconds between two runs of the reminders job.
    reminder_interval: int = 300

    def rulesets_on(self, day: dt.date) -> tuple[str, ...]:
        """The daily sets of ``day``: the everyday ones, plus the special on its day."""
        special = self.weekly_special.on(day) if self.weekly_special else None
        if special is None or special in self.daily_rulesets:
            return self.daily_rulesets
        return (*self.daily_rulesets, special)

    @property
    def all_daily_rulesets(self) -> tuple[str, ...]:
        """Every ruleset that has a daily set on some day."""
        rotation = self.weekly_special.rotation if self.weekly_special else ()
        return tuple(dict.fromkeys((*self.daily_rulesets, *rotation)))

    def __repr__(self) -> str:  # never print a secret
        return (
            f"Config(data_dir={self.data_dir!s}, redis_url={'set' if self.redis_url else None},"
            f" key_prefix={self.key_prefix!r})"
        )

    @property
    def clock(self) -> Clock:
        """The clock of the service: the demo clock if there is one, else UTC; every
        process reads the same one from the configuration, so the web server, the
        rollover and the par jobs agree on the time.

        >>> load_config({}).clock is system_clock
        True
        >>> demo = DemoClock.starting_now(2.0)
        >>> load_config({}).with_overrides(demo_clock=demo).clock is demo
        True
        """
        return self.demo_clock or system_clock

    @property
    def keys_dir(self) -> Path:
        """Where ``daily keys init`` keeps the secrets."""
        return self.data_dir / "keys"

    @property
    def archive_dir(self) -> Path:
        """Where closed days are archived as JSON lines."""
        return self.data_dir / "archive"

    @property
    def cards_dir(self) -> Path:
        """Where the link previews' PNG cards are kept once drawn (``daily.web.sharecard``)."""
        return self.data_dir / "cards"

    @property
    def tables_dir(self) -> Path:
        """Where strategy tables are stored (``DAILY_TABLES_DIR``, default ``<data>/tables``)."""
        return self.tables_path or self.data_dir / "tables"

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


def _names(env: Mapping[str, str], name: str, default: str) -> tuple[str, ...]:
    """Canonical ruleset names from a comma-separated variable ("" or "off": none)."""
    raw = env.get(name, default)
    if raw.strip().lower() == "off":
        return ()
    try:
        return tuple(canonical_name(r.strip()) for r in raw.split(",") if r.strip())
    except DailyError as exc:
        raise ConfigError(exc.message, field=name) from None
def _witnesses(raw: str) -> tuple[tuple[str, str], ...]:
    """``DAILY_WITNESSES``: comma-separated ``VKEY URL`` pairs (a cosignature/v1 vkey,
    a space, the witness's http(s) base URL).

    >>> _witnesses("w.example+1234abcd+BA== http://w")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_WITNESSES: entry 1: vkey: is not an Ed25519 ...
    """
    out = []
    for number, item in enumerate((x.strip() for x in raw.split(",") if x.strip()), start=1):
        vkey, _, url = item.partition(" ")
        url = url.strip().rstrip("/")
        try:
            parsed = parse_witness_vkey(vkey)
        except NoteError as exc:
            raise ConfigError(f"entry {number}: {exc}", field="DAILY_WITNESSES") from None
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(f"entry {number}: {url!r} is not an http(s) URL",
                              field="DAILY_WITNESSES")
        out.append((str(parsed), url))
    return tuple(out)


def _public_url(raw: str | None) -> str | None:
    """``DAILY_PUBLIC_URL`` without its trailing slash; it must be an http(s) URL.

    >>> _public_url("https://dice.example/"), _public_url(None)
    ('https://dice.example', None)
    """
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise ConfigError(
            f"must be an http(s) URL such as https://dice.example, not {raw!r}",
            field="DAILY_PUBLIC_URL",
        )
    return raw.rstrip("/")


def _origin(raw: str | None) -> str | None:
    """``DAILY_PASSKEY_ORIGIN``: an http(s) origin, scheme and host (and port) only.

    >>> _origin("https://dice.example/"), _origin(None)
    ('https://dice.example', None)
    >>> _origin("https://dice.example/play")
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_PASSKEY_ORIGIN: must be an origin such as \
https://dice.example (no path), not 'https://dice.example/play'
    """
    if not raw:
        return None
    parts = urlsplit(raw)
    if (parts.scheme not in ("http", "https") or not parts.hostname
            or parts.path not in ("", "/") or parts.query or parts.fragment):
        raise ConfigError(
            f"must be an origin such as https://dice.example (no path), not {raw!r}",
            field="DAILY_PASSKEY_ORIGIN",
        )
    return raw.rstrip("/")


def _rp_id(raw: str | None) -> str | None:
    """``DAILY_PASSKEY_RP_ID``: a host name (no scheme, port or path), lower case.

    >>> _rp_id("Dice.Example"), _rp_id("")
    ('dice.example', None)
    >>> _rp_id("https://dice.example")
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_PASSKEY_RP_ID: must be a host name such as \
dice.example, not 'https://dice.example'
    """
    if not raw:
        return None
    host = raw.strip().lower()
    if not re.fullmatch(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*", host):
        raise ConfigError(f"must be a host name such as dice.example, not {raw!r}",
                          field="DAILY_PASSKEY_RP_ID")
    return host


#: The push services of the browsers (Chrome, Firefox, Edge, Safari).
DEFAULT_PUSH_SERVICES = ("https://fcm.googleapis.com,https://*.push.services.mozilla.com,"
                         "https://*.notify.windows.com,https://*.push.apple.com")


def _push_services(raw: str) -> tuple[str, ...]:
    """``DAILY_PUSH_SERVICES``: comma-separated origins, lower case (a host may start
    with ``*.``: any subdomain); http is for a local test receiver.

    >>> _push_services("https://*.Push.Example, http://127.0.0.1:8123/")
    ('https://*.push.example', 'http://127.0.0.1:8123')
    >>> _push_services("push.example")
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_PUSH_SERVICES: 'push.example' is not an \
origin such as https://push.example
    """
    out = []
    for item in (x.strip() for x in raw.split(",") if x.strip()):
        parts = urlsplit(item.lower())
        host = parts.netloc.removeprefix("*.")
        if (parts.scheme not in ("http", "https") or not host or "*" in host
                or parts.path not in ("", "/") or parts.query or parts.fragment):
            raise ConfigError(f"{item!r} is not an origin such as https://push.example",
                              field="DAILY_PUSH_SERVICES")
        out.append(f"{parts.scheme}://{parts.netloc}")
    return tuple(out)


def _push_contact(raw: str | None) -> str | None:
    """``DAILY_PUSH_CONTACT``: a ``mailto:`` or ``https:`` URL (RFC 8292's ``sub``).

    >>> _push_contact("mailto:ops@dice.example"), _push_contact(None)
    ('mailto:ops@dice.example', None)
    """
    if not raw:
        return None
    if not raw.startswith(("mailto:", "https://")) or len(raw) < 10:
        raise ConfigError(f"must be a mailto: or https: URL, not {raw!r}",
                          field="DAILY_PUSH_CONTACT")
    return raw


def _path(env: Mapping[str, str], name: str) -> Path | None:
    raw = env.get(name)
    return Path(raw) if raw else None


def _rulesets(env: Mapping[str, str], name: str, default: str) -> tuple[str, ...]:
    raw = env.get(name, default)
    if raw.strip().lower() in ("none", "off"):
        return ()
    try:
        return tuple(dict.fromkeys(canonical_name(r.strip()) for r in raw.split(",") if r.strip()))
    except DailyError as exc:
        raise ConfigError(exc.message, field=name) from None


def _demo_clock(env: Mapping[str, str]) -> DemoClock | None:
    raw = env.get("DAILY_DEMO_CLOCK")
    if not raw:
        return None
    production = [n for n in ("DAILY_MASTER_SECRET", "DAILY_MASTER_SECRET_FILE",
                              "DAILY_SIGNING_KEY_FILE", "DAILY_RESULTS_KEY_FILE")
                  if env.get(n)]
    if production:
        raise ConfigError(
            f"is refused with {production[0]} set: a demo clock reveals future days' seeds,"
            " so it runs only with keys of its own",
            field="DAILY_DEMO_CLOCK",
        )
    data_dir = Path(env.get("DAILY_DATA_DIR") or "var")
    if not (data_dir / DEMO_CLOCK_FILE).is_file():
        raise ConfigError(
            f"is refused: {data_dir} is not a demo data directory (no {DEMO_CLOCK_FILE} file);"
            " run `daily serve --demo-day-minutes N`",
            field="DAILY_DEMO_CLOCK",
        )
    try:
        return DemoClock.parse(raw)
    except ValueError as exc:
        raise ConfigError(str(exc), field="DAILY_DEMO_CLOCK") from None


def load_config(env: Mapping[str, str] | None = None) -> Config:
    """Read the configuration from ``env`` (default: ``os.environ``).

    >>> load_config({"DAILY_PORT": "http"})
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_PORT: must be a whole number, not 'http'
    """
    env = os.environ if env is None else env
    rulesets, weekly = _daily_sets(env.get("DAILY_RULESETS", "yahtzee,maxi-yatzy"))
    prefix = env.get("DAILY_KEY_PREFIX", "dd:")
    if not prefix or any(c.isspace() for c in prefix):
        raise ConfigError("must be non-empty, without spaces", field="DAILY_KEY_PREFIX")
    # DAILY_RATE_LIMIT=off (a private or test deployment) makes "off" the default of the
    # new-player limits too; a value set for them still holds.
    no_limits = (env.get("DAILY_RATE_LIMIT") or "").strip().lower() == "off"
    config = Config(
        data_dir=Path(env.get("DAILY_DATA_DIR") or "var"),
        redis_url=env.get("REDIS_URL") or None,
        key_prefix=prefix,
        public_url=_public_url(env.get("DAILY_PUBLIC_URL")),
        daily_rulesets=rulesets,
        max_body=_int(env, "DAILY_MAX_BODY", 65536, 1024, 16 * 1024 * 1024),
        rate_limit=env.get("DAILY_RATE_LIMIT") or "600/minute",
        player_limit=env.get("DAILY_PLAYER_LIMIT") or ("off" if no_limits else "30/hour"),
        player_net_limit=env.get("DAILY_PLAYER_NET_LIMIT") or (
            "off" if no_limits else "300/hour"),
        player_pow_bits=_int(env, "DAILY_PLAYER_POW_BITS", 0, 0, 26),
        fairplay_rulesets=_names(env, "DAILY_FAIRPLAY_RULESETS", ",".join(CHECKS)),
        fairplay_ceiling_only=_names(env, "DAILY_FAIRPLAY_CEILING_ONLY", "off"),
        rate_limit_reads=env.get("DAILY_RATE_LIMIT_READS") or "1200/minute",
        rate_limit_ip=env.get("DAILY_RATE_LIMIT_IP") or "6000/minute",
        host=env.get("DAILY_HOST") or "127.0.0.1",
        port=_int(env, "DAILY_PORT", 8000, 1, 65535),
        trusted_proxies=_int(env, "DAILY_TRUSTED_PROXIES", 0, 0, 5),
        player_days=_int(env, "DAILY_PLAYER_DAYS", 180, 1, 3650),
        ranked_days=_int(env, "DAILY_RANKED_DAYS", 400, 1, 36500),
        hsts=_switch(env, "DAILY_HSTS", False),
        rollover_interval=_int(env, "DAILY_ROLLOVER_INTERVAL", 60, 1, 3600),
        par_jobs=_switch(env, "DAILY_PAR_JOBS", True),
        master_secret_hex=env.get("DAILY_MASTER_SECRET") or None,
        master_secret_file=_path(env, "DAILY_MASTER_SECRET_FILE"),
        signing_key_file=_path(env, "DAILY_SIGNING_KEY_FILE"),
        results_key_file=_path(env, "DAILY_RESULTS_KEY_FILE"),
        tables_at_start=_rulesets(env, "DAILY_TABLES_AT_START", "yahtzee,yatzy"),
        tables_in_background=_rulesets(env, "DAILY_TABLES_IN_BACKGROUND", "maxi-yatzy"),
        warm_at_start=_switch(env, "DAILY_WARM_AT_START", True),
        demo_clock=_demo_clock(env),
        tables_path=_path(env, "DAILY_TABLES_DIR"),
        weekly_special=weekly,
        redis_cluster=_switch(env, "DAILY_REDIS_CLUSTER", False),
        auth_cache_seconds=_int(env, "DAILY_AUTH_CACHE_SECONDS", 2, 0, 60),
        queue_redis_url=env.get("DAILY_QUEUE_REDIS_URL") or None,
        passkey_origin=_origin(env.get("DAILY_PASSKEY_ORIGIN")),
        passkey_rp_id=_rp_id(env.get("DAILY_PASSKEY_RP_ID")),
        provisional_days=_int(env, "DAILY_PROVISIONAL_DAYS", 7, 0, 365),
        public_top_requires_passkey=_switch(env, "DAILY_PUBLIC_TOP_REQUIRES_PASSKEY", True),
        witnesses=_witnesses(env.get("DAILY_WITNESSES", "")),
        recheck_top=_int(env, "DAILY_RECHECK_TOP", 10, 0, 100),
        vapid_key_file=_path(env, "DAILY_VAPID_KEY_FILE"),
        push_services=_push_services(env.get("DAILY_PUSH_SERVICES") or DEFAULT_PUSH_SERVICES),
        push_contact=_push_contact(env.get("DAILY_PUSH_CONTACT")),
        push_days=_int(env, "DAILY_PUSH_DAYS", 60, 1, 3650),
        reminder_interval=_int(env, "DAILY_REMINDER_INTERVAL", 300, 10, 3600),
    )
    missing = uncovered(config.all_daily_rulesets, config.fairplay_rulesets)
    if missing:
        raise ConfigError(
            f"ranks {', '.join(missing)}, which no fair-play check covers: add"
            f" {'it' if len(missing) == 1 else 'them'} to DAILY_FAIRPLAY_RULESETS, or rank"
            f" {'it' if len(missing) == 1 else 'them'} no more",
            field="DAILY_FAIRPLAY_RULESETS",
        )
    return config


def _daily_sets(raw: str) -> tuple[tuple[str, ...], WeeklySpecial | None]:
    """The everyday sets and the weekly special of ``DAILY_RULESETS``.

    >>> _daily_sets("yahtzee,fri:yatzy/poker")
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_RULESETS: unknown ruleset 'poker'; known: ...
    """
    everyday: list[str] = []
    weekly = None
    try:
        for item in (r.strip() for r in raw.split(",")):
            if not item:
                continue
            day, sep, rest = item.partition(":")
            if not sep:
                everyday.append(canonical_name(item))
                continue
            if weekly is not None:
                raise ConfigError("names more than one weekly special", field="DAILY_RULESETS")
            if day.lower() not in WEEKDAYS:
                raise ConfigError(
                    f"{day!r} is not a day of the week ({', '.join(WEEKDAYS)})",
                    field="DAILY_RULESETS",
                )
            rotation = tuple(canonical_name(r.strip()) for r in rest.split("/") if r.strip())
            if not rotation:
                raise ConfigError("the weekly special names no ruleset", field="DAILY_RULESETS")
            weekly = WeeklySpecial(WEEKDAYS.index(day.lower()), rotation)
    except ConfigError:
        raise
    except DailyError as exc:
        raise ConfigError(exc.message, field="DAILY_RULESETS") from None
    if not everyday:
        raise ConfigError("names no ruleset", field="DAILY_RULESETS")
    return tuple(everyday), weekly
