"""A sandboxed bot reaches no network: no TCP, UDP or DNS, no unix socket of the host."""

from __future__ import annotations

import os
import socket

import pytest

from arena.sandbox import SandboxConfig
from tests.arena.sandbox.conftest import attack, outside_address, tcp_decoy

POSTGRES_SOCKET = "/var/run/postgresql/.s.PGSQL.5432"
NAMES = ("deb.debian.org", "pypi.org", "example.com")


@pytest.mark.parametrize("port", [5432, 6379], ids=["postgresql", "redis"])
def test_it_blocks_tcp_to_the_database_and_redis_ports(config: SandboxConfig, port: int) -> None:
    with tcp_decoy("127.0.0.1", port):
        assert attack("plain", config, "network.py", "tcp", host="127.0.0.1", port=port)["ok"]
        report = attack("sandbox", config, "network.py", "tcp", host="127.0.0.1", port=port)
    assert not report["ok"]


def test_it_blocks_tcp_to_an_outside_address(config: SandboxConfig) -> None:
    host = outside_address()
    with tcp_decoy("0.0.0.0", 0) as port:
        assert attack("plain", config, "network.py", "tcp", host=host, port=port)["ok"]
        report = attack("sandbox", config, "network.py", "tcp", host=host, port=port)
    assert not report["ok"]


def test_it_blocks_raw_udp(config: SandboxConfig, udp_decoy: int) -> None:
    assert attack("plain", config, "network.py", "udp", host="127.0.0.1", port=udp_decoy)["ok"]
    report = attack("sandbox", config, "network.py", "udp", host="127.0.0.1", port=udp_decoy)
    assert not report["ok"]


def test_it_blocks_dns_queries_to_a_resolver(config: SandboxConfig, udp_decoy: int) -> None:
    args = {"host": "127.0.0.1", "port": udp_decoy}
    assert attack("plain", config, "network.py", "dns_query", **args)["ok"]
    assert not attack("sandbox", config, "network.py", "dns_query", **args)["ok"]


def test_it_cannot_resolve_names(config: SandboxConfig) -> None:
    name = next((name for name in NAMES if _resolves(name)), None)
    if name is None:
        pytest.skip(f"the host itself resolves none of {', '.join(NAMES)}")
    assert attack("plain", config, "network.py", "resolve", name=name)["ok"]
    assert not attack("sandbox", config, "network.py", "resolve", name=name)["ok"]


def _resolves(name: str) -> bool:
    try:
        socket.getaddrinfo(name, 80)
    except OSError:
        return False
    return True


def test_it_blocks_a_unix_socket_in_the_host_tmp(config: SandboxConfig, unix_decoy: str) -> None:
    assert attack("plain", config, "network.py", "unix", path=unix_decoy)["ok"]
    report = attack("sandbox", config, "network.py", "unix", path=unix_decoy)
    assert not report["ok"]
    assert "FileNotFoundError" in report["error"]


def test_it_blocks_the_postgresql_unix_socket(config: SandboxConfig) -> None:
    if not os.path.exists(POSTGRES_SOCKET):
        pytest.skip(f"no PostgreSQL socket at {POSTGRES_SOCKET} on this host")
    assert attack("plain", config, "network.py", "unix", path=POSTGRES_SOCKET)["ok"]
    assert not attack("sandbox", config, "network.py", "unix", path=POSTGRES_SOCKET)["ok"]


def test_it_blocks_an_abstract_unix_socket(config: SandboxConfig, abstract_decoy: str) -> None:
    assert attack("plain", config, "network.py", "unix", path=abstract_decoy)["ok"]
    report = attack("sandbox", config, "network.py", "unix", path=abstract_decoy)
    assert not report["ok"]
    assert "ConnectionRefusedError" in report["error"]
