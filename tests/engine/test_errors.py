"""Every refusal of the engine is a named ``EngineError`` (a ``ValueError``) that says what
was wrong, and changes nothing."""

from __future__ import annotations

import ast
import inspect
import json
import random
from pathlib import Path

import pytest

import engine.errors
from engine import (
    Action,
    ActionParseError,
    CardError,
    EngineError,
    GameState,
    NotOverError,
    Replay,
    ReplayError,
    RulesError,
    SeatError,
    SeedError,
    TrickError,
    UnknownVariantError,
    game_class,
    legal_plays,
    load_game,
    meld,
    new_hand,
    rules_for,
    trick_winner,
)
from engine.pinnacolo import PinnacoloGame, PinnacoloReplay, parse_action
from engine.registry import variant_names
from engine.replay import MAX_REPLAY_DEPTH, load_replay_document
from engine.rng import SplitMix64, shuffle

ENGINE = Path(engine.errors.__file__).resolve().parent
VARIANTS = sorted(variant_names())


def test_every_error_is_an_engine_error_and_a_value_error_with_a_one_line_docstring() -> None:
    for name in engine.errors.__all__:
        error = getattr(engine.errors, name)
        assert issubclass(error, EngineError) and issubclass(error, ValueError), name
        doc = inspect.getdoc(error) or ""
        assert doc and "\n" not in doc.split("\n\n")[0].strip(), name


def _engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_no_bare_value_error_is_raised_anywhere_in_the_engine() -> None:
    bare = []
    for path in _engine_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(raised, ast.Name) and raised.id == "ValueError":
                    bare.append(f"{path.relative_to(ENGINE.parent)}:{node.lineno}")
    assert bare == []


def test_every_exception_class_of_the_engine_lives_in_engine_errors() -> None:
    elsewhere = []
    for path in _engine_modules():
        if path.name == "errors.py" and path.parent == ENGINE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id.endswith(("Error", "Exception"))
                for base in node.bases
            ):
                elsewhere.append(f"{path.name}:{node.name}")
    assert elsewhere == []


# ---------------------------------------------------------------- actions (RULES.md 10)


@pytest.mark.parametrize("text", ["bid ²", "bid ١٢", "bid " + "9" * 5000, "bid -5"])
def test_a_bid_that_is_not_a_number_in_ascii_digits_is_an_action_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError, match="bad bid amount"):
        Action.parse(text)


@pytest.mark.parametrize("text", ["take ²", "take " + "9" * 5000, "add ² 5H", "replace ³ 7H"])
def test_a_pinnacolo_number_that_is_not_ascii_digits_is_an_action_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError):
        parse_action(text)


# ------------------------------------------------------------- meld (RULES.md 1 and 3)


@pytest.mark.parametrize(
    ("variant", "hand", "message"),
    [
        # Section 1: the single deck has two copies of each card.
        ("single4", ["AS", "AS", "AS"], "AS appears 3 times; the single deck has 2"),
        # Section 1: the double deck has no nines, so there is no dix to score.
        ("double4", ["9S"], "the double deck has no 9S"),
        ("double4", ["AS"] * 5, "AS appears 5 times; the double deck has 4"),
        ("single4", [-1], "not a card face: -1"),
        ("single4", [24], "not a card face: 24"),
        ("single4", [True], "not a card face: True"),
        ("single4", ["ZZ"], "not a card: 'ZZ'"),
    ],
)
def test_meld_refuses_cards_that_are_not_in_the_variants_deck(
    variant: str, hand: list[object], message: str
) -> None:
    with pytest.raises(CardError, match=message):
        meld(hand, "S", rules_for(variant))  # type: ignore[arg-type]


def test_meld_still_scores_a_hand_the_deck_holds() -> None:
    # Section 3: the dix in a single-deck variant.
    assert meld(["9S", "9S"], "S", rules_for("single4")).total == 2


@pytest.mark.parametrize("trump", [7, -1, True, "X"])
def test_meld_refuses_a_trump_that_is_not_a_suit(trump: object) -> None:
    with pytest.raises(CardError, match="not a suit"):
        meld(["AS"], trump, rules_for("single4"))  # type: ignore[arg-type]


# ----------------------------------------------------------------- tricks (RULES.md 4)


_OPTIONS: dict[str, object] = {
    "must_head": "always",
    "must_trump": "always",
    "must_overtrump": False,
}


def _legal(hand: list[str], trick: list[str], **options: object) -> object:
    return legal_plays(hand, trick, "S", **{**_OPTIONS, **options})  # type: ignore[arg-type]


