"""The Pinnacolo reference bots play whole hands legally; greedy beats random."""

from __future__ import annotations

from bots.reference.pinnacolo_greedy import PinnacoloGreedyBot
from bots.reference.random_bot import RandomBot
from bots.sdk import Bot
from engine.pinnacolo import PinnacoloReplay, PinnacoloResult, new_hand


def play_hand(variant: str, seed: int, bots: list[Bot]) -> PinnacoloResult:
    state = new_hand(variant, seed=seed, dealer=seed % len(bots))
    for seat, bot in enumerate(bots):
        bot.handle({"type": "hello", "id": 0, "protocol": 1, "seat": seat})
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = [str(action) for action in state.legal_actions]
        reply = bots[seat].handle(
            {"type": "act", "id": 1, "observation": state.observation(seat), "legal": legal}
        )
        assert reply is not None
        state.apply(reply["action"])
    assert PinnacoloReplay.from_state(state).verify() is None
    return state.result()


def test_the_bots_play_every_variant() -> None:
    for variant, players in (("pinnacolo2", 2), ("pinnacolo3", 3), ("pinnacolo", 4)):
        bots: list[Bot] = [
            PinnacoloGreedyBot() if seat % 2 else RandomBot() for seat in range(players)
        ]
        play_hand(variant, 7, bots)


def test_greedy_beats_random_over_a_few_hands() -> None:
    total = 0
    for seed in range(6):
        greedy_first = seed % 2 == 0
        bots: list[Bot] = (
            [PinnacoloGreedyBot(), RandomBot()]
            if greedy_first
            else [RandomBot(), PinnacoloGreedyBot()]
        )
        sides = play_hand("pinnacolo2", seed, bots).side_scores
        total += sides[0] - sides[1] if greedy_first else sides[1] - sides[0]
    assert total > 0
