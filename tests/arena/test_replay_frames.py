"""Replay frames: a seat's view is exactly its observation, step by step; the open view
shows every hand; the replay API adds the deal once a match is over, never before.

RULES.md section 10: a seat's observation is exactly what it may know, "never another
hand or the unseen stock". The viewer's seat view is built from nothing else.
"""

from __future__ import annotations

import re
from collections import Counter
from html import unescape
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from arena.models import Match
from arena.replay_view import ViewError, new_replay, replay_deal, replay_frames
from arena.services.matches import match_create
from arena.tasks import match_run_task
from bots.reference import reference_bots
from engine.registry import load_game, variant_names
from tests.arena.conftest import trusted_version
from tests.cards import card_tokens
from tests.engine.toy_highcard import registered_toy

VARIANTS = variant_names()

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
FEW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _engine_steps(hand: dict[str, Any]) -> list[tuple[Any, int | None, Any]]:
    """Every state of the hand, re-played here independently of the viewer's code."""
    game = load_game(hand["variant"])
    replay = game.read_replay(hand)
    state = replay.initial_state()
    steps = [(state.copy(), None, None)]
    for text in replay.actions:
        actor = state.current_player
        action = game.parse_action(text)
        state.apply(action)
        steps.append((state.copy(), actor, action))
    return steps


def _within(shown: Counter[str], known: Counter[str]) -> bool:
    return all(known[card] >= count for card, count in shown.items())


@pytest.mark.parametrize("variant", VARIANTS)
@FEW
@given(seed=SEEDS)
def test_a_seats_frames_are_exactly_its_observations_and_name_no_other_card(
    variant: str, seed: int
) -> None:
    game = load_game(variant)
    hand = new_replay(variant, seed=seed, dealer=seed % game.players)
    steps = _engine_steps(hand)
    for seat in range(game.players):
        view = replay_frames(hand, seat=seat)
        assert len(view["frames"]) == len(steps)
        for frame, (state, actor, action) in zip(view["frames"], steps, strict=True):
            observation = state.observation(seat)
            assert frame["observation"] == observation
            assert frame["actor"] == actor
            if action is not None:
                assert frame["action"] == game.observer.heard(action, actor, seat)
            # The words of a step name no card the seat cannot see at that step.
            known = card_tokens(observation)
            assert _within(card_tokens(frame["action"]), known)
            assert _within(card_tokens(frame["caption"]), known)
            # The table drawn from the view shows the seat's own hand and nothing it hides.
            assert _within(card_tokens(frame["table"]), known)
            assert frame["table"]["seats"][seat]["cards"] == observation["hand"]
        outside = {key: value for key, value in view.items() if key != "frames"}
        assert card_tokens(outside) == Counter()


@pytest.mark.parametrize("variant", VARIANTS)
@FEW
@given(seed=SEEDS)
def test_the_open_view_shows_every_hand_at_every_step(variant: str, seed: int) -> None:
    hand = new_replay(variant, seed=seed)
    players = load_game(variant).players
    view = replay_frames(hand, seat=None)
    for frame, (state, _actor, action) in zip(view["frames"], _engine_steps(hand), strict=True):
        hands = frame["observation"]["hands"]
        assert hands == [[str(card) for card in state.hand(seat)] for seat in range(players)]
        assert [entry["cards"] for entry in frame["table"]["seats"]] == hands
        assert "hand" not in frame["observation"]
        if action is not None:
            assert frame["action"] == str(action)
    assert view["frames"][-1]["observation"]["result"] == hand["result"]


def test_the_open_view_shows_both_passes_the_widow_and_the_buried_cards() -> None:
    auction = replay_frames(_hand_with("auction4", "give"), seat=None)
    final = auction["frames"][-1]["observation"]
    assert [len(entry["cards"]) for entry in final["passing"]] == [4, 4]
    cutthroat = replay_frames(_hand_with("cutthroat3", "bury"), seat=None)
    assert all(len(f["observation"]["widow"]) == 3 for f in cutthroat["frames"])
    assert len(cutthroat["frames"][-1]["observation"]["buried"]) == 3


