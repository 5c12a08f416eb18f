"""A board played by one bot at every seat: the comparison a human's table is scored against.

The bot plays every seat exactly as it plays at the human's table: rebuilt for every
decision, it hears what its seat heard and answers one ``act`` under the same clock, a
reference bot in this process (``referee.reference_move``) and an arena version in the
sandbox (``arena_seat.arena_move``). So at the two tables of a board the partner and the
opponents make the decisions the same bot makes, and the only difference left is who plays
the human's seat. A bot's fault here ends the hand as its side's forfeit, as at a human's
table and in an arena match.

The same board always plays out the same (tests/tables/test_challenge_board_examples.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.models import BotVersion
from arena.sandbox import BotFault
from bots.table import SeatFault
from tables import referee
from tables.referee import ARENA, REFERENCE, Hand, Seat

INLINE_BOTS = frozenset({"random", "greedy"})
"""Reference bots that do not search: a whole board of theirs costs 0.1 to 0.5 s (up to
about 1 s for the random bot's longest hands), so the web process plays it
when the challenge is next read. The strong bot (1.5 to 4 s a board) and arena versions
(a sandboxed process a decision) are played by a Celery task (``play.challenge_par``).
Figures: tests/bench/bench_challenge_bot_table.py."""


def played_inline(bot: Seat) -> bool:
    return bot.kind == REFERENCE and bot.name in INLINE_BOTS


def play(
    *, variant: str, rules: Mapping[str, Any] | None, seed: int, dealer: int, bot: Seat
) -> dict[str, Any]:
    """The board with ``bot`` at every seat: ``seats``, ``actions``, ``side_scores``,
    ``hand`` (the engine's result; None after a fault) and ``fault``."""
    hand = referee.rebuild(variant, rules=rules, seed=seed, dealer=dealer, actions=[])
    players = hand.game.players
    version = BotVersion.objects.get(pk=bot.version) if bot.kind == ARENA else None
    record: dict[str, Any] = {"seats": [bot.to_json()] * players}
    while (seat := hand.current) is not None:
        try:
            text = _decide(hand, seat, bot, version, variant)
        except (BotFault, SeatFault) as error:
            fault = {
                "seat": seat,
                "kind": "protocol" if isinstance(error, SeatFault) else _kind(error),
                "reason": getattr(error, "reason", str(error)),
            }
            return {
                **record,
                "actions": list(hand.actions),
                "side_scores": referee.forfeit_scores(hand.game, hand.rules, seat, hand.state),
                "hand": None,
                "fault": fault,
            }
        hand.apply(text)
    return {
        **record,
        "actions": list(hand.actions),
        "side_scores": referee.side_scores(hand),
        "hand": hand.state.result().to_json(),
        "fault": None,
    }


def _decide(hand: Hand, seat: int, bot: Seat, version: BotVersion | None, variant: str) -> str:
    if version is None:
        return referee.reference_move(hand, seat, name=bot.name, variant=variant)
    from tables.arena_seat import arena_move

    return arena_move(hand, seat, version=version, variant=variant)


def _kind(error: BaseException) -> str:
    return type(error).__name__.removeprefix("Bot").lower()
