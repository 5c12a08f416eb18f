"""Plays a uniformly random legal action of twohand (two-hand) pinochle: the floor every other
bot of that variant must beat."""

from __future__ import annotations

import random
from typing import Any

from bots.sdk import Bot


class TwoHandRandomBot(Bot):
    name = "twohand-random"

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random()

    def on_hello(self, hello: dict[str, Any]) -> None:
        # Seeded from the seat, so that a match between random bots replays identically.
        self.rng.seed(int(hello.get("seat", 0)))

    def act(self, observation: dict[str, Any], legal: list[str]) -> str:
        return self.rng.choice(legal)
