"""The start forms offer, for the chosen variant, only its seats and the bots it has.

Only the four-hand pinochle games have a strong reference bot (bots/reference); the
refusal of anything else stays on the server, for a hand-written POST.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client

from arena.models import Player
from tables.api.challenges import ChallengeCreateSerializer
from tables.api.tables import PlayTableCreateSerializer
from tables.models import PlayTable
from tests.arena.conftest import PASSWORD
from tests.engine.toy_highcard import registered_toy

pytestmark = pytest.mark.django_db

OPTION = re.compile(r'<option value="([^"]*)"')


def signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def select(body: str, name: str) -> list[str]:
    found = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', body, re.S)
    assert found is not None, f"no select {name}"
    return OPTION.findall(found.group(1))


def test_a_variant_without_a_strong_bot_is_not_offered_one(alice: Player) -> None:
    client = signed_in(alice)
    response = client.get("/play/tables/new/options/", {"variant": "pinnacolo3"})
    assert response.status_code == 200
    body = response.content.decode()
    assert select(body, "bots") == ["reference:random", "reference:greedy"]


def test_three_hand_is_offered_its_own_strong_bot(alice: Player) -> None:
    client = signed_in(alice)
    response = client.get("/play/tables/new/options/", {"variant": "cutthroat3"})
    assert response.status_code == 200
    body = response.content.decode()
    assert select(body, "bots") == ["reference:random", "reference:greedy", "reference:strong"]
    assert select(body, "seat") == ["0", "1", "2"]
    assert 'name="partner"' not in body  # no partnership in three-hand


def test_a_four_hand_game_is_offered_the_strong_bot(alice: Player) -> None:
    body = signed_in(alice).get("/play/").content.decode()
    assert "reference:strong" in select(body, "bots")
    assert "reference:strong" in select(body, "partner")
    fragment = signed_in(alice).get(
        "/play/tables/new/options/", {"variant": "auction4", "form": "challenge"}
    )
    assert OPTION.findall(fragment.content.decode()) == [
        "reference:random",
        "reference:greedy",
        "reference:strong",
    ]


def test_an_unknown_variant_is_refused_by_name(alice: Player) -> None:
    response = signed_in(alice).get("/play/tables/new/options/", {"variant": "bezique"})
    assert response.status_code == 400
    assert "'bezique'" in response.content.decode()


def test_a_hand_written_post_of_the_strong_bot_is_still_refused(alice: Player) -> None:
    response = signed_in(alice).post(
        "/play/tables/new/", {"variant": "pinnacolo2", "seat": "0", "bots": "reference:strong"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "pinnacolo2 has no reference bot &#x27;strong&#x27;" in body
    assert not PlayTable.objects.exists()
    # The form shown again offers what the posted variant has.
    assert select(body, "bots") == ["reference:random", "reference:greedy"]


@pytest.fixture
def toy() -> Iterator[None]:
    with registered_toy():
        yield


def test_the_variant_field_reads_the_registry_when_the_form_is_built(
    alice: Player, toy: None
) -> None:
    body = signed_in(alice).get("/play/").content.decode()
    assert "highcard" in select(body, "variant")
    challenges = signed_in(alice).get("/play/challenges/").content.decode()
    assert "highcard" in select(challenges, "variant")
    # The API's variant fields too: DRF builds a serializer's fields anew for each one.
    body = {"variant": "highcard", "opponent": {"kind": "reference", "name": "random"}}
    assert ChallengeCreateSerializer(data=body).is_valid()
    assert PlayTableCreateSerializer(data={**body, "bots": [body["opponent"]]}).is_valid()
