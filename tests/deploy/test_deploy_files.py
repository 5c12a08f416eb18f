"""The deployment files agree with the project: every command they run exists here."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import yaml

from tests.arena.live_server import closed_port
from tests.arena.workers import wait_for

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent


def _module_exists(dotted: str) -> bool:
    return (ROOT / (dotted.replace(".", "/") + ".py")).is_file() or (
        ROOT / dotted.replace(".", "/") / "__init__.py"
    ).is_file()


def check_command(argv: list[str]) -> None:
    """Fail unless the program is installed and every project path or module it names exists."""
    program = argv[0]
    assert shutil.which(program, path=str(VENV_BIN)) or program == "python", (
        f"{program} is not installed by the project"
    )
    if program == "python":
        assert argv[1] == "manage.py" and (ROOT / "manage.py").is_file()
        assert (argv[2]) in {"migrate", "collectstatic"}
    for flag, value in itertools.pairwise(argv):
        if flag == "-c":
            assert (ROOT / value).is_file(), f"{value} is missing"
        if flag == "-A":
            assert _module_exists(value), f"module {value} is missing"
    if program == "gunicorn":
        module = argv[-1].split(":")[0]
        assert _module_exists(module), f"WSGI module {module} is missing"
    if program == "celery":
        assert argv[3] in {"worker", "beat"}


def test_every_compose_service_runs_a_command_of_this_project() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    workers = ("worker-interactive", "worker-background")
    assert {"web", *workers, "beat", "db", "redis"} <= set(services)
    for name in ("migrate", "web", *workers, "beat"):
        check_command(services[name]["command"])
    for name in ("web", *workers, "beat"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["REDIS_URL"].startswith("redis://")


def test_the_dockerfile_copies_only_what_exists() -> None:
    for line in (DEPLOY / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), f"Dockerfile copies missing {source}"


@pytest.mark.parametrize("unit", sorted(p.name for p in (DEPLOY / "systemd").glob("*.service")))
def test_each_systemd_unit_starts_a_command_of_this_project(unit: str) -> None:
    text = (DEPLOY / "systemd" / unit).read_text()
    start = re.search(r"^ExecStart=(.+)$", text, re.MULTILINE)
    assert start is not None
    argv = start.group(1).split()
    argv[0] = Path(argv[0]).name
    check_command(argv)


def test_the_deployed_worker_acknowledges_a_match_only_when_it_is_over() -> None:
    from deploy.celery_worker import app

    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.broker_transport_options["visibility_timeout"] >= 3600


def test_each_queue_has_a_worker_of_its_own_in_compose_and_systemd() -> None:
    """A worker that also takes the background queue's matches could be busy for an hour
    when an upload arrives: the interactive pool consumes its own queue only."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert compose["worker-interactive"]["environment"]["ARENA_WORKER_QUEUES"] == "interactive"
    assert compose["worker-background"]["environment"]["ARENA_WORKER_QUEUES"] == "background"
    for unit, queue in (
        ("arena-interactive@.service", "interactive"),
        ("arena-worker@.service", "background"),
    ):
        text = (DEPLOY / "systemd" / unit).read_text()
        assert f"Environment=ARENA_WORKER_QUEUES={queue}\n" in text, unit


def test_a_worker_given_an_unknown_queue_refuses_to_start() -> None:
    from deploy.celery_worker import worker_queues

    with pytest.raises(ValueError, match="the queues are interactive, background"):
        worker_queues("interactive,batch")


def test_the_brokers_redis_keeps_an_append_only_file_synced_every_second(tmp_path: Path) -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    redis_service = compose["services"]["redis"]
    conf = "/usr/local/etc/redis/broker.conf"
    assert redis_service["command"] == ["redis-server", conf]
    assert f"./redis/broker.conf:{conf}:ro" in redis_service["volumes"]
    assert any(volume.endswith(":/data") for volume in redis_service["volumes"])
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: the file is not started")
    # The file as a real Redis reads it (its folder moved to the test's own).
    port = closed_port()
    command = ["redis-server", str(DEPLOY / "redis/broker.conf"), "--port", str(port)]
    command += ["--bind", "127.0.0.1", "--dir", str(tmp_path)]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL) as server:
        try:
            client = redis.Redis(port=port, socket_timeout=5)
            wait_for(lambda: _answers(client), 60, "the broker's Redis")
            settings = {
                name: client.config_get(name)[name]
                for name in ("appendonly", "appendfsync", "maxmemory-policy")
            }
        finally:
            server.kill()
    assert settings == {
        "appendonly": "yes",
        "appendfsync": "everysec",
        "maxmemory-policy": "noeviction",
    }


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.exceptions.ConnectionError:
        return False
