"""The three-hand and two-hand strong reference bots: legal, deterministic, within budget.

Positions come from random legal play of random deals. The bots' beliefs are checked
against the real hands (RULES.md 7.2: the widow goes to the declarer, who buries three
cards; 4: what a card that did not follow, head or trump shows), their answers against
the legal actions, their work against their budget (counted in card plays, never timed),
and their play against itself: the same position and seed give the same card, with the C
kernel or without it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bots import protocol
from bots.reference import reference_bots
from bots.reference.strong2 import Solver, StrongTwoHandBot, other_hand
from bots.reference.strong3 import CutthroatBeliefs, StrongCutthroatBot
from bots.reference.trickplay import Tricks
from bots.sdk import Bot
from bots.table import hello_for
from engine.actions import ThrowIn
from engine.cards import DECKS, NUM_FACES, Card
from engine.cutthroat import CutthroatState, new_cutthroat_hand
from engine.kernel import KERNEL
from engine.registry import load_game
from engine.rules import Pinochle2Rules, pinochle_rules
from engine.trickstate import Phase
from engine.twohand import TwoHandState, new_twohand_hand

ARENA = protocol.TimeControl(decision_ms=1000, bank_ms=60_000, startup_ms=10_000)


def cutthroat_positions(count: int, *, throw_in: bool = False) -> Iterator[CutthroatState]:
    """Three-hand hands played at random into the tricks (or to the throw-in)."""
    found = 0
    for seed in range(count * 3):
        state = new_cutthroat_hand("cutthroat3", seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal() and state.phase not in (Phase.TRICKS, Phase.THROW_IN):
            legal = list(state.legal_actions)
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_terminal():
            continue
        if not throw_in:
            if state.phase is Phase.THROW_IN:
                state.apply("play-on")
            for _ in range(rng.randrange(0, 45)):
                legal = list(state.legal_actions)
                state.apply(legal[rng.randrange(len(legal))])
        yield state
        found += 1
        if found == count:
            return


def twohand_positions(count: int) -> Iterator[TwoHandState]:
    """Two-hand hands played at random to some decision: stock, meld or play-out."""
    for seed in range(count):
        state = new_twohand_hand("twohand", seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 60)):
            legal = list(state.legal_actions)
            state.apply(legal[rng.randrange(len(legal))])
            if state.is_terminal():
                break
        if not state.is_terminal():
            yield state


def ask(
    bot: Bot, state: Any, variant: str, clock: protocol.TimeControl = ARENA, board: int = 3
) -> tuple[str, list[str]]:
    """The bot's answer at the seat to move, through the protocol's messages (as JSON)."""
    game = load_game(variant)
    seat = state.current_player
    assert seat is not None
    hello = hello_for(game, game.rules_for(None), seat=seat, boards=10, time=clock)
    bot.handle(json.loads(json.dumps(hello)))
    start = protocol.hand_start_message(board=board, dealer=state.dealer, seat=seat, hand=[])
    bot.handle(start)
    legal = [str(action) for action in state.legal_actions]
    message = protocol.act_message(
        request_id=1,
        board=board,
        observation=game.observer.seat_view(state, seat),
        legal=legal,
        time_left_ms=clock.bank_ms,
    )
    reply = bot.handle(json.loads(json.dumps(message)))
    assert reply is not None
    return str(reply["action"]), legal


def test_strong_is_the_reference_bot_of_both_games() -> None:
    assert reference_bots(load_game("cutthroat3"))["strong"].name == "strong3.py"
    assert reference_bots(load_game("twohand"))["strong"].name == "strong2.py"


def test_cutthroat_beliefs_hold_for_the_real_hands() -> None:
    """Everything a seat infers is true of the real deal, and every sampled deal keeps
    what it saw: its own hand, the sizes, the meld still held, the voids shown."""
    rules = pinochle_rules("cutthroat3")
    checked = 0
    for state in cutthroat_positions(40):
        for seat in range(3):
            view = state.observation(seat)
            beliefs = CutthroatBeliefs(view, rules)
            real = [DECKS[rules.deck].counts(state.hand(s)) for s in range(3)]
            for other in beliefs.others:
                assert all(beliefs.held[other][f] <= real[other][f] for f in range(NUM_FACES))
                assert not any(
                    beliefs.excluded[other] >> f & 1 and real[other][f] for f in range(NUM_FACES)
                )
            rng = random.Random(seat)
            for _ in range(5):
                hands, pile = beliefs.sample(rng, use_kernel=KERNEL is not None)
                assert hands[seat] == real[seat]
                assert [sum(hand) for hand in hands] == [sum(hand) for hand in real]
                assert sum(pile) == rules.widow_size
                for other in beliefs.others:
                    assert all(hands[other][f] >= beliefs.held[other][f] for f in range(24))
                    assert not any(
                        beliefs.excluded[other] >> f & 1 and hands[other][f] for f in range(24)
                    )
                played = [0] * NUM_FACES
                for trick in [*view["tricks"], view["trick"]]:
                    for name in trick["cards"]:
                        played[Card.parse(name)] += 1
                for face in range(NUM_FACES):
                    total = sum(hand[face] for hand in hands) + pile[face] + played[face]
                    assert total == DECKS[rules.deck].copies[face]
            checked += 1
    assert checked >= 100


def test_cutthroat_answers_are_legal_and_the_same_for_the_same_seed() -> None:
    for state in [*cutthroat_positions(25), *cutthroat_positions(8, throw_in=True)]:
        action, legal = ask(StrongCutthroatBot(), state, "cutthroat3")
        assert action in legal
        again, _ = ask(StrongCutthroatBot(), state, "cutthroat3")
        assert again == action


@pytest.mark.skipif(KERNEL is None, reason="the C kernel is not built")
def test_cutthroat_plays_the_same_cards_with_or_without_the_kernel() -> None:
    for state in cutthroat_positions(20):
        pure = StrongCutthroatBot()
        pure.use_kernel = False
        kernel = StrongCutthroatBot()
        assert kernel.use_kernel
        assert ask(pure, state, "cutthroat3")[0] == ask(kernel, state, "cutthroat3")[0]
        assert pure.last_card_plays == kernel.last_card_plays


@pytest.mark.parametrize(
    "clock",
    [
        ARENA,
        protocol.TimeControl(decision_ms=60, bank_ms=60_000, startup_ms=10_000),
        protocol.TimeControl(decision_ms=1000, bank_ms=4_000, startup_ms=10_000),
        protocol.TimeControl(decision_ms=10, bank_ms=1_000, startup_ms=10_000),
    ],
)
def test_cutthroat_search_stays_within_its_budget(clock: protocol.TimeControl) -> None:
    for state in cutthroat_positions(12):
        bot = StrongCutthroatBot()
        action, legal = ask(bot, state, "cutthroat3", clock)
        assert action in legal
        budget = bot.work_budget(state.observation(state.current_player))
        assert bot.last_card_plays <= budget
        if not budget:
            assert bot.last_deals == 0


def test_twohand_answers_are_legal_and_the_same_for_the_same_seed() -> None:
    phases = set()
    for state in twohand_positions(120):
        phases.add(state.phase)
        action, legal = ask(StrongTwoHandBot(), state, "twohand")
        assert action in legal
        again, _ = ask(StrongTwoHandBot(), state, "twohand")
        assert again == action
    assert phases == {Phase.TRICKS, Phase.MELD, Phase.PLAY_OUT}


def play_out_positions(count: int) -> list[TwoHandState]:
    return [state for state in twohand_positions(count * 4) if state.phase is Phase.PLAY_OUT][
        :count
    ]


@pytest.mark.skipif(KERNEL is None, reason="the C kernel is not built")
def test_twohand_plays_the_same_cards_with_or_without_the_kernel() -> None:
    for state in play_out_positions(20):
        pure = StrongTwoHandBot()
        pure.use_kernel = False
        kernel = StrongTwoHandBot()
        assert ask(pure, state, "twohand")[0] == ask(kernel, state, "twohand")[0]
        assert pure.last_card_plays == kernel.last_card_plays


@pytest.mark.parametrize(
    "clock",
    [ARENA, protocol.TimeControl(decision_ms=40, bank_ms=60_000, startup_ms=10_000)],
)
def test_twohand_search_stays_within_its_budget(clock: protocol.TimeControl) -> None:
    for state in play_out_positions(25):
        bot = StrongTwoHandBot()
        action, legal = ask(bot, state, "twohand", clock)
        assert action in legal
        assert bot.last_card_plays <= bot.work_budget(state.observation(0))


def test_the_other_hand_in_the_play_out_is_known_exactly() -> None:
    """RULES.md 7.1: once the stock is empty, every card is in a hand or played."""
    rules = pinochle_rules("twohand")
    assert isinstance(rules, Pinochle2Rules)
    for state in play_out_positions(15):
        seat = state.current_player
        assert seat is not None
        other = DECKS[rules.deck].counts(state.hand(1 - seat))
        assert other_hand(state.observation(seat), rules) == other


def brute_force(tricks: Tricks, hands: list[list[int]], leader: int, seat: int) -> int:
    """``seat``'s counters under best play by both, without memory or shortcuts."""
    best: int | None = None
    for led in range(NUM_FACES):
        if not hands[leader][led]:
            continue
        hands[leader][led] -= 1
        solver = Solver(tricks, seat, 10**9)
        worst: int | None = None
        for face, winner in solver.follow(hands, led, leader):
            hands[1 - leader][face] -= 1
            pot = tricks.points[led] + tricks.points[face]
            if any(hands[0]):
                rest = brute_force(tricks, hands, winner, seat)
            else:
                rest, pot = 0, pot + tricks.last_bonus
            got = rest + (pot if winner == seat else 0)
            hands[1 - leader][face] += 1
            # The follower makes the most of the trick for ``seat`` when it is ``seat``.
            if worst is None or (got > worst if leader != seat else got < worst):
                worst = got
        hands[leader][led] += 1
        assert worst is not None
        if best is None or (worst > best if leader == seat else worst < best):
            best = worst
    assert best is not None
    return best


