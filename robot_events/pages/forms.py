"""The director's forms for a new robot event and a daily timetable of events: the same
fields the API takes."""

from __future__ import annotations

from typing import Any

from django import forms

from engine.registry import variant_choices
from robot_events.models import ROBOT_VARIANTS, RobotEvent, default_robot_variant
from robot_events.services import MAX_BOARDS


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    variant = forms.ChoiceField(choices=[], initial=default_robot_variant)
    boards = forms.IntegerField(min_value=1, max_value=MAX_BOARDS, initial=4)
    robots = forms.ChoiceField(choices=RobotEvent.Robots.choices, initial=RobotEvent.Robots.GREEDY)
    kind = forms.ChoiceField(choices=RobotEvent.Kind.choices, initial=RobotEvent.Kind.INSTANT)
    scoring = forms.ChoiceField(
        choices=RobotEvent.Scoring.choices, initial=RobotEvent.Scoring.MATCHPOINTS
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Read when the form is built: the labels are the engine registry's, and a robot
        # variant the engine no longer knows is not offered.
        field = self.fields["variant"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            (variant, label) for variant, label in variant_choices() if variant in ROBOT_VARIANTS
        ]

    def service_data(self) -> dict[str, Any]:
        return dict(self.cleaned_data)


class ScheduleForm(EventForm):
    """A daily timetable: an event of these settings is created every day at this time."""

    hour = forms.IntegerField(min_value=0, max_value=23, label="Hour (UTC)", initial=18)
    minute = forms.IntegerField(min_value=0, max_value=59, label="Minute", initial=0)
