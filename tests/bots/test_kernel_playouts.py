"""The strong reference bot's playouts through the C kernel: the very cards and scores of
its pure-Python ``Playout.finish``, from positions of real hands (RULES.md section 4).

Skipped, saying why, where the kernel is not built (``make test`` builds it).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import pytest

from bots.reference.strong import Beliefs, Playout
from engine.actions import Play
from engine.cards import DECKS, Card
from engine.hand import new_hand
from engine.kernel import KERNEL, kernel_status, playouts
from engine.rules import pinochle_rules
from tests.bots.positions import positions

if KERNEL is None:
    # make test builds it (gcc and the Python headers); without them the pure engine runs.
    pytest.skip(f"the C kernel is {kernel_status()}", allow_module_level=True)


@dataclass(frozen=True)
class Position:
    """What a playout starts from, as the seat to move sees its own trick and the
    evaluator sees every hand."""

    seat: int
    trump: int
    declarer: int
    bid: int
    melds: list[int]
    trick: list[int]
    leader: int
    taken: list[int]
    hands: list[list[int]]
    masks: list[int]


def position(state: Any, rules: Any) -> Position:
    seat = state.current_player
    assert seat is not None and state.trump is not None and state.declarer is not None
    view = state.observation(seat)
    melds = [0, 0]
    for entry in view["melds"] or []:
        melds[entry["seat"] % 2] += entry["total"]
    leader = view["trick"]["leader"]
    hands = [DECKS[rules.deck].counts(state.hand(s)) for s in range(state.num_players)]
    return Position(
        seat=seat,
        trump=int(state.trump),
        declarer=state.declarer,
        bid=view["contract"]["bid"],
        melds=melds,
        trick=[int(Card.parse(name)) for name in view["trick"]["cards"]],
        leader=seat if leader is None else leader,
        taken=view["counters_taken"],
        hands=hands,
        masks=[sum(1 << f for f in range(24) if counts[f]) for counts in hands],
    )


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_greedy_playouts_are_the_strong_bots_own(variant: str) -> None:
    rules = pinochle_rules(variant)
    checked = 0
    for state, rng in positions(variant, 40):
        at = position(state, rules)
        through_kernel = Playout(rules, at.trump, at.declarer, at.bid, at.melds, at.seat)
        pure = Playout(rules, at.trump, at.declarer, at.bid, at.melds, at.seat)
        pure.kernel = False
        assert through_kernel.kernel
        faces = [action.card for action in state.legal_actions if isinstance(action, Play)]
        for face in [*faces, -1]:
            seed = rng.getrandbits(32)
            start = (at.trick, at.leader, at.taken, seed, face)
            ours = through_kernel.finish_seeded([h[:] for h in at.hands], at.masks[:], *start)
            theirs = pure.finish_seeded([h[:] for h in at.hands], at.masks[:], *start)
            assert ours == theirs, (variant, face, seed)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_uniform_seats_draw_as_random_playouts_beside_the_greedy_card_sense(variant: str) -> None:
    # An evaluator's rollout of the random bot: its seats uniform, the others by the card
    # sense. No uniform seat is the greedy playouts of before, every seat the random
    # playouts of before, draw for draw; some seats are the Python twin's cards.
    rules = pinochle_rules(variant)
    checked = 0
    for state, rng in positions(variant, 15):
        start = position(state, rules)
        trump, trick, leader, taken = start.trump, start.trick, start.leader, start.taken
        hands, masks = start.hands, start.masks
        pure = Playout(rules, trump, start.declarer, start.bid, start.melds, 0)
        pure.kernel = False
        faces = [action.card for action in state.legal_actions if isinstance(action, Play)]
        for face in [*faces, -1]:
            seed = rng.getrandbits(32)
            mixed = {seed % 4, seed // 4 % 4}

            at: dict[str, Any] = {
                "trump": trump,
                "hands": hands,
                "trick": trick,
                "leader": leader,
                "taken": taken,
                "rng": seed,
                "first": face,
            }

            def run(
                greedy: bool, uniform: Collection[int] = (), count: int = 3, at: Any = at
            ) -> list[tuple[int, ...]]:
                return playouts(rules, **at, count=count, greedy=greedy, uniform=uniform)

            assert run(True, (0, 1, 2, 3)) == run(False) == run(False, mixed)
            for uniform in ((), mixed, (0, 1, 2, 3)):
                [won] = run(True, uniform, count=1)
                theirs = pure.finish(
                    [h[:] for h in hands],
                    masks[:],
                    trick,
                    leader,
                    taken,
                    random.Random(seed).random,
                    face,
                    uniform_seats=uniform,
                )
                assert pure.score(won) == theirs, (variant, face, seed, uniform)
            checked += 1
    assert checked > 40
    with pytest.raises(ValueError, match="uniform"):
        playouts(
            rules,
            trump=0,
            hands=hands,
            trick=[],
            leader=0,
            taken=[0, 0],
            count=1,
            greedy=True,
            rng=1,
            uniform=(4,),
        )


def test_a_batch_of_random_playouts_keeps_every_counter() -> None:
    """Uniform playouts of a whole hand's tricks, in one batch: every counter and the
    last trick are taken, whatever the cards."""
    rules = pinochle_rules("single4")
    state = new_hand("single4", seed=3)
    hands = [DECKS["single"].counts(state.hand(seat)) for seat in range(4)]
    results = playouts(
        rules,
        trump=2,
        hands=hands,
        trick=[],
        leader=1,
        taken=[0, 0],
        count=500,
        greedy=False,
        rng=random.Random(1),
    )
    assert len(results) == 500 and len(set(results)) > 10
    assert all(sum(taken) == rules.total_in_tricks for taken in results)


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_sampled_deals_are_the_strong_bots_own(variant: str) -> None:
    """``Beliefs.sample`` through the kernel: the same hands, and the generator left as
    the pure sampler leaves it, from every seat of positions of real hands."""
    rules = pinochle_rules(variant)
    sampled = 0
    for state, rng in positions(variant, 25):
        for seat in range(4):
            beliefs = Beliefs(state.observation(seat), rules)
            if not beliefs.consistent():
                beliefs.forget_exclusions()
            assert beliefs.kernel
            seed = rng.getrandbits(64)
            ours, theirs = random.Random(seed), random.Random(seed)
            for _ in range(3):
                through_kernel = beliefs.sample(ours)
                beliefs.kernel = False
                pure = beliefs.sample(theirs)
                beliefs.kernel = True
                assert through_kernel == pure
                # The true hands are among the possible ones: the sizes agree.
                assert [sum(h) for h in pure] == [len(state.hand(s)) for s in range(4)]
                sampled += 1
            assert ours.getstate() == theirs.getstate()
    assert sampled > 200
