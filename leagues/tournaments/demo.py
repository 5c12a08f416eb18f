"""Demo content: a finished club pairs night and a team match still in play.

Created through the same services as the API. The tables' results are legal random plays
of each board through the engine, reported as a table would report them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import engine
from arena import services as arena_services
from arena.models import Player
from leagues.tournaments import selectors, services
from leagues.tournaments.hands import EntryOutcome, ScoreEntry
from leagues.tournaments.models import Event

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


def _table_report(variant: str, seed: int, dealer: int, rng: random.Random) -> ScoreEntry:
    state = engine.new_hand(variant, seed=seed, dealer=dealer)
    state.play_randomly(rng, throw_in_rate=0.2)
    result = state.result()
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


def _play_rounds(event: Event, rounds: int, rng: random.Random) -> None:
    for section in event.sections.exclude(size=None):
        movement = selectors.section_movement(event=event, section=section)
        for seating in movement.seatings:
            if seating.round > rounds:
                continue
            for number in selectors.board_numbers(event=event, board_set=seating.board_set):
                board = event.boards.get(number=number)
                services.result_enter(
                    event=event,
                    by=event.director,
                    section_name=section.name,
                    round=seating.round,
                    table=seating.table,
                    board_number=number,
                    entry=_table_report(event.variant, board.seed, board.dealer, rng),
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
    rng = random.Random(event.pk)
    if rounds_played is None:
        _play_rounds(event, event.sections.get(name="A").rounds or 0, rng)
        services.event_finish(event=event, by=director)
        say(f"tournament {name!r}: finished, results and hand records published")
    else:
        _play_rounds(event, rounds_played, rng)
        say(f"tournament {name!r}: running, {rounds_played} round(s) entered")


def seed(say: Callable[[str], None] = print) -> None:
    """Create the demo tournaments once (idempotent: existing ones are left alone)."""
    director, *players = _players(say)
    _event(
        director,
        players,
        name="Tuesday club pairs",
        variant="single4",
        movement="mitchell",
        rounds_played=None,
        say=say,
    )
    _event(
        director,
        players,
        name="Team of four: Autumn cup",
        variant="auction4",
        movement="teams",
        rounds_played=1,
        say=say,
    )
