"""A Lua script called on a Redis connection of the calling thread's own.

redis-py's ``Script`` goes through the client's connection pool for every call: the
pool checks the process id, takes its lock, polls the socket for stray data, and the
client wraps the call in its deprecation and observability helpers before and after.
For the move script (:mod:`daily.service.games.store`), called once per move, that
bookkeeping cost about twice the CPU of sending the command and reading the answer.

:class:`ThreadScript` keeps one connection per thread (and per process: a forked child
opens its own, it never uses its parent's socket), built like the pool's own
connections (the same host, database, password, TLS, timeouts, health checks and retry
policy: ``connection_kwargs``), and sends ``EVALSHA`` on it directly; when the server
does not know the script (restarted, ``SCRIPT FLUSH``) it is loaded and called again,
as ``Script`` does. Failures are redis-py's own: before each call the socket is polled
and a connection the server closed meanwhile is opened again, as the pool does for a
connection it hands out; then the retry policy of the connection (redis-py's default:
none) and ``redis.ConnectionError``/``redis.TimeoutError``, which the API answers with
503. What is left out: redis-py's OpenTelemetry hooks (unused here), and its
maintenance-notification handling (off unless configured).

The cost: each thread that runs a move holds one more connection to Redis than the
pool (a gthread worker: at most its thread count). A cluster client has no single
connection pool; :func:`thread_script` gives it redis-py's ``Script``.

>>> script = ThreadScript(redis.Redis(), "return 1")
>>> script.sha
'e0e1f9fabfc9d4800c877a703b823ac0578ff8db'
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from typing import Any, Protocol

import hiredis
import redis
from redis.connection import AbstractConnection, HiredisRespSerializer
from redis.exceptions import NoScriptError


class ScriptCall(Protocol):
    """What calls a registered script: ``Script`` or :class:`ThreadScript`."""

    def __call__(self, keys: Sequence[Any] = ..., args: Sequence[Any] = ...) -> Any: ...


class ThreadScript:
    """The Lua ``script``, called with ``EVALSHA`` on this thread's own connection to the
    server of ``client`` (see the module docstring)."""

    def __init__(self, client: redis.Redis, script: str) -> None:
        self.client = client
        self.script = script
        self.sha = hashlib.sha1(script.encode()).hexdigest()
        self._pool = client.connection_pool
        self._local = threading.local()

    def connection(self) -> AbstractConnection:
        """This thread's connection (a new one in a new thread or a forked process)."""
        local = self._local
        pid = os.getpid()
        conn: AbstractConnection | None = getattr(local, "conn", None)
        if conn is None or local.pid != pid:
            pool = self._pool
            conn = pool.connection_class(**pool.connection_kwargs)
            local.conn, local.pid = conn, pid
            # redis-py packs with hiredis on this connection: do the same, minus its checks
            local.hiredis = isinstance(getattr(conn, "_command_packer", None),
                                       HiredisRespSerializer)
        return conn

    def __call__(self, keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
        """The script's answer for ``keys`` and ``args`` (as ``Script.__call__``)."""
        conn = self.connection()
        ready(conn)
        command = ("EVALSHA", self.sha, len(keys), *keys, *args)
        try:
            return self._send(conn, command)
        except NoScriptError:
            self.client.script_load(self.script)
            return self._send(conn, command)

    def _send(self, conn: AbstractConnection, command: tuple[Any, ...]) -> Any:
        """Send ``command`` and read its answer under the connection's retry policy (a
        failed attempt drops the connection; the next one connects again)."""
        packed = self._local.hiredis

        def attempt() -> Any:
            if packed:
                conn.send_packed_command([hiredis.pack_command(command)])
            else:
                conn.send_command(*command)
            return conn.read_response()

        return conn.retry.call_with_retry(attempt, lambda error: conn.disconnect())


def ready(conn: AbstractConnection) -> None:
    """Connect ``conn`` if it is not, and again if the server closed it meanwhile (or
    it holds unread data): the check redis-py's pool makes on every connection it hands
    out, one poll of the socket, so that a connection dropped while idle (a server
    restart, its ``timeout``) costs a reconnect, not a failed move."""
    conn.connect()
    try:
        if conn.can_read():
            raise redis.ConnectionError("Connection has data")
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        conn.disconnect()
        conn.connect()
        if conn.can_read():
            raise redis.ConnectionError("Connection not ready") from None


def thread_script(client: Any, script: str) -> ScriptCall:
    """A :class:`ThreadScript` for a single-server client, redis-py's ``Script`` for a
    cluster client (or any client without one connection pool).

    >>> type(thread_script(redis.Redis(), "return 1")).__name__
    'ThreadScript'
    """
    if isinstance(client, redis.Redis) and getattr(client, "connection", None) is None:
        return ThreadScript(client, script)
    called: ScriptCall = client.register_script(script)
    return called
