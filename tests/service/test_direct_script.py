"""The move script on a connection the call holds alone (daily.service.games.direct_script),
against a real Redis: the same answers as redis-py's Script, no connection shared by
two calls at once, none of a parent's in a forked child, a script the server lost
loaded again, a dropped connection reconnected, and an unreachable server still
redis-py's ConnectionError (the API's 503).
"""

from __future__ import annotations

import os
import socket
import threading
import uuid

import pytest
import redis
from redis.commands.core import Script

from daily.service.games.direct_script import DirectScript, direct_script

pytestmark = pytest.mark.redis

ECHO = "return {ARGV[1], redis.call('INCR', KEYS[1])}"


def fresh(source: str) -> str:
    """The script with a comment of its own: a text the server has not loaded yet."""
    return f"-- {uuid.uuid4().hex}\n{source}"


def test_it_answers_as_redis_pys_script_and_loads_itself(redis_client: redis.Redis) -> None:
    source = fresh(ECHO)
    script = DirectScript(redis_client, source)
    assert redis_client.script_exists(script.sha) == [False]
    assert script(keys=["n"], args=["a"]) == [b"a", 1]  # NOSCRIPT, loaded, called again
    assert redis_client.script_exists(script.sha) == [True]
    assert redis_client.register_script(source)(keys=["n"], args=["b"]) == [b"b", 2]
    assert script(keys=["n"], args=[7]) == [b"7", 3]


def test_calls_one_after_the_other_reuse_one_connection(redis_client: redis.Redis) -> None:
    script = DirectScript(redis_client, fresh(ECHO))
    for number in range(5):
        assert script(keys=["n"], args=["x"]) == [b"x", number + 1]
    assert script.idle() == 1


def test_calls_at_the_same_time_never_share_a_connection(redis_client: redis.Redis) -> None:
    """Eight callers (threads here; greenlets under gevent alike) each hold a connection
    at the same moment: eight different connections, all idle again afterwards, each
    still answering its own calls."""
    script = DirectScript(redis_client, fresh(ECHO))
    script(keys=["n"], args=["warm"])
    callers = 8
    together = threading.Barrier(callers)
    held: list[object] = []
    answers: list[list[object]] = []

    def caller(number: int) -> None:
        conn = script.take()
        held.append(conn)
        together.wait(timeout=10)  # every caller holds one now
        script.give(conn)
        answers.append(script(keys=[f"own{number}"], args=[str(number)]))

    threads = [threading.Thread(target=caller, args=(n,)) for n in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(conn) for conn in held}) == callers
    assert script.idle() == callers
    assert sorted(answers) == sorted([str(n).encode(), 1] for n in range(callers))


def test_a_forked_child_opens_its_own_connection(redis_client: redis.Redis) -> None:
    script = DirectScript(redis_client, fresh(ECHO))
    script(keys=["n"], args=["parent"])
    parent_conn = script.take()
    script.give(parent_conn)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer over the pipe, never return into pytest
        try:
            answer = script(keys=["n"], args=["child"])
            conn = script.take()
            os.write(write, f"{answer[1]} {conn is not parent_conn}".encode())
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    reported = os.read(read, 100).decode()
    os.close(read)
    assert status == 0 and reported == "2 True"
    assert script(keys=["n"], args=["parent"]) == [b"parent", 3]  # its socket untouched
    assert script.take() is parent_conn


def test_a_dropped_connection_is_connected_again(redis_client: redis.Redis) -> None:
    script = DirectScript(redis_client, fresh(ECHO))
    script(keys=["n"], args=["x"])
    conn = script.take()
    conn.send_command("CLIENT", "ID")
    client_id = conn.read_response()
    script.give(conn)
    assert redis_client.client_kill_filter(_id=client_id) == 1
    assert script(keys=["n"], args=["again"]) == [b"again", 2]


def test_an_unreachable_server_is_redis_pys_connection_error() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.2)
    with pytest.raises(redis.ConnectionError):
        DirectScript(client, ECHO)(keys=["n"], args=["x"])


def test_a_client_without_one_pool_of_its_own_gets_redis_pys_script(
    redis_client: redis.Redis,
) -> None:
    assert isinstance(direct_script(redis_client, ECHO), DirectScript)
    single = redis.Redis(connection_pool=redis_client.connection_pool,
                         single_connection_client=True)
    try:
        assert isinstance(direct_script(single, ECHO), Script)
    finally:
        single.close()
