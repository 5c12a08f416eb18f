"""Reference bots for every pinochle preset, each a single module an author may upload.

``REFERENCE_BOTS`` maps a short name to the module's file.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent

REFERENCE_BOTS: dict[str, Path] = {
    "random": _HERE / "random_bot.py",
    "greedy": _HERE / "greedy.py",
    "strong": _HERE / "strong.py",
}
