"""A board's par: a reference bot plays it at every seat, in-process.

The reference bots are deterministic, so the same bot in every seat plays a board the same
way whichever direction it holds: one table is the whole duplicate comparison of the bot
with itself, and its hand score is the par shown beside the human results. The strong bot
takes about 1.5 s a board on one core, the greedy one about 0.1 s. A game without a strong
bot of its own (Pinnacolo) gets its par from its greedy bot (``par_bots``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

from bots import protocol
from bots.local import LocalAgent
from bots.reference import reference_bots
from bots.sdk import bot_from_module, load_module
from bots.table import Agent, Table
from engine.registry import load_game
from tournaments.hands import deal

__all__ = ["PAR_BOTS", "board_par", "board_played", "par_bots"]

PAR_BOTS = ("strong", "greedy")


def par_bots(variant: str) -> tuple[str, ...]:
    """The reference bots that can give a variant's par, strongest first."""
    available = reference_bots(load_game(variant))
    return tuple(name for name in PAR_BOTS if name in available)


_TIME = protocol.TimeControl(decision_ms=60_000, bank_ms=600_000, startup_ms=60_000)


@cache
def _module(variant: str, bot: str) -> ModuleType:
    return load_module(reference_bots(load_game(variant))[bot])


def board_par(variant: str, *, bot: str, number: int, seed: int, dealer: int) -> Any:
    """The engine's result of the board played by ``bot`` at every seat."""
    players = load_game(variant).players
    return board_played(variant, bots=[bot] * players, number=number, seed=seed, dealer=dealer)


def board_played(variant: str, *, bots: Sequence[str], number: int, seed: int, dealer: int) -> Any:
    """The engine's result of the board played by the reference bots ``bots`` (one a seat),
    in-process through the referee."""
    game = load_game(variant)
    rules = game.rules_for(None)

    def start(seat: int) -> Agent:
        instance = bot_from_module(_module(variant, bots[seat]))
        assert instance is not None, f"reference bot {bots[seat]} defines no bot"
        agent = LocalAgent(instance)
        hello = protocol.hello_message(
            game=rules.game,
            variant=rules.name,
            rules=rules.to_json(),
            seat=seat,
            players=game.players,
            boards=1,
            time=_TIME,
        )
        protocol.read_ready(agent.start(hello))
        return agent

    table = Table([None] * game.players, restart=start, game=game)
    record = table.play_board(deal(variant, seed, dealer), board=number, seed=seed)
    if record.result is None:
        # A reference bot breaking a rule is a bug in the bot, not a result: say so loudly.
        raise RuntimeError(
            f"reference bots {', '.join(bots)} faulted on board {number}: {record.fault}"
        )
    table.finish(list(record.result.team_scores))
    return record.result
