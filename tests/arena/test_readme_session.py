"""The README's curl session, run as written against a live server and a real worker."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from arena import services
from arena.models import Match
from bots.reference import reference_bots
from engine.registry import load_game
from tests.arena.live_server import live_server
from tests.arena.workers import (
    ROOT,
    celery_worker,
    require_sandbox,
    require_worker_services,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

STEP = "@@@ step {n} exit "


def readme_session() -> list[str]:
    """The commands of the README's first curl session, continuation lines joined."""
    readme = (ROOT / "README.md").read_text()
    after = readme.split("A first session with `curl`", 1)[1]
    block = re.search(r"```sh\n(.*?)```", after, re.DOTALL)
    assert block is not None, "the README has no curl session"
    commands: list[str] = []
    pending = ""
    for line in block.group(1).splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line
        if pending.endswith("\\"):
            pending += "\n"
            continue
        commands.append(pending)
        pending = ""
    return commands


def _run(commands: list[str], arena: str, cwd: Path) -> list[tuple[str, int, str]]:
    """Run the commands in one shell, as a reader pasting them would; each one's output."""
    assert commands[0].startswith("ARENA="), "the session starts by naming the server"
    script = [f"ARENA={arena}"]
    for n, command in enumerate(commands[1:], start=1):
        marker = STEP.format(n=n)
        script += [command, f"printf '\\n{marker}%s\\n' $?"]
    script.append("printf 'TOKEN=%s BOT=%s GREEDY=%s MATCH=%s\\n' $TOKEN $BOT $GREEDY $MATCH")
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    print(done.stdout[-6000:], done.stderr[-2000:])
    results = []
    rest = done.stdout
    for n, command in enumerate(commands[1:], start=1):
        output, rest = rest.split("\n" + STEP.format(n=n), 1)
        code, rest = rest.split("\n", 1)
        results.append((command, int(code), output))
    results.append(("variables", 0, rest))
    return results


def _json(text: str) -> Any:
    return json.loads(text)


def test_the_readme_curl_session_works_as_written(tmp_path: Path) -> None:
    require_worker_services()
    require_sandbox()
    commands = readme_session()
    # What `make demo` provides: bob's reference greedy bot, validated by the worker.
    bob = services.player_register(username="bob", password="demo-password-2026")
    greedy = services.bot_create(owner=bob, name="greedy-auction4", variant="auction4")
    source = reference_bots(load_game("auction4"))["greedy"].read_bytes()
    with celery_worker(tmp_path, "w1"), live_server(tmp_path) as server:
        services.bot_version_submit(bot=greedy, data=source, filename="bot.py")
        wait_for(lambda: greedy.versions.filter(status="active").exists(), 120, "the reference bot")
        steps = _run(commands, server.url, tmp_path)

    for command, code, output in steps:
        assert code == 0, (command, output)
    by_start: dict[str, str] = {}
    for command, _, output in steps:
        by_start.setdefault(_key(command), output)
    registered = _json(by_start["curl -s -X POST $ARENA/api/players/"])
    assert registered["username"] == "dora" and registered["token"]
    uploaded = _json(by_start["curl -s -X POST $ARENA/api/bots/$BOT/versions/"])
    assert uploaded["status"] == "pending" and uploaded["number"] == 1
    assert uploaded["url"] == f"/api/bots/{uploaded['bot']}/versions/1/"
    validated = _json(by_start["curl -s $ARENA/api/bots/$BOT/versions/1/"])
    assert validated["status"] == "active", validated["build_log"]
    result = _json(by_start["curl -s $ARENA/api/matches/$MATCH/"])
    assert result["status"] == "done" and len(result["boards"]) == 4
    assert result["version_x"]["id"] == uploaded["id"]
    assert result["version_y"]["name"] == "greedy-auction4"
    replay = _json(by_start['curl -s "$ARENA/api/matches/$MATCH/replay/?board=1&table=A"'])
    assert [(game["board"], game["table"]) for game in replay["games"]] == [(1, "A")]
    verification = _json(by_start["curl -s $ARENA/api/matches/$MATCH/verification/"])
    assert (verification["verified"], verification["problems"]) == (True, [])
    variables = dict(item.split("=", 1) for item in steps[-1][2].split())
    assert variables["MATCH"] == str(result["id"])
    assert Match.objects.count() == 1


def _key(command: str) -> str:
    """A command named by what it starts with, before its headers and data."""
    return command.split(" -H ")[0].split(" -d ")[0].split(" -F ")[0].strip()
