"""The game variants a bot can be written for (RULES.md sections 6 to 8)."""

from __future__ import annotations

from django.db import models


class Variant(models.TextChoices):
    SINGLE4 = "single4", "Four-hand partnership, single deck"
    AUCTION4 = "auction4", "Four-hand partnership auction"
    DOUBLE4 = "double4", "Four-hand partnership, double deck"
    CUTTHROAT3 = "cutthroat3", "Three-hand with widow"
    TWOHAND = "twohand", "Two-hand with stock"
    PINNACOLO = "pinnacolo", "Pinnacolo, two pairs"
    PINNACOLO2 = "pinnacolo2", "Pinnacolo, two players"
    PINNACOLO3 = "pinnacolo3", "Pinnacolo, three players"
    PINNACOLO4 = "pinnacolo4", "Pinnacolo, four players"


PLAYABLE_VARIANTS = tuple(Variant.values)
"""The variants the engine and the match runner play."""
