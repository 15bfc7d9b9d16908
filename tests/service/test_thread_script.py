"""The move script on a connection of the thread's own (daily.service.thread_script),
against a real Redis: the same answers as redis-py's Script, one connection per thread
and per process, a script the server lost loaded again, a dropped connection
reconnected, and an unreachable server still redis-py's ConnectionError (the API's 503).
"""

from __future__ import annotations

import os
import socket
import threading
import uuid

import pytest
import redis
from redis.commands.core import Script

from daily.service.thread_script import ThreadScript, thread_script

pytestmark = pytest.mark.redis

ECHO = "return {ARGV[1], redis.call('INCR', KEYS[1])}"


def fresh(source: str) -> str:
    """The script with a comment of its own: a text the server has not loaded yet."""
    return f"-- {uuid.uuid4().hex}\n{source}"


def test_it_answers_as_redis_pys_script_and_loads_itself(redis_client: redis.Redis) -> None:
    source = fresh(ECHO)
    script = ThreadScript(redis_client, source)
    assert redis_client.script_exists(script.sha) == [False]
    assert script(keys=["n"], args=["a"]) == [b"a", 1]  # NOSCRIPT, loaded, called again
    assert redis_client.script_exists(script.sha) == [True]
    assert redis_client.register_script(source)(keys=["n"], args=["b"]) == [b"b", 2]
    assert script(keys=["n"], args=[7]) == [b"7", 3]


def test_each_thread_keeps_its_own_connection(redis_client: redis.Redis) -> None:
    script = ThreadScript(redis_client, fresh(ECHO))
    mine = script.connection()
    script(keys=["n"], args=["x"])
    assert script.connection() is mine
    theirs: list[object] = []

    def other() -> None:
        script(keys=["n"], args=["y"])
        theirs.append(script.connection())

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert theirs and theirs[0] is not mine
    assert redis_client.get("n") == b"2"


def test_a_forked_child_opens_its_own_connection(redis_client: redis.Redis) -> None:
    script = ThreadScript(redis_client, fresh(ECHO))
    script(keys=["n"], args=["parent"])
    parent_conn = script.connection()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer over the pipe, never return into pytest
        try:
            answer = script(keys=["n"], args=["child"])
            fresh_conn = script.connection() is not parent_conn
            os.write(write, f"{answer[1]} {fresh_conn}".encode())
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    reported = os.read(read, 100).decode()
    os.close(read)
    assert status == 0 and reported == "2 True"
    assert script(keys=["n"], args=["parent"]) == [b"parent", 3]  # its socket untouched
    assert script.connection() is parent_conn


def test_a_dropped_connection_is_connected_again(redis_client: redis.Redis) -> None:
    script = ThreadScript(redis_client, fresh(ECHO))
    script(keys=["n"], args=["x"])
    conn = script.connection()
    conn.send_command("CLIENT", "ID")
    client_id = conn.read_response()
    assert redis_client.client_kill_filter(_id=client_id) == 1
    assert script(keys=["n"], args=["again"]) == [b"again", 2]


def test_an_unreachable_server_is_redis_pys_connection_error() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.2)
    with pytest.raises(redis.ConnectionError):
        ThreadScript(client, ECHO)(keys=["n"], args=["x"])


def test_a_client_without_one_pool_of_its_own_gets_redis_pys_script(
    redis_client: redis.Redis,
) -> None:
    assert isinstance(thread_script(redis_client, ECHO), ThreadScript)
    single = redis.Redis(connection_pool=redis_client.connection_pool,
                         single_connection_client=True)
    try:
        assert isinstance(thread_script(single, ECHO), Script)
    finally:
        single.close()
