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
        assert (argv[2]) in {"migrate", "collectstatic", "createsuperuser"}
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


def _gunicorn_bind(environ: dict[str, str]) -> object:
    """The address gunicorn.conf.py binds, read in an environment of just ``environ``."""
    import os
    from unittest import mock

    values: dict[str, object] = {}
    with mock.patch.dict(os.environ, environ, clear=True):
        source = (DEPLOY / "gunicorn.conf.py").read_text()
        exec(compile(source, "gunicorn.conf.py", "exec"), values)
    return values["bind"]


def test_gunicorn_listens_on_loopback_unless_told_otherwise() -> None:
    assert _gunicorn_bind({}) == "127.0.0.1:8000"
    assert _gunicorn_bind({"GUNICORN_BIND": "0.0.0.0:9000"}) == "0.0.0.0:9000"


def test_the_container_listens_on_its_interfaces_and_compose_publishes_it_on_loopback() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^ENV .*\bGUNICORN_BIND=0\.0\.0\.0:8000\b", dockerfile, re.MULTILINE)
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    for name, service in compose["services"].items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} to the world"


def _collects_static(argv: list[str]) -> bool:
    return argv[:3] == ["python", "manage.py", "collectstatic"] and "--noinput" in argv


def test_the_image_collects_the_static_files() -> None:
    instructions = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    runs = [line for line in instructions if line.startswith("RUN ")]
    assert any("python manage.py collectstatic --noinput" in line for line in runs)


def test_the_web_unit_migrates_and_collects_static_files_before_gunicorn_starts() -> None:
    text = (DEPLOY / "systemd" / "arena-web.service").read_text()
    before = []
    for command in re.findall(r"^ExecStartPre=(.+)$", text, re.MULTILINE):
        argv = command.split()
        argv[0] = Path(argv[0]).name
        check_command(argv)
        before.append(argv)
    assert ["python", "manage.py", "migrate", "--noinput"] in before
    assert any(_collects_static(argv) for argv in before)
    assert re.search(r"^Environment=GUNICORN_BIND=127\.0\.0\.1:8000$", text, re.MULTILINE)


def test_the_readmes_production_commands_collect_static_files_before_serving() -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Running it for real.*?```sh\n(.*?)```", readme, re.DOTALL)
    assert block is not None
    commands = [line.split("#")[0].split() for line in block.group(1).splitlines()]
    commands = [argv for argv in commands if argv and argv[0] != "export"]
    # A command's own environment (``ARENA_WORKER_QUEUES=interactive celery ...``) is not
    # its program.
    commands = [list(itertools.dropwhile(_assigns, argv)) for argv in commands]
    for argv in commands:
        check_command(argv)
    programs = [argv[0] if argv[0] != "python" else argv[2] for argv in commands]
    assert any(_collects_static(argv) for argv in commands)
    assert programs.index("migrate") < programs.index("collectstatic") < programs.index("gunicorn")


def _assigns(word: str) -> bool:
    return re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", word) is not None


def test_the_proxy_replaces_x_forwarded_for_and_the_deployment_trusts_one_proxy() -> None:
    site = (DEPLOY / "nginx" / "arena.conf").read_text()
    directives = [line.split("#")[0].strip() for line in site.splitlines()]
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in directives
    assert not any("$proxy_add_x_forwarded_for" in line for line in directives)
    assert "proxy_pass http://127.0.0.1:8000;" in directives
    env = (DEPLOY / "arena.env.example").read_text().splitlines()
    assert "TRUSTED_PROXIES=1" in env


def test_the_proxy_upgrades_the_lobbys_sockets_to_the_sockets_process() -> None:
    """A WebSocket passes nginx only with the Upgrade and Connection headers forwarded over
    HTTP/1.1, and reaches the process that serves ASGI, on its loopback port."""
    site = (DEPLOY / "nginx" / "arena.conf").read_text()
    block = re.search(r"location /ws/ \{(.*?)\}", site, re.DOTALL)
    assert block is not None, "no /ws/ location"
    directives = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert "proxy_pass http://127.0.0.1:8001;" in directives
    assert "proxy_http_version 1.1;" in directives
    assert "proxy_set_header Upgrade $http_upgrade;" in directives
    assert "proxy_set_header Connection $connection_upgrade;" in directives
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in directives
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{", site)


def test_the_sockets_process_serves_the_asgi_application_on_uvicorn_workers() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert compose["sockets"]["command"][-1] == "config.asgi:application"
    assert compose["sockets"]["ports"] == ["127.0.0.1:8001:8001"]
    unit = (DEPLOY / "systemd" / "arena-sockets.service").read_text()
    assert "gunicorn_sockets.conf.py config.asgi:application" in unit
    assert re.search(r"^Environment=SOCKETS_BIND=127\.0\.0\.1:8001$", unit, re.MULTILINE)
    values: dict[str, object] = {}
    source = (DEPLOY / "gunicorn_sockets.conf.py").read_text()
    exec(compile(source, "gunicorn_sockets.conf.py", "exec"), values)
    assert values["worker_class"] == "uvicorn_worker.UvicornWorker"
    assert values["bind"] == "127.0.0.1:8001"
