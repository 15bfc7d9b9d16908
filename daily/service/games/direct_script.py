"""A Lua script called on a Redis connection the caller holds alone for the call.

redis-py's ``Script`` goes through the client's connection pool for every call: the
pool checks the process id, takes its lock, polls the socket for stray data, and the
client wraps the call in its deprecation and observability helpers before and after.
For the move script (:mod:`daily.service.games.store`), called once per move, that
bookkeeping cost about twice the CPU of sending the command and reading the answer.

:class:`DirectScript` keeps a stack of idle connections of its own: a call takes one
(or opens a new one when none is idle), sends ``EVALSHA`` on it directly and puts it
back; so a connection never serves two calls at once, whether the callers are threads
(gthread) or greenlets (gevent: a thread-local connection created before gevent
patched the process would be shared by every greenlet of a worker), and there are never
more connections than calls at once. Taking and putting back are single operations of
a ``deque``, atomic without a lock. A forked child starts with an empty stack: it never
uses its parent's sockets. The connections are built like the pool's own (the same
host, database, password, TLS, timeouts, health checks and retry policy:
``connection_kwargs``); when the server does not know the script (restarted, ``SCRIPT
FLUSH``) it is loaded and called again, as ``Script`` does. Failures are redis-py's own:
before each call the socket is polled and a connection the server closed meanwhile is
opened again, as the pool does for a connection it hands out; then the retry policy of
the connection (redis-py's default: none) and ``redis.ConnectionError``/
``redis.TimeoutError``, which the API answers with 503. What is left out: redis-py's
OpenTelemetry hooks (unused here), and its maintenance-notification handling (off
unless configured).

The cost: a process holds as many connections of its own as it ever had moves at once
(a gthread worker: at most its thread count). A cluster client has no single connection
pool; :func:`direct_script` gives it redis-py's ``Script``.

>>> script = DirectScript(redis.Redis(), "return 1")
>>> script.sha
'e0e1f9fabfc9d4800c877a703b823ac0578ff8db'
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from collections.abc import Sequence
from typing import Any, Protocol

import hiredis
import redis
from redis.connection import AbstractConnection, HiredisRespSerializer
from redis.exceptions import NoScriptError


class ScriptCall(Protocol):
    """What calls a registered script: ``Script`` or :class:`DirectScript`."""

    def __call__(self, keys: Sequence[Any] = ..., args: Sequence[Any] = ...) -> Any: ...


class DirectScript:
    """The Lua ``script``, called with ``EVALSHA`` on a connection to the server of
    ``client`` that the call holds alone (see the module docstring)."""

    def __init__(self, client: redis.Redis, script: str) -> None:
        self.client = client
        self.script = script
        self.sha = hashlib.sha1(script.encode()).hexdigest()
        self._pool = client.connection_pool
        self._idle: deque[AbstractConnection] = deque()
        self._pid = os.getpid()
        # redis-py packs with hiredis on these connections: do the same, minus its checks
        self._hiredis = isinstance(getattr(self._new(), "_command_packer", None),
                                   HiredisRespSerializer)

    def _new(self) -> AbstractConnection:
        pool = self._pool
        return pool.connection_class(**pool.connection_kwargs)

    def take(self) -> AbstractConnection:
        """An idle connection, or a new one; the caller's alone until :meth:`give`."""
        if self._pid != os.getpid():  # a forked child: never its parent's sockets
            self._idle, self._pid = deque(), os.getpid()
        try:
            return self._idle.pop()
        except IndexError:
            return self._new()

    def give(self, conn: AbstractConnection) -> None:
        """Put ``conn`` back among the idle connections (the next call takes it first)."""
        self._idle.append(conn)

    def idle(self) -> int:
        """How many connections are idle."""
        return len(self._idle)

    def __call__(self, keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
        """The script's answer for ``keys`` and ``args`` (as ``Script.__call__``)."""
        conn = self.take()
        try:
            ready(conn)
            command = ("EVALSHA", self.sha, len(keys), *keys, *args)
            try:
                return self._send(conn, command)
            except NoScriptError:
                self.client.script_load(self.script)
                return self._send(conn, command)
        finally:  # a connection that failed is connected again by ready() next time
            self.give(conn)

    def _send(self, conn: AbstractConnection, command: tuple[Any, ...]) -> Any:
        """Send ``command`` and read its answer under the connection's retry policy (a
        failed attempt drops the connection; the next one connects again)."""

        def attempt() -> Any:
            if self._hiredis:
                conn.send_packed_command([hiredis.pack_command(command)])
            else:
                conn.send_command(*command)
            return conn.read_response()

        return conn.retry.call_with_retry(attempt, lambda error: conn.disconnect())


def ready(conn: AbstractConnection) -> None:
    """Connect ``conn`` if it is not, and again if the server closed it meanwhile (or
    it holds unread data): the check redis-py's pool makes on every connection it hands
    out, one poll of the socket, so that a connection dropped while idle (a server
    restart, its ``timeout``) costs a reconnect, not a failed move. (``connect()``
    itself goes through the connection's retry policy even when connected: asked only
    when the connection says it is not.)"""
    if not getattr(conn, "is_connected", False):
        conn.connect()
    try:
        if conn.can_read():
            raise redis.ConnectionError("Connection has data")
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        conn.disconnect()
        conn.connect()
        if conn.can_read():
            raise redis.ConnectionError("Connection not ready") from None


def direct_script(client: Any, script: str) -> ScriptCall:
    """A :class:`DirectScript` for a single-server client, redis-py's ``Script`` for a
    cluster client (or any client without one connection pool).

    >>> type(direct_script(redis.Redis(), "return 1")).__name__
    'DirectScript'
    """
    if isinstance(client, redis.Redis) and getattr(client, "connection", None) is None:
        return DirectScript(client, script)
    called: ScriptCall = client.register_script(script)
    return called
