"""A bot's owner (or the league's organiser) withdraws an entry from the season's page
before the season starts, through the API's own service; nobody else can, and once the
season has started the page says why it cannot."""

from __future__ import annotations

from typing import Any

from django.test import Client

from arena.models import Player
from leagues.models import Entry, Season
from tests.leagues.conftest import create_league, enter, open_season, ready_version
from tests.people import PASSWORD, client_for


def _page_client(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def test_the_owner_withdraws_an_entry_from_the_season_page_before_the_start(
    organiser: Player, organiser_client: Any, carol: Player, dave: Player
) -> None:
    league_id = create_league(organiser_client)["id"]
    open_season(organiser_client, league_id)
    carols = enter(client_for(carol), league_id, ready_version(carol, "cbot"))
    daves = enter(client_for(dave), league_id, ready_version(dave, "dbot"))
    season_page = f"/leagues/{league_id}/seasons/1/"
    withdraw = f"{season_page}entries/{carols['id']}/withdraw/"

    # Carol sees a button on her entry only; Dave sees none on hers and is refused.
    shown = _page_client(carol).get(season_page).content.decode()
    assert withdraw in shown and f"entries/{daves['id']}/withdraw/" not in shown
    assert withdraw not in _page_client(dave).get(season_page).content.decode()
    refused = _page_client(dave).post(withdraw)
    assert refused.status_code == 403
    assert "only the bot&#x27;s owner or the organiser" in refused.content.decode()
    assert Entry.objects.filter(pk=carols["id"]).exists()

    owner = _page_client(carol)
    answer = owner.post(withdraw)
    assert answer.status_code == 302
    assert "cbot is withdrawn from season 1" in owner.get(answer["Location"]).content.decode()
    assert not Entry.objects.filter(pk=carols["id"]).exists()

    # Once the season has started, the organiser is told why, and nothing changes.
    Season.objects.filter(league_id=league_id, number=1).update(status=Season.Status.RUNNING)
    late = _page_client(organiser).post(f"{season_page}entries/{daves['id']}/withdraw/")
    assert late.status_code == 400
    assert "the season has started" in late.content.decode()
    assert Entry.objects.filter(pk=daves["id"]).exists()
