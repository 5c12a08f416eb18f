"""A game that is one module, played at a human's table: the toy (tests/engine/toy_highcard.py)
is registered, and a casual table of it is dealt, played to its end and scored through the
API and the pages, with nothing in the play app naming it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Player
from tables.models import Challenge, PlayTable
from tables.services import hand_of
from tests.arena.conftest import PASSWORD
from tests.engine.toy_highcard import registered_toy

pytestmark = pytest.mark.django_db

RANDOM = {"kind": "reference", "name": "random"}


@pytest.fixture
def toy() -> Iterator[None]:
    with registered_toy():
        yield


def test_a_toy_hand_is_played_to_its_end_through_the_api(
    toy: None, alice_client: APIClient
) -> None:
    created = alice_client.post(
        "/api/play/tables/",
        {"variant": "highcard", "human_seat": 0, "dealer": 1, "bots": [RANDOM]},
        format="json",
    )
    assert created.status_code == 201, created.content
    table = created.json()
    assert table["players"] == 2 and table["seat_names"] == ["North", "South"]
    assert len(table["observation"]["hand"]) == 3
    while table["status"] == "playing":
        legal = table["controls"]["legal"]
        assert legal and all(action.startswith("play ") for action in legal)
        # The toy's cards are the hand's: each is offered by clicking it.
        assert set(table["controls"]["cards"].values()) == set(legal)
        answer = alice_client.post(
            f"/api/play/tables/{table['id']}/actions/",
            {"action": legal[0], "ply": table["ply"]},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        table = answer.json()["table"]
    # Three tricks, each a card from either seat.
    assert table["status"] == "finished" and table["ply"] == 6
    scores = table["result"]["side_scores"]
    assert sorted(scores) in ([0, 3], [1, 2]) and table["seed"] is not None
    record = PlayTable.objects.get(pk=table["id"])
    assert record.variant == "highcard" and record.result is not None
    assert record.result["side_scores"] == scores and record.result["fault"] is None
    assert record.result["hand"] == {"team_scores": scores}


def test_a_toy_table_is_dealt_and_played_from_the_pages(toy: None, alice: Player) -> None:
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    home = client.get("/play/?variant=highcard")
    assert home.status_code == 200 and 'value="highcard"' in home.content.decode()
    options = client.get("/play/tables/new/options/", {"variant": "highcard"})
    assert options.status_code == 200
    assert "North" in options.content.decode() and "reference:random" in options.content.decode()
    started = client.post(
        "/play/tables/new/", {"variant": "highcard", "seat": "1", "bots": "reference:random"}
    )
    assert started.status_code == 302, started.content
    table = PlayTable.objects.get(owner__username="alice")
    assert table.variant == "highcard" and table.human_seat == 1
    while True:
        page = client.get(started["Location"])
        assert page.status_code == 200
        text = page.content.decode()
        assert "<strong>South</strong> · you" in text
        table.refresh_from_db()
        if table.is_over:
            break
        legal = [str(action) for action in hand_of(table).state.legal_actions]
        card = legal[0].split()[1]
        assert f'data-card="{card}"' in text
        acted = client.post(
            f"/play/tables/{table.pk}/act/", {"action": legal[0], "ply": str(table.ply)}
        )
        assert acted.status_code == 302
    assert 'id="result"' in text and 'id="side-scores"' in text
    assert "North" in text and "South" in text
    # The finished hand opens in the replay viewer, as any table's does.
    assert 'id="replay-link"' in text
    assert client.get(f"/play/tables/{table.pk}/replay/").status_code == 200
    frames = client.get(f"/play/tables/{table.pk}/replay/frames.json").json()
    assert frames["variant"] == "highcard" and len(frames["frames"]) == table.ply + 1


def test_a_bot_is_challenged_at_the_toy(
    toy: None, alice: Player, alice_client: APIClient, empty_cache: None
) -> None:
    # RULES.md section 9: each board is played again by the bot at every seat, the human's
    # result being the difference of the two tables' margins.
    created = alice_client.post(
        "/api/play/challenges/",
        {"variant": "highcard", "opponent": RANDOM, "boards": 2},
        format="json",
    )
    assert created.status_code == 201, created.content
    challenge = created.json()
    while challenge["next_table"] is not None:
        table = alice_client.get(f"/api/play/tables/{challenge['next_table']}/").json()
        while table["status"] == "playing":
            answer = alice_client.post(
                f"/api/play/tables/{table['id']}/actions/",
                {"action": table["controls"]["legal"][0], "ply": table["ply"]},
                format="json",
            )
            assert answer.status_code == 200, answer.content
            table = answer.json()["table"]
        challenge = alice_client.get(f"/api/play/challenges/{challenge['id']}/").json()
    assert challenge["status"] == "finished" and challenge["summary"]["boards"] == 2
    assert len(challenge["board_results"]) == 2
    assert all(row["comparison"] is not None for row in challenge["tables"])
    assert Challenge.objects.get(pk=challenge["id"]).variant == "highcard"
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    page = client.get(f"/play/challenges/{challenge['id']}/").content.decode()
    # The boards' dealers and the human's seats, by the toy's seat names.
    assert 'id="challenge-result"' in page and "<td>South</td>" in page
