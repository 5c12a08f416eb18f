"""A bot written without the SDK, from bots/PROTOCOL.md alone, plays whole boards."""

from __future__ import annotations

from arena.runner import MatchPlan, VersionFiles, run_match
from arena.sandboxing import sandbox_config
from bots.games import game_for
from engine.rules import rules_for
from tests.arena.conftest import FIRST_LEGAL_BOT
from tests.arena.workers import require_sandbox

# Speaks the protocol by hand: no import of the SDK, the engine or anything of ours.
RAW_SCRIPT = b"""import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        reply = {"type": "ready", "id": message["id"], "protocol": 1, "name": "raw"}
    elif kind == "act":
        legal = message["legal"]
        plays = [action for action in legal if action.startswith("play ")]
        reply = {"type": "action", "id": message["id"], "action": (plays or legal)[-1]}
    elif kind == "bye":
        break
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""


def test_a_raw_json_lines_script_plays_a_duplicate_match_in_the_sandbox() -> None:
    require_sandbox()
    plan = MatchPlan(
        game=game_for("single4"),
        rules=rules_for("single4"),
        seed=2024,
        boards=3,
        x=VersionFiles(1, "module", RAW_SCRIPT),
        y=VersionFiles(2, "module", FIRST_LEGAL_BOT),
        decision_ms=2000,
        bank_ms=30_000,
    )
    outcome = run_match(plan, config=sandbox_config(), sandboxed=True)
    assert outcome.faults == 0, [r.fault for b in outcome.boards for r in b.tables.values()]
    assert len(outcome.boards) == 3
    for board in outcome.boards:
        for record in board.tables.values():
            assert record.result is not None
            # RULES.md section 4: single4 puts 25 points in the tricks, all of them taken.
            assert sum(team.counters + team.last_trick for team in record.result.teams) == 25