def test_the_solver_finds_the_best_play_of_small_endings() -> None:
    """RULES.md 4 (``auction4``'s rules, two-hand's play-out): the solver's value of a
    three-trick ending is a full minimax's."""
    rules = pinochle_rules("twohand")
    rng = random.Random(7)
    for _ in range(40):
        pack = [face for face in range(NUM_FACES) for _ in range(2)]
        rng.shuffle(pack)
        hands = [[0] * NUM_FACES, [0] * NUM_FACES]
        for index, face in enumerate(pack[:6]):
            hands[index % 2][face] += 1
        trump, leader, seat = rng.randrange(4), rng.randrange(2), rng.randrange(2)
        tricks = Tricks(rules, trump, 2)
        solver = Solver(tricks, seat, 10**9)
        expected = brute_force(tricks, [h[:] for h in hands], leader, seat)
        assert solver.value([h[:] for h in hands], leader) == expected


def same_playouts(state: CutthroatState | TwoHandState, players: int) -> None:
    """The kernel's playouts and ``Tricks.play_out``'s from ``state``, seed for seed."""
    assert state.trump is not None and state.current_player is not None
    rules = state.rules
    tricks = Tricks(rules, int(state.trump), players)
    hands = [DECKS[rules.deck].counts(state.hand(s)) for s in range(players)]
    view = state.observation(0)
    trick = [int(Card.parse(name)) for name in view["trick"]["cards"]]
    leader = view["trick"]["leader"]
    leader = state.current_player if leader is None else int(leader)
    taken = view["counters_taken"]
    for seed in range(5):
        for greedy in (True, False):
            tricks.kernel = True
            ours = tricks.finish(hands, trick, leader, taken, seed, greedy=greedy)
            tricks.kernel = False
            assert ours == tricks.finish(hands, trick, leader, taken, seed, greedy=greedy)


