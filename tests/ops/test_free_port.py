"""``free_port``: a port no outgoing connection can take before the server binds it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from daily.service.ops import embedded
from daily.service.ops.embedded import ephemeral_ports, free_port


def test_free_ports_are_below_the_kernels_range_and_free() -> None:
    low, _high = ephemeral_ports()
    if not low:
        pytest.skip("this system does not say which ports outgoing connections get")
    for _ in range(50):
        port = free_port()
        assert max(1024, low - 16384) <= port < low
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # nothing listens there


def test_outgoing_connections_never_get_a_free_port() -> None:
    """Many connections opened after the check: none of them takes the port."""
    port = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(200)
        clients = [socket.create_connection(server.getsockname()) for _ in range(150)]
        try:
            assert port not in {c.getsockname()[1] for c in clients}
        finally:
            for c in clients:
                c.close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


@pytest.mark.parametrize(("text", "low", "high"), [
    ("40000\t60999\n", 23616, 40000),  # below the range
    ("2000 60999\n", 1024, 65536),  # no room below: the kernel's choice
    ("garbage\n", 1024, 65536),
    ("first last\n", 1024, 65536),
])
def test_the_range_comes_from_the_kernels_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, low: int, high: int
) -> None:
    (tmp_path / "range").write_text(text)
    monkeypatch.setattr(embedded, "EPHEMERAL_RANGE_FILE", tmp_path / "range")
    assert all(low <= free_port() < high for _ in range(20))
