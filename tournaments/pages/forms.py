"""The table score-entry form of the pages: input shapes only; the services check the rules.

A four-hand table types North-South's counters only: East-West took the rest of what was
in play, so one field fewer stands between a table and its next board.
"""

from __future__ import annotations

from typing import Any

from django import forms

from arena.models import Player
from engine.registry import load_game
from tournaments.hands import EntryOutcome
from tournaments.models import Event, Result
from tournaments.movements import MovementKind
from tournaments.selectors import seat_names, side_names

OUTCOME_LABELS = {
    EntryOutcome.PLAYED: "Played",
    EntryOutcome.THROWN_IN: "Thrown in",
    EntryOutcome.NO_MARRIAGE: "No marriage",
}
TRUMPS = [("S", "♠ Spades"), ("H", "♥ Hearts"), ("D", "♦ Diamonds"), ("C", "♣ Clubs")]

# Which form field shows the message of a refused entry, by the API's field name.
ERROR_FIELDS = {"meld": "meld_0", "taken": "taken_0", "round": None, "board": None}


class BoardEntryForm(forms.Form):
    """One board of one table: the contract, the declarer's seat, meld and counters."""

    def __init__(self, *args: Any, variant: str, correcting: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = load_game(variant)
        rules = game.rules
        self.variant = variant
        # A side of one seat enters everything; of two partners, one side's counters.
        self.sides = list(side_names(variant))
        self.partnership = game.partnership
        self.total = rules.total_in_tricks
        outcomes = [EntryOutcome.PLAYED]
        if rules.throw_in:
            outcomes.append(EntryOutcome.THROWN_IN)
        if rules.trump_needs_marriage:
            outcomes.append(EntryOutcome.NO_MARRIAGE)
        radio = forms.RadioSelect(attrs={"class": "touch"})
        self.fields["outcome"] = forms.ChoiceField(
            choices=[(o.value, OUTCOME_LABELS[o]) for o in outcomes],
            initial=EntryOutcome.PLAYED.value,
            widget=radio,
        )
        self.fields["declarer"] = forms.TypedChoiceField(
            choices=list(enumerate(seat_names(variant))), coerce=int, widget=radio
        )
        self.fields["bid"] = forms.IntegerField(
            min_value=0,
            initial=rules.bids[0],
            widget=forms.NumberInput(
                attrs={"inputmode": "numeric", "step": rules.bids[1] - rules.bids[0]}
            ),
        )
        self.fields["trump"] = forms.ChoiceField(choices=TRUMPS, required=False, widget=radio)
        number = forms.NumberInput(attrs={"inputmode": "numeric"})
        for side, name in enumerate(self.sides):
            self.fields[f"meld_{side}"] = forms.IntegerField(
                min_value=0, initial=0, label=f"{name} meld", widget=number
            )
        if self.partnership:
            first, second = self.sides
            self.fields["taken_0"] = forms.IntegerField(
                min_value=0,
                initial=0,
                label=f"{first} counters",
                help_text=f"with the last trick; {second} took the rest of {self.total}",
                widget=number,
            )
        else:
            for side, name in enumerate(self.sides):
                self.fields[f"taken_{side}"] = forms.IntegerField(
                    min_value=0, initial=0, label=f"{name} counters", widget=number
                )
        if rules.widow_size:
            self.fields["buried"] = forms.IntegerField(
                min_value=0, initial=0, label="Buried counters (declarer)", widget=number
            )
        if correcting:
            self.fields["reason"] = forms.CharField(max_length=200, required=False)

    def meld_fields(self) -> list[forms.BoundField]:
        """Each side's meld field, in side order."""
        return [self[f"meld_{side}"] for side in range(len(self.sides))]

    def counter_fields(self) -> list[forms.BoundField]:
        """The counter fields (one side's, or each seat's), then the buried counters if any."""
        return [self[name] for name in self.fields if name.startswith("taken_") or name == "buried"]

    def api_data(self) -> dict[str, Any]:
        """The cleaned form as the API's score-entry fields (``services.score_entry_from``)."""
        data = self.cleaned_data
        outcome = data["outcome"]
        played = outcome == EntryOutcome.PLAYED.value
        sides = len(self.sides)
        meld = [data[f"meld_{side}"] for side in range(sides)]
        if outcome == EntryOutcome.NO_MARRIAGE.value:
            meld = [0] * sides
        if not played:
            taken = [0] * sides
        elif self.partnership:
            taken = [data["taken_0"], self.total - data["taken_0"]]
        else:
            taken = [data[f"taken_{side}"] for side in range(sides)]
        return {
            "outcome": outcome,
            "declarer": data["declarer"],
            "bid": data["bid"],
            "trump": data["trump"] or None,
            "meld": meld,
            "taken": taken,
            "buried": data.get("buried", 0) if played else 0,
        }

    def show_refusal(self, field: str | None, message: str) -> None:
        """Put a refusal of the services beside the field it is about."""
        name = ERROR_FIELDS.get(field or "", field)
        self.add_error(name if name in self.fields else None, message)


def initial_from(result: Result) -> dict[str, Any]:
    """A stored result as the form's values, for a correction."""
    if result.seat_scores:
        values = {f"meld_{s}": m for s, m in enumerate(result.seat_melds)}
        values.update({f"taken_{s}": t for s, t in enumerate(result.seat_taken)})
        values["buried"] = result.buried
    else:
        values = {"meld_0": result.meld_ns, "meld_1": result.meld_ew, "taken_0": result.taken_ns}
    values.update(
        outcome=result.outcome, declarer=result.declarer, bid=result.bid, trump=result.trump
    )
    return values


# --- the director's forms: the API's create and entry bodies, typed in a page -------------


class EventNewForm(forms.Form):
    """What ``services.event_create`` takes, as the API's create does; the service checks
    the rules between the fields (a pairs event's movement, the par bot of a variant)."""

    name = forms.CharField(max_length=120)
    variant = forms.ChoiceField(choices=())
    kind = forms.ChoiceField(choices=Event.Kind.choices, initial=Event.Kind.PAIRS)
    movement = forms.ChoiceField(
        choices=[(k.value, k.value.capitalize()) for k in MovementKind],
        initial=MovementKind.MITCHELL.value,
        help_text="Mitchell, Howell or teams for pairs (team matches are scored in IMPs); "
        "individual for an individual event",
    )
    boards_per_round = forms.IntegerField(
        min_value=1,
        max_value=12,
        initial=3,
        label="Boards a round",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    scale = forms.ChoiceField(
        choices=Event.Scale.choices, initial=Event.Scale.TWO_ONE, label="Matchpoint scale"
    )
    par_bot = forms.ChoiceField(
        choices=[("strong", "Strong"), ("greedy", "Greedy"), ("", "None")],
        initial="strong",
        required=False,
        label="Par from",
    )
    sections = forms.CharField(
        max_length=90,
        initial="A",
        help_text="Section names, separated by spaces",
    )

    def __init__(self, *args: Any, variants: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["variant"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = variants

    def clean_sections(self) -> list[str]:
        names = str(self.cleaned_data["sections"]).replace(",", " ").split()
        if not names or len(names) > 10 or any(len(name) > 8 for name in names):
            raise forms.ValidationError("one to ten section names of up to 8 characters")
        return names


class EntryNewForm(forms.Form):
    """What ``services.entry_add`` takes: the entry's players, here by username."""

    section = forms.CharField(max_length=8, initial="A")
    player_1 = forms.CharField(max_length=150, label="First player (username)")
    player_2 = forms.CharField(
        max_length=150,
        required=False,
        label="Partner (username)",
        help_text="Left empty in an individual event",
    )
    name = forms.CharField(max_length=120, required=False, label="Entry name (optional)")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        wanted = [cleaned.get(key, "") for key in ("player_1", "player_2")]
        found: list[Player] = []
        for key, username in zip(("player_1", "player_2"), wanted, strict=True):
            if not username:
                continue
            player = Player.objects.select_related("user").filter(user__username=username).first()
            if player is None:
                self.add_error(key, f"there is no player {username!r}")
            else:
                found.append(player)
        cleaned["players"] = found
        return cleaned

    def show_refusal(self, field: str | None, message: str) -> None:
        """Put a refusal of ``entry_add`` beside the field it is about."""
        name = {"players": "player_1"}.get(field or "", field)
        self.add_error(name if name in self.fields else None, message)


class EventEditForm(forms.Form):
    """What ``services.event_update`` changes: before the start everything here, after it
    only the scale (the service refuses the rest)."""

    name = forms.CharField(max_length=120)
    boards_per_round = EventNewForm.base_fields["boards_per_round"]
    scale = EventNewForm.base_fields["scale"]
    par_bot = EventNewForm.base_fields["par_bot"]

    def changes(self, event: Event) -> dict[str, Any]:
        """Only the fields that differ, so that a running event's scale alone may change."""
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if getattr(event, name) != value
        }


class RejectForm(forms.Form):
    reason = forms.CharField(max_length=200, label="What is wrong?")
