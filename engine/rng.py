"""The named, versioned deal generator (RULES.md section 1).

``splitmix64-fy-v1`` is defined as follows, with integer arithmetic only, so that a deal is
the same on every platform and Python version:

- SplitMix64 (Steele, Lea and Flood, 2014) seeded with the deal seed (0 to 2**64 - 1);
- each 64-bit output gives two 32-bit words, the high half first;
- a bounded draw ``below(n)`` takes a word ``w``, computes ``p = w * n``, and rejects it
  while ``p mod 2**32 < (2**32 - n) mod n`` (Lemire's method: exactly uniform); the draw
  is ``p >> 32``;
- Fisher-Yates over the unshuffled pack (``Deck.cards()``, face order): for ``i`` from
  ``n - 1`` down to 1, swap positions ``i`` and ``below(i + 1)``.

Changing any of this requires a new generator name.

>>> rng = SplitMix64(0)
>>> hex(rng.next_u64())
'0xe220a8397b1dcdaf'
>>> shuffle(list(range(6)), seed=1)
[0, 5, 1, 4, 2, 3]
"""

from __future__ import annotations

from typing import Final, TypeVar

from engine.errors import SeedError

__all__ = ["DEAL_GENERATOR", "SplitMix64", "shuffle", "splitmix64_output"]

DEAL_GENERATOR = "splitmix64-fy-v1"

_MASK64: Final = (1 << 64) - 1
_MASK32: Final = (1 << 32) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB

T = TypeVar("T")


def check_seed(seed: object) -> int:
    """``seed`` if it is an integer from 0 to 2**64 - 1 (not a bool); else ``SeedError``."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK64:
        raise SeedError(f"a seed is an integer from 0 to 2**64 - 1, not {seed!r}")
    return seed


class SplitMix64:
    """SplitMix64: a 64-bit state advanced by the golden gamma, then mixed."""

    __slots__ = ("state",)

    # ``object``, not ``int``: a seed is checked, not trusted (``True`` is refused).
    def __init__(self, seed: object) -> None:
        self.state = check_seed(seed)

    def next_u64(self) -> int:
        state = (self.state + _GOLDEN) & _MASK64
        self.state = state
        mixed = ((state ^ (state >> 30)) * _MIX1) & _MASK64
        mixed = ((mixed ^ (mixed >> 27)) * _MIX2) & _MASK64
        return mixed ^ (mixed >> 31)


def splitmix64_output(seed: int, index: int) -> int:
    """Output number ``index`` (0-based) of ``SplitMix64(seed)``, computed directly.

    >>> rng = SplitMix64(9)
    >>> [rng.next_u64() for _ in range(3)][2] == splitmix64_output(9, 2)
    True
    """
    check_seed(seed)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise SeedError(f"an output index is an integer from 0, not {index!r}")
    state = (seed + (index + 1) * _GOLDEN) & _MASK64
    mixed = ((state ^ (state >> 30)) * _MIX1) & _MASK64
    mixed = ((mixed ^ (mixed >> 27)) * _MIX2) & _MASK64
    return mixed ^ (mixed >> 31)


def shuffle(items: list[T], seed: object) -> list[T]:
    """Shuffle ``items`` in place with ``splitmix64-fy-v1`` and return them."""
    # Checked as ``object``: a seed is checked, not trusted (``True`` is refused).
    state = check_seed(seed)
    # The generator is inlined because dealing is a large share of a random playout.
    spare = -1
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        while True:
            if spare < 0:
                state = (state + _GOLDEN) & _MASK64
                mixed = ((state ^ (state >> 30)) * _MIX1) & _MASK64
                mixed = ((mixed ^ (mixed >> 27)) * _MIX2) & _MASK64
                mixed ^= mixed >> 31
                word = mixed >> 32
                spare = mixed & _MASK32
            else:
                word = spare
                spare = -1
            product = word * bound
            low = product & _MASK32
            if low >= bound or low >= ((1 << 32) - bound) % bound:
                break
        j = product >> 32
        items[i], items[j] = items[j], items[i]
    return items
