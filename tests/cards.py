"""Finding the cards a page, a frame or a message names: what the fair-play tests search.

The notation is the built-in games' (a rank and a suit, ``AS`` ... ``2C``, and the joker
``JK``): a test that searches a view for cards knows which games it plays.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

CARD_TOKEN = re.compile(r"\b(?:[ATKQJ98765432][SHDC]|JK)\b")
"""A card in the engines' notation: a rank and a suit (``AS``, ``TH``, ``2C``), or the joker."""


def card_tokens(data: Any) -> Counter[str]:
    """Every card named anywhere in ``data`` (JSON or text), counted.

    A wild laid as ``JK=7H`` is one card, the joker: what it stands for is not a card.
    """
    found: Counter[str] = Counter()
    for text in _strings(data):
        found.update(CARD_TOKEN.findall(re.sub(r"=\w+", "", text)))
    return found


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, Sequence):
        for value in data:
            yield from _strings(value)
