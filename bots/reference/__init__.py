"""Reference bots for every game, each a single module an author may upload.

``FAMILIES`` declares each family's bots (family name: {short name: module file}); a game
names its family (``engine.interface.Game.bot_family``) and ``reference_bots(game)`` gives
the random bot with that family's bots. ``REFERENCE_BOTS`` are the four-hand partnership
bots, the first written.
"""

from collections.abc import Mapping
from pathlib import Path

from engine.interface import AnyGame
from engine.registry import load_game, variant_names

_HERE = Path(__file__).resolve().parent

RANDOM_BOT = _HERE / "random_bot.py"
"""A uniformly random legal action needs no knowledge of the game: it plays every game."""

FAMILIES: Mapping[str, Mapping[str, str]] = {
    "pinochle4": {"greedy": "greedy.py", "strong": "strong.py"},
    "cutthroat": {"greedy": "cutthroat_greedy.py", "strong": "strong3.py"},
    "twohand": {"greedy": "twohand_greedy.py", "strong": "strong2.py"},
    "pinnacolo": {"greedy": "pinnacolo_greedy.py"},
}
"""Each family's own bots beside the random one, by short name: the module files here."""


def family_bots(family: str | None) -> dict[str, Path]:
    """The reference bots of ``family``, by short name (random, greedy, ...): the random
    bot, and the family's declared bots (none for a game that names no family)."""
    if family is not None and family not in FAMILIES:
        raise LookupError(f"no reference bots are declared for the family {family!r}")
    declared = FAMILIES.get(family, {}) if family is not None else {}
    return {"random": RANDOM_BOT} | {name: _HERE / module for name, module in declared.items()}


REFERENCE_BOTS: dict[str, Path] = family_bots("pinochle4")
"""The four-hand partnership bots (random, greedy, strong)."""


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
