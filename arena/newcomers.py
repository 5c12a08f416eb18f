"""A new account waits before it joins a robot event.

Registration is free of anything but a rate, and a rate counts per address: an account made
on the spot could play an event's boards to see their cards and hand them to its maker's
real account. An account must therefore be ``RATED_PLAY_MIN_ACCOUNT_AGE_S`` old (a day by
default, as long as a daylong event is open) before it joins an event: a second account for
an event must exist before the event does, so one cannot be made for the boards once they
are known. Everything else is open to an account at once: casual tables, bots and their
matches, and challenges of a bot, whose deals are drawn afresh for each challenge and
played once by its owner, so a second account learns nothing another can use. Staff never
wait.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone


def rated_play_refusal(user: Any) -> str | None:
    """None when ``user`` may join a robot event now; else why not, and from when."""
    wait = timedelta(seconds=settings.RATED_PLAY_MIN_ACCOUNT_AGE_S)
    if not wait or getattr(user, "is_staff", False):
        return None
    allowed_from = user.date_joined + wait
    left = allowed_from - timezone.now()
    if left <= timedelta(0):
        return None
    return (
        f"a new account joins robot events once it is "
        f"{_duration(wait)} old: this one may from {allowed_from:%Y-%m-%d %H:%M} UTC, "
        f"in {_duration(left)}"
    )


def _duration(span: timedelta) -> str:
    minutes = max(1, round(span.total_seconds() / 60))
    hours, minutes = divmod(minutes, 60)
    parts = [f"{hours} hour{'s' * (hours != 1)}"] if hours else []
    if minutes or not parts:
        parts.append(f"{minutes} minute{'s' * (minutes != 1)}")
    return " ".join(parts)
