"""A game the viewer has never heard of opens in the replay viewer: the toy of
``tests/engine/toy_highcard.py``, registered for the test, in the open view and in a
seat's view, drawn from the table its observer describes (by default: its hands and the
rest of its view), with no line of the viewer about it.

The live server answers in a thread of this process, so the toy registered here is
registered for it too. A stored game of a finished match is all the page needs: the rows
are written here as the match service writes them (the toy has no bots to play a match).
A seat's view shows that seat's hand and never the other's (RULES.md section 10).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from arena import services
from arena.models import Board, Bot, BotVersion, Game, Match, Replay
from engine.interface import AnyGame
from engine.registry import load_game
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, snapshot
from tests.cards import card_tokens
from tests.engine.toy_highcard import registered_toy

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 5


@pytest.fixture
def toy() -> Iterator[AnyGame]:
    with registered_toy() as game:
        yield load_game(next(iter(game.variants)))


def _version(username: str, variant: str) -> BotVersion:
    player = services.player_register(username=username, password=PASSWORD, display_name=username)
    bot = Bot.objects.create(owner=player, name="high", variant=variant)
    return BotVersion.objects.create(
        bot=bot,
        number=1,
        kind=BotVersion.Kind.MODULE,
        source=b"",
        sha256="0" * 64,
        size=0,
        status=BotVersion.Status.ACTIVE,
    )


def _stored(game: AnyGame) -> tuple[Match, dict[str, Any]]:
    """A finished one-board match of the toy with its table A stored: the hand played
    by always leading or answering with the first legal card."""
    state = game.new_initial_state(seed=SEED, dealer=game.board_dealer(1))
    while not state.is_terminal():
        state.apply(next(iter(state.legal_actions)))
    hand: dict[str, Any] = game.write_replay(state).to_json()
    scores = list(state.result().team_scores)
    x, y = _version("alice", game.variant), _version("bob", game.variant)
    match = Match.objects.create(
        variant=game.variant,
        rules=game.rules.to_json(),
        seed=SEED,
        seed_chosen=True,
        board_count=1,
        version_x=x,
        version_y=y,
        decision_ms=1000,
        bank_ms=10_000,
        rated=False,
        status=Match.Status.DONE,
    )
    board = Board.objects.create(
        variant=game.variant, rules=match.rules, seed=SEED, dealer=game.board_dealer(1)
    )
    seats = [x.pk, y.pk]
    row = Game.objects.create(
        match=match,
        board=board,
        number=1,
        table="A",
        seat_versions=seats,
        team_scores=scores,
        result=state.result().to_json(),
        fault=None,
    )
    Replay.objects.create(
        game=row,
        document={"hand": hand, "seat_versions": seats, "fault": None, "team_scores": scores},
    )
    return match, hand


NAMES = ("alice/high v1", "bob/high v1")


def _steps(game: AnyGame, hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step from the engine: who acted, the hands by seat and each seat's view."""
    replay = game.read_replay(hand)
    state = replay.initial_state()
    seen = []
    for text in (None, *replay.actions):
        actor = None
        if text is not None:
            actor = state.current_player
            state.apply(game.parse_action(text))
        seen.append(
            {
                "actor": actor,
                "action": text,
                "hands": [list(state.hand(seat)) for seat in range(game.players)],
                "open": game.observer.open_view(state),
                "seats": [game.observer.seat_view(state, seat) for seat in range(game.players)],
            }
        )
    return seen


def _shown_cards(page: Any, where: str = "#table") -> Counter[str]:
    faces = page.eval_on_selector_all(f"{where} [data-card]", "els => els.map(e => e.dataset.card)")
    return Counter(faces)


def _step_to(page: Any, step: int) -> None:
    page.wait_for_selector(f"#table[data-step='{step}']")


def _url(match: Match, query: str = "") -> str:
    return f"/matches/{match.pk}/boards/1/tables/A/" + (f"?{query}" if query else "")


def test_the_open_view_of_a_new_game_shows_both_hands_and_steps_to_its_score(
    toy: AnyGame, page: Any, problems: Problems
) -> None:
    match, hand = _stored(toy)
    steps = _steps(toy, hand)
    last = len(steps) - 1
    page.goto(_url(match))
    _step_to(page, 0)
    for seat, cards in enumerate(steps[0]["hands"]):
        assert _shown_cards(page, f"#table .seat[aria-label^='Seat {seat} ']") == Counter(cards)
    snapshot(page, "replay-toy-open-deal")
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        _step_to(page, step)
        # Every hand, and the cards of the trick in play, as the engine has them.
        held = Counter(card for cards in steps[step]["hands"] for card in cards)
        assert _shown_cards(page) == held + Counter(steps[step]["open"]["trick"])
        actor = steps[step]["actor"]
        caption = f"Seat {actor} ({NAMES[actor]}): {steps[step]['action']}"
        assert page.locator("#caption").inner_text() == caption
        if step == 1:
            snapshot(page, "replay-toy-open-first-card")
    assert page.locator("#step-label").inner_text() == f"Step {last} of {last}"
    final = page.eval_on_selector_all(
        "[data-final-score]", "els => els.map(e => Number(e.textContent))"
    )
    assert final == hand["result"]["team_scores"]
    snapshot(page, "replay-toy-open-end")
    assert_clean(problems)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seats_view_of_a_new_game_shows_its_own_hand_and_never_the_others(
    seat: int, toy: AnyGame, page: Any, problems: Problems
) -> None:
    match, hand = _stored(toy)
    steps = _steps(toy, hand)
    last = len(steps) - 1
    with page.expect_response(re.compile(r"frames\.json\?seat=")) as fetched:
        page.goto(_url(match, f"seat={seat}"))
    frames = fetched.value.json()
    assert [frame["observation"] for frame in frames["frames"]] == [
        step["seats"][seat] for step in steps
    ]
    _step_to(page, 0)
    other = f"#table .seat[aria-label^='Seat {1 - seat} ']"
    assert _shown_cards(page, f"#table .seat[aria-label^='Seat {seat} ']") == Counter(
        steps[0]["hands"][seat]
    )
    assert _shown_cards(page, other) == Counter()
    assert page.locator(other).inner_text().endswith("Hand not shown")
    assert page.locator("#caption").inner_text() == "The deal. Your hand: " + " ".join(
        steps[0]["hands"][seat]
    )
    snapshot(page, f"replay-toy-seat-{seat}-deal")
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        _step_to(page, step)
        view = steps[step]["seats"][seat]
        # The seat's hand and the trick in play: what its view holds, and nothing more.
        assert _shown_cards(page) == Counter(view["hand"]) + Counter(view["trick"])
        assert _shown_cards(page, other) == Counter()
        if step == 3:
            snapshot(page, f"replay-toy-seat-{seat}-step-3")
    assert page.locator("#step-label").inner_text() == f"Step {last} of {last}"
    # The step list, written on the server, names no card the seat has not seen by then.
    texts = page.eval_on_selector_all("#step-list li", "els => els.map(e => e.innerText)")
    seen: Counter[str] = Counter()
    for engine_step, text in zip(steps, texts, strict=True):
        seen |= card_tokens(engine_step["seats"][seat]) | card_tokens(engine_step["action"] or "")
        assert not card_tokens(text) - seen, text
    assert_clean(problems)
