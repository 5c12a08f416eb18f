"""The table score-entry form of the pages: input shapes only; the services check the rules.

A four-hand table types North-South's counters only: East-West took the rest of what was
in play, so one field fewer stands between a table and its next board.
"""

from __future__ import annotations

from typing import Any

from django import forms

from engine.rules import pinochle_rules
from leagues.tournaments.hands import EntryOutcome
from leagues.tournaments.models import Result
from leagues.tournaments.selectors import seat_names

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
        rules = pinochle_rules(variant)
        self.variant = variant
        self.seats = rules.players
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
        if self.seats == 3:
            for seat, name in enumerate(seat_names(variant)):
                self.fields[f"meld_{seat}"] = forms.IntegerField(
                    min_value=0, initial=0, label=f"{name} meld", widget=number
                )
            for seat, name in enumerate(seat_names(variant)):
                self.fields[f"taken_{seat}"] = forms.IntegerField(
                    min_value=0, initial=0, label=f"{name} counters", widget=number
                )
            self.fields["buried"] = forms.IntegerField(
                min_value=0, initial=0, label="Buried counters (declarer)", widget=number
            )
        else:
            self.fields["meld_0"] = forms.IntegerField(
                min_value=0, initial=0, label="North-South meld", widget=number
            )
            self.fields["meld_1"] = forms.IntegerField(
                min_value=0, initial=0, label="East-West meld", widget=number
            )
            self.fields["taken_0"] = forms.IntegerField(
                min_value=0,
                initial=0,
                label="North-South counters",
                help_text=f"with the last trick; East-West took the rest of {self.total}",
                widget=number,
            )
        if correcting:
            self.fields["reason"] = forms.CharField(max_length=200, required=False)

    def api_data(self) -> dict[str, Any]:
        """The cleaned form as the API's score-entry fields (``services.score_entry_from``)."""
        data = self.cleaned_data
        outcome = data["outcome"]
        played = outcome == EntryOutcome.PLAYED.value
        meld = [data[f"meld_{seat}"] for seat in range(self.seats if self.seats == 3 else 2)]
        if outcome == EntryOutcome.NO_MARRIAGE.value:
            meld = [0, 0]
        if self.seats == 3:
            taken = [data[f"taken_{seat}"] for seat in range(3)] if played else [0, 0, 0]
        else:
            taken = [data["taken_0"], self.total - data["taken_0"]] if played else [0, 0]
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
