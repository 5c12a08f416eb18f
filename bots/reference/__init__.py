"""Reference bots for every game, each a single module an author may upload.

``REFERENCE_BOTS`` maps a short name to the module's file: the four-hand partnership
bots. ``family_bots(family)`` gives the bots of the family a game names where it is
registered (``engine.registry.GameSpec.bot_family``).
"""

from pathlib import Path

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
