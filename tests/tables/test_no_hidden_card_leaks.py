"""No card the human's seat may not know appears in the page, its fragments or the API.

What the seat may know is computed from the engine: the cards named in its observation
(RULES.md section 10: its own hand, the played and shown cards) and in the moves as its
seat heard them (the game's ``observer.heard``). Every face the server sends while the hand
is played must be among them; another seat's unseen cards never are.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.models import Player
from engine.registry import variant_names
from tables import services
from tables.referee import Hand
from tests.arena.conftest import PASSWORD
from tests.cards import card_tokens
from tests.tables.conftest import greedy_table

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|csrftoken=)"?[^"; ]+')


def known_faces(hand: Hand, seat: int) -> set[str]:
    faces = set(card_tokens(hand.state.observation(seat)))
    faces |= set(card_tokens([text for _, text in hand.heard_by(seat)]))
    return faces


def hidden_faces(hand: Hand, seat: int) -> set[str]:
    """Faces held by other seats that the seat cannot know (none of them shown to it)."""
    others: Counter[str] = Counter()
    for other in range(hand.game.players):
        if other != seat:
            others.update(str(card) for card in hand.state.hand(other))
    return set(others) - known_faces(hand, seat)


def sent_faces(client: Client, table_id: int, seen: int) -> set[str]:
    texts = [
        client.get(f"/play/tables/{table_id}/").content.decode(),
        client.get(f"/play/tables/{table_id}/state/?seen={seen}").content.decode(),
        client.get(f"/api/play/tables/{table_id}/").content.decode(),
    ]
    return set(card_tokens([CSRF.sub("", text) for text in texts]))


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    variant=st.sampled_from(variant_names()), seed=st.integers(0, 2**63 - 1), seat=st.integers(0, 3)
)
def test_no_hidden_card_reaches_the_human(
    alice: Player, variant: str, seed: int, seat: int
) -> None:
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    table = greedy_table(alice.user, variant, seed=seed, human_seat=seat % 2, bot="random")
    rng = random.Random(seed)
    seen = 0
    while True:
        table.refresh_from_db()
        hand = services.hand_of(table)
        if table.is_over:
            break
        # The frames since ``seen`` hold the seat's view after every bot move: every ply.
        leaked = sent_faces(client, table.pk, seen) - known_faces(hand, table.human_seat)
        assert not leaked, f"ply {table.ply}: {sorted(leaked)} sent to seat {table.human_seat}"
        if seen == 0:
            # The property is not vacuous: at the deal other seats hold unseen faces.
            assert hidden_faces(hand, table.human_seat)
        seen = table.ply
        legal = [str(action) for action in hand.state.legal_actions]
        services.table_act(
            table_id=table.pk, user=alice.user, action=rng.choice(legal), ply=table.ply
        )
