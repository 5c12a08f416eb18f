"""No frame of a card table names a card its viewer may not know (RULES.md section 10).

What each viewer may know is computed here, apart from the lobby: the game is dealt again
by the engine from the table's seed and log, and after every ply a seated viewer learns
what its seat's observation shows (its own hand, the cards played and shown, the passes it
gave or took) and a spectator what the public view shows, plus every move as that viewer
heard it (``Observer.heard``). Every card named in any frame sent to the viewer at any
ply must be among the cards it has known so far. The same search finds each seat's own
cards in its own frame, and finds other seats' unseen cards in theirs, so it can fail.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine.game import TargetGame
from engine.interface import AnyGame
from engine.registry import load_game, variant_names
from lobby import game_state, selectors, services
from lobby.models import GameTable
from tests.cards import card_tokens
from tests.lobby.conftest import choose, person

pytestmark = pytest.mark.django_db

PLIES = 60
"""Plies of each example checked: bidding, passing and a good part of the tricks."""

VARIANTS = [v for v in variant_names() if load_game(v).target_game is not None]

SPECTATOR = -1

_NAMES = itertools.count()
"""Fresh names for every example's people (hypothesis seeds ``random``, so not from it)."""


def faces(data: Any) -> set[str]:
    return set(card_tokens(data))


def searched(frame: dict[str, Any]) -> dict[str, Any]:
    """The frame without its random strings (the commitment, the host's invitation
    token), which may hold two letters that read as a card."""
    return {
        **frame,
        "commitment": "",
        "viewer": {**frame["viewer"], "token": None},
    }


class Knowledge:
    """What each viewer has known so far, from the engine alone."""

    def __init__(self, game: AnyGame, state: TargetGame[Any, Any], viewers: Iterable[int]):
        self.game = game
        self.state = state
        self.known: dict[int, set[str]] = {viewer: set() for viewer in viewers}
        self._look(state.current_hand)

    def _look(self, hand: Any) -> None:
        observer = self.game.observer
        for viewer, known in self.known.items():
            if viewer == SPECTATOR:
                known |= faces(observer.public_view(hand))
            else:
                known |= faces(observer.seat_view(hand, viewer))

    def apply(self, text: str) -> None:
        actor = self.state.current_player
        assert actor is not None
        action = self.game.parse_action(text)
        hand = self.state.current_hand
        self.state.apply(action)
        for viewer, known in self.known.items():
            known |= faces(self.game.observer.heard(action, actor, None if viewer < 0 else viewer))
        self._look(hand)  # the hand as it stands now (as it ended, if it ended)
        if self.state.current_hand is not hand:
            self._look(self.state.current_hand)

    def unseen_by(self, viewer: int) -> set[str]:
        """Cards other seats hold now that ``viewer`` has never been shown."""
        held: set[str] = set()
        for seat in range(self.game.players):
            if seat != viewer:
                held |= {str(card) for card in self.state.hand(seat)}
        return held - self.known[viewer]


def table_of_people(variant: str, rated: bool) -> tuple[GameTable, dict[int, User]]:
    players = load_game(variant).players
    people = {seat: person(f"p{seat}x{next(_NAMES)}") for seat in range(players)}
    table = services.table_open(
        host=people[0],
        variant=variant,
        rated=rated,
        target={"kind": "hands", "value": 2},
        seats=[{"kind": "host"}] + [{"kind": "open"}] * (players - 1),
    )
    for seat in range(1, players):
        services.table_sit(table_id=table.pk, user=people[seat], seat=seat)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    return table, people


@settings(
    max_examples=6,
    # A failing game is long to shrink: the example as found says enough.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), rated=st.booleans())
def test_no_frame_names_a_card_its_viewer_may_not_know(
    variant: str, seed: int, rated: bool
) -> None:
    game_state.forget()
    table, people = table_of_people(variant, rated)
    game = load_game(variant, rules=load_game(variant).rules_from_json(table.rules))
    knowledge = Knowledge(
        game, game.new_target_game(table.seed, table.dealer, max_hands=2), [*people, SPECTATOR]
    )
    viewers: dict[int, User | AnonymousUser] = {**people, SPECTATOR: AnonymousUser()}
    rng = random.Random(seed)
    for ply in range(PLIES):
        table.refresh_from_db()
        frames = {
            viewer: searched(selectors.frame_for(table_id=table.pk, viewer=user))
            for viewer, user in viewers.items()
        }
        if table.is_over:
            # After the game every hand is shown open: the cards still held at the end
            # (a hand thrown in keeps them all) are found in every viewer's frame.
            held = {str(c) for seat in people for c in knowledge.state.current_hand.hand(seat)}
            for frame in frames.values():
                assert held <= faces(frame)
            break
        for viewer, frame in frames.items():
            leaked = faces(frame) - knowledge.known[viewer]
            where = sorted(key for key, value in frame.items() if faces(value) & leaked)
            assert not leaked, f"{variant} ply {ply}: {viewer} got {sorted(leaked)} in {where}"
        if ply == 0:
            for viewer in viewers:
                # Not vacuous: every viewer has unseen cards around the table at the deal...
                assert knowledge.unseen_by(viewer), viewer
            for seat in people:
                # ...and the same search finds a seat's own cards in its own frame.
                own = {str(card) for card in knowledge.state.hand(seat)}
                assert own <= faces(frames[seat]), seat
                others = knowledge.unseen_by((seat + 1) % len(people)) & own
                assert others <= faces(frames[seat])
        actor = frames[SPECTATOR]["to_act"]
        frame = selectors.frame_for(table_id=table.pk, viewer=people[actor])
        text = choose(frame, rng)
        services.table_act(table_id=table.pk, user=people[actor], action=text, ply=table.ply)
        table.refresh_from_db()
        knowledge.apply(table.actions[-1])


def test_a_finished_game_shows_everyone_the_seed_and_the_last_hand_open() -> None:
    from tests.lobby.conftest import bots_table, play_on

    host = person("hostess")
    table = play_on(bots_table(host, "cutthroat3"), {0: host})
    frame = selectors.frame_for(table_id=table.pk, viewer=AnonymousUser())
    assert frame["seed"] == table.seed
    assert "hands" in frame["view"]
