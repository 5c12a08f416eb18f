"""Template filters that write cards with suit symbols, so suits differ without colour."""

from __future__ import annotations

import re

from django import template

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# A card in the engine's notation (AS, TS or 10S, 9C...), standing alone as a word.
_CARD = re.compile(r"\b(A|T|10|K|Q|J|9)([SHDC])\b")


@register.filter
def suits(text: str) -> str:
    """``"play QS, not AH"`` becomes ``"play Q♠, not A♥"``; other words are left alone.

    >>> suits("illegal action 'play QS' (legal: 9H TD)")
    "illegal action 'play Q♠' (legal: 9♥ T♦)"
    """
    return _CARD.sub(lambda card: card.group(1) + SUIT_SYMBOLS[card.group(2)], str(text))
