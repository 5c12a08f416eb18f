"""Demo content: a robot duplicate event open for a visitor, with two results per board.

Created through the same services as the API. Two demo players have played every board at
their play tables already (South's turns chosen by the greedy and the random reference bots
standing in for them), so that a visitor who signs in as ``guest`` and plays the boards in
the browser is matchpointed against them.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import Permission

from arena import services as arena_services
from arena.models import Player
from robot_events import play_tables, services
from robot_events.models import ROBOT_VARIANTS, RobotEvent
from tables import referee
from tables import services as play_services
from tables.models import PlayTable

DEMO_EVENT = "Robot duplicate: demo instant"
DEMO_PASSWORD = "robots-demo-2026"
GUEST = "guest"
_DIRECTOR = "Rob"
_FIELD = (("Tess", "greedy"), ("Ugo", "random"))
"""The demo players who have played already, and the bot that chose South's moves."""


def _player(name: str, say: Callable[[str], None]) -> Player:
    player = Player.objects.filter(user__username=name.lower()).first()
    if player is None:
        player = arena_services.player_register(
            username=name.lower(), password=DEMO_PASSWORD, display_name=name
        )
        say(f"player {name.lower()} (password {DEMO_PASSWORD})")
    return player


def _play_every_board(event: RobotEvent, player: Player, south: str) -> None:
    entry = services.robot_entry_join(event=event, player=player)
    for _ in range(event.boards):
        play = services.robot_play_start(entry=entry)
        assert play.table_id is not None
        while not (table := PlayTable.objects.get(pk=play.table_id)).is_over:
            hand = play_services.hand_of(table)
            text = referee.reference_move(hand, table.human_seat, name=south, variant=event.variant)
            play_services.table_act(table_id=table.pk, user=player.user, action=text, ply=table.ply)
        play_tables.entry_sync(entry=entry)


def seed(say: Callable[[str], None] = print) -> None:
    """Create the demo robot event once (idempotent: an existing one is left alone)."""
    if RobotEvent.objects.filter(name=DEMO_EVENT).exists():
        return
    director = _player(_DIRECTOR, say)
    director.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    director = Player.objects.select_related("user").get(pk=director.pk)
    _player(GUEST.capitalize(), say)
    event = services.robot_event_create(
        director=director,
        name=DEMO_EVENT,
        variant=ROBOT_VARIANTS[0],
        boards=3,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )
    for name, south in _FIELD:
        _play_every_board(event, _player(name, say), south)
    say(
        f"robot event {event.pk}: {event.name}, open at /robots/{event.pk}/ "
        f"(sign in as {GUEST}, password {DEMO_PASSWORD}, and play its boards)"
    )