@pytest.mark.skipif(KERNEL is None, reason="the C kernel is not built")
def test_the_pure_playouts_are_the_kernels() -> None:
    """``Tricks.play_out`` is the kernel's ``play_out`` card for card: three seats (RULES.md
    7.2) and two-hand's play-out (7.1), from real positions."""
    for state in cutthroat_positions(20):
        same_playouts(state, 3)
    for twohand in play_out_positions(20):
        same_playouts(twohand, 2)


def test_throw_in_is_a_choice_the_declarer_makes() -> None:
    """RULES.md 5: the throw-in comes before the first lead, the declarer's to make."""
    for state in cutthroat_positions(6, throw_in=True):
        assert state.phase is Phase.THROW_IN
        action, legal = ask(StrongCutthroatBot(), state, "cutthroat3")
        assert action in legal and action in ("throw-in", "play-on")
        assert any(isinstance(a, ThrowIn) for a in state.legal_actions)


def test_a_steady_three_hand_bot_searches_a_forced_card_too() -> None:
    """At a human's table the bot is steady: a forced card costs the same search as a
    choice, so the time of an answer tells nothing of the cards (RULES.md 4: a card is
    forced when the rules leave one legal)."""
    forced = 0
    for state in cutthroat_positions(40):
        if len(state.legal_actions) != 1:
            continue
        bot = StrongCutthroatBot()
        bot.steady = True
        action, legal = ask(bot, state, "cutthroat3")
        assert action == legal[0]
        assert bot.last_deals > 1
        assert bot.last_card_plays <= bot.work_budget(state.observation(state.current_player))
        forced += 1
    assert forced >= 3
