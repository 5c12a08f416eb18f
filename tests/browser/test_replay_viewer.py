"""The replay viewer in a real browser, on matches the arena really played.

Each game family (four-hand, three-hand, two-hand, Pinnacolo) gets a one-board match
between its greedy and random reference bots, played through the same task the workers
run. The viewer must step through the whole hand and end on the scores the API reports,
and a seat's view must never show, in the page or in the frames it fetched, a card that
seat's observation hides (RULES.md section 10).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect
from rest_framework.test import APIClient

from arena import services
from arena.models import Game, Match
from arena.services.matches import match_create
from arena.tasks import match_run_task
from bots.reference import reference_bots
from engine.registry import load_game
from tests.arena.conftest import PASSWORD, trusted_version
from tests.browser.conftest import Problems, assert_clean, snapshot
from tests.cards import card_tokens

pytestmark = pytest.mark.django_db(transaction=True)

# Pinnacolo twice: in pairs, and individual on three seats.
FAMILIES = ["auction4", "cutthroat3", "twohand", "pinnacolo", "pinnacolo3"]
SEED = 11


@pytest.fixture(autouse=True)
def plain_bots(settings: Any) -> None:
    """The reference bots are trusted: plain processes (the sandbox has its own tests)."""
    settings.SANDBOX_MODE = "plain"


def _played(variant: str) -> Match:
    alice = services.player_register(username="alice", password=PASSWORD, display_name="Alice")
    bob = services.player_register(username="bob", password=PASSWORD, display_name="Bob")
    references = reference_bots(load_game(variant))
    # The reference bots are trusted: marked active rather than validated (which would play
    # two more matches); validation has its own tests.
    greedy = trusted_version(alice, "greedy", references["greedy"].read_bytes(), variant=variant)
    rnd = trusted_version(bob, "random", references["random"].read_bytes(), variant=variant)
    match = match_create(version_x=greedy, version_y=rnd, boards=1, seed=SEED, rated=False)
    # Outside a test transaction the commit has already run it in-process, as the embedded
    # mode does; running the task again finds it done (the claim makes that harmless).
    match_run_task.apply(args=[match.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.DONE, match.error
    return match


def _url(match: Match, query: str = "") -> str:
    return f"/matches/{match.pk}/boards/1/tables/A/" + (f"?{query}" if query else "")


def _observations(match: Match, seat: int) -> list[dict[str, Any]]:
    """The seat's observation after every step, from the engine, independently of the viewer."""
    game = load_game(match.variant)
    document = Game.objects.get(match=match, number=1, table="A").replay.document
    replay = game.read_replay(document["hand"])
    state = replay.initial_state()
    seen = [state.observation(seat)]
    for text in replay.actions:
        state.apply(game.parse_action(text))
        seen.append(state.observation(seat))
    return seen


def _within(shown: Counter[str], known: Counter[str]) -> bool:
    return all(known[card] >= count for card, count in shown.items())


def _step_to(page: Any, step: int) -> None:
    page.wait_for_selector(f"#table[data-step='{step}']")


def _shown_cards(page: Any) -> Counter[str]:
    faces = page.eval_on_selector_all("#table [data-card]", "els => els.map(e => e.dataset.card)")
    return Counter(faces)


# Every step of a seat's view, read in one call to the browser: the table is drawn when the
# step changes (the viewer's key handler draws at once), so each step's cards are read
# right after the key that showed it, with the step the table says it shows. Pressing the
# keys from the test instead costs two round trips to the browser a step, for a check of
# what is drawn, not of the keys (which the whole-hand test presses).
READ_EVERY_STEP = """steps => {
    const table = document.querySelector("#table");
    const read = () => ({
        step: Number(table.dataset.step),
        cards: [...table.querySelectorAll("[data-card]")].map(e => e.dataset.card),
    });
    const seen = [read()];
    for (let step = 1; step < steps; step++) {
        document.body.dispatchEvent(
            new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true})
        );
        seen.push(read());
    }
    return seen;
}"""


# Records every step the table is drawn at, in the page, so that a whole hand of key
# presses is checked step by step without a round trip to the browser after each press.
RECORD_STEPS = """() => {
    const table = document.querySelector("#table");
    window.stepsDrawn = [];
    new MutationObserver(() => window.stepsDrawn.push(Number(table.dataset.step)))
        .observe(table, {attributes: true, attributeFilter: ["data-step"]});
}"""


@pytest.mark.parametrize("variant", FAMILIES)
def test_the_viewer_steps_through_a_whole_hand_and_ends_on_the_apis_scores(
    variant: str, page: Any, problems: Problems
) -> None:
    match = _played(variant)
    detail = APIClient().get(f"/api/matches/{match.pk}/").json()
    api_scores = detail["boards"][0]["tables"]["A"]["team_scores"]
    observations = _observations(match, 0)
    last = len(observations) - 1
    assert last > 10, "the hand at table A is long enough to be worth stepping through"

    page.goto(_url(match))
    _step_to(page, 0)
    # The open view deals every hand face up.
    assert sum(_shown_cards(page).values()) >= sum(observations[0]["hand_sizes"])
    snapshot(page, f"replay-{variant}-open-deal")
    page.evaluate(RECORD_STEPS)
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        if step == last // 2:
            _step_to(page, step)
            snapshot(page, f"replay-{variant}-open-middle")
    _step_to(page, last)
    # Each press drew the next step, none skipped or drawn twice.
    assert page.evaluate("window.stepsDrawn") == list(range(1, last + 1))
    assert page.locator("#step-label").inner_text() == f"Step {last} of {last}"
    final = page.eval_on_selector_all(
        "[data-final-score]", "els => els.map(e => Number(e.textContent))"
    )
    assert final == api_scores
    board = page.eval_on_selector_all(
        "[data-side-score]", "els => els.map(e => Number(e.textContent))"
    )
    assert board == api_scores
    assert page.locator(f"#step-{last}[aria-current=step]").count() == 1
    snapshot(page, f"replay-{variant}-open-end")
    assert_clean(problems)


