"""A league's organiser edits its name, description, boards and time control from the
league's page, through the API's own serializer and service; a bad value is answered beside
its field and changes nothing; anybody else is told why."""

from __future__ import annotations

from typing import Any

from django.test import Client

from arena.models import Player
from leagues.models import League
from tests.leagues.conftest import create_league
from tests.people import PASSWORD


def _page_client(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def _league(organiser_client: Any, **fields: Any) -> League:
    return League.objects.get(pk=create_league(organiser_client, **fields)["id"])


def _form(league: League, **changes: str) -> dict[str, str]:
    return {
        "name": league.name,
        "description": league.description,
        "boards_per_match": str(league.boards_per_match),
        "decision_ms": "",
        "bank_ms": "",
        **changes,
    }


def test_the_organiser_edits_the_league_from_its_page(
    organiser: Player, organiser_client: Any
) -> None:
    league = _league(organiser_client)
    page = _page_client(organiser)
    edit = f"/leagues/{league.pk}/edit/"
    assert f'href="{edit}"' in page.get(f"/leagues/{league.pk}/").content.decode()
    shown = page.get(edit).content.decode()
    assert 'value="Club league"' in shown and 'name="description"' in shown

    answer = page.post(
        edit,
        _form(
            league,
            name="Club league 2027",
            # A browser sends a textarea's line breaks as CRLF.
            description="Fridays at eight.\r\nBring a bot.",
            boards_per_match="4",
            decision_ms="250",
            allow_follow_latest="on",
        ),
    )

    assert answer.status_code == 302 and answer["Location"] == f"/leagues/{league.pk}/"
    league.refresh_from_db()
    assert league.name == "Club league 2027"
    assert league.description == "Fridays at eight.\nBring a bot."
    assert (league.boards_per_match, league.decision_ms, league.bank_ms) == (4, 250, None)
    assert league.allow_follow_latest
    # What the API reads.
    read = organiser_client.get(f"/api/leagues/{league.pk}/").json()
    assert read["description"] == "Fridays at eight.\nBring a bot."
    shown = page.get(answer["Location"]).content.decode()
    assert "The league Club league 2027 is saved." in shown
    assert "Fridays at eight.<br>Bring a bot." in shown


def test_a_bad_value_is_answered_beside_its_field_and_changes_nothing(
    organiser: Player, organiser_client: Any
) -> None:
    league = _league(organiser_client, description="As it was.")
    before = League.objects.filter(pk=league.pk).values().get()
    for changes, field, message in (
        ({"name": ""}, "name", "may not be blank"),
        ({"boards_per_match": "0"}, "boards", "boards per match must be between 1 and"),
        ({"decision_ms": "5"}, "decision", "decision_ms is at least 10"),
        ({"bank_ms": "abc"}, "bank", "A valid integer is required"),
        ({"description": "x" * 4001}, "description", "no more than 4000 characters"),
    ):
        answer = _page_client(organiser).post(
            f"/leagues/{league.pk}/edit/", _form(league, **{"description": "Changed?", **changes})
        )
        assert answer.status_code == 400, changes
        shown = answer.content.decode()
        assert f'id="{field}-error"' in shown and message in shown, changes
        # The form keeps what was typed, and the title the saved name.
        assert "Changed?" in shown or field == "description"
        assert "<h1>Edit Club league</h1>" in shown
        assert League.objects.filter(pk=league.pk).values().get() == before


def test_another_player_is_refused_with_the_reason(organiser_client: Any, alice: Player) -> None:
    league = _league(organiser_client, description="As it was.")
    page = _page_client(alice)
    assert f"/leagues/{league.pk}/edit/" not in page.get(f"/leagues/{league.pk}/").content.decode()
    for answer in (
        page.get(f"/leagues/{league.pk}/edit/"),
        page.post(f"/leagues/{league.pk}/edit/", _form(league, description="Mine now")),
    ):
        assert answer.status_code == 403
        assert "only the league&#x27;s organiser can edit the league" in answer.content.decode()
    league.refresh_from_db()
    assert league.description == "As it was."


def test_a_ladder_league_edits_its_reach(organiser: Player, organiser_client: Any) -> None:
    league = _league(organiser_client, format="ladder")
    page = _page_client(organiser)
    assert 'name="ladder_reach"' in page.get(f"/leagues/{league.pk}/edit/").content.decode()
    answer = page.post(f"/leagues/{league.pk}/edit/", _form(league, ladder_reach="3"))
    assert answer.status_code == 302
    league.refresh_from_db()
    assert league.ladder_reach == 3
