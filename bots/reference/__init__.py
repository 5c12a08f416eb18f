"""Reference bots for every game, each a single module an author may upload.

``REFERENCE_BOTS`` maps a short name to the module's file: the four-hand partnership
bots. ``family_bots(family)`` gives the bots of the family a game names where it is
declares (``engine.interface.Game.bot_family``); ``reference_bots(game)`` those of a game.
"""

from collections.abc import Mapping
from pathlib import Path

from engine.interface import AnyGame
from engine.registry import load_game, variant_names

_HERE = Path(__file__).resolve().parent

REFERENCE_BOTS: dict[str, Path] = {
    "random": _HERE / "random_bot.py",
    "greedy": _HERE / "greedy.py",
    "strong": _HERE / "strong.py",
}

UNPREFIXED_FAMILY = "pinochle4"
"""The family whose modules carry no prefix: the four-hand bots, the first written."""


def family_bots(family: str | None) -> dict[str, Path]:
    """The reference bots of ``family``, by short name (random, greedy, ...).

    A uniformly random legal action needs no knowledge of the game: the random bot plays
    every game, and is the only one of a game that names no family. A family's own bots
    are the modules ``<family>_<name>.py`` here, known as ``<name>``.
    """
    if family == UNPREFIXED_FAMILY:
        return dict(REFERENCE_BOTS)
    bots = {"random": REFERENCE_BOTS["random"]}
    if family:
        bots |= {
            path.stem.removeprefix(f"{family}_"): path
            for path in sorted(_HERE.glob(f"{family}_*.py"))
        }
    return bots


def reference_bots(game: AnyGame) -> dict[str, Path]:
    """The reference bots that play ``game``, by short name: its family's."""
    return family_bots(game.bot_family)


def variants_played_by(bots: Mapping[str, Path]) -> tuple[str, ...]:
    """The registered variants in which every one of ``bots`` (short name: file) is a
    reference bot."""
    return tuple(
        variant
        for variant in variant_names()
        if bots.items() <= reference_bots(load_game(variant)).items()
    )
