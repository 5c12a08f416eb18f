"""The servers that hold the sockets, started as they are run: daphne's runserver (what
`make demo` and the tests' live servers start) and the deployed sockets process (gunicorn
with uvicorn workers, deploy/gunicorn_sockets.conf.py). A browser's socket, signed in by
its session cookie, gets its seat's frame from each."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.arena.live_server import closed_port, live_server
from tests.arena.workers import service_process, wait_for
from tests.lobby.test_live_sockets import cookie, people_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def _listens(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def sockets_process(tmp_path: Path) -> Iterator[str]:
    port = closed_port()
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c"]
    command += ["deploy/gunicorn_sockets.conf.py", "config.asgi:application"]
    env = {"SOCKETS_BIND": f"127.0.0.1:{port}", "SOCKETS_WORKERS": "1", "DEBUG": "false"}
    with service_process(command, tmp_path / "sockets.log", env=env) as run:
        wait_for(lambda: run.process.poll() is not None or _listens(port), 120, "gunicorn")
        assert run.process.poll() is None, run.output()
        yield f"127.0.0.1:{port}"


@contextmanager
def runserver(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path) as server:
        yield server.url.removeprefix("http://")


@pytest.mark.parametrize("server", [runserver, sockets_process], ids=["daphne", "gunicorn"])
def test_a_seats_browser_gets_its_frame_from_the_server_as_run(
    tmp_path: Path, server: Callable[[Path], AbstractContextManager[str]]
) -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    headers = {name.decode(): value.decode() for name, value in cookie(people[1])}
    with server(tmp_path) as address:
        headers["origin"] = f"http://{address}"
        with connect(f"ws://{address}/ws/tables/{table.pk}/", additional_headers=headers) as ws:
            message = json.loads(ws.recv(timeout=60))
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=60)) == {"type": "pong"}
    assert message["type"] == "frame"
    assert message["frame"]["viewer"]["seat"] == 1 and "hand" in message["frame"]["view"]


def test_a_socket_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    headers = {name.decode(): value.decode() for name, value in cookie(people[1])}
    headers["origin"] = "http://elsewhere.example"
    with runserver(tmp_path) as address, pytest.raises(Exception, match="403"):
        connect(f"ws://{address}/ws/tables/{table.pk}/", additional_headers=headers)