@pytest.mark.parametrize("variant", FAMILIES)
def test_a_seats_view_never_shows_a_card_its_observation_hides(
    variant: str, page: Any, problems: Problems
) -> None:
    match = _played(variant)
    for seat in range(load_game(variant).players):
        observations = _observations(match, seat)
        with page.expect_response(re.compile(r"frames\.json\?seat=")) as fetched:
            page.goto(_url(match, f"seat={seat}"))
        frames = fetched.value.json()
        # The network response: exactly the seat's observations, and no card outside them.
        assert [frame["observation"] for frame in frames["frames"]] == observations
        outside = {key: value for key, value in frames.items() if key != "frames"}
        assert card_tokens(outside) == Counter()
        _step_to(page, 0)
        own = page.eval_on_selector_all(
            f"#table .seat[aria-label^='Seat {seat} '] [data-card]",
            "els => els.map(e => e.dataset.card)",
        )
        assert sorted(own) == sorted(observations[0]["hand"])
        # The step list is written once for the whole hand: read in one call.
        step_texts = page.eval_on_selector_all("#step-list li", "els => els.map(e => e.innerText)")
        assert len(step_texts) == len(observations)
        drawn = page.evaluate(READ_EVERY_STEP, len(observations))
        assert [shown["step"] for shown in drawn] == list(range(len(observations)))
        for step, observation in enumerate(observations):
            known = card_tokens(observation)
            # The drawn table and the step's line of text name only what the seat knows.
            assert _within(Counter(drawn[step]["cards"]), known), (seat, step)
            assert _within(card_tokens(step_texts[step]), known), (seat, step)
        if seat == 1:
            third = len(observations) // 3
            page.goto(_url(match, f"step={third}&seat={seat}"))
            _step_to(page, third)
            snapshot(page, f"replay-{variant}-seat-{seat}")
    assert_clean(problems)


def test_keys_step_play_pause_and_jump_and_the_address_restores_the_step(
    page: Any, problems: Problems
) -> None:
    match = _played("auction4")
    page.goto(_url(match, "step=17&seat=2"))
    _step_to(page, 17)
    assert page.locator("#view-seat").input_value() == "2"
    assert page.locator("#step-17[aria-current=step]").count() == 1
    page.keyboard.press("ArrowLeft")
    _step_to(page, 16)
    assert page.url.endswith("?step=16&seat=2")
    page.keyboard.press("End")
    last = len(_observations(match, 2)) - 1
    _step_to(page, last)
    page.keyboard.press("Home")
    _step_to(page, 0)
    frames = APIClient().get(f"/matches/{match.pk}/boards/1/tables/A/frames.json?seat=2").json()
    third = next(mark for mark in frames["marks"] if mark["label"] == "Trick 3")
    page.keyboard.press("3")
    _step_to(page, third["step"])
    page.select_option("#jump", label=f"Trick 5 (step {frames['marks'][5]['step']})")
    _step_to(page, frames["marks"][5]["step"])
    # Space plays: the step advances on its own until space pauses it.
    start = int(page.locator("#table").get_attribute("data-step"))
    page.locator("h1").click()
    page.keyboard.press(" ")
    assert page.locator("#play").get_attribute("aria-pressed") == "true"
    # Playing moves the table on; watched from here, since the site's CSP forbids the
    # string evaluation that a page-side wait would use.
    expect(page.locator("#table")).not_to_have_attribute("data-step", str(start), timeout=20_000)
    assert int(page.locator("#table").get_attribute("data-step") or "0") > start
    page.keyboard.press(" ")
    assert page.locator("#play").get_attribute("aria-pressed") == "false"
    paused_at = int(page.locator("#table").get_attribute("data-step"))
    shared = page.url
    assert f"step={paused_at}" in shared and "seat=2" in shared
    page.goto(shared)
    _step_to(page, paused_at)
    assert page.locator(f"#step-{paused_at}[aria-current=step]").count() == 1
    assert_clean(problems)


def test_the_four_colour_choice_is_remembered_and_the_page_fits_a_phone(
    page: Any, problems: Problems
) -> None:
    match = _played("auction4")
    page.goto(_url(match, "step=20"))
    _step_to(page, 20)
    colour = page.eval_on_selector("#table .card.s-D", "e => getComputedStyle(e).color")
    page.check("#four-colour")
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    assert page.eval_on_selector("#table .card.s-D", "e => getComputedStyle(e).color") != colour
    page.reload()
    _step_to(page, 20)
    assert page.locator("#four-colour").is_checked()
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    page.set_viewport_size({"width": 375, "height": 800})
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 375, f"the page is {wide}px wide on a 375px phone"
    snapshot(page, "replay-auction4-phone")
    assert_clean(problems)
