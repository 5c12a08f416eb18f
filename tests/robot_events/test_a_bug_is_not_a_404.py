"""A lookup that fails by a bug reaches the client as a server error, never as "not found"."""

from __future__ import annotations

import pytest

from arena.models import Player
from robot_events import selectors
from robot_events.models import RobotEvent
from tests.robot_events.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_key_error_inside_a_traveller_is_a_500(
    event: RobotEvent, director: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: object) -> dict[str, object]:
        return {}["hands"]  # type: ignore[no-any-return]

    monkeypatch.setattr(selectors, "board_traveller", broken)
    client = client_for(director)
    client.raise_request_exception = False
    response = client.get(f"/api/robots/{event.pk}/boards/1/")
    assert response.status_code == 500
