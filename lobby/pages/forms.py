"""The "new table" form: what it offers is read from the engine's registry when it is built.

The variant's house rules are the simple parameters of its preset rules (a yes/no, a number,
one of a few named choices), each offered at the preset's value; only the ones changed are
sent, as overrides, and the engine refuses a bad one by naming it (``lobby.services``). The
seats offer the host, an open seat, a friend by invitation, or a bot: the variant's
reference bots and its active arena versions (``tables.pages.forms.bot_choices``).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings

from bots.reference import reference_bots
from engine.registry import load_game, variant_choices, variant_names
from tables.pages.forms import PREFERRED_BOT, bot_choices

# Rules that say what the variant is (its deck, its seats, its pairs), not how a house
# plays it; the target has a field of its own.
FIXED_RULES = frozenset({"name", "game", "players", "deck", "pairs", "target", "hand_size"})
PERSON_SEATS = [
    ("host", "Me"),
    ("open", "Open: anyone signed in"),
    ("invite", "A friend, by invitation link"),
]


def default_variant() -> str:
    """The variant the form offers first: the auction game where it is registered."""
    names = variant_names()
    return "auction4" if "auction4" in names else names[0]


@dataclass(frozen=True)
class HouseRule:
    """One simple parameter of a variant's rules as the form offers it."""

    name: str
    label: str
    kind: str  # "bool", "int" or "choice"
    initial: Any
    choices: tuple[str, ...] = ()


def house_rules(variant: str) -> list[HouseRule]:
    """The parameters of ``variant``'s preset a house may change, at the preset's values."""
    preset = load_game(variant).rules
    offered = []
    for field in dataclasses.fields(preset):
        if field.name in FIXED_RULES or field.name.startswith("_"):
            continue
        value = getattr(preset, field.name)
        label = field.name.replace("_", " ").capitalize()
        if isinstance(value, bool):
            offered.append(HouseRule(field.name, label, "bool", value))
        elif isinstance(value, int):
            offered.append(HouseRule(field.name, label, "int", value))
        elif isinstance(value, enum.Enum):
            choices = tuple(str(member.value) for member in type(value))
            offered.append(HouseRule(field.name, label, "choice", str(value.value), choices))
    return offered


def seat_choices(variant: str) -> list[tuple[str, str]]:
    """What a seat may be: the host, open, by invitation, or one of the variant's bots."""
    return PERSON_SEATS + [(f"bot:{value}", label) for value, label in bot_choices(variant)]


class NewTableForm(forms.Form):
    """A table's settings; the seats and house rules are the chosen variant's."""

    variant = forms.ChoiceField(choices=[])
    target_kind = forms.ChoiceField(
        choices=[("score", "Play to a game score"), ("hands", "Play a number of hands")],
        initial="score",
        label="Target",
    )
    target_value = forms.IntegerField(
        required=False,
        min_value=1,
        label="Score or number of hands",
        help_text="Empty: the variant's own game score.",
    )
    rated = forms.ChoiceField(
        choices=[("casual", "Casual"), ("rated", "Rated (people only)")],
        initial="casual",
        required=False,
        label="Rated or casual",
    )
    decision_s = forms.IntegerField(min_value=5, max_value=600, label="Seconds a decision")
    bank_s = forms.IntegerField(min_value=0, max_value=3600, label="Time bank (seconds)")
    substitute = forms.ChoiceField(
        choices=[], label="A bot plays for anyone who leaves or runs out of time"
    )

    def __init__(self, *args: Any, variant: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        data = self.data if self.is_bound else {}
        chosen = variant or data.get("variant") or default_variant()
        self.chosen_variant = chosen if chosen in variant_names() else default_variant()
        game = load_game(self.chosen_variant)
        self.game = game
        self.fields["variant"].choices = variant_choices()  # type: ignore[attr-defined]
        self.fields["variant"].initial = self.chosen_variant
        self.fields["decision_s"].initial = settings.LOBBY_DECISION_S
        self.fields["bank_s"].initial = settings.LOBBY_BANK_S
        bots = reference_bots(game)
        self.fields["substitute"].choices = [(name, name) for name in bots]  # type: ignore[attr-defined]
        self.fields["substitute"].initial = "greedy" if "greedy" in bots else next(iter(bots))
        self.fields["target_value"].widget.attrs["placeholder"] = str(game.rules.target)
        seats = seat_choices(self.chosen_variant)
        preferred = f"bot:{PREFERRED_BOT}"
        default_bot = preferred if preferred in dict(seats) else seats[-1][0]
        for seat in range(game.players):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=seats,
                initial="host" if seat == 0 else default_bot,
                label=f"{game.seat_name(seat)}",
            )
        self.rules = house_rules(self.chosen_variant)
        for rule in self.rules:
            self.fields[f"rule_{rule.name}"] = self._rule_field(rule)

    @staticmethod
    def _rule_field(rule: HouseRule) -> forms.Field:
        # A rule left out of the data is the preset's: only what a house changes is sent.
        if rule.kind == "bool":
            return forms.TypedChoiceField(
                choices=[("yes", "yes"), ("no", "no")],
                coerce=lambda value: value == "yes",
                empty_value=None,
                required=False,
                initial="yes" if rule.initial else "no",
                label=rule.label,
            )
        if rule.kind == "int":
            return forms.IntegerField(initial=rule.initial, label=rule.label, required=False)
        return forms.ChoiceField(
            choices=[(value, value.replace("_", " ")) for value in rule.choices],
            initial=rule.initial,
            label=rule.label,
            required=False,
        )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(self.game.players)]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[f"rule_{rule.name}"] for rule in self.rules]

    def table_settings(self) -> dict[str, Any]:
        """The keyword arguments of ``services.table_open`` (the form being valid)."""
        data = self.cleaned_data
        target = None
        if data["target_value"] is not None:
            target = {"kind": data["target_kind"], "value": data["target_value"]}
        elif data["target_kind"] == "hands":
            target = {"kind": "hands", "value": 1}
        overrides = {}
        for rule in self.rules:
            value = data[f"rule_{rule.name}"]
            if value not in (None, "") and value != rule.initial:
                overrides[rule.name] = value
        return {
            "variant": self.chosen_variant,
            "rules": overrides or None,
            "target": target,
            "rated": data["rated"] == "rated",
            "clock": {"decision_s": data["decision_s"], "bank_s": data["bank_s"]},
            "seats": [seat_spec(data[f"seat_{seat}"]) for seat in range(self.game.players)],
            "substitute": data["substitute"],
        }


def seat_spec(choice: str) -> dict[str, Any]:
    """A seat's spec for ``services.table_open`` from the form's choice."""
    if not choice.startswith("bot:"):
        return {"kind": choice}
    kind, _, value = choice.removeprefix("bot:").partition(":")
    if kind == "arena":
        return {"kind": "bot", "bot": {"kind": "arena", "version": int(value)}}
    return {"kind": "bot", "bot": {"kind": "reference", "name": value}}


def bot_spec(choice: str) -> dict[str, Any]:
    """A bot spec from the host's "give to a bot" choice (``reference:greedy``, ``arena:12``)."""
    spec = seat_spec(f"bot:{choice}")
    return dict(spec["bot"])
