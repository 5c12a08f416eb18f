"""A seeded driver of pinochle hands through the public interface only, printing what it
sees: the hand's core in C and its twin in Python must print the same
(``test_handcore_differential.py`` runs it under each).

Besides legal actions it tries refused ones (cards not held, plays that break a rule,
bids off the ladder or too low, passes of a stuck dealer, trump without a marriage,
actions of another phase) and records each error's rule and message; it reads the
legal actions by ``len``, indexing (negative too), iteration and ``in``, copies and
pickles the state on the way, finishes some hands with ``play_randomly``, and ends with
every seat's observation and the result.

    python tests/engine/public_driver.py HANDS
    python tests/engine/public_driver.py --random HANDS

``--random``: whole hands by ``play_randomly`` alone, each preset and league rule set
(one line a hand: its actions and result, hashed), as the kernel's batch plays them
(``tests/bench/kernel_differential.py`` compares the kernel's batch with the engine in
the kernel's process; this compares that engine with the pure one).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import (
    Action,
    Bid,
    Give,
    IllegalActionError,
    NameTrump,
    Pass,
    PassWithHelp,
    Play,
    PlayOn,
    ThrowIn,
)
from engine.actions import Bury
from engine.cards import CARDS, Suit
from engine.cutthroat import CutthroatState
from engine.hand import HandState
from engine.kernel import kernel_status
from engine.rules import pinochle_rules
from engine.trickstate import TrickTakingState
from engine.twohand import TwoHandState

STATES: dict[str, type[TrickTakingState]] = {
    "single4": HandState,
    "auction4": HandState,
    "double4": HandState,
    "cutthroat3": CutthroatState,
    "twohand": TwoHandState,
}

RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("single4", {}),
    ("auction4", {}),
    ("double4", {}),
    ("cutthroat3", {}),
    ("twohand", {}),
    (
        "auction4",
        {
            "all_pass": "redeal",
            "pass_with_help": False,
            "max_raise_rungs": 1,
            "must_head": "never",
            "must_trump": "only_if_winning",
            "must_overtrump": True,
            "trump_needs_marriage": True,
            "throw_in": False,
        },
    ),
    ("single4", {"must_head": "lead_suit_even_if_trumped", "meld_needs_trick": True}),
    ("cutthroat3", {"must_head": "trump_led_only", "all_pass": "redeal"}),
]
"""Each preset, and league rules that take the auction's and tricks' other branches."""


def wrong_actions(state: TrickTakingState, rng: random.Random) -> list[Action]:
    """Actions likely refused here (some may happen to be legal: then they are applied)."""
    faces = [CARDS[rng.randrange(24)] for _ in range(4)]
    return [
        Play(faces[0]),
        Bid(rng.choice((0, 5, 240, 250, 260, 300, 490, 500, 3000))),
        Pass(),
        PassWithHelp(),
        NameTrump(Suit(rng.randrange(4))),
        ThrowIn(),
        PlayOn(),
        Give(faces[: rng.choice((3, 4))]),
        Bury(faces[: rng.choice((2, 3))]),
    ]


def legal_seen(state: TrickTakingState, rng: random.Random) -> list[str]:
    legal = state.legal_actions
    size = len(legal)
    seen = [f"len {size}", f"bool {bool(legal)}"]
    if size:
        seen.append(f"last {legal[-1]}")
        seen.append(f"first {legal[0]}")
    for index in (size, -size - 1):
        try:
            legal[index]
        except IndexError as error:
            seen.append(f"index {error}")
    listed = list(legal)
    seen.append(" ".join(str(action) for action in listed[:40]))
    assert all(action in legal for action in listed)
    return seen


def drive(variant: str, overrides: dict[str, Any], seed: int) -> list[str]:
    rng = random.Random(seed)
    rules = pinochle_rules(variant, overrides)
    state = STATES[variant].new(variant, seed=seed, dealer=seed % rules.players, rules=rules)
    lines: list[str] = []
    # One hand in three is finished by ``play_randomly`` from a random point on.
    finish_at = rng.randrange(60) if seed % 3 == 0 else -1
    while not state.is_terminal():
        if len(state.history) == finish_at:
            state.play_randomly(random.Random(seed))
            lines.append("finished randomly")
            break
        lines.append(f"{state.phase.value} {state.current_player} {state.legal_actions!r}")
        if rng.random() < 0.3:
            lines += legal_seen(state, rng)
        if rng.random() < 0.4:
            for action in wrong_actions(state, rng):
                if rng.random() < 0.5:
                    continue
                before = (state.history, state.phase, state.current_player)
                try:
                    state.apply(action)
                except IllegalActionError as error:
                    lines.append(f"refused {action}: {error.rule}: {error}")
                    assert (state.history, state.phase, state.current_player) == before
                else:
                    lines.append(f"took {action}")
                if state.is_terminal():
                    break
            if state.is_terminal():
                break
        if rng.random() < 0.05:
            state = state.copy() if rng.random() < 0.5 else pickle.loads(pickle.dumps(state))
        legal = state.legal_actions
        if not len(legal):
            # The phases where the legal actions are too many to list (a pass of cards,
            # a bury): a random choice of the right size from the hand.
            seat = state.current_player
            assert seat is not None
            size = state.rules.pass_count if variant != "cutthroat3" else 3
            cards = rng.sample(state.hand(seat), size)
            state.apply(Give(cards) if variant != "cutthroat3" else Bury(cards))
            continue
        action = legal[rng.randrange(len(legal))]
        state.apply(action if rng.random() < 0.9 else str(action))
    lines.append(f"history {' / '.join(str(action) for action in state.history)}")
    for seat in range(rules.players):
        lines.append(json.dumps(state.observation(seat), sort_keys=True))
    lines.append(json.dumps(state.result().to_json(), sort_keys=True))
    return lines


def random_hand(variant: str, overrides: dict[str, Any], seed: int) -> str:
    rules = pinochle_rules(variant, overrides)
    state = STATES[variant].new(variant, seed=seed, dealer=seed % rules.players, rules=rules)
    state.play_randomly(random.Random(seed))
    done = " ".join(str(action) for action in state.history)
    return f"{done} = {json.dumps(state.result().to_json(), sort_keys=True)}"


def main() -> None:
    if sys.argv[1] == "--random":
        hands = int(sys.argv[2])
        print(kernel_status())
        for number, (variant, overrides) in enumerate(RULE_SETS):
            digest = hashlib.sha256()
            for seed in range(hands):
                digest.update(random_hand(variant, overrides, seed).encode())
            print(variant, number, hands, digest.hexdigest()[:16])
        return
    hands = int(sys.argv[1])
    print(kernel_status())
    for number, (variant, overrides) in enumerate(RULE_SETS):
        for seed in range(hands):
            lines = drive(variant, overrides, 1000 * number + seed)
            digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
            print(variant, number, seed, digest)


if __name__ == "__main__":
    main()
