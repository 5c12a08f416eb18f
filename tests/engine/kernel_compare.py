"""Whole hands of the C kernel beside the pure engine's, difference by difference.

Used by ``test_kernel_differential.py`` (a CI-sized sample) and by
``tests/bench/kernel_differential.py`` (100,000 hands a variant).
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action, Bid, ExchangeDix, MeldCards, NoMeld, Pass, PassWithHelp, Play
from engine.cutthroat import new_cutthroat_hand
from engine.game import hand_seed
from engine.hand import new_hand
from engine.kernel import (
    KERNEL,
    OUTCOMES,
    outcomes_of,
    pinnacolo_actions,
    pinnacolo_options,
    random_hands,
    random_summary,
    two_hand_melds,
)
from engine.pinnacolo import PinnacoloHand, PinnacoloRules
from engine.pinnacolo import new_hand as new_pinnacolo_hand
from engine.pinnacolo.cards import CARD_NAMES, NUM_FACES
from engine.results import HandOutcome
from engine.rules import Rules
from engine.tricks import faces_of_mask, hand_mask, legal_mask, trick_summary
from engine.trickstate import Phase, TrickTakingState
from engine.twohand import new_twohand_hand

KERNEL_VARIANTS = ("single4", "auction4", "double4", "cutthroat3", "twohand")
"""The pinochle presets the kernel plays: every pinochle game's."""
PINNACOLO_VARIANTS = ("pinnacolo2", "pinnacolo3", "pinnacolo4", "pinnacolo")
"""Pinnacolo's presets, which the kernel plays too."""

# League rules that take every other branch of the trick, auction, pass and bury rules.
LEAGUE_RULES: dict[str, dict[str, Any]] = {
    "single4": {
        "must_head": "never",
        "must_trump": "only_if_winning",
        "must_overtrump": True,
        "all_pass": "redeal",
        "meld_needs_trick": True,
        "pass_with_help": True,
    },
    "auction4": {
        "must_head": "lead_suit_even_if_trumped",
        "pass_count": 0,
        "throw_in": False,
        "max_raise_rungs": None,
        "trump_needs_marriage": True,
    },
    "double4": {"pass_count": 2, "trump_needs_marriage": False, "must_head": "trump_led_only"},
    "cutthroat3": {
        "bury_meld_cards": True,
        "must_overtrump": True,
        "must_trump": "only_if_winning",
        "all_pass": "redeal",
        "run_includes_marriage": False,
    },
    # A longer stock, no dix in the meld table (the exchange scores still), no turned dix.
    "twohand": {
        "cards_each": 10,
        "must_head": "trump_led_only",
        "must_trump": "only_if_winning",
        "must_overtrump": True,
        "meld_needs_trick": True,
        "run_includes_marriage": False,
        "turned_dix": 0,
        "dix_exchange": 20,
        "meld_table": {
            "run": [15, 150],
            "aces_around": [10, 100],
            "kings_around": [8, 80],
            "queens_around": [6, 60],
            "jacks_around": [4, 40],
            "pinochle": [4, 30],
            "royal_marriage": 4,
            "marriage": 2,
            "dix": 0,
        },
    },
}

# League rules that take every other branch of Pinnacolo's rules (RULES.md section 8):
# the take's obligation, the replaced wild, the empty stock, the penalty, the bonuses, the
# size of a hand.
PINNACOLO_LEAGUE_RULES: dict[str, dict[str, Any]] = {
    "pinnacolo": {"taken_card": "below_top", "no_meld_penalty": "double_hand", "closing_bonus": 50},
    "pinnacolo2": {"empty_stock": "last_card_ends", "replaced_wild_melded": False, "hand_size": 15},
    "pinnacolo3": {
        "taken_card": "below_top",
        "one_go_bonus": 300,
        "no_meld_points": 100,
        "hand_size": 11,
    },
    "pinnacolo4": {
        "replaced_wild_melded": False,
        "empty_stock": "last_card_ends",
        "no_meld_penalty": "double_hand",
    },
}

_DEALS = {4: new_hand, 3: new_cutthroat_hand, 2: new_twohand_hand}


def pure_hand(rules: Rules, seed: int, dealer: int) -> TrickTakingState:
    state: TrickTakingState = _DEALS[rules.players](
        rules.name, seed=seed, dealer=dealer, rules=rules
    )
    return state


def laid_code(action: Action, trump: int) -> int:
    """A two-hand meld-phase action as the kernel reports it in ``laid``."""
    if isinstance(action, NoMeld):
        return -1
    if isinstance(action, ExchangeDix):
        return -2
    assert isinstance(action, MeldCards)
    return two_hand_melds(trump).index(tuple(sorted(int(card) for card in action.cards)))


def laid_of(state: TrickTakingState) -> list[int]:
    """Two-hand's decisions after its stock tricks, as the kernel reports them."""
    trump = -1 if state.trump is None else int(state.trump)
    meld_phase = (NoMeld, ExchangeDix, MeldCards)
    return [laid_code(action, trump) for action in state.history if isinstance(action, meld_phase)]


