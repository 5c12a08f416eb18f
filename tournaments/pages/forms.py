"""The table score-entry form of the pages: input shapes only; the services check the rules.

A four-hand table types North-South's counters only: East-West took the rest of what was
in play, so one field fewer stands between a table and its next board.
"""

from __future__ import annotations

from typing import Any

from django import forms

from engine.registry import load_game
from tournaments.hands import EntryOutcome
from tournaments.models import Result
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
