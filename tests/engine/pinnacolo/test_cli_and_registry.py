"""The registry's Pinnacolo entries (RULES.md section 10); ``play`` and ``replay verify``
are checked for every variant in ``tests/engine/test_variant_contract.py``."""

from __future__ import annotations

import pytest

from engine.registry import load_game


@pytest.mark.parametrize(("variant", "players"), [("pinnacolo", 4), ("pinnacolo2", 2)])
def test_the_registry_deals_pinnacolo(variant: str, players: int) -> None:
    game = load_game(variant)
    assert (game.name, game.players) == ("pinnacolo", players)
    state = game.new_initial_state(seed=3, dealer=0)
    assert state.current_player == 1
    assert len(state.observation(0)["hand"]) == 13