def _hand_with(variant: str, verb: str) -> dict[str, Any]:
    for seed in range(200):
        hand = new_replay(variant, seed=seed)
        if any(action.startswith(verb) for action in hand["actions"]):
            return hand
    raise AssertionError(f"no random {variant} hand with {verb!r} in 200 seeds")


def test_a_partner_who_gives_no_cards_sees_only_how_many_the_others_passed() -> None:
    hand = _hand_with("auction4", "give")
    declarer = replay_frames(hand, seat=None)["frames"][-1]["observation"]["contract"]["declarer"]
    opponent = (declarer + 1) % 4
    gives = [f for f in replay_frames(hand, seat=opponent)["frames"] if f["action"]]
    gives = [f for f in gives if f["action"].startswith("give")]
    assert [f["action"] for f in gives] == ["give 4", "give 4"]
    assert all(f["caption"].endswith("gives 4 cards") for f in gives)


def test_the_jump_marks_start_at_each_tricks_first_card() -> None:
    hand = new_replay("single4", seed=3)
    view = replay_frames(hand, seat=0)
    tricks = [mark for mark in view["marks"] if mark["label"].startswith("Trick")]
    assert [mark["label"] for mark in tricks] == [f"Trick {n}" for n in range(1, 13)]
    for mark in tricks:
        frame = view["frames"][mark["step"]]["observation"]
        assert len(frame["trick"]["cards"]) == 1
    assert view["marks"][-1] == {"label": "End", "step": len(view["frames"]) - 1}


def test_a_new_game_is_framed_by_its_observers_defaults() -> None:
    with registered_toy() as toy:
        variant = next(iter(toy.variants))
        hand = new_replay(variant, seed=7)
        seat_view = replay_frames(hand, seat=1, names=["ann", "bo"])
        open_view = replay_frames(hand, seat=None)
    deal = seat_view["frames"][0]
    own = deal["observation"]["hand"]
    assert [entry["cards"] for entry in deal["table"]["seats"]] == [None, own]
    assert deal["caption"] == "The deal. Your hand: " + " ".join(own)
    first = seat_view["frames"][1]
    assert (
        first["caption"]
        == f"Seat {first['actor']} ({['ann', 'bo'][first['actor']]}): {first['action']}"
    )
    # The rest of the view as it comes: the trick's cards, the tricks won as a fact.
    assert {"label": "Trick", "cards": first["observation"]["trick"]} in first["table"]["areas"]
    assert first["table"]["facts"] == [{"label": "Tricks won", "value": "0, 0"}]
    assert seat_view["sides"] == [[0], [1]] and seat_view["breakdown"] is None
    hands = open_view["frames"][0]["observation"]["hands"]
    assert [entry["cards"] for entry in open_view["frames"][0]["table"]["seats"]] == hands
    assert open_view["frames"][-1]["over"] and not open_view["frames"][-2]["over"]


def test_a_seat_the_game_does_not_have_is_refused_by_name() -> None:
    with pytest.raises(ViewError, match="twohand has seats 0 to 1, not 2"):
        replay_frames(new_replay("twohand", seed=1), seat=2)


def test_a_seats_view_of_a_fault_omits_its_reason() -> None:
    fault = {"seat": 1, "kind": "protocol", "reason": "illegal action 'play AS'"}
    hand = new_replay("single4", seed=4)
    assert replay_frames(hand, seat=0, fault=fault)["fault"] == {"seat": 1, "kind": "protocol"}
    assert replay_frames(hand, seat=None, fault=fault)["fault"] == fault


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_deal_is_every_card_dealt_each_hand_as_the_open_view_deals_it(variant: str) -> None:
    hand = new_replay(variant, seed=21, dealer=1)
    deal = replay_deal(variant, hand)
    dealt = replay_frames(hand, seat=None)["frames"][0]["observation"]["hands"]
    assert [Counter(cards) for cards in deal["hands"]] == [Counter(cards) for cards in dealt]
    game = load_game(variant)
    state = game.new_initial_state(seed=21, dealer=1)
    assert deal == game.initial_deal(state).to_json()
    undealt = [cards for name, cards in deal.items() if name != "hands"]
    assert all(isinstance(cards, list) for cards in undealt)


