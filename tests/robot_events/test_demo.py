"""The demo leaves an open robot event, two results a board, that the guest can join."""

from __future__ import annotations

import pytest
from django.test import Client

from robot_events import demo, selectors
from robot_events.models import RobotEvent

pytestmark = pytest.mark.django_db


def test_the_demo_robot_event_is_open_for_the_guest_and_created_once() -> None:
    demo.seed(say=lambda _: None)
    event = RobotEvent.objects.get(name=demo.DEMO_EVENT)
    standings = selectors.event_standings(event=event)
    assert [row["boards"] for row in standings] == [3, 3]
    guest = Client()
    assert guest.login(username=demo.GUEST, password=demo.DEMO_PASSWORD)
    assert guest.post(f"/robots/{event.pk}/join/").status_code == 302
    started = guest.post(f"/robots/{event.pk}/next/")
    assert started.status_code == 302 and started["Location"].startswith("/play/tables/")
    demo.seed(say=lambda _: None)
    assert RobotEvent.objects.count() == 1
