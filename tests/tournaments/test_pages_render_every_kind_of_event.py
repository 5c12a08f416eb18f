"""Every page renders for every kind of event: pairs (Mitchell, Howell), teams, individual
and three-hand, before, during and after play."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena import services as arena_services
from arena.models import Player
from tournaments import services

from .conftest import PASSWORD, play_all, running_event

KINDS = {
    "mitchell": ({"movement": "mitchell"}, 12),
    "howell": ({"movement": "howell"}, 16),
    "teams": ({"movement": "teams", "variant": "double4"}, 16),
    "individual": ({"kind": "individual", "movement": "individual"}, 20),
    "cutthroat3": (
        {"kind": "individual", "movement": "individual", "variant": "cutthroat3"},
        15,
    ),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_page_renders(alice: Player, kind: str) -> None:
    options, size = KINDS[kind]
    players = [
        arena_services.player_register(
            username=f"p{i}", password=PASSWORD, display_name=f"Player {i}"
        )
        for i in range(size)
    ]
    event = running_event(alice, players, boards_per_round=1, **options)
    director = Client()
    director.force_login(alice.user)
    base = f"/tournaments/{event.pk}"

    def visit(client: Client, url: str) -> Any:
        response = client.get(url)
        assert response.status_code == 200, (kind, url)
        return response

    play_all(event, skip={(1, 1, 1)})
    section = event.sections.get()
    for url in (
        "/tournaments/",
        f"{base}/",
        f"{base}/standings/",
        f"{base}/standings/live/",
        f"{base}/verification/",
        f"{base}/boards/1/",
        f"{base}/scorecards/A/1/",
        f"{base}/tables/A/1/1/",
        f"{base}/tables/A/{section.rounds}/1/",
    ):
        visit(director, url)
    services.event_finish(event=event, by=alice)
    for url in (f"{base}/", f"{base}/standings/", f"{base}/boards/2/", f"{base}/scorecards/A/2/"):
        visit(Client(), url)
