"""The director's forms on the event pages: create an event, enter pairs, start, finish.

Each form calls the service the API calls, so each is tested for what a page adds: the
redirect on success, the refusal of anyone who does not direct the event (with its reason,
changing nothing), and bad input answered 400 with the message beside the form.
"""

from __future__ import annotations

import pytest
from django.test import Client

from arena.models import Player
from tests.tournaments.conftest import play_all, running_event
from tournaments import services
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


def signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def new_event_form(**changes: str) -> dict[str, str]:
    form = {
        "name": "Tuesday pairs",
        "variant": "single4",
        "kind": "pairs",
        "movement": "mitchell",
        "boards_per_round": "2",
        "scale": "2-1",
        "par_bot": "",
        "sections": "A",
    }
    form.update(changes)
    return form


@pytest.fixture
def setup_event(alice: Player) -> Event:
    return services.event_create(
        director=alice, name="Club night", variant="single4", boards_per_round=2, par_bot=""
    )


# --- a new event ---------------------------------------------------------------------------


def test_a_signed_in_player_creates_an_event_and_directs_it(alice: Player) -> None:
    client = signed_in(alice)
    assert "Direct a new event" in client.get("/tournaments/").content.decode()
    assert client.get("/tournaments/new/").status_code == 200
    response = client.post("/tournaments/new/", new_event_form(sections="A B"))
    event = Event.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{event.pk}/"
    assert event.director == alice
    assert (event.name, event.variant, event.boards_per_round) == ("Tuesday pairs", "single4", 2)
    assert sorted(event.sections.values_list("name", flat=True)) == ["A", "B"]


