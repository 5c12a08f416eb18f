"""The SDK: decisions dispatched by phase, and bots run over stdin/stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bots.sdk import Bot, uses_sdk

ROOT = Path(__file__).resolve().parents[2]

HELLO = {"type": "hello", "id": 0, "protocol": 1, "seat": 1}


class Recorder(Bot):
    def bid(self, observation: dict[str, object], legal: list[str]) -> str:
        return "pass"

    def play(self, observation: dict[str, object], legal: list[str]) -> str:
        return legal[-1]


def test_each_phase_reaches_its_own_method() -> None:
    bot = Recorder()
    assert bot.handle(HELLO) == {"type": "ready", "id": 0, "protocol": 1, "name": "Recorder"}
    assert bot.seat == 1
    auction = {
        "type": "act",
        "id": 1,
        "observation": {"phase": "auction"},
        "legal": ["bid 250", "pass"],
    }
    tricks = {
        "type": "act",
        "id": 2,
        "observation": {"phase": "tricks"},
        "legal": ["play AS", "play 9S"],
    }
    trump = {
        "type": "act",
        "id": 3,
        "observation": {"phase": "trump"},
        "legal": ["trump H", "trump S"],
    }
    assert bot.handle(auction) == {"type": "action", "id": 1, "action": "pass"}
    assert bot.handle(tricks) == {"type": "action", "id": 2, "action": "play 9S"}
    assert bot.handle(trump) == {"type": "action", "id": 3, "action": "trump H"}
    assert bot.handle({"type": "event", "board": 1, "seat": 0, "action": "pass"}) is None


def test_sdk_use_is_recognised_without_running_the_module() -> None:
    assert uses_sdk("from bots.sdk import Bot\nclass B(Bot):\n    pass\n")
    assert uses_sdk("def act(observation, legal):\n    return legal[0]\n")
    assert uses_sdk("from bots.reference.greedy import GreedyBot\nclass Mine(GreedyBot): pass\n")
    assert not uses_sdk("import json, sys\nfor line in sys.stdin:\n    pass\n")


def _converse(
    tmp_path: Path, source: str, messages: list[dict[str, object]]
) -> list[dict[str, object]]:
    bot_file = tmp_path / "bot.py"
    bot_file.write_text(source)
    completed = subprocess.run(
        [sys.executable, "-m", "bots.sdk", str(bot_file)],
        input="".join(json.dumps(message) + "\n" for message in messages),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in completed.stdout.splitlines()]


ACT = {"type": "act", "id": 1, "observation": {"phase": "tricks"}, "legal": ["play AS", "play 9S"]}


def test_a_module_with_an_act_function_runs_under_the_sdk(tmp_path: Path) -> None:
    replies = _converse(
        tmp_path,
        "NAME = 'last'\ndef act(observation, legal):\n    return legal[-1]\n",
        [HELLO, {"type": "hand_start", "board": 1}, ACT, {"type": "bye"}],
    )
    assert replies == [
        {"type": "ready", "id": 0, "protocol": 1, "name": "last"},
        {"type": "action", "id": 1, "action": "play 9S"},
    ]


def test_a_bot_subclass_runs_under_the_sdk(tmp_path: Path) -> None:
    replies = _converse(
        tmp_path,
        "from bots.sdk import Bot\n\nclass Last(Bot):\n"
        "    def play(self, observation, legal):\n        return legal[-1]\n",
        [HELLO, ACT, {"type": "bye"}],
    )
    assert replies == [
        {"type": "ready", "id": 0, "protocol": 1, "name": "Last"},
        {"type": "action", "id": 1, "action": "play 9S"},
    ]


def test_a_bot_module_may_define_dataclasses(tmp_path: Path) -> None:
    replies = _converse(
        tmp_path,
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n\n"
        "@dataclass\nclass Memory:\n    seen: int = 0\n\n"
        "MEMORY = Memory()\n\n"
        "def act(observation, legal):\n    MEMORY.seen += 1\n    return legal[0]\n",
        [HELLO, ACT, {"type": "bye"}],
    )
    assert replies[1] == {"type": "action", "id": 1, "action": "play AS"}


def test_a_plain_protocol_script_is_run_once_as_the_main_program(tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "print(json.dumps({'type': 'log', 'started': True}), file=sys.stderr)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'id': 0, 'protocol': 1}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        answer = {'type': 'action', 'id': m['id'], 'action': m['legal'][0]}\n"
        "        print(json.dumps(answer), flush=True)\n"
    )
    replies = _converse(tmp_path, script, [HELLO, ACT])
    assert replies == [
        {"type": "ready", "id": 0, "protocol": 1},
        {"type": "action", "id": 1, "action": "play AS"},
    ]
