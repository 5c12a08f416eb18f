"""Every reference bot plays whole duplicate boards of every preset, legally and replayably."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bots.play import run
from bots.protocol import TimeControl
from bots.reference import REFERENCE_BOTS, variants_played_by
from bots.sdk import Bot, bot_from_module, load_module
from engine.registry import load_game

PARTNERSHIP_VARIANTS = variants_played_by(REFERENCE_BOTS)

BOARDS = 4


def maker(name: str) -> Callable[[], Bot]:
    """Load the reference module as an uploaded bot.py would be, then make fresh bots."""
    module = load_module(REFERENCE_BOTS[name])

    def make() -> Bot:
        bot = bot_from_module(module)
        assert bot is not None
        if hasattr(bot, "max_card_plays"):
            # The strong bot's search is sized for real matches; a smaller one runs the
            # same code in a fraction of the time.
            bot.max_card_plays = 1_000
            bot.kernel_max_card_plays = 10_000
            bot.min_card_plays = 100
        return bot

    return make


def test_the_three_reference_bots_are_registered() -> None:
    assert {"random", "greedy", "strong"} <= set(REFERENCE_BOTS)
    assert all(path.is_file() for path in REFERENCE_BOTS.values())


@pytest.mark.parametrize("variant", PARTNERSHIP_VARIANTS)
@pytest.mark.parametrize(("name", "opponent"), [("random", "greedy"), ("strong", "greedy")])
def test_it_plays_duplicate_boards_without_faults_and_replays_them(
    name: str, opponent: str, variant: str
) -> None:
    game = load_game(variant)
    rules = game.rules_for(None)
    # A clock so generous that the strong bot's safety stop is out of reach however busy
    # the machine: its work budget alone bounds its search, so the two runs play alike.
    clock = TimeControl(decision_ms=60_000, bank_ms=600_000, startup_ms=60_000)
    first = run(
        maker(name), maker(opponent), game=game, rules=rules, boards=BOARDS, seed=11, clock=clock
    )
    again = run(
        maker(name), maker(opponent), game=game, rules=rules, boards=BOARDS, seed=11, clock=clock
    )
    results, faults = first
    assert faults == 0
    assert len(results) == BOARDS
    assert again == first
