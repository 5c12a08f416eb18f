"""Cards and seats as the play pages draw them (the look of arena/static/arena/cards.css).

A card is drawn from its code alone: a code ending in a suit letter shows that suit's
symbol; any other card (one that belongs to no suit) is drawn plain, marked ``suitless``.
A code ``A=B`` is a card played as another (``B``), shown with what it stands for.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from engine.registry import load_game

register = template.Library()

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@register.simple_tag
def card(text: str, small: bool = False) -> str:
    """One face-up card: its code in the corner, the suit's symbol in the middle."""
    face, _, stands = str(text).partition("=")
    suit = suit_of(face)
    classes = f"card s-{suit or 'none'}" + (" small" if small else "")
    classes += "" if suit else " suitless"
    if stands:
        return format_html(
            '<span class="{} wild" data-card="{}" title="{}"><span class="code">{}</span>'
            '<span class="pip" aria-hidden="true">{}</span><span class="stands">={}</span></span>',
            classes,
            face,
            text,
            face,
            SUIT_SYMBOLS.get(suit, ""),
            stands,
        )
    return format_html(
        '<span class="{}" data-card="{}" title="{}"><span class="code">{}</span>'
        '<span class="pip" aria-hidden="true">{}</span></span>',
        classes,
        face,
        text,
        face,
        SUIT_SYMBOLS.get(suit, ""),
    )


@register.filter
def suit_of(text: str) -> str:
    """The card's suit letter, or "" for a card of no suit."""
    face = str(text).partition("=")[0]
    return face[-1:] if face[-1:] in SUIT_SYMBOLS else ""


@register.filter
def pip(text: str) -> str:
    return SUIT_SYMBOLS.get(suit_of(text), "")


@register.filter
def at(sequence: object, index: int) -> object:
    """``sequence[index]``, or None: templates cannot index by a variable."""
    try:
        return sequence[index]  # type: ignore[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def verb_of(action: str) -> str:
    """An action's verb: the first word of its text (``bid 250``: ``bid``)."""
    return str(action).partition(" ")[0]


@register.filter
def trick_seats(trick: object, variant: str) -> list[tuple[int | None, str]]:
    """A trick's cards with the seat that played each, as far as the view says it: the
    game's observer knows how a trick goes round its table."""
    game = load_game(variant)
    return game.observer.trick_plays(trick, game.players)
