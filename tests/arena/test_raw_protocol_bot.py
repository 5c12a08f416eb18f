"""A bot written without the SDK, from bots/PROTOCOL.md alone, plays whole boards."""

from __future__ import annotations

from arena.runner import MatchPlan, VersionFiles, run_match
from arena.sandbox.deployment import sandbox_config
from engine.registry import load_game
from tests.arena.conftest import FIRST_LEGAL_BOT
from tests.arena.workers import require_sandbox
from tests.bots.raw_bot import RAW_BOT


def test_a_raw_json_lines_script_plays_a_duplicate_match_in_the_sandbox() -> None:
    require_sandbox()
    game = load_game("single4")
    plan = MatchPlan(
        game=game,
        rules=game.rules_for(None),
        seed=2024,
        boards=3,
        x=VersionFiles(1, "module", RAW_BOT.encode()),
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
