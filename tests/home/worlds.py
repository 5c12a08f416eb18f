"""A player's human games, made through the services: tables played with bots, a challenge
whose first board is sealed while the second is dealt, and duplicate events that rate her."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from arena import services as arena_services
from arena.models import Player
from tables.challenges import challenge_create
from tables.models import Challenge, PlayTable
from tests.arena.conftest import PASSWORD
from tests.tables.conftest import greedy_table, play_out
from tests.tournaments.conftest import play_all, running_event
from tournaments import services as tournament_services
from tournaments.models import Event


def finished_table(user: User, *, public: bool = False, seed: int = 7) -> PlayTable:
    """A hand played out with greedy bots; ``public``: open to everyone, as an event's are
    once the event allows (``public_after`` passed)."""
    table = play_out(greedy_table(user, seed=seed), user)
    if public:
        PlayTable.objects.filter(pk=table.pk).update(
            public_after=timezone.now() - timedelta(minutes=1)
        )
        table.refresh_from_db()
    return table


def sealed_table(user: User) -> tuple[PlayTable, Challenge]:
    """The first board of a two-board challenge, played out: the challenge is still in play,
    so the table's deal is sealed (``tables.selectors.CHALLENGE_SEAL``). It is made public
    too, so that only the seal keeps its replay from other viewers."""
    challenge = challenge_create(
        owner=user, variant="single4", opponent={"kind": "reference", "name": "greedy"}, boards=2
    )
    first = PlayTable.objects.get(challenge_table__challenge=challenge)
    play_out(first, user)
    PlayTable.objects.filter(pk=first.pk).update(public_after=timezone.now() - timedelta(minutes=1))
    first.refresh_from_db()
    challenge.refresh_from_db()
    assert first.is_over and challenge.status == Challenge.Status.PLAYING
    return first, challenge


def rated_events(player: Player, *, count: int = 2, days_apart: int = 30) -> list[Event]:
    """``count`` finished single4 pairs events with ``player`` in the first pair, each
    dated ``days_apart`` days after the one before (the last finished now)."""
    others = [
        arena_services.player_register(username=f"club{n}", password=PASSWORD) for n in range(11)
    ]
    director = arena_services.player_register(username="director", password=PASSWORD)
    events = []
    for _ in range(count):
        event = running_event(director, [player, *others], rounds=2)
        play_all(event)
        events.append(tournament_services.event_finish(event=event, by=director))
    now = timezone.now()
    for back, event in enumerate(reversed(events)):
        # The events are played within a second; their dates are spread so that the chart
        # shows a history over time.
        finished = now - timedelta(days=back * days_apart)
        Event.objects.filter(pk=event.pk).update(
            started=finished - timedelta(hours=3), finished=finished
        )
    return events
