"""The local runner plays any program that speaks the protocol, through the arena's table.

A Python script written from PROTOCOL.md alone, or any command line (``--cmd``), plays a
duplicate match against a reference bot; the same bots with the same seed give the same
board results as the arena's match runner, so a local result predicts the arena's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from arena.runner import MatchPlan, VersionFiles, run_match
from arena.sandbox import SandboxConfig
from bots import play
from bots.play import Program, run
from bots.protocol import TimeControl
from engine.registry import load_game
from tests.bots.raw_bot import RAW_BOT

ROOT = Path(__file__).resolve().parents[2]


FIRST_LEGAL = "NAME = 'first'\n\ndef act(observation, legal):\n    return legal[0]\n"


@pytest.fixture
def raw_bot(tmp_path: Path) -> Path:
    path = tmp_path / "rawbot.py"
    path.write_text(RAW_BOT)
    return path


# Bots meant to answer get a clock they meet however busy the machine.
GENEROUS = TimeControl(decision_ms=60_000, bank_ms=600_000, startup_ms=60_000)
GENEROUS_ARGS = ["--decision-ms", "60000", "--bank-ms", "600000"]


def summary(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert play.main([*argv, *GENEROUS_ARGS, "--json", "--quiet"]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def test_a_raw_protocol_python_file_plays_a_match_against_a_reference_bot(
    raw_bot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = summary(
        capsys, str(raw_bot), "--vs", "greedy", "--variant", "single4", "--boards", "3"
    )
    assert report["faults"] == 0
    assert report["boards"] == 3


def test_a_command_line_plays_the_same_match_as_the_file(
    raw_bot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--vs", "greedy", "--variant", "single4", "--boards", "3"]
    by_file = summary(capsys, str(raw_bot), *common)
    by_command = summary(capsys, "--cmd", f"{sys.executable} {raw_bot}", *common)
    assert by_command["faults"] == 0
    assert by_command["bot"] == f"{sys.executable} {raw_bot}"
    assert {key: by_command[key] for key in ("total", "won", "lost", "tied")} == {
        key: by_file[key] for key in ("total", "won", "lost", "tied")
    }


def test_the_opponent_may_be_a_command_line_too(
    raw_bot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = summary(
        capsys,
        "greedy",
        "--vs-cmd",
        f"{sys.executable} {raw_bot}",
        "--variant",
        "double4",
        "--boards",
        "2",
    )
    assert report["faults"] == 0
    assert report["vs"] == f"{sys.executable} {raw_bot}"


def test_it_refuses_both_a_bot_and_a_command(raw_bot: Path) -> None:
    with pytest.raises(SystemExit):
        play.main([str(raw_bot), "--cmd", "true"])


@pytest.mark.parametrize("variant", ["single4", "twohand"])
def test_the_local_result_is_the_arenas_for_the_same_bots_and_seed(
    raw_bot: Path, tmp_path: Path, variant: str
) -> None:
    first = tmp_path / "first.py"
    first.write_text(FIRST_LEGAL)
    game = load_game(variant)
    rules = game.rules_for(None)
    clock = GENEROUS
    local, local_faults = run(
        Program.python_script(raw_bot),
        Program.python_script(first),
        game=game,
        rules=rules,
        boards=3,
        seed=2024,
        clock=clock,
    )
    plan = MatchPlan(
        game=game,
        rules=rules,
        seed=2024,
        boards=3,
        x=VersionFiles(1, "module", RAW_BOT.encode()),
        y=VersionFiles(2, "module", FIRST_LEGAL.encode()),
        decision_ms=clock.decision_ms,
        bank_ms=clock.bank_ms,
        startup_ms=clock.startup_ms,
    )
    config = SandboxConfig(runtime_packages=(str(ROOT / "engine"), str(ROOT / "bots")))
    arena = run_match(plan, config=config, sandboxed=False)
    assert local_faults == arena.faults == 0
    assert local == [board.result for board in arena.boards]


CRASH_AT_START = "import sys\nsys.exit(3)\n"
SLEEPER = (
    "import json, sys, time\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'hello':\n"
    "        print(json.dumps({'type': 'ready', 'id': 0, 'protocol': 1}), flush=True)\n"
    "    elif message['type'] == 'act':\n"
    "        time.sleep(600)\n"
)
PROSE = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'hello':\n"
    "        print(json.dumps({'type': 'ready', 'id': 0, 'protocol': 1}), flush=True)\n"
    "    elif message['type'] == 'act':\n"
    "        print('I play the ace', flush=True)\n"
)
# Its answer and an extra line leave in one write, so the host has both before it moves on.
CHATTY = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'hello':\n"
    "        print(json.dumps({'type': 'ready', 'id': 0, 'protocol': 1}), flush=True)\n"
    "    elif message['type'] == 'act':\n"
    "        answer = {'type': 'action', 'id': message['id'], 'action': message['legal'][0]}\n"
    "        sys.stdout.write(json.dumps(answer) + '\\n' + json.dumps({'type': 'log'}) + '\\n')\n"
    "        sys.stdout.flush()\n"
)


@pytest.mark.parametrize(
    ("source", "kind", "reason"),
    [
        (CRASH_AT_START, "crash", "exited with status 3 before answering"),
        (SLEEPER, "timeout", "within 200 ms"),
        (PROSE, "protocol", "reply is not valid JSON"),
        (CHATTY, "protocol", "wrote output that answers no request"),
    ],
    ids=["crash-at-start", "timeout", "not-json", "unasked-output"],
)
def test_a_faulting_program_forfeits_every_board_as_in_the_arena(
    tmp_path: Path, source: str, kind: str, reason: str
) -> None:
    bot = tmp_path / "faulty.py"
    bot.write_text(source)
    game = load_game("single4")
    rules = game.rules_for(None)
    faults: list[tuple[str, str]] = []
    results, count = run(
        Program.python_script(bot),
        play._load("greedy", game),
        game=game,
        rules=rules,
        boards=2,
        seed=7,
        # A program that sleeps for ten minutes misses any deadline; a short one keeps the
        # test short. The others get a clock they meet however busy the machine.
        clock=TimeControl(decision_ms=200, bank_ms=60_000, startup_ms=60_000)
        if source is SLEEPER
        else GENEROUS,
        on_board=lambda table, record: faults.append(
            (record.fault.kind, record.fault.reason) if record.fault else ("", "")
        ),
    )
    assert count == 4  # both boards at both tables
    assert all(result < 0 for result in results)
    assert {fault_kind for fault_kind, _ in faults} == {kind}
    assert all(reason in fault_reason for _, fault_reason in faults), faults
