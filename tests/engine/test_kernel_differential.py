"""The C kernel (``engine/_kernel.c``) against the pure engine: the same deals, legal sets,
trick winners, melds, scores and whole hands (RULES.md sections 1 to 5 and 7), and
Pinnacolo's whole hands (section 8): every action, legal set size and score.

A random hand of the kernel is the hand ``play_randomly`` plays with the same generator,
card for card; ``tests/bench/kernel_differential.py`` compares 100,000 hands a variant.
Skipped, saying why, where the kernel is not built (``make test`` builds it).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECKS, NUM_FACES
from engine.game import hand_seed
from engine.kernel import (
    KERNEL,
    OUTCOMES,
    config_of,
    kernel_status,
    outcomes_of,
    pinnacolo_actions,
    pinnacolo_config,
    playouts,
    random_hands,
    random_summary,
    supports,
)
from engine.meld import meld_total
from engine.pinnacolo import (
    Add,
    Discard,
    Draw,
    MeldCards,
    Outcome,
    Take,
    new_hand,
    pinnacolo_rules,
)
from engine.pinnacolo.cards import PACK_COUNTS
from engine.results import HandOutcome
from engine.rng import shuffle
from engine.rules import Rules, pinochle_rules
from engine.tricks import HEAD_NEVER, legal_mask, trick_winner
from engine.trickstate import Phase
from tests.engine.kernel_compare import (
    KERNEL_VARIANTS,
    LEAGUE_RULES,
    PINNACOLO_LEAGUE_RULES,
    PINNACOLO_VARIANTS,
    compare,
    differences_of_hand,
    pinnacolo_differences,
    pure_hand,
)

if KERNEL is None:
    # make test builds it (gcc and the Python headers); without them the pure engine runs.
    pytest.skip(f"the C kernel is {kernel_status()}", allow_module_level=True)


def test_the_kernel_is_loaded() -> None:
    assert KERNEL is not None, f"the C kernel is {kernel_status()}"


@pytest.mark.parametrize("variant", KERNEL_VARIANTS)
def test_whole_random_hands_are_the_engines_card_for_card(variant: str) -> None:
    # The legal sets of every fifth hand are compared card by card as well.
    differing, shown = compare(
        pinochle_rules(variant), game_seed=2026, count=500, rng_seed=7, legal_every=5
    )
    assert differing == 0, shown


@pytest.mark.parametrize("variant", KERNEL_VARIANTS)
def test_whole_hands_under_a_leagues_rules_are_the_engines(variant: str) -> None:
    rules = pinochle_rules(variant, LEAGUE_RULES[variant])
    differing, shown = compare(rules, game_seed=99, count=300, rng_seed=3, legal_every=3)
    assert differing == 0, shown


def test_a_difference_is_reported() -> None:
    """The comparison can fail: a kernel hand with one score changed differs."""
    rules = pinochle_rules("single4")
    [kernel] = random_hands(rules, game_seed=1, first=0, count=1, rng=random.Random(4))
    state = pure_hand(rules, hand_seed(1, 0), 0)
    state.play_randomly(random.Random(4))
    assert differences_of_hand(rules, state, kernel) == []
    kernel["scores"] = (kernel["scores"][0] + 1, kernel["scores"][1])
    assert differences_of_hand(rules, state, kernel) == [
        f"side 0 score: engine {kernel['scores'][0] - 1}, kernel {kernel['scores'][0]}"
    ]


@pytest.mark.parametrize("variant", PINNACOLO_VARIANTS)
def test_whole_random_pinnacolo_hands_are_the_engines_action_for_action(variant: str) -> None:
    """RULES.md section 8: the deal, every draw and take from the pile, meld, addition,
    replacement and discard, the end and every seat's score; every fifth hand also has
    the size of each legal set compared."""
    differing, shown = compare(
        pinnacolo_rules(variant), game_seed=2026, count=200, rng_seed=7, legal_every=5
    )
    assert differing == 0, shown


@pytest.mark.parametrize("variant", PINNACOLO_VARIANTS)
def test_pinnacolo_hands_under_a_leagues_rules_are_the_engines(variant: str) -> None:
    rules = pinnacolo_rules(variant, PINNACOLO_LEAGUE_RULES[variant])
    differing, shown = compare(rules, game_seed=99, count=100, rng_seed=3, legal_every=4)
    assert differing == 0, shown


def test_a_run_in_parts_compares_the_later_hands_of_the_same_run() -> None:
    """``compare(first=...)``: the kernel alone brings both generators to hand ``first``
    (the hands before are the same), so a long differential run can go in parts."""
    rules = pinnacolo_rules("pinnacolo3")
    whole = random_hands(rules, game_seed=2026, first=0, count=30, rng=random.Random(7))
    rng = random.Random(7)
    random_summary(rules, game_seed=2026, first=0, count=20, rng=rng)
    assert random_hands(rules, game_seed=2026, first=20, count=10, rng=rng) == whole[20:]
    differing, shown = compare(rules, game_seed=2026, count=10, rng_seed=7, first=20)
    assert differing == 0, shown


def test_a_pinnacolo_difference_is_reported() -> None:
    """The comparison can fail: a kernel hand with a changed action or score differs."""
    rules = pinnacolo_rules("pinnacolo2")
    [kernel] = random_hands(rules, game_seed=1, first=0, count=1, rng=random.Random(4))
    state = new_hand("pinnacolo2", seed=hand_seed(1, 0), dealer=0)
    state.play_randomly(random.Random(4))
    assert pinnacolo_differences(rules, state, kernel) == []
    changed = dict(kernel, scores=(kernel["scores"][0] + 1, kernel["scores"][1]))
    assert pinnacolo_differences(rules, state, changed) == [
        f"side scores: engine {state.result().side_scores}, kernel {changed['scores']}"
    ]
    # The first action is always the first player's draw or take: a discard instead.
    log = bytes([5, 0]) + kernel["log"][1 if kernel["log"][0] == 0 else 2 :]
    found = pinnacolo_differences(rules, state, dict(kernel, log=log))
    assert found and found[0].startswith("action 0: engine")


def test_pinnacolo_hands_account_for_every_card() -> None:
    """RULES.md section 8: the 104 cards are in hands, on the table, in the pile or the
    stock at the end; a hand ends closed (the closer's hand empty) or with the stock out;
    the sides' scores are their seats' (pairs: partners opposite)."""
    for variant in PINNACOLO_VARIANTS:
        rules = pinnacolo_rules(variant)
        hands = random_hands(rules, game_seed=5, first=0, count=60, rng=random.Random(5))
        for hand in hands:
            outcome = outcomes_of(rules)[hand["outcome"]]
            held = hand["hands"]
            if outcome is Outcome.CLOSED:
                closer = hand["closer"]
                assert sum(held[closer * 53 : (closer + 1) * 53]) == 0
            else:
                assert hand["closer"] == -1 and not hand["one_go"]
            actions = pinnacolo_actions(hand["log"])
            assert len(actions) == hand["actions"]
            scores = [seat[4] for seat in hand["seats"]]
            sides = [sum(scores[s::2]) for s in (0, 1)] if rules.pairs else scores
            assert list(hand["scores"]) == sides
            # The stock gives a card a draw (the last draw on an empty stock ends the hand);
            # the pile grows by the discards and shrinks by the takes.
            draws = sum(1 for action in actions if isinstance(action, Draw))
            if outcome is Outcome.STOCK_OUT and isinstance(actions[-1], Draw):
                draws -= 1
            stock = sum(PACK_COUNTS) - rules.players * rules.hand_size - 1 - draws
            pile = 1 + sum(
                1 if isinstance(action, Discard) else -action.depth
                for action in actions
                if isinstance(action, Discard | Take)
            )
            melded = sum(
                len(action.cards) for action in actions if isinstance(action, MeldCards | Add)
            )
            assert stock >= 0 and pile >= 0
            assert sum(held) + melded + pile + stock == sum(PACK_COUNTS)


def test_pinnacolo_rules_beyond_the_kernel_stay_pure() -> None:
    """Two wilds a meld (a league's choice) is the pure engine's alone."""
    assert supports(pinnacolo_rules("pinnacolo2"))
    rules = pinnacolo_rules("pinnacolo2", {"wilds_per_meld": 2})
    assert not supports(rules)
    assert KERNEL is not None
    with pytest.raises(ValueError, match="one wild a meld"):
        KERNEL.pinnacolo_hands(pinnacolo_config(rules), 1, 0, 1, 1, False)


@pytest.mark.parametrize("deck", ["single", "double"])
def test_the_shuffle_is_splitmix64_fy_v1(deck: str) -> None:
    assert KERNEL is not None
    pack = DECKS[deck].cards()
    rng = random.Random(deck)
    for seed in (0, 1, 2**64 - 1, *(rng.getrandbits(64) for _ in range(50))):
        assert list(KERNEL.shuffled_pack(deck == "double", seed)) == shuffle(list(pack), seed)


@pytest.mark.parametrize("variant", KERNEL_VARIANTS)
def test_the_deal_is_the_engines(variant: str) -> None:
    assert KERNEL is not None
    rules = pinochle_rules(variant)
    for seed in range(40):
        state = pure_hand(rules, seed * 7919, seed % rules.players)
        hands, rest = KERNEL.deal(config_of(rules), seed * 7919, seed % rules.players)
        dealt = state._initial_deal()
        for seat in range(rules.players):
            assert Counter({f: n for f, n in enumerate(hands[seat]) if n}) == Counter(dealt[seat])
        assert sorted(rest) == sorted(int(card) for part in dealt[rules.players :] for card in part)


def test_legal_masks_and_trick_winners_on_random_tricks() -> None:
    assert KERNEL is not None
    rng = random.Random(11)
    for _ in range(8_000):
        deck = DECKS[rng.choice(("single", "double"))]
        pack = deck.cards()
        rng.shuffle(pack)
        size = rng.randrange(1, 21)
        hand, trick = pack[:size], pack[size : size + rng.randrange(0, 4)]
        trump = rng.randrange(4)
        mask = sum(1 << face for face in set(hand))
        led = win = high = -1
        if trick:
            led = trick[0] // 6
            win = trick[trick_winner(trick, trump)]
            assert KERNEL.trick_winner(trick, trump) == trick_winner(trick, trump)
            high = min((face for face in trick if face // 6 == led), key=lambda f: f % 6)
        options = (rng.randrange(HEAD_NEVER + 1), rng.random() < 0.5, rng.random() < 0.5)
        assert KERNEL.legal_mask(mask, led, win, high, trump, *options) == legal_mask(
            mask, led, win, high, trump, *options
        )


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4", "twohand"])
def test_meld_totals_on_random_hands(variant: str) -> None:
    assert KERNEL is not None
    rng = random.Random(variant)
    for rules in (pinochle_rules(variant), pinochle_rules(variant, LEAGUE_RULES[variant])):
        deck = DECKS[rules.deck]
        config = config_of(rules)
        for _ in range(2_000):
            pack = deck.cards()
            counts = [0] * NUM_FACES
            for face in rng.sample(pack, rng.randrange(0, 30)):
                counts[face] += 1
            trump = rng.randrange(4)
            assert KERNEL.meld_total(config, counts, trump) == meld_total(
                counts, trump, rules.meld_values
            )


@pytest.mark.parametrize("overrides", [{}, LEAGUE_RULES["twohand"]])
def test_two_hand_melds_follow_the_stock_tricks(overrides: dict[str, object]) -> None:
    """RULES.md 7.1: only the winner of a stock trick may meld, once a trick, choosing
    among what the position offers (no meld always among it); the dix is exchanged at
    most once a hand, since the turned-up card is then the dix; every card is played."""
    rules = pinochle_rules("twohand", overrides)
    stock_tricks = (48 - 2 * rules.hand_size) // 2
    hands = random_hands(rules, game_seed=8, first=0, count=400, rng=random.Random(8))
    for hand in hands:
        assert len(hand["laid"]) == len(hand["options"]) <= stock_tricks
        for code, options in zip(hand["laid"], hand["options"], strict=True):
            assert options >> (code + 2) & 1 and options & 0b10
        assert list(hand["laid"]).count(-2) <= 1
        assert sum(hand["won"]) == 24 and len(hand["plays"]) == 48
        assert hand["actions"] == 48 + len(hand["laid"])
    assert any(-2 in hand["laid"] for hand in hands)
    assert any(code >= 0 for hand in hands for code in hand["laid"])


def test_the_generator_is_pythons_mersenne_twister() -> None:
    assert KERNEL is not None
    for seed in (0, 1, 5, 2**32 - 1, 2**32, 2**64 - 1):
        assert KERNEL.mt_state(seed) == random.Random(seed).getstate()


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_random_playouts_from_the_first_trick_are_the_engines(variant: str) -> None:
    """``playouts`` (uniform policy) from the tricks' start of a hand: the counters the
    engine's own random tricks take with the same generator."""
    rules = pinochle_rules(variant)
    for seed in range(30):
        state = pure_hand(rules, seed, seed % 4)
        rng = random.Random(seed)
        # Any legal actions up to the tricks (a throw-in declined).
        while state.phase is not Phase.TRICKS and not state.is_terminal():
            legal = [action for action in state.legal_actions if str(action) != "throw-in"]
            state.apply(legal[rng.randrange(len(legal))])
        if state.phase is not Phase.TRICKS:
            continue
        assert state.trump is not None and state.current_player is not None
        hands = [DECKS[rules.deck].counts(state.hand(seat)) for seat in range(4)]
        kernel_rng = random.Random(seed * 3)
        [taken] = playouts(
            rules,
            trump=int(state.trump),
            hands=hands,
            trick=[],
            leader=state.current_player,
            taken=[0, 0],
            count=1,
            greedy=False,
            rng=kernel_rng,
        )
        state.play_randomly(random.Random(seed * 3))
        result = state.result()
        assert taken == tuple(team.counters + team.last_trick for team in result.teams)


def test_random_playouts_of_the_two_hand_play_out_are_the_engines() -> None:
    """Two-hand's last 12 tricks (RULES.md 7.1: the stock empty, ``auction4``'s trick
    rules) through ``playouts``: the counters the engine's own random play takes."""
    rules = pinochle_rules("twohand")
    checked = 0
    for seed in range(30):
        state = pure_hand(rules, seed, seed % 2)
        rng = random.Random(seed)
        while state.phase is not Phase.PLAY_OUT:
            legal = list(state.legal_actions)
            state.apply(legal[rng.randrange(len(legal))])
        assert state.trump is not None and state.current_player is not None
        hands = [DECKS[rules.deck].counts(state.hand(seat)) for seat in range(2)]
        taken_so_far = list(state.observation(0)["counters_taken"])
        [taken] = playouts(
            rules,
            trump=int(state.trump),
            hands=hands,
            trick=[],
            leader=state.current_player,
            taken=taken_so_far,
            count=1,
            greedy=False,
            rng=random.Random(seed * 3),
        )
        state.play_randomly(random.Random(seed * 3))
        assert taken == tuple(team.counters + team.last_trick for team in state.result().teams)
        checked += 1
    assert checked == 30


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    rng_seed=st.integers(min_value=0, max_value=2**64 - 1),
    variant=st.sampled_from(KERNEL_VARIANTS),
)
def test_points_in_play_and_hand_sizes_through_the_kernel(
    seed: int, rng_seed: int, variant: str
) -> None:
    """Every card of the pack is played once (three-hand: or buried; two-hand: the stock
    too, RULES.md 7.1), in tricks of a card a seat, and the tricks take every counter
    plus the last-trick bonus."""
    rules: Rules = pinochle_rules(variant)
    hands = random_hands(rules, game_seed=seed, first=0, count=3, rng=random.Random(rng_seed))
    pack = Counter(DECKS[rules.deck].cards())
    for hand in hands:
        outcome = OUTCOMES[hand["outcome"]]
        if outcome not in (HandOutcome.MADE, HandOutcome.SET):
            assert hand["plays"] == b""
            continue
        assert Counter(hand["plays"]) + Counter(hand["buried"]) == pack
        buried_points = sum(rules.card_points(face) for face in hand["buried"])
        assert sum(hand["taken"]) + buried_points == rules.total_in_tricks
        assert sum(hand["won"]) * rules.players == len(hand["plays"])


def test_the_kernel_refuses_what_is_not_a_position() -> None:
    """Out-of-range suits, faces and seats are refused by name, never read past a table."""
    assert KERNEL is not None
    config = config_of(pinochle_rules("single4"))
    empty = [[0] * NUM_FACES] * 4
    refusals = {
        "a suit 0 to 3": lambda: KERNEL.legal_mask(7, 9, 0, 0, 0, 0, False, False),
        "faces 0 to 23": lambda: KERNEL.trick_winner([30], 0),
        "a trump 0 to 3": lambda: KERNEL.meld_total(config, [0] * NUM_FACES, 5),
        "the dealer is a seat": lambda: KERNEL.deal(config, 1, 7),
        "first: a face": lambda: KERNEL.playouts(config, 0, empty, [], 0, [0, 0], 1, 1, 1, 5),
        "two-hand as whole hands only": lambda: KERNEL.random_deals(
            config_of(pinochle_rules("twohand")), 1, 0, 1, 1, True
        ),
    }
    for message, call in refusals.items():
        with pytest.raises(ValueError, match=message):
            call()
