"""Score entry: each rejected entry names the rule it breaks; accepted ones score as the
engine does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import HandOutcome, Rules, Suit, parse_cards, rules_for
from engine.registry import load_game
from tests.engine.helpers import dealt_parts
from tournaments.hands import (
    EntryOutcome,
    EntryRejected,
    HandScore,
    ScoreEntry,
    board_seed,
    deal,
)

from .conftest import paper_deal

SECRET = bytes(32)


def score_entry(rules: Rules, dealt: list[tuple[engine.Card, ...]], entry: ScoreEntry) -> HandScore:
    """The variant's game's check and score of a table's entry for these dealt hands."""
    return load_game(rules.name, rules=rules).score_entry(paper_deal(dealt), entry)


def hand_score(rules: Rules, entry: ScoreEntry) -> HandScore:
    return load_game(rules.name, rules=rules).score_accepted(entry)


def dealt_of(variant: str, number: int = 1) -> list[tuple[engine.Card, ...]]:
    state = deal(variant, board_seed(SECRET, number), 0)
    return [dealt_parts(state)[seat] for seat in range(4)]


def team_meld(dealt: list[tuple[engine.Card, ...]], team: int, trump: Suit, variant: str) -> int:
    rules = rules_for(variant)
    return sum(engine.meld(dealt[seat], trump, rules).total for seat in (team, team + 2))


def entry(**fields: object) -> ScoreEntry:
    values: dict[str, object] = {
        "outcome": EntryOutcome.PLAYED,
        "declarer": 0,
        "bid": 250,
        "trump": Suit.H,
        "meld": (0, 0),
        "taken": (150, 100),
    }
    values.update(fields)
    return ScoreEntry(**values)  # type: ignore[arg-type]


def rejected_rule(variant: str, dealt: list[tuple[engine.Card, ...]], bad: ScoreEntry) -> str:
    with pytest.raises(EntryRejected) as caught:
        score_entry(rules_for(variant), dealt, bad)
    return caught.value.rule


def test_a_bid_off_the_ladder_is_refused() -> None:
    dealt = dealt_of("auction4")
    assert rejected_rule("auction4", dealt, entry(bid=255)) == "bid_ladder"
    assert rejected_rule("auction4", dealt, entry(bid=240)) == "bid_ladder"
    assert rejected_rule("double4", dealt_of("double4"), entry(bid=61)) == "bid_ladder"


def test_counters_must_add_up_to_the_total_in_play() -> None:
    dealt = dealt_of("auction4")
    trump = Suit.H
    meld = (team_meld(dealt, 0, trump, "auction4"), team_meld(dealt, 1, trump, "auction4"))
    assert rejected_rule("auction4", dealt, entry(meld=meld, taken=(150, 90))) == "counters_total"
    assert rejected_rule("auction4", dealt, entry(meld=meld, taken=(155, 95))) == "counters_step"


def test_counters_beyond_those_in_play_are_refused_with_the_total_in_play() -> None:
    # RULES.md section 4: a single deck holds 24 in counters, and the last trick 1 more.
    with pytest.raises(EntryRejected) as caught:
        score_entry(rules_for("single4"), dealt_of("single4"), entry(bid=20, taken=(30, 0)))
    assert str(caught.value) == (
        "counters: 30 counters entered for North-South, but only 25 are in play in single4"
    )


def test_double_deck_trump_needs_a_marriage_in_the_declarers_hand() -> None:
    dealt = dealt_of("double4")
    hand = dealt[0]
    without = [
        suit
        for suit in Suit
        if not any(c.suit == suit and c.rank == engine.Rank.K for c in hand)
        or not any(c.suit == suit and c.rank == engine.Rank.Q for c in hand)
    ]
    if not without:
        pytest.skip("this deal gives the declarer a marriage in every suit")
    bad = entry(bid=50, trump=without[0], taken=(30, 20))
    assert rejected_rule("double4", dealt, bad) == "trump_needs_marriage"


def test_no_marriage_is_only_for_a_declarer_without_one_in_double_deck() -> None:
    assert (
        rejected_rule(
            "single4",
            dealt_of("single4"),
            entry(outcome=EntryOutcome.NO_MARRIAGE, bid=16, trump=None, taken=(0, 0)),
        )
        == "no_marriage"
    )
    # Seat 0 holds K and Q of spades: the declarer must name a trump.
    hands = [
        parse_cards("KS QS " + "AH " * 4 + "TH " * 4 + "JH " * 4 + "AD " * 4 + "TD " * 2),
        *dealt_of("double4")[1:],
    ]
    bad = entry(outcome=EntryOutcome.NO_MARRIAGE, bid=50, trump=None, taken=(0, 0))
    assert rejected_rule("double4", hands, bad) == "no_marriage"


