"""Demo content: a finished club pairs night and a team match still in play.

Created through the same services as the API. Every table's result is the board played
through the referee by reference bots standing in for the players, reported as a table would
report it: each entry plays as the strong or the greedy bot, so contracts, sets,
matchpoints and standings come out as real play makes them (random play would bid to the
maximum and go set at every table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import engine
from arena import services as arena_services
from arena.models import Player
from bots.reference import reference_bots
from engine.registry import load_game
from tournaments import selectors, services
from tournaments.hands import EntryOutcome, ScoreEntry
from tournaments.models import Event
from tournaments.par import board_played

DEMO_PASSWORD = "demo-password-2026"
_PLAYERS = [
    "Ada", "Boris", "Clara", "Dmitri", "Edith", "Felix", "Greta", "Hugo", "Irma", "Jonas",
    "Karla", "Lev",
]  # fmt: skip
# The director runs the events and plays in none: a director sees the boards beforehand.
_DIRECTOR = "Marta"


def _players(say: Callable[[str], None]) -> list[Player]:
    players = []
    for name in [_DIRECTOR, *_PLAYERS]:
        player = Player.objects.filter(user__username=name.lower()).first()
        if player is None:
            player = arena_services.player_register(
                username=name.lower(), password=DEMO_PASSWORD, display_name=name
            )
            say(f"player {name.lower()} (password {DEMO_PASSWORD})")
        players.append(player)
    return players


ENTRY_BOTS = ("strong", "greedy")
"""The bot each entry plays as, by entry number (odd strong, even greedy)."""


def _seat_bots(variant: str, sides: Sequence[int]) -> list[str]:
    """Each seat's bot at a table where ``sides`` are (North-South, East-West) entry numbers."""
    game = load_game(variant)
    available = reference_bots(game)
    names = [ENTRY_BOTS[(number + 1) % 2] for number in sides]
    names = [name if name in available else "greedy" for name in names]
    return [names[game.side_of(seat)] for seat in range(game.players)]


def table_result(variant: str, *, seed: int, dealer: int, board: int, bots: list[str]) -> Any:
    """The engine's result of the board played by ``bots`` (one name per seat)."""
    return board_played(variant, bots=bots, number=board, seed=seed, dealer=dealer)


def _table_report(result: Any) -> ScoreEntry:
    outcome = {
        engine.HandOutcome.THROWN_IN: EntryOutcome.THROWN_IN,
        engine.HandOutcome.NO_MARRIAGE: EntryOutcome.NO_MARRIAGE,
    }.get(result.outcome, EntryOutcome.PLAYED)
    return ScoreEntry(
        outcome=outcome,
        declarer=result.declarer if result.declarer is not None else 0,
        bid=result.bid or 0,
        trump=result.trump,
        meld=(result.teams[0].meld, result.teams[1].meld),
        taken=(result.teams[0].taken, result.teams[1].taken),
    )


def _play_rounds(event: Event, rounds: int) -> None:
    for section in event.sections.exclude(size=None):
        movement = selectors.section_movement(event=event, section=section)
        for seating in movement.seatings:
            if seating.round > rounds:
                continue
            bots = _seat_bots(event.variant, seating.sides)
            for number in selectors.board_numbers(event=event, board_set=seating.board_set):
                board = event.boards.get(number=number)
                result = table_result(
                    event.variant, seed=board.seed, dealer=board.dealer, board=number, bots=bots
                )
                services.result_enter(
                    event=event,
                    by=event.director,
                    section_name=section.name,
                    round=seating.round,
                    table=seating.table,
                    board_number=number,
                    entry=_table_report(result),
                )


def _event(
    director: Player,
    players: list[Player],
    *,
    name: str,
    variant: str,
    movement: str,
    rounds_played: int | None,
    say: Callable[[str], None],
) -> None:
    if Event.objects.filter(name=name).exists():
        return
    event = services.event_create(
        director=director,
        name=name,
        variant=variant,
        movement=movement,
        boards_per_round=2,
        par_bot="greedy",
    )
    for first, second in zip(players[::2], players[1::2], strict=True):
        services.entry_add(event=event, by=director, section_name="A", players=[first, second])
    event = services.event_start(event=event, by=director)
    if rounds_played is None:
        _play_rounds(event, event.sections.get(name="A").rounds or 0)
        services.event_finish(event=event, by=director)
        say(f"tournament {name!r}: finished, results and hand records published")
    else:
        _play_rounds(event, rounds_played)
        say(f"tournament {name!r}: running, {rounds_played} round(s) entered")


def seed(say: Callable[[str], None] = print) -> None:
    """Create the demo tournaments once (idempotent: existing ones are left alone)."""
    director, *players = _players(say)
    # Pair events need a partnership game with hand records: the first two such variants.
    pairs = [name for name in services.event_variants() if load_game(name).partnership]
    _event(
        director,
        players,
        name="Tuesday club pairs",
        variant=pairs[0],
        movement="mitchell",
        rounds_played=None,
        say=say,
    )
    _event(
        director,
        players,
        name="Team of four: Autumn cup",
        variant=pairs[1 % len(pairs)],
        movement="teams",
        rounds_played=1,
        say=say,
    )