def calls_of(state: TrickTakingState, rules: Rules) -> list[int]:
    """The auction as the kernel reports it: -1 pass, -2 pass with help, else the rung."""
    calls = []
    for action in state.history:
        if isinstance(action, PassWithHelp):
            calls.append(-2)
        elif isinstance(action, Pass):
            calls.append(-1)
        elif isinstance(action, Bid):
            calls.append(rules.bids.index(action.amount))
    return calls


def differences_of_hand(rules: Rules, state: TrickTakingState, kernel: dict[str, Any]) -> list[str]:
    """What differs between a hand the pure engine played and the kernel's."""
    result = state.result()
    found: list[str] = []

    def check(what: str, pure: object, ours: object) -> None:
        if pure != ours:
            found.append(f"{what}: engine {pure!r}, kernel {ours!r}")

    plays = [action.card for action in state.history if isinstance(action, Play)]
    check("plays", plays, list(kernel["plays"]))
    check("calls", calls_of(state, rules), list(kernel["calls"]))
    check("laid", laid_of(state), list(kernel["laid"]))
    check("outcome", result.outcome, OUTCOMES[kernel["outcome"]])
    check("declarer", result.declarer, None if kernel["declarer"] < 0 else kernel["declarer"])
    if result.declarer is not None:
        check("bid", result.bid, kernel["bid"])
    trump = None if kernel["trump"] < 0 else kernel["trump"]
    check("trump", None if result.trump is None else int(result.trump), trump)
    check("actions", len(state.history), kernel["actions"])
    buried = getattr(state, "buried", ())
    check("buried", sorted(buried), sorted(kernel["buried"]))
    for team in result.teams:
        side = team.team
        check(f"side {side} score", team.score, kernel["scores"][side])
        check(f"side {side} tricks", team.tricks, kernel["won"][side])
        # Three-hand: the declarer's buried counters count with its counters once the
        # tricks are played; the kernel reports what the tricks took.
        played = result.outcome in (HandOutcome.MADE, HandOutcome.SET)
        buried_points = sum(rules.card_points(face) for face in buried)
        extra = buried_points if played and side == result.declarer else 0
        check(
            f"side {side} counters", team.counters + team.last_trick - extra, kernel["taken"][side]
        )
        melds = sum(kernel["melds"][seat] for seat in team.seats)
        check(f"side {side} meld", team.meld, melds)
    return found


def legal_differences(rules: Rules, state: TrickTakingState, kernel: dict[str, Any]) -> list[str]:
    """Replay ``state``'s history on a fresh deal of it: at every card, the faces
    ``legal_actions`` offers against the kernel's ``legal_mask`` of the same trick;
    two-hand's stock tricks offer the whole hand (RULES.md 7.1), and its meld-phase
    choices are the ``options`` the kernel chose from."""
    assert KERNEL is not None
    tables = rules._tables
    replay = pure_hand(rules, state.seed or 0, state.dealer)
    trick: list[int] = []
    found: list[str] = []
    decisions = 0
    # Two-hand's stock tricks are free play; its play-out follows the trick rules.
    ruled = Phase.PLAY_OUT if rules.players == 2 else Phase.TRICKS
    for action in state.history:
        if replay.phase is Phase.MELD:
            assert replay.trump is not None
            options = sum(
                1 << (laid_code(option, int(replay.trump)) + 2) for option in replay.legal_actions
            )
            ours = kernel["options"][decisions] if decisions < len(kernel["options"]) else None
            if options != ours:
                found.append(f"meld options {decisions}: engine {options:#x}, kernel {ours}")
            decisions += 1
        if replay.phase is Phase.TRICKS and rules.players == 2:
            seat = replay.current_player
            assert seat is not None
            pure = {play.card for play in replay.legal_actions if isinstance(play, Play)}
            if pure != set(faces_of_mask(hand_mask(replay.hand(seat)))):
                found.append(f"stock trick {trick}: engine {sorted(pure)}, not the whole hand")
        if replay.phase is ruled and isinstance(action, Play):
            seat = replay.current_player
            assert seat is not None and replay.trump is not None
            trump = int(replay.trump)
            mask = hand_mask(replay.hand(seat))
            led, win, high = trick_summary(trick, trump) if trick else (-1, -1, -1)
            ours = KERNEL.legal_mask(
                mask, led, win, high, trump, tables.head, tables.trump_if_winning, tables.overtrump
            )
            pure = {play.card for play in replay.legal_actions if isinstance(play, Play)}
            if pure != set(faces_of_mask(ours)):
                found.append(f"legal at {trick}: engine {sorted(pure)}, kernel {ours:#x}")
            if (
                legal_mask(
                    mask,
                    led,
                    win,
                    high,
                    trump,
                    tables.head,
                    tables.trump_if_winning,
                    tables.overtrump,
                )
                != ours
            ):
                found.append(f"legal_mask at {trick}")
            trick.append(action.card)
            if len(trick) == rules.players:
                trick = []
        replay.apply(action)
    return found


BATCH = 1000
"""Hands a kernel call of ``compare`` plays."""


