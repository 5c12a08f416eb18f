"""The table page: the seat's view, a reload that resumes, refusals with their reason."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arena.models import Player
from tables import services
from tests.arena.conftest import PASSWORD
from tests.tables.conftest import greedy_table, play_out

pytestmark = pytest.mark.django_db


def signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def test_a_reload_resumes_exactly_where_the_human_was(alice: Player) -> None:
    client = signed_in(alice)
    table = greedy_table(alice.user, human_seat=1)
    legal = [str(a) for a in services.hand_of(table).state.legal_actions]
    response = client.post(f"/play/tables/{table.pk}/act/", {"action": legal[-1], "ply": table.ply})
    assert response.status_code == 302
    table.refresh_from_db()
    first = client.get(f"/play/tables/{table.pk}/")
    again = client.get(f"/play/tables/{table.pk}/")
    assert first.status_code == again.status_code == 200
    body = first.content.decode()
    assert f'data-ply="{table.ply}"' in body
    assert re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", body) == re.sub(
        r'name="csrfmiddlewaretoken" value="[^"]+"', "", again.content.decode()
    )
    # The view is rebuilt from the stored log: the same hand the engine gives.
    hand = services.hand_of(table)
    for card in hand.state.observation(1)["hand"]:
        assert f'data-card="{card}"' in body


def test_a_forged_illegal_post_is_refused_with_its_reason(alice: Player) -> None:
    client = signed_in(alice)
    table = greedy_table(alice.user, human_seat=1)
    response = client.post(
        f"/play/tables/{table.pk}/act/",
        {"action": "bid 5", "ply": table.ply},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "Refused:" in response.content.decode()
    table.refresh_from_db()
    assert services.hand_of(table).current == 1


def test_a_double_submit_is_a_409(alice: Player) -> None:
    client = signed_in(alice)
    table = greedy_table(alice.user, human_seat=1)
    data = {"action": "pass", "ply": table.ply}
    assert client.post(f"/play/tables/{table.pk}/act/", data).status_code == 302
    assert client.post(f"/play/tables/{table.pk}/act/", data).status_code == 409


def test_the_finished_page_shows_the_result_and_the_replay_opens(alice: Player) -> None:
    client = signed_in(alice)
    table = play_out(greedy_table(alice.user, seed=5), alice.user)
    body = client.get(f"/play/tables/{table.pk}/").content.decode()
    assert 'id="breakdown"' in body and 'id="replay-link"' in body
    replay = client.get(f"/play/tables/{table.pk}/replay/")
    assert replay.status_code == 200
    frames = client.get(f"/play/tables/{table.pk}/replay/frames.json?seat=0").json()
    assert len(frames["frames"]) == table.ply + 1


def test_another_reader_sees_no_table(alice: Player, bob: Player) -> None:
    table = greedy_table(alice.user, human_seat=1)
    assert signed_in(bob).get(f"/play/tables/{table.pk}/").status_code == 404
    assert Client().get(f"/play/tables/{table.pk}/state/").status_code == 404
