"""An event's published results are noticed by every player of it, once."""

from __future__ import annotations

from arena.models import Notice, Player
from tournaments import services

from .conftest import play_all, running_event


def test_finishing_an_event_notices_its_players(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field)
    play_all(event)
    assert not Notice.objects.exists()
    services.event_finish(event=event, by=alice)
    noticed = set(
        Notice.objects.filter(kind=Notice.Kind.RESULTS_PUBLISHED).values_list("user_id", flat=True)
    )
    assert noticed == {player.user_id for player in field}
    assert all(
        notice.url == f"/tournaments/{event.pk}/"
        for notice in Notice.objects.filter(kind=Notice.Kind.RESULTS_PUBLISHED)
    )
