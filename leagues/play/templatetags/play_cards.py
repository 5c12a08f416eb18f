"""Cards as the replay viewer draws them (arena/static/arena/replay/replay.js, cards.css)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663", "J": "\u2605"}


@register.simple_tag
def card(text: str, small: bool = False) -> str:
    """One face-up card: its code in the corner, the suit's symbol in the middle."""
    face, _, stands = str(text).partition("=")
    suit = "J" if face == "JK" else face[-1:]
    classes = f"card s-{suit}" + (" small" if small else "") + (" joker" if face == "JK" else "")
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
    face = str(text).partition("=")[0]
    return "J" if face == "JK" else face[-1:]


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
def trick_seats(trick: dict[str, object], players: int) -> list[tuple[int, str]]:
    """A trick's cards with the seat that played each, from its leader round the table."""
    leader = trick.get("leader")
    cards = trick.get("cards") or []
    if not isinstance(leader, int) or not isinstance(cards, list):
        return []
    return [((leader + index) % players, str(c)) for index, c in enumerate(cards)]
