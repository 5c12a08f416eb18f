"""Controls and designs decided per pairing (arena.services.pairings, control_value,
design_value): once two bots have played ``EVIDENCE_BOARDS`` boards of a control, or have a
verdict on duplicate against plain deals of their own, that measure decides for their
matches, either bot as X; every other pairing follows its variant's pooled measure. The
page and the API list each pairing's own measures."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from arena import services
from arena.models import BotVersion, Match, Player
from arena.services.control_value import (
    EVIDENCE_BOARDS,
    PAIRING_PREFIX,
    control_choices,
    pairings_report,
)
from arena.services.controls import LUCK, REFERENCE
from arena.services.design_value import NO_DESIGN, NO_DESIGN_CHOICE, design_value
from arena.services.pairings import Pairing, pairing_of
from tests.arena.test_board_ratings import _version
from tests.arena.test_control_choice import BOARDS, RULES, finished_match
from tests.arena.test_design_value import no_design_history, played_match

pytestmark = pytest.mark.django_db

Pair = tuple[BotVersion, BotVersion]


def pairing(pair: Pair) -> Pairing:
    first, second = pair[0].bot_id, pair[1].bot_id
    return (min(first, second), max(first, second))


def choices(pair: Pair | None) -> dict[str, tuple[bool, str]]:
    found = control_choices(
        variant="auction4",
        rules=RULES,
        match_id=1,
        pairing=None if pair is None else pairing(pair),
    )
    return {kind: (choice.on, choice.reason) for kind, choice in found.items()}


@pytest.fixture(autouse=True)
def no_recheck(settings: Any) -> None:
    settings.MATCH_CONTROL_RECHECK_EVERY = 0  # no match here is one that rechecks


@pytest.fixture
def owner() -> Player:
    return services.player_register(username="owner", password="a-long-test-password-1")


@pytest.fixture
def pairs(owner: Player) -> dict[str, Pair]:
    return {
        name: (_version(owner, f"{name}-x"), _version(owner, f"{name}-y"))
        for name in ("explained", "unexplained", "newcomers")
    }


def test_a_pairing_with_boards_of_its_own_decides_whether_a_control_pays_for_it(
    pairs: dict[str, Pair],
) -> None:
    rng = random.Random(21)
    explained, unexplained = pairs["explained"], pairs["unexplained"]
    for number in range(EVIDENCE_BOARDS // BOARDS):
        finished_match(explained, rng, explained=True, noise=12)
        # Either bot as X: the pairing is the same two bots.
        swapped = number % 2 == 1
        finished_match(
            unexplained[::-1] if swapped else unexplained, rng, explained=False, noise=12
        )
    # Pooled over the variant, the control pays: the explained pairing's swings dominate.
    pooled = choices(None)[REFERENCE]
    assert pooled[0] and pooled[1].startswith("pays: gain ")
    # A pairing with no boards of its own follows the variant.
    assert choices(pairs["newcomers"])[REFERENCE] == pooled
    # Each pairing with its own 200 boards decides for itself, and says so.
    own = choices(explained)[REFERENCE]
    assert own[0] and own[1].startswith(f"{PAIRING_PREFIX}pays: gain ")
    off = choices(unexplained)[REFERENCE]
    assert not off[0] and off[1].startswith(f"{PAIRING_PREFIX}does not pay: gain ")
    assert off[1].endswith("cost 1.50")
    # The luck ran in none of their matches: its measure is the variant's, still short.
    assert choices(unexplained)[LUCK] == (
        True,
        f"measuring: 0 of {EVIDENCE_BOARDS} boards, runs as before",
    )

    # The report lists both pairings, most boards first, with their own measures.
    report = {value.pairing: value for value in pairings_report()}
    assert set(report) == {pairing(explained), pairing(unexplained)}
    shown = report[pairing(unexplained)]
    assert shown.names == ("unexplained-x", "unexplained-y") and shown.boards == EVIDENCE_BOARDS
    [control] = shown.controls
    assert (control.kind, control.boards, control.on) == (REFERENCE, EVIDENCE_BOARDS, False)
    assert f"{PAIRING_PREFIX}{control.reason}" == off[1]
    listed = Client().get("/api/ratings/controls/").json()["pairings"]
    row = next(r for r in listed if [b["name"] for b in r["bots"]] == list(shown.names))
    assert row["variant"] == "auction4" and row["boards"] == EVIDENCE_BOARDS
    assert [(c["control"], c["on"], c["boards"]) for c in row["controls"]] == [
        (REFERENCE, False, EVIDENCE_BOARDS)
    ]
    page = Client().get("/ratings/controls/").content.decode()
    assert 'id="pairings-table"' in page and "unexplained-x \u2013 unexplained-y" in page


def test_a_pairing_whose_own_tables_beat_no_design_runs_no_control(
    pairs: dict[str, Pair],
) -> None:
    rng = random.Random(5)
    cancelling, independent = pairs["explained"], pairs["unexplained"]
    # One pairing's tables cancel the cards' luck (duplicate wins for it); the other's are
    # independent, with controls that explain nothing (no design beats plain for it).
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        tables = []
        for _ in range(BOARDS):
            luck = rng.gauss(0, 60)
            tables.append((round(5 + luck + rng.gauss(0, 10)), round(5 - luck + rng.gauss(0, 10))))
        played_match(cancelling, tables)
    no_design_history(independent, seed=11)
    pooled = design_value(variant="auction4", rules=RULES)
    assert not pooled.no_design and pooled.ratio_low is not None and pooled.ratio_low > 1
    own = design_value(variant="auction4", rules=RULES, pairing=pairing(independent))
    assert own.verdict == NO_DESIGN and own.boards == EVIDENCE_BOARDS
    # Its matches run duplicate alone, for its own reason; the others do not for that one.
    off = (False, f"{PAIRING_PREFIX}{NO_DESIGN_CHOICE}")
    assert choices(independent) == {REFERENCE: off, LUCK: off}
    for pair in (cancelling, pairs["newcomers"]):
        assert all(NO_DESIGN_CHOICE not in reason for _, reason in choices(pair).values())
    report = {value.pairing: value for value in pairings_report()}
    [design] = report[pairing(independent)].designs
    assert design == own
    page = Client().get("/ratings/controls/").content.decode()
    assert escape(own.reason) in page


def test_a_match_knows_its_pairing_either_bot_as_x(pairs: dict[str, Pair]) -> None:
    x, y = pairs["explained"]
    straight = played_match((x, y), [(1, 1), (2, 2)])
    swapped = played_match((y, x), [(1, 1), (2, 2)])
    found = Match.objects.select_related("version_x", "version_y")
    assert pairing_of(found.get(pk=straight.pk)) == pairing_of(found.get(pk=swapped.pk))
    assert pairing_of(straight) == pairing((x, y))