def test_a_visitor_is_sent_to_sign_in_and_nothing_is_made(db: None) -> None:
    client = Client()
    assert "Direct a new event" not in client.get("/tournaments/").content.decode()
    response = client.post("/tournaments/new/", new_event_form())
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "This field is required."),
        ({"boards_per_round": "13"}, "less than or equal to 12"),
        ({"variant": "chess"}, "Select a valid choice"),
        # The service's own rule between two fields: a pairs event's movement.
        ({"movement": "individual"}, "a pairs event needs a Mitchell, Howell or teams movement"),
        ({"sections": "A A"}, "sections need distinct names"),
    ],
)
def test_a_bad_new_event_is_answered_400_with_its_reason(
    alice: Player, changes: dict[str, str], message: str
) -> None:
    response = signed_in(alice).post("/tournaments/new/", new_event_form(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Event.objects.exists()


# --- entries and the start -------------------------------------------------------------------


def test_the_director_enters_pairs_by_username_then_starts(
    alice: Player, setup_event: Event, field: list[Player]
) -> None:
    client = signed_in(alice)
    page = client.get(f"/tournaments/{setup_event.pk}/").content.decode()
    assert "Add the entry" in page and "Start the event" in page
    for first, second in zip(field[:8:2], field[1:8:2], strict=True):
        response = client.post(
            f"/tournaments/{setup_event.pk}/entries/",
            {"section": "A", "player_1": first.user.username, "player_2": second.user.username},
        )
        assert response.status_code == 302
    assert Entry.objects.filter(section__event=setup_event).count() == 4
    response = client.post(f"/tournaments/{setup_event.pk}/start/")
    assert response.status_code == 302
    setup_event.refresh_from_db()
    assert setup_event.status == Event.Status.RUNNING
    page = client.get(f"/tournaments/{setup_event.pk}/").content.decode()
    assert "Add the entry" not in page and "Finish the event" in page


def test_another_player_is_refused_with_the_reason_and_nothing_changes(
    bob: Player, setup_event: Event, field: list[Player]
) -> None:
    client = signed_in(bob)
    page = client.get(f"/tournaments/{setup_event.pk}/").content.decode()
    assert "Add the entry" not in page and "Start the event" not in page
    response = client.post(
        f"/tournaments/{setup_event.pk}/entries/",
        {"section": "A", "player_1": field[0].user.username, "player_2": field[1].user.username},
    )
    assert response.status_code == 403
    assert "only the event&#x27;s director can do this" in response.content.decode()
    assert not Entry.objects.exists()
    response = client.post(f"/tournaments/{setup_event.pk}/start/")
    assert response.status_code == 403
    assert "only the event&#x27;s director can do this" in response.content.decode()
    setup_event.refresh_from_db()
    assert setup_event.status == Event.Status.SETUP


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("nobody", "carol"), "there is no player &#x27;nobody&#x27;"),
        (("carol", ""), "an entry in a pairs event is 2 different player(s)"),
        (("carol", "carol"), "an entry in a pairs event is 2 different player(s)"),
        (("alice", "carol"), "the director of an event cannot play in it"),
    ],
)
def test_a_bad_entry_is_answered_400_beside_the_form(
    alice: Player,
    setup_event: Event,
    field: list[Player],
    players: tuple[str, str],
    message: str,
) -> None:
    response = signed_in(alice).post(
        f"/tournaments/{setup_event.pk}/entries/",
        {"section": "A", "player_1": players[0], "player_2": players[1]},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert "Add the entry" in page  # the form again, to put right
    assert not Entry.objects.exists()


def test_an_event_without_entries_does_not_start(alice: Player, setup_event: Event) -> None:
    response = signed_in(alice).post(f"/tournaments/{setup_event.pk}/start/")
    assert response.status_code == 400
    assert "nobody has entered yet" in response.content.decode()
    setup_event.refresh_from_db()
    assert setup_event.status == Event.Status.SETUP


# --- the finish ------------------------------------------------------------------------------


def test_the_director_finishes_the_event_from_its_page(
    alice: Player, bob: Player, field: list[Player]
) -> None:
    event = running_event(alice, field[:8])
    play_all(event)
    response = signed_in(bob).post(f"/tournaments/{event.pk}/finish/")
    assert response.status_code == 403
    assert "only the event&#x27;s director can do this" in response.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING

    client = signed_in(alice)
    response = client.post(f"/tournaments/{event.pk}/finish/")
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Finished once: a second press is refused on the event page, which stays as it was.
    response = client.post(f"/tournaments/{event.pk}/finish/")
    assert response.status_code == 400
    assert "only a running event can be finished" in response.content.decode()
    assert "Finish the event" not in response.content.decode()


def test_the_director_withdraws_an_entry_before_the_start_and_the_later_ones_move_up(
    alice: Player, bob: Player, setup_event: Event, field: list[Player]
) -> None:
    client = signed_in(alice)
    for first, second in zip(field[:6:2], field[1:6:2], strict=True):
        client.post(
            f"/tournaments/{setup_event.pk}/entries/",
            {"section": "A", "player_1": first.user.username, "player_2": second.user.username},
        )
    first, second, third = Entry.objects.filter(section__event=setup_event).order_by("number")
    page = client.get(f"/tournaments/{setup_event.pk}/").content.decode()
    assert f"/tournaments/{setup_event.pk}/entries/{second.pk}/withdraw/" in page
    # Another player sees no button and is refused with the reason; nothing changes.
    assert "Withdraw" not in signed_in(bob).get(f"/tournaments/{setup_event.pk}/").content.decode()
    refused = signed_in(bob).post(f"/tournaments/{setup_event.pk}/entries/{second.pk}/withdraw/")
    assert refused.status_code == 403
    assert Entry.objects.filter(section__event=setup_event).count() == 3
    response = client.post(f"/tournaments/{setup_event.pk}/entries/{second.pk}/withdraw/")
    assert response.status_code == 302
    assert "is withdrawn" in client.get(response["Location"]).content.decode()
    numbers = dict(Entry.objects.filter(section__event=setup_event).values_list("pk", "number"))
    assert numbers == {first.pk: 1, third.pk: 2}
