"""A table's paper result is the game's to check and score (``Game.score_entry``), and
what a game does not declare it does not offer: a game with no declaration has no paper
entry, no IMP scale and no robot events."""

from __future__ import annotations

import doctest

import pytest

import engine.entry
from engine import Suit
from engine.entry import EntryOutcome, EntryRejected, ScoreEntry
from engine.errors import RegistryError
from engine.registry import default_variant, load_game, variant_names
from tests.engine.toy_highcard import registered_toy


def test_the_docstring_examples_run() -> None:
    failures, tried = doctest.testmod(engine.entry, optionflags=doctest.ELLIPSIS)
    assert failures == 0 and tried > 0


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4", "cutthroat3"])
def test_counters_beyond_the_total_in_play_are_refused_with_that_total(variant: str) -> None:
    # RULES.md section 4: the counters of the pack plus the last trick are all there is.
    game = load_game(variant)
    in_play = game.rules.total_in_tricks
    taken = (in_play + game.rules.counter_value,) + (0,) * (len(game.teams) - 1)
    entry = ScoreEntry(EntryOutcome.PLAYED, 0, game.rules.bids[0], Suit.S, taken, taken)
    deal = game.initial_deal(game.new_initial_state(seed=5, dealer=0))
    with pytest.raises(EntryRejected) as refused:
        game.score_entry(deal, entry)
    assert refused.value.rule == "counters"
    first = "North-South" if game.partnership else "North"
    assert str(refused.value) == (
        f"counters: {taken[0]} counters entered for {first}, "
        f"but only {in_play} are in play in {variant}"
    )


@pytest.mark.parametrize(
    ("variant", "in_play"), [("single4", 25), ("auction4", 250), ("double4", 50)]
)
def test_too_many_counters_are_named_as_typed_though_the_other_side_gets_the_rest(
    variant: str, in_play: int
) -> None:
    """RULES.md section 4 ("total in play": 25 in single4, 250 in auction4, 50 in double4).

    A table types North-South's counters and East-West took the rest: typing more than
    are in play leaves East-West a negative rest, and the refusal names what was typed and
    the rule it breaks, not the negative rest."""
    game = load_game(variant)
    assert game.rules.total_in_tricks == in_play
    typed = in_play + 15
    entry = ScoreEntry(
        EntryOutcome.PLAYED, 0, game.rules.bids[0], Suit.S, (0, 0), (typed, in_play - typed)
    )
    deal = game.initial_deal(game.new_initial_state(seed=5, dealer=0))
    with pytest.raises(EntryRejected) as refused:
        game.score_entry(deal, entry)
    assert str(refused.value) == (
        f"counters: {typed} counters entered for North-South, "
        f"but only {in_play} are in play in {variant}"
    )


def _refusal(variant: str, entry: ScoreEntry) -> str:
    game = load_game(variant)
    deal = game.initial_deal(game.new_initial_state(seed=5, dealer=0))
    with pytest.raises(EntryRejected) as refused:
        game.score_entry(deal, entry)
    return str(refused.value)


def test_every_entry_out_of_range_names_the_value_the_side_and_the_rule() -> None:
    # RULES.md section 4: counters are 10 each in auction4, as is the last trick, 250 in
    # all; section 7.2: the declarer's three buried cards count for the declarer.
    played = EntryOutcome.PLAYED
    assert _refusal("single4", ScoreEntry(played, 0, 20, Suit.S, (0, -3), (20, 5))) == (
        "meld: -3 meld entered for East-West, but meld is never negative"
    )
    assert _refusal("single4", ScoreEntry(played, 0, 20, Suit.S, (0, 0), (30, -5))) == (
        "counters: 30 counters entered for North-South, but only 25 are in play in single4"
    )
    assert _refusal("single4", ScoreEntry(played, 0, 20, Suit.S, (0, 0), (-5, 30))) == (
        "counters: 30 counters entered for East-West, but only 25 are in play in single4"
    )
    assert _refusal("single4", ScoreEntry(played, 0, 20, Suit.S, (0, 0), (-5, 5))) == (
        "counters: -5 counters entered for North-South, but counters are never negative"
    )
    assert _refusal("auction4", ScoreEntry(played, 0, 250, Suit.S, (0, 0), (155, 95))) == (
        "counters_step: 155 counters entered for North-South, "
        "but counters come in steps of 10 in auction4"
    )
    assert _refusal("auction4", ScoreEntry(played, 0, 250, Suit.S, (0, 0), (150, 90))) == (
        "counters_total: the counters add up to 240, but 250 are in play in auction4"
    )
    three = ScoreEntry(played, 1, 250, Suit.H, (0, 0, 0), (0, 220, 0), buried=300)
    assert _refusal("cutthroat3", three) == (
        "counters: 300 buried counters entered, but only 250 are in play in cutthroat3"
    )


def test_a_three_hand_entry_counts_the_buried_counters_for_the_declarer() -> None:
    # RULES.md section 7.2: the buried cards' counters score for the declarer, who makes
    # 250 with 220 taken in tricks and 30 buried, and is set without the buried 30.
    game = load_game("cutthroat3")
    made = ScoreEntry(EntryOutcome.PLAYED, 1, 250, Suit.H, (0, 0, 0), (0, 220, 30), buried=30)
    set_ = ScoreEntry(EntryOutcome.PLAYED, 1, 250, Suit.H, (0, 0, 0), (30, 220, 0), buried=0)
    assert game.score_accepted(made).scores == (0, 250, 30)
    assert game.score_accepted(set_).scores == (30, -250, 0)


def test_a_game_that_declares_nothing_offers_no_events() -> None:
    with registered_toy() as toy:
        game = load_game(next(iter(toy.variants)))
        assert not game.has_hand_records and not game.has_robot_events
        assert game.imp_scale is None
        with pytest.raises(RegistryError):
            game.score_accepted(ScoreEntry(EntryOutcome.PLAYED, 0, 0, None, (0, 0), (0, 0)))
        assert default_variant() != game.variant


def test_the_default_variant_is_a_registered_one() -> None:
    assert default_variant() in variant_names()