@pytest.mark.usefixtures("plain_bots")
def test_the_replay_api_serves_the_deal_of_a_finished_match_only(alice, bob) -> None:  # type: ignore[no-untyped-def]
    references = reference_bots(load_game("twohand"))
    # The reference bots are trusted: marked active rather than validated, which would play
    # two more matches (validation has its own tests).
    x = trusted_version(alice, "greedy", references["greedy"].read_bytes(), variant="twohand")
    y = trusted_version(bob, "random", references["random"].read_bytes(), variant="twohand")
    match = match_create(version_x=x, version_y=y, boards=1, seed=9, rated=False)
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    # Games are stored as a match completes; were a running match's games ever served,
    # its deals must stay hidden: its other tables play the same boards.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    running = APIClient().get(f"/api/matches/{match.pk}/replay/").json()["games"]
    assert running and all("deal" not in game for game in running)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.DONE)
    games = APIClient().get(f"/api/matches/{match.pk}/replay/").json()["games"]
    assert len(games) == 2
    for game in games:
        assert game["deal"] == replay_deal("twohand", game["hand"])
        # Two hands of 12, then the stock of 24 from the top, the turned-up trump last.
        assert [len(cards) for cards in game["deal"]["hands"]] == [12, 12]
        assert len(game["deal"]["stock"]) == 24


def _finished_twohand_match(alice, bob) -> Match:  # type: ignore[no-untyped-def]
    references = reference_bots(load_game("twohand"))
    # The reference bots are trusted: marked active rather than validated, which would play
    # two more matches (validation has its own tests).
    x = trusted_version(alice, "greedy", references["greedy"].read_bytes(), variant="twohand")
    y = trusted_version(bob, "random", references["random"].read_bytes(), variant="twohand")
    match = match_create(version_x=x, version_y=y, boards=1, seed=9, rated=False)
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    return match


@pytest.mark.usefixtures("plain_bots")
def test_the_page_lists_every_step_as_text_with_no_inline_script_or_style(alice, bob) -> None:  # type: ignore[no-untyped-def]
    match = _finished_twohand_match(alice, bob)
    response = Client().get(f"/matches/{match.pk}/boards/1/tables/B/?seat=1&step=5")
    assert response.status_code == 200
    html = response.content.decode()
    frames = Client().get(f"/matches/{match.pk}/boards/1/tables/B/frames.json?seat=1").json()
    # Readable with CSS and scripts off: an ordered list of every step, and the result.
    items = re.findall(r'<li id="step-(\d+)"[^>]*><a [^>]*>([^<]*)</a>', html)
    assert [int(step) for step, _ in items] == list(range(len(frames["frames"])))
    assert [unescape(text) for _, text in items] == [f["caption"] for f in frames["frames"]]
    assert '<li id="step-5" data-step="5" aria-current="step">' in html
    assert 'id="breakdown"' in html
    # A strict Content-Security-Policy: scripts from files only, no inline styles.
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
    assert "<style" not in html and " style=" not in html


@pytest.mark.usefixtures("plain_bots")
def test_the_viewer_refuses_a_running_match_a_bad_seat_and_a_bad_step(alice, bob) -> None:  # type: ignore[no-untyped-def]
    match = _finished_twohand_match(alice, bob)
    base = f"/matches/{match.pk}/boards/1/tables/A/"
    client = Client()
    seat = client.get(base + "frames.json?seat=2")
    assert seat.status_code == 400
    assert seat.json()["detail"] == "seat is 'open' or a seat number from 0 to 1, not '2'"
    step = client.get(base + "?step=999")
    assert step.status_code == 400
    assert "step is a whole number from 0 to" in step.content.decode()
    assert client.get(f"/matches/{match.pk}/boards/1/tables/Z/").status_code == 404
    assert client.get(f"/matches/{match.pk}/boards/2/tables/A/frames.json").status_code == 404
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    for url in (base, base + "frames.json", base + "frames.json?seat=0"):
        refused = client.get(url)
        assert refused.status_code == 409
        body = refused.content.decode()
        assert f"match {match.pk} is running: its replays open once it is over" in body
        assert card_tokens(body) == Counter()