def test_legal_plays_refuses_a_hand_no_pinochle_pack_holds() -> None:
    with pytest.raises(CardError, match="no pinochle deck holds these cards"):
        _legal(["AS"] * 6, [])
    # A hand and the trick together: three nines of hearts exist in no pack.
    with pytest.raises(CardError):
        _legal(["9H", "9H"], ["9H"])
    # Four aces of spades fit the double deck.
    assert [str(card) for card in _legal(["AS"] * 4, [])] == ["AS"]  # type: ignore[attr-defined]


def test_legal_plays_refuses_a_trick_of_four_cards_and_unknown_options() -> None:
    with pytest.raises(TrickError, match="at most 3 cards"):
        _legal(["AS"], ["KH", "KH", "QH", "QH"])
    with pytest.raises(RulesError, match="must_head"):
        _legal(["AS"], [], must_head="sometimes")
    with pytest.raises(RulesError, match="must_trump"):
        _legal(["AS"], [], must_trump="rarely")


def test_an_empty_trick_has_no_winner() -> None:
    with pytest.raises(TrickError):
        trick_winner([], 0)


# -------------------------------------------------------- seats, seeds and variants


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_dealer_that_is_not_a_seat_is_refused_in_every_registered_variant(variant: str) -> None:
    game = load_game(variant)
    # A bool is an int to Python: True must not be read as seat 1, nor False as seat 0.
    for dealer in (True, False, -1, game.players, 1.0, "1"):
        with pytest.raises(SeatError, match="the dealer is a seat"):
            game.new_initial_state(seed=1, dealer=dealer)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_observation_for_a_seat_that_is_not_one_is_refused(variant: str) -> None:
    state = load_game(variant).new_initial_state(seed=1, dealer=0)
    for seat in (True, -1, state.num_players):
        with pytest.raises(SeatError):
            state.observation(seat)


def test_a_whole_game_refuses_a_bool_dealer_and_a_bad_hand_bound() -> None:
    with pytest.raises(SeatError):
        GameState("single4", seed=1, dealer=True)
    with pytest.raises(SeatError):
        PinnacoloGame("pinnacolo", seed=1, dealer=True)
    for bound in (0, True, 1.5):
        with pytest.raises(RulesError, match="max_hands"):
            GameState("single4", seed=1, max_hands=bound)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5])
def test_a_seed_outside_64_bits_is_a_seed_error(seed: object) -> None:
    with pytest.raises(SeedError):
        new_hand("single4", seed=seed)  # type: ignore[arg-type]
    # Asked directly too.
    with pytest.raises(SeedError):
        shuffle(list(range(8)), seed)
    with pytest.raises(SeedError):
        SplitMix64(seed)


def test_an_unknown_variant_is_named_and_the_known_ones_listed() -> None:
    with pytest.raises(UnknownVariantError, match="'skat' is not a known variant"):
        game_class("skat")
    with pytest.raises(UnknownVariantError, match="'skat' is not a known variant"):
        load_game("skat")
    with pytest.raises(UnknownVariantError, match="single4"):
        rules_for("skat")
    # Still a rules error naming the parameter, for callers that catch those.
    with pytest.raises(RulesError) as raised:
        rules_for("skat")
    assert raised.value.parameter == "variant"
    with pytest.raises(UnknownVariantError, match="not a four-hand variant"):
        new_hand("cutthroat3", seed=1)


def test_a_result_before_the_end_is_a_not_over_error() -> None:
    with pytest.raises(NotOverError):
        new_hand("single4", seed=1).result()


# -------------------------------------------------------------- replays (RULES.md 10)


def test_a_replay_nested_too_deeply_is_a_replay_error_not_a_recursion_error() -> None:
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(ReplayError, match="nests at most"):
            Replay.from_json(text)
        with pytest.raises(ReplayError, match="nests at most"):
            PinnacoloReplay.from_json(text)
    # Deep but parseable: refused before anything walks it recursively.
    nested: object = 1
    for _ in range(MAX_REPLAY_DEPTH + 1):
        nested = [nested]
    with pytest.raises(ReplayError, match="nests at most"):
        load_replay_document({"result": nested})


def test_a_replay_that_is_not_utf8_is_a_replay_error() -> None:
    with pytest.raises(ReplayError, match="not UTF-8"):
        Replay.from_json(b'{"format": "\xff"}')


def test_a_real_replay_is_well_within_the_depth_bound() -> None:
    state = new_hand("double4", seed=4)
    state.play_randomly(random.Random(4))
    text = json.dumps(Replay.from_state(state).to_json()).encode()
    assert Replay.from_json(text).verify() is None


def test_an_unreadable_action_in_a_replay_is_a_difference_not_a_crash() -> None:
    data = Replay.from_state(new_hand("auction4", seed=2)).to_json()
    data["actions"] = ["bid ²"]
    difference = Replay.from_json(data).verify()
    assert difference is not None and difference.path == "actions[0]"
