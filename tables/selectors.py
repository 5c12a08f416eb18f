"""Reads of human tables: what a given reader may see of one, and nothing more.

The owner sees their seat's view: the engine's observation for the human seat and every
move as that seat heard of it (the game's ``observer.heard``). Nobody else sees a table until
its hand is over and its ``public_after`` has passed. Before the hand ends no reader gets
the seed, another seat's hand, or a buried or passed card they did not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from arena.models import BotVersion
from engine.interface import AnyGame
from tables.errors import TableNotFound
from tables.models import Challenge, PlayTable
from tables.referee import ARENA, HUMAN, REFERENCE, Hand, Seat
from tables.seals import seal_reason
from tables.services import hand_of, moves_heard, seats_of, seed_commitment_of

REPLAY_FORMAT = "pinochle-arena/game-replay"
REPLAY_VERSION = 1
"""The arena's replay document (arena/services/matches.py), so one viewer reads both."""


@dataclass(frozen=True)
class Controls:
    """The human's legal actions, grouped the way the page offers them."""

    cards: dict[str, str]
    """card -> action, for actions that name one card (the game's ``card_verbs``)."""
    choose: dict[str, Any] | None
    """``{"verb", "count", "cards"}`` for actions that name several cards (``pick_verbs``)."""
    bids: list[str]
    """Actions that name one of many amounts (``amount_verbs``), offered as one list."""
    buttons: list[str]
    legal: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": self.cards,
            "choose": self.choose,
            "bids": self.bids,
            "buttons": self.buttons,
            "legal": self.legal,
        }


def visible_tables(*, viewer: AbstractBaseUser | AnonymousUser) -> QuerySet[PlayTable]:
    """The tables the reader owns."""
    if not viewer.is_authenticated:
        return PlayTable.objects.none()
    return PlayTable.objects.filter(owner_id=viewer.pk)


def table_for(*, table_id: int, viewer: AbstractBaseUser | AnonymousUser) -> PlayTable:
    """The table if the reader may see it (TableNotFound otherwise, whether or not it exists)."""
    table = PlayTable.objects.filter(pk=table_id).first()
    if table is None or not can_see(table, viewer):
        raise TableNotFound(f"there is no table {table_id} you may see")
    return table


def can_see(table: PlayTable, viewer: AbstractBaseUser | AnonymousUser) -> bool:
    if viewer.is_authenticated and viewer.pk == table.owner_id:
        return True
    # A live hand is its owner's alone; a finished one is public once its event allows.
    return table.is_over and table.public_after is not None and timezone.now() >= table.public_after


def tables_seen(*, owner_id: int, viewer_id: int | None) -> QuerySet[PlayTable]:
    """An owner's tables that ``can_see`` lets the viewer see, as one query, newest first."""
    tables = PlayTable.objects.filter(owner_id=owner_id)
    if viewer_id != owner_id:
        tables = tables.exclude(status=PlayTable.Status.PLAYING).filter(
            public_after__isnull=False, public_after__lte=timezone.now()
        )
    return tables.order_by("-created", "-id")


def seat_names(table: PlayTable, seats: Sequence[Seat] | None = None) -> list[str]:
    seats = seats_of(table) if seats is None else seats
    wanted = [seat.version for seat in seats if seat.kind == ARENA]
    versions = BotVersion.objects.select_related("bot__owner__user").in_bulk(wanted)
    names = []
    for seat in seats:
        if seat.kind == HUMAN:
            names.append(table.owner.get_username())
        elif seat.kind == REFERENCE:
            names.append(f"{seat.name} (reference bot)")
        else:
            version = versions.get(seat.version)
            names.append(
                f"{version.bot.owner.user.username}/{version.bot.name} v{version.number}"
                if version is not None
                else f"version {seat.version}"
            )
    return names


def side_names(game: AnyGame) -> list[str]:
    """Each scoring side by its seats' names, in the order of a result's scores."""
    return [" and ".join(game.seat_name(seat) for seat in team) for team in game.teams]


def controls_of(hand: Hand) -> Controls:
    """The legal actions grouped as the game says each kind of action is offered."""
    game = hand.game
    legal = [str(action) for action in hand.state.legal_actions]
    cards: dict[str, str] = {}
    bids: list[str] = []
    buttons: list[str] = []
    choose_cards: set[str] = set()
    choose: dict[str, Any] | None = None
    for text in legal:
        verb, _, rest = text.partition(" ")
        if verb in game.card_verbs and " " not in rest:
            cards[rest] = text
        elif verb in game.pick_verbs:
            picked = rest.split()
            choose_cards.update(picked)
            choose = {"verb": verb, "count": len(picked)}
        elif verb in game.amount_verbs:
            bids.append(text)
        else:
            buttons.append(text)
    if choose is not None:
        choose["cards"] = sorted(choose_cards)
    return Controls(cards, choose, bids, buttons, legal)


