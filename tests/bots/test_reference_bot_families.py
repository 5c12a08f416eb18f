"""Each game's reference bots are the family its game names: the game names them,
``bots.reference`` declares them, and neither a variant name nor a file name picks them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bots.reference import (
    FAMILIES,
    RANDOM_BOT,
    REFERENCE_BOTS,
    family_bots,
    reference_bots,
    variants_played_by,
)
from engine.registry import load_game, register_game, unregister_game, variant_names
from tests.engine.toy_highcard import HighCard, registered_toy


@pytest.mark.parametrize("variant", variant_names())
def test_every_variant_has_the_random_bot_and_only_files_that_exist(variant: str) -> None:
    bots = reference_bots(load_game(variant))
    assert bots["random"] == RANDOM_BOT
    assert all(path.is_file() for path in bots.values())


def test_every_declared_bot_is_a_module_of_the_reference_package() -> None:
    for family in FAMILIES:
        for name, path in family_bots(family).items():
            assert path.is_file(), (family, name)
            assert path.parent == RANDOM_BOT.parent


def test_each_game_gets_the_bots_of_its_own_family() -> None:
    assert {variant: sorted(reference_bots(load_game(variant))) for variant in variant_names()} == {
        "single4": ["greedy", "random", "strong"],
        "auction4": ["greedy", "random", "strong"],
        "double4": ["greedy", "random", "strong"],
        "cutthroat3": ["greedy", "random", "strong"],
        "twohand": ["greedy", "random", "strong"],
        "pinnacolo": ["greedy", "random"],
        "pinnacolo4": ["greedy", "random"],
        "pinnacolo3": ["greedy", "random"],
        "pinnacolo2": ["greedy", "random"],
    }
    assert reference_bots(load_game("cutthroat3"))["greedy"].name == "cutthroat_greedy.py"
    assert reference_bots(load_game("twohand"))["greedy"].name == "twohand_greedy.py"
    assert reference_bots(load_game("cutthroat3"))["strong"].name == "strong3.py"
    assert reference_bots(load_game("twohand"))["strong"].name == "strong2.py"
    assert reference_bots(load_game("pinnacolo2"))["greedy"].name == "pinnacolo_greedy.py"
    assert reference_bots(load_game("double4")) == REFERENCE_BOTS


def test_a_game_that_names_no_family_gets_only_the_random_bot() -> None:
    with registered_toy():
        assert reference_bots(load_game("highcard")) == {"random": RANDOM_BOT}


class HighCardOfTheTwohandFamily(HighCard):
    """The toy naming another game's family, as a new game reusing its bots would."""

    bot_family = "twohand"


@pytest.fixture
def toy_of_the_twohand_family() -> Iterator[None]:
    register_game(HighCardOfTheTwohandFamily)
    try:
        yield
    finally:
        unregister_game(HighCardOfTheTwohandFamily.name)


@pytest.mark.usefixtures("toy_of_the_twohand_family")
def test_a_game_that_names_a_family_gets_that_familys_bots() -> None:
    assert reference_bots(load_game("highcard")) == family_bots("twohand")
    assert reference_bots(load_game("highcard")) == reference_bots(load_game("twohand"))


def test_a_family_nobody_declared_is_refused_rather_than_found_by_file_name() -> None:
    # A module named like a family's bot is no bot of that family until it is declared.
    with pytest.raises(LookupError, match="pinochle5"):
        family_bots("pinochle5")
    with pytest.raises(LookupError, match="cutthroat_"):
        family_bots("cutthroat_")


def test_the_four_hand_bots_play_exactly_the_four_hand_variants() -> None:
    assert variants_played_by(REFERENCE_BOTS) == ("single4", "auction4", "double4")
    assert variants_played_by({"random": RANDOM_BOT}) == variant_names()