def test_throwing_in_is_refused_where_the_variant_has_no_throw_in() -> None:
    dealt = dealt_of("single4")
    bad = entry(outcome=EntryOutcome.THROWN_IN, bid=20, taken=(0, 0))
    assert rejected_rule("single4", dealt, bad) == "throw_in"


def test_meld_must_be_what_the_cards_show() -> None:
    dealt = dealt_of("single4")
    trump = Suit.S
    ns, ew = team_meld(dealt, 0, trump, "single4"), team_meld(dealt, 1, trump, "single4")
    # East-West defend and pass no cards: their meld is exactly what they were dealt.
    wrong_defence = entry(bid=20, trump=trump, meld=(ns, ew + 1), taken=(15, 10))
    assert rejected_rule("single4", dealt, wrong_defence) == "meld"
    # North-South declared and exchanged cards; still no more than their pooled cards hold.
    too_much = entry(bid=20, trump=trump, meld=(400, ew), taken=(15, 10))
    assert rejected_rule("single4", dealt, too_much) == "meld"


def test_a_made_contract_scores_meld_plus_counters_for_both_sides() -> None:
    dealt = dealt_of("single4")
    trump = Suit.S
    ns, ew = team_meld(dealt, 0, trump, "single4"), team_meld(dealt, 1, trump, "single4")
    bid = max(16, ns + 5)
    scored = score_entry(
        rules_for("single4"), dealt, entry(bid=bid, trump=trump, meld=(ns, ew), taken=(20, 5))
    )
    assert scored.outcome is HandOutcome.MADE
    assert scored.scores == (ns + 20, ew + 5)


def test_a_set_contract_loses_the_bid_and_the_defenders_still_score() -> None:
    rules = rules_for("single4")
    scored = hand_score(rules, entry(declarer=1, bid=40, meld=(6, 10), taken=(12, 13)))
    assert scored.outcome is HandOutcome.SET
    assert scored.scores == (18, -40)


def test_a_thrown_in_hand_gives_the_defenders_their_meld_only() -> None:
    rules = rules_for("auction4")
    scored = hand_score(
        rules, entry(outcome=EntryOutcome.THROWN_IN, bid=350, meld=(120, 60), taken=(0, 0))
    )
    assert scored.outcome is HandOutcome.THROWN_IN
    assert scored.scores == (-350, 60)


def test_with_no_marriage_nobody_scores_meld() -> None:
    rules = rules_for("double4")
    scored = hand_score(
        rules,
        entry(outcome=EntryOutcome.NO_MARRIAGE, declarer=3, bid=50, trump=None, taken=(0, 0)),
    )
    assert scored.scores == (0, -50)


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(["single4", "auction4", "double4"]),
    seed=st.integers(0, 2**63 - 1),
    throw_in_rate=st.sampled_from([0.0, 0.5]),
)
def test_entries_taken_from_engine_played_hands_are_accepted_and_score_the_same(
    variant: str, seed: int, throw_in_rate: float
) -> None:
    state = engine.new_hand(variant, seed=seed, dealer=seed % 4)
    state.play_randomly(random.Random(seed), throw_in_rate=throw_in_rate)
    result = state.result()
    if result.declarer is None:
        return
    outcome = {
        HandOutcome.NO_MARRIAGE: EntryOutcome.NO_MARRIAGE,
        HandOutcome.THROWN_IN: EntryOutcome.THROWN_IN,
    }.get(result.outcome, EntryOutcome.PLAYED)
    paper = ScoreEntry(
        outcome=outcome,
        declarer=result.declarer,
        bid=result.bid or 0,
        trump=result.trump,
        meld=(result.teams[0].meld, result.teams[1].meld),
        taken=(result.teams[0].taken, result.teams[1].taken),
    )
    dealt = [dealt_parts(state)[seat] for seat in range(4)]
    scored = score_entry(rules_for(variant), dealt, paper)
    assert scored.outcome is result.outcome
    assert scored.scores == result.team_scores
