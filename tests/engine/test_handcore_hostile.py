"""A hand's core whose fields were overwritten with anything at all (a bot author's own
process may do it), or set up from bad values, answers with a Python exception, never a
crash: the C core checks what it reads (``engine/_handcore.c``). The trials run in a
child process, whose death by a signal would fail the test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TRIALS = textwrap.dedent(
    """
    import pickle, random, sys
    sys.path.insert(0, sys.argv[1])
    from engine import Give, Play, Bid, Pass, PassWithHelp, NameTrump, PlayOn, ThrowIn
    from engine.cards import CARDS, Suit
    from engine.cutthroat import CutthroatState
    from engine.hand import HandState
    from engine.handcore import CORE_FIELDS
    from engine.kernel import parsed_config
    from engine.twohand import TwoHandState

    GARBAGE = [None, -1, -(2**40), 2**40, 7, 99, 1.5, "x", (), [], [1, 2], [[1] * 24] * 4,
               [-1] * 24, [2**40] * 4, (0, 1, 0, 1), True, object()]
    ACTIONS = [Play(CARDS[0]), Play(CARDS[23]), Bid(250), Pass(), PassWithHelp(),
               NameTrump(Suit.S), PlayOn(), ThrowIn(), Give(CARDS[:4]), "play AS"]
    rng = random.Random(int(sys.argv[2]))
    survived = 0
    for trial in range(int(sys.argv[3])):
        kind, variant = rng.choice([(HandState, "single4"), (HandState, "auction4"),
                                    (HandState, "double4"), (CutthroatState, "cutthroat3"),
                                    (TwoHandState, "twohand")])
        state = kind.new(variant, seed=trial)
        for _ in range(rng.randrange(60)):
            if state.is_terminal():
                break
            legal = state.legal_actions
            if len(legal):
                state.apply(legal[rng.randrange(len(legal))])
            else:
                break
        for _ in range(rng.randrange(1, 4)):
            name = rng.choice(CORE_FIELDS)
            try:
                if rng.random() < 0.2:
                    delattr(state, name)
                else:
                    setattr(state, name, rng.choice(GARBAGE))
            except (AttributeError, TypeError, ValueError, OverflowError):
                pass
        for step in range(8):
            try:
                what = rng.randrange(10)
                if what == 0:
                    state.apply(rng.choice(ACTIONS))
                elif what == 1:
                    len(state.legal_actions)
                elif what == 2:
                    state.legal_actions[rng.choice([0, 1, -1, 5, 40])]
                elif what == 3:
                    list(state.legal_actions)
                elif what == 4:
                    state.copy()
                elif what == 5:
                    pickle.loads(pickle.dumps(state))
                elif what == 6:
                    state._random_tricks(random.Random(trial).random)
                elif what == 7:
                    state._play(rng.randrange(24))
                elif what == 8:
                    core, seating = list(state.rules._tables.core), list(kind._SEATING)
                    for _ in range(rng.randrange(3)):
                        part = rng.choice([core, seating])
                        part[rng.randrange(len(part))] = rng.choice(GARBAGE)
                    hands = rng.choice([[[1] * 24 for _ in range(4)], [[0] * 24] * 3,
                                        [[9] * 24] * 4, rng.choice(GARBAGE)])
                    dealer = rng.choice([0, 1, -1, 5, None])
                    if hasattr(state, "_deal") and rng.random() < 0.5:
                        config = rng.choice([parsed_config(state.rules), rng.choice(GARBAGE)])
                        seed = rng.choice([trial, -1, 2**70, None])
                        state._deal(config, seed, dealer, tuple(core), tuple(seating))
                    else:
                        state._setup(tuple(core), tuple(seating), hands, dealer)
                else:
                    state.observation(rng.randrange(4))
            except Exception:
                pass
        survived += 1
    print("survived", survived)
    """
)


@pytest.mark.parametrize("kernel", ["auto", "off"])
def test_a_core_with_overwritten_fields_raises_and_never_crashes(kernel: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", TRIALS, str(ROOT), "2026", "1500"],
        env={**os.environ, "ENGINE_KERNEL": kernel},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.split() == ["survived", "1500"]