def compare(
    rules: Rules | PinnacoloRules,
    *,
    game_seed: int,
    count: int,
    rng_seed: int,
    legal_every: int = 0,
    first: int = 0,
) -> tuple[int, list[str]]:
    """Hands ``first`` to ``first + count - 1`` of a game of ``game_seed`` played out by
    both, choices from ``random.Random(rng_seed)``: how many hands differ, and the first
    differences. Every ``legal_every``-th hand (0: none) also has its legal sets compared
    card by card (Pinnacolo: how many legal actions each decision had, and each action
    legal). Hands before ``first`` are played by the kernel alone, to bring both
    generators where they are at hand ``first``: a long run goes in parts."""
    kernel_rng = random.Random(rng_seed)
    if first:
        random_summary(rules, game_seed=game_seed, first=0, count=first, rng=kernel_rng)
    pure_rng = random.Random()
    pure_rng.setstate(kernel_rng.getstate())
    differing = 0
    shown: list[str] = []
    for number in range(first, first + count):
        if (number - first) % BATCH == 0:
            # In batches: a whole run's details at once would take gigabytes.
            batch = random_hands(
                rules,
                game_seed=game_seed,
                first=number,
                count=min(BATCH, first + count - number),
                rng=kernel_rng,
            )
        kernel = batch[(number - first) % BATCH]
        seed, dealer = hand_seed(game_seed, number), number % rules.players
        if isinstance(rules, PinnacoloRules):
            hand = new_pinnacolo_hand(rules.name, seed=seed, dealer=dealer, rules=rules)
            hand.play_randomly(pure_rng)
            found = pinnacolo_differences(rules, hand, kernel)
            if legal_every and number % legal_every == 0:
                found += pinnacolo_legal_differences(rules, hand, kernel)
        else:
            state = pure_hand(rules, seed, dealer)
            state.play_randomly(pure_rng)
            found = differences_of_hand(rules, state, kernel)
            if legal_every and number % legal_every == 0:
                found += legal_differences(rules, state, kernel)
        if found:
            differing += 1
            if len(shown) < 5:
                shown.append(f"{rules.name} hand {number}: " + "; ".join(found[:3]))
    if kernel_rng.getstate() != pure_rng.getstate():
        differing += 1
        shown.append(f"{rules.name}: the generators differ after hand {first + count - 1}")
    return differing, shown


def pinnacolo_differences(
    rules: PinnacoloRules, state: PinnacoloHand, kernel: dict[str, Any]
) -> list[str]:
    """What differs between a Pinnacolo hand the pure engine played and the kernel's: every
    action (the deal shows in what is drawn, melded and discarded), the outcome, every
    seat's score and its parts, each side's, the cards left in every hand."""
    result = state.result()
    found: list[str] = []

    def check(what: str, pure: object, ours: object) -> None:
        if pure != ours:
            found.append(f"{what}: engine {pure!r}, kernel {ours!r}")

    history = list(state.history)
    ours = pinnacolo_actions(kernel["log"])
    if history != ours:
        at = next(
            (i for i, (a, b) in enumerate(zip(history, ours, strict=False)) if a != b),
            min(len(history), len(ours)),
        )
        pure_text = str(history[at]) if at < len(history) else None
        kernel_text = str(ours[at]) if at < len(ours) else None
        check(f"action {at}", pure_text, kernel_text)
    check("actions", len(history), kernel["actions"])
    check("outcome", result.outcome, outcomes_of(rules)[kernel["outcome"]])
    check("closer", result.closer, None if kernel["closer"] < 0 else kernel["closer"])
    check("one go", result.one_go, kernel["one_go"])
    seats = [
        (seat.laid_down, seat.melded, seat.in_hand, seat.bonus, seat.score) for seat in result.seats
    ]
    check("seats", seats, list(kernel["seats"]))
    check("side scores", result.side_scores, kernel["scores"])
    check("melds", len(state.melds), kernel["melds"])
    counts = kernel["hands"]
    for seat in range(rules.players):
        held = counts[seat * NUM_FACES : (seat + 1) * NUM_FACES]
        names = tuple(CARD_NAMES[face] for face in range(NUM_FACES) for _ in range(held[face]))
        check(f"seat {seat}'s hand", state.hand(seat), names)
    return found


def pinnacolo_legal_differences(
    rules: PinnacoloRules, state: PinnacoloHand, kernel: dict[str, Any]
) -> list[str]:
    """Replay ``state``'s history on a fresh deal of it through ``legal_actions`` and
    ``apply``: at every decision, how many legal actions the engine lists against how
    many the kernel chose among (an action of the kernel's is applied only if legal)."""
    assert state.seed is not None
    replay = new_pinnacolo_hand(rules.name, seed=state.seed, dealer=state.dealer, rules=rules)
    options = pinnacolo_options(kernel["options"])
    found: list[str] = []
    if len(options) != len(state.history):
        found.append(f"decisions: engine {len(state.history)}, kernel {len(options)}")
    for number, (action, ours) in enumerate(zip(state.history, options, strict=False)):
        listed = len(replay.legal_actions)
        if listed != ours:
            found.append(
                f"legal actions before {action} ({number}): engine {listed}, kernel {ours}"
            )
        replay.apply(action)
    return found
