"""The play pages' start forms: what each one offers is read from the engine's registry
and the variant's own bots when the form is built, never frozen at import.

The offer only helps the player choose; the services still refuse anything else with a
reason (``services.table_start``, ``challenges.challenge_create``), so a hand-written POST
gains nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from arena.models import BotVersion
from bots.reference import reference_bots
from engine.registry import load_game, variant_choices, variant_names

MAX_ARENA_CHOICES = 200
PREFERRED_BOT = "reference:greedy"
"""The bot a form starts on where the variant has it: a fair, quick opponent."""


def default_variant() -> str:
    """The variant a form offers first: the first one registered."""
    return variant_names()[0]


class VariantForm(forms.Form):
    """The variant field both start forms share: every variant registered now."""

    variant = forms.ChoiceField(choices=[])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["variant"]
        assert isinstance(field, forms.ChoiceField)
        self.offered = variant_choices()
        field.choices = self.offered
        field.initial = default_variant()

    def chosen(self) -> str:
        """The variant the data names if it is known, else the default (to build the offer)."""
        return self.cleaned_data["variant"] if self.is_valid() else default_variant()


def bot_choices(variant: str) -> list[tuple[str, str]]:
    """The bots a human may seat in ``variant``: its reference bots by name, then the
    active arena versions that play it."""
    names = reference_bots(load_game(variant))
    choices = [(f"reference:{name}", f"{name} (reference bot)") for name in names]
    versions = BotVersion.objects.filter(
        status=BotVersion.Status.ACTIVE, bot__variant=variant
    ).select_related("bot__owner__user")
    for version in versions.order_by("bot__name", "-number")[:MAX_ARENA_CHOICES]:
        label = f"{version.bot.owner.user.username}/{version.bot.name} v{version.number}"
        choices.append((f"arena:{version.pk}", label))
    return choices


@dataclass(frozen=True)
class DealOptions:
    """What the deal form offers for one variant: its seats (number and name) and its bots,
    the one chosen at first (``chosen_bot``)."""

    variant: str
    seats: list[tuple[int, str]]
    bots: list[tuple[str, str]]
    partnership: bool

    @property
    def chosen_bot(self) -> str:
        """The bot the form starts on: ``PREFERRED_BOT`` where the variant has it, else its
        first bot (a game without its own bots has the random one)."""
        values = [value for value, _ in self.bots]
        return PREFERRED_BOT if PREFERRED_BOT in values else next(iter(values), "")


def deal_options(variant: str) -> DealOptions:
    game = load_game(variant)
    return DealOptions(
        variant=variant,
        seats=list(enumerate(game.seat_names)),
        bots=bot_choices(variant),
        partnership=game.partnership,
    )
