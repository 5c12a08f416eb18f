"""The SDK's determinized search (``bots.search``): worlds consistent with what a seat has
seen, playouts by a chosen policy, the same through the C kernel and pure Python, and the
Monte Carlo example of bots/PROTOCOL.md playing whole matches, in the sandbox too."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from arena.runner import MatchPlan, VersionFiles, run_match
from arena.sandbox.deployment import sandbox_config
from bots import play
from bots.search import Search
from engine import kernel
from engine.cards import DECKS, Card
from engine.hand import new_hand
from engine.registry import load_game
from engine.rules import pinochle_rules
from tests.arena.workers import require_sandbox
from tests.bots.positions import positions

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ["single4", "auction4", "double4"]


def example_bot() -> str:
    """The Monte Carlo bot exactly as the protocol page prints it."""
    text = (ROOT / "bots" / "PROTOCOL.md").read_text()
    section = text.split("## Searching without writing an engine", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def voids(observation: dict[str, Any]) -> dict[int, set[str]]:
    """RULES.md section 4: a player must follow the suit led when able, so a card of
    another suit shows a void in the led one."""
    shown: dict[int, set[str]] = {seat: set() for seat in range(4)}
    tricks = [*observation["tricks"]]
    if observation["trick"]["cards"]:
        tricks.append(observation["trick"])
    for trick in tricks:
        led = trick["cards"][0][-1]
        for position, card in enumerate(trick["cards"][1:], start=1):
            if card[-1] != led:
                shown[(int(trick["leader"]) + position) % 4].add(led)
    return shown


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_world_holds_every_unseen_card_once_and_what_the_seat_saw(variant: str) -> None:
    rules = pinochle_rules(variant)
    pack = Counter(str(card) for card in DECKS[rules.deck].cards())
    sampled = 0
    for state, _ in positions(variant, 12):
        seat = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        search = Search(observation)
        played = Counter(card for trick in observation["tricks"] for card in trick["cards"])
        played += Counter(observation["trick"]["cards"])
        rng = random.Random(seat)
        for _ in range(5):
            world = search.sample(rng)
            # The seat's own hand is its own; every other seat holds as many cards as it
            # really does; with the cards played, the four hands are the whole pack.
            assert sorted(world[seat]) == sorted(observation["hand"])
            assert [len(hand) for hand in world] == observation["hand_sizes"]
            assert sum((Counter(hand) for hand in world), played) == pack
            for other, suits in voids(observation).items():
                assert not [card for card in world[other] if card[-1] in suits], (other, suits)
            sampled += 1
    assert sampled >= 50


@pytest.mark.skipif(kernel.KERNEL is None, reason="the C kernel is not built (make engine-kernel)")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_kernel_and_pure_python_give_the_same_worlds_and_playouts(variant: str) -> None:
    compared = 0
    for state, _ in positions(variant, 12):
        seat = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        fast, slow = Search(observation), Search(observation)
        assert fast.kernel
        slow.beliefs.kernel = slow._playout.kernel = False
        ours, theirs = random.Random(7), random.Random(7)
        legal = [str(action).split()[1] for action in state.legal_actions]
        for _ in range(3):
            world = fast.sample(ours)
            assert slow.sample(theirs) == world
            seed = ours.getrandbits(32)
            assert theirs.getrandbits(32) == seed
            for card in [*legal, None]:
                for policy in ("greedy", "random"):
                    a = fast.playout(world, card, policy=policy, seed=seed)
                    b = slow.playout(world, card, policy=policy, seed=seed)
                    assert a == b, (variant, card, policy, seed)
                    compared += 1
    assert compared > 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_random_playout_in_the_real_deal_is_the_engines_own_random_finish(variant: str) -> None:
    """In the true world, the random policy plays the cards the engine's own random finish
    plays for the same seed, and scores the hand as the engine does (RULES.md section 5),
    from the seat's side."""
    compared = 0
    for state, _ in positions(variant, 10):
        seat = state.current_player
        assert seat is not None
        search = Search(state.observation(seat))
        world = [[str(Card(face)) for face in state.hand(s)] for s in range(4)]
        for seed in range(5):
            mine = search.playout(world, None, policy="random", seed=seed)
            finished = state.copy()
            finished.play_randomly(random.Random(seed))
            scores = finished.result().team_scores
            assert mine == scores[seat % 2] - scores[1 - seat % 2], (variant, seed)
            compared += 1
    assert compared == 50


def test_a_search_is_refused_where_it_does_not_apply() -> None:
    auction = new_hand("auction4", seed=3)
    with pytest.raises(ValueError, match="starts in the trick play, not in phase 'auction'"):
        Search(auction.observation(0))
    [(state, _)] = positions("single4", 1)
    seat = state.current_player
    assert seat is not None
    search = Search(state.observation(seat))
    world = search.sample(random.Random(1))
    stranger = next(card for card in world[(seat + 1) % 4] if card not in world[seat])
    with pytest.raises(ValueError, match=f"{stranger} is not in this seat's hand"):
        search.playout(world, stranger)
    with pytest.raises(ValueError, match="policy is 'greedy' or 'random', not 'clever'"):
        search.playout(world, policy="clever")  # type: ignore[arg-type]


def test_the_protocol_pages_monte_carlo_bot_plays_a_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "montecarlo.py"
    path.write_text(example_bot())
    argv = [str(path), "--vs", "greedy", "--variant", "auction4", "--boards", "2"]
    argv += ["--decision-ms", "60000", "--bank-ms", "600000", "--json", "--quiet"]
    assert play.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["faults"], report["boards"]) == (0, 2)


KERNEL_CHECK = """
from engine import kernel

def act(observation, legal):
    # An illegal answer, naming the reason, if the sandbox's engine has no kernel.
    return legal[0] if kernel.KERNEL is not None else "no kernel: " + kernel.kernel_status()
"""


@pytest.mark.skipif(kernel.KERNEL is None, reason="the C kernel is not built (make engine-kernel)")
def test_a_sandboxed_bot_searches_through_the_same_kernel() -> None:
    require_sandbox()
    game = load_game("single4")
    plan = MatchPlan(
        game=game,
        rules=game.rules_for(None),
        seed=5,
        boards=1,
        x=VersionFiles(1, "module", example_bot().encode()),
        y=VersionFiles(2, "module", KERNEL_CHECK.encode()),
        decision_ms=60_000,
        bank_ms=600_000,
        startup_ms=60_000,
    )
    outcome = run_match(plan, config=sandbox_config(), sandboxed=True)
    faults = [record.fault for board in outcome.boards for record in board.tables.values()]
    assert outcome.faults == 0, faults