def table_view(*, table: PlayTable, viewer: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """Everything the reader may see of the table, as plain JSON."""
    if not can_see(table, viewer):
        raise TableNotFound(f"there is no table {table.pk} you may see")
    hand = hand_of(table)
    game = hand.game
    seats = seats_of(table)
    seat = table.human_seat
    current = hand.current
    is_owner = viewer.is_authenticated and viewer.pk == table.owner_id
    out_of_time = not table.is_over and table.out_of_time()
    your_turn = is_owner and not table.is_over and not out_of_time and current == seat
    view: dict[str, Any] = {
        "id": table.pk,
        "variant": table.variant,
        "status": table.status,
        "ply": hand.ply,
        "human_seat": seat,
        "dealer": table.dealer,
        "game": game.name,
        "players": game.players,
        "partnership": game.partnership,
        "seat_names": list(game.seat_names),
        "side_names": side_names(game),
        "seats": [spec.to_json() for spec in seats],
        "names": seat_names(table, seats),
        "current": None if table.is_over else current,
        "your_turn": your_turn,
        "waiting_for_bot": (
            not table.is_over
            and not out_of_time
            and current is not None
            and seats[current].kind != HUMAN
        ),
        "out_of_time": out_of_time,
        "observation": game.observer.seat_view(hand.state, seat),
        "moves": moves_heard(hand, seat, since=0),
        "controls": controls_of(hand).to_json() if your_turn else None,
        "seed_commitment": seed_commitment_of(table),
        "return_url": table.return_url,
        "url": reverse("tables:table", args=[table.pk]),
        "result": None,
        "seed": None,
        "replay_url": None,
        "sealed": None,
    }
    if table.is_over:
        assert table.result is not None
        fault = table.result.get("fault")
        view["result"] = {
            "side_scores": table.result["side_scores"],
            "hand": table.result.get("hand"),
            # The reason a bot failed may name a card of its hand: only who and how.
            "fault": None if fault is None else {"seat": fault["seat"], "kind": fault["kind"]},
        }
        sealed = sealed_because(table)
        if sealed is None:
            view["seed"] = table.seed
            view["replay_url"] = reverse("tables:replay", args=[table.pk])
        view["sealed"] = sealed
    return view


CHALLENGE_SEAL = (
    "this table is part of a challenge still in play: its seed and replay are shown when the "
    "challenge is over, since a board's seed would give away the boards still to come"
)


def sealed_because(table: PlayTable) -> str | None:
    """Why the finished table's seed and replay are hidden for now; None when they are not.

    A board's seed is drawn from its challenge's match seed (``bots.duplicate.board_seed``),
    so it would give away the boards still to come; the replay waits with it. (Challenges
    of the earlier two-table format also dealt the same cards again at a later table.)
    Other apps that deal the board elsewhere say so through ``tables.seals``.
    """
    if Challenge.objects.filter(tables__play_table=table, status=Challenge.Status.PLAYING).exists():
        return CHALLENGE_SEAL
    return seal_reason(table)


def deal_sealed(table: PlayTable) -> bool:
    """Whether the finished table's seed and replay must wait (``sealed_because``)."""
    return sealed_because(table) is not None


def replay_document(table: PlayTable) -> dict[str, Any]:
    """The finished table as an arena replay document (the same format as a bot game's)."""
    if not table.is_over:
        raise TableNotFound(f"table {table.pk} is still being played: its replay opens at the end")
    sealed = sealed_because(table)
    if sealed is not None:
        raise TableNotFound(f"table {table.pk}'s replay is not shown yet: {sealed}")
    hand = hand_of(table)
    assert table.result is not None
    return {
        "format": REPLAY_FORMAT,
        "version": REPLAY_VERSION,
        "play_table": table.pk,
        "variant": table.variant,
        "board": 1,
        "table": "A",
        "seats": table.seats,
        "hand": hand.game.write_replay(hand.state).to_json(),
        "fault": table.result.get("fault"),
        "team_scores": table.result["side_scores"],
    }


def frames_since(table: PlayTable, *, since: int) -> list[dict[str, Any]]:
    """The human seat's observation after each ply from ``since`` on, for the page to
    reveal bot moves one at a time (each is exactly what the seat saw at that moment)."""
    from tables import referee

    seat = table.human_seat
    if since >= table.ply:
        return []
    hand = referee.rebuild(
        table.variant,
        rules=table.rules,
        seed=table.seed,
        dealer=table.dealer,
        actions=table.actions[:since],
    )
    frames = []
    heard = moves_heard(hand_of(table), seat, since=since)
    for move in heard:
        hand.apply(table.actions[move["ply"]])
        frames.append({**move, "observation": hand.game.observer.seat_view(hand.state, seat)})
    return frames
