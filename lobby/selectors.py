"""What a viewer may see of a card table, as one JSON-ready frame, and nothing more.

A seated person sees their seat's view (the engine's ``Observer.seat_view``: their own
cards and what the table shows); anyone else sees the public view (no hidden card), rated
game or not, since a watcher who saw the hands could tell a player. Once the game is over
everyone sees the last hand open and the seed, from which every hand can be dealt again.
Moves are given as the viewer heard them (``Observer.heard``: a pass between partners is
a count of cards to the others). The seed stays secret until the end: each hand's deal is
drawn from it (``engine.game.hand_seed``), so even one hand's seed would tell the rest.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from arena.models import BotVersion
from engine.interface import AnyGame
from engine.meld import meld
from engine.registry import load_game
from engine.rules import Rules
from lobby.errors import TableNotFound
from lobby.game_state import GameReplay
from lobby.models import GameSeat, GameTable, TalkMessage
from lobby.services import TALK_KEPT, player_of, replay_of, table_act_state
from lobby.words import WORDS
from tables.referee import ARENA

Viewer = AbstractBaseUser | AnonymousUser

RECENT_KEPT = 24
"""How many of the latest moves a frame lists."""

PHASE_WORDS = {
    "auction": "Bidding",
    "trump": "Naming trump",
    "pass_to_declarer": "Passing cards to the declarer",
    "pass_back": "Passing cards back",
    "bury": "Burying cards",
    "throw_in": "Playing on or throwing in",
    "tricks": "Playing tricks",
    "over": "Hand over",
    "meld": "Drawing and melding",
    "play_out": "Playing out",
    "draw": "Drawing",
    "play": "Melding and discarding",
}
"""A phase of a hand in words (``Phase.value``); an unlisted one is its value, capitalised."""


def table_for(*, table_id: int) -> GameTable:
    table = GameTable.objects.select_related("host").filter(pk=table_id).first()
    if table is None:
        raise TableNotFound(f"there is no table {table_id}")
    return table


def tables_listed(*, status: str | None = None) -> QuerySet[GameTable]:
    """Tables for the lobby, newest first (``status``: only those waiting, playing or over)."""
    tables = GameTable.objects.select_related("host").prefetch_related("seats__user")
    if status is not None:
        tables = tables.filter(status=status)
    return tables.order_by("-created", "-id")


def viewer_seat(seats: Sequence[GameSeat], viewer: Viewer) -> int | None:
    if not viewer.is_authenticated:
        return None
    return next((seat.seat for seat in seats if seat.user_id == viewer.pk), None)


def phase_words(phase: str) -> str:
    return PHASE_WORDS.get(phase, phase.replace("_", " ").capitalize())


def side_names(game: AnyGame) -> list[str]:
    """Each scoring side by its seats' compass names (``North-South``), in result order."""
    return ["-".join(game.seat_name(seat) for seat in team) for team in game.teams]


def seat_label(seat: GameSeat, versions: dict[int, BotVersion]) -> str:
    if seat.user is not None:
        return seat.user.get_username()
    if seat.bot is not None:
        if seat.bot.get("kind") == ARENA:
            version = versions.get(int(seat.bot["version"]))
            if version is None:
                return f"bot version {seat.bot['version']}"
            return f"{version.bot.owner.user.username}/{version.bot.name} v{version.number}"
        return f"{seat.bot['name']} (bot)"
    return "Invited seat" if seat.invited else "Open seat"


def action_label(text: str) -> str:
    """An action as a button says it: ``bid 260`` -> ``Bid 260``."""
    return text[:1].upper() + text[1:]


def legal_for(
    game: AnyGame, legal: Sequence[str]
) -> tuple[list[dict[str, str]], dict[str, Any] | None]:
    """The legal actions as buttons, and the actions that pick several cards of the hand
    (``Game.pick_verbs``, a pass: hundreds of choices) as ``{"verb", "count", "cards"}``."""
    buttons: list[dict[str, str]] = []
    pick_cards: set[str] = set()
    pick: dict[str, Any] | None = None
    for text in legal:
        verb, _, rest = text.partition(" ")
        if verb in game.pick_verbs:
            cards = rest.split()
            pick_cards.update(cards)
            pick = {"verb": verb, "count": len(cards)}
        else:
            buttons.append({"action": text, "label": action_label(text)})
    if pick is not None:
        pick["cards"] = sorted(pick_cards)
    return buttons, pick


def my_meld(game: AnyGame, hand: Sequence[str]) -> int | None:
    """The most a pinochle hand melds in any trump (what a bidder weighs); None in a game
    without pinochle meld."""
    rules = game.rules
    if not isinstance(rules, Rules):
        return None
    return max(meld(hand, suit, rules).total for suit in "SHDC")


def seat_words(game: AnyGame, viewer: int | None) -> Callable[[int], str]:
    """A seat as the table page names it: its compass point, as on the seat itself, with
    "(you)" after the viewer's own (``North (you)``)."""

    def name(seat: int) -> str:
        return game.seat_name(seat) + (" (you)" if seat == viewer else "")

    return name


HEARD_KEPT = 64 * 1024
"""How many moves as a seat heard them a process keeps (``recent_heard``'s memo)."""

_HEARD: OrderedDict[tuple[int, int, int, int | None, int | None], dict[str, Any]] = OrderedDict()
_HEARD_LOCK = threading.Lock()


def recent_heard(
    replay: GameReplay,
    seat: int | None,
    *,
    kept: int = RECENT_KEPT,
    viewer: int | None = None,
    game_key: tuple[int, int] | None = None,
) -> list[dict[str, Any]]:
    """The latest moves as ``seat`` (None: a spectator) heard them, in words, the seats
    named as ``viewer`` (a seat, or None) sees them named.

    ``game_key`` (the table and its seed) names the game: a move of a game's log never
    changes, so how a seat heard it is kept, and each new frame words only the new moves."""
    game = replay.game
    name = seat_words(game, viewer)
    observer = game.observer
    start = max(0, replay.ply - kept)
    out = []
    for ply in range(start, replay.ply):
        key = None if game_key is None else (*game_key, ply, seat, viewer)
        if key is not None:
            with _HEARD_LOCK:
                entry = _HEARD.get(key)
            if entry is not None:
                out.append(entry)
                continue
        actor = replay.actors[ply]
        heard = observer.heard(game.parse_action(replay.actions[ply]), actor, seat)
        text = observer.caption(actor, heard, {}, name)
        entry = {"ply": ply, "seat": actor, "hand": replay.hands[ply] + 1, "text": text}
        if key is not None:
            with _HEARD_LOCK:
                _HEARD[key] = entry
                while len(_HEARD) > HEARD_KEPT:
                    _HEARD.popitem(last=False)
        out.append(entry)
    return out


def last_trick(game: AnyGame, view: dict[str, Any]) -> list[dict[str, Any]] | None:
    tricks = view.get("tricks")
    if not tricks:
        return None
    plays = game.observer.trick_plays(tricks[-1], game.players)
    return [{"seat": seat, "card": card} for seat, card in plays]


def last_hand(replay: GameReplay, seat: int | None) -> dict[str, Any]:
    """The hand before this one as it ended, as the viewer saw it end: its number, its
    scores by side and the engine's breakdown of them (``Observer.breakdown``)."""
    assert replay.last_hand is not None
    observer = replay.game.observer
    hand = replay.last_hand
    view = observer.public_view(hand) if seat is None else observer.seat_view(hand, seat)
    result = replay.state.results[-1]
    return {
        "hand_no": len(replay.state.results),
        "scores": [int(score) for score in result.team_scores],
        "breakdown": observer.breakdown(view),
    }


def talk_of(table: GameTable) -> list[dict[str, Any]]:
    if not table.talk_count:  # nothing said yet: no query
        return []
    messages = list(
        TalkMessage.objects.filter(table=table)
        .select_related("user")
        .order_by("-created", "-id")[:TALK_KEPT]
    )
    return [
        {
            "seat": message.seat,
            "name": message.user.get_username() if message.user else "",
            "key": message.key,
            "text": WORDS.get(message.key, message.key),
        }
        for message in reversed(messages)
    ]


@dataclass
class TableState:
    """One revision of a table, read once: every viewer's frame of it is drawn from it.

    What it holds is the server's (every seat's cards, in ``replay``); only ``frame_of``
    decides what a viewer is shown. Its frames are kept by what the viewer's frame depends
    on (their seat, whether they are the host), so sockets of the same seat share one."""

    table: GameTable
    seats: list[GameSeat]
    talk: list[dict[str, Any]]
    versions: dict[int, BotVersion]
    game: AnyGame
    replay: GameReplay | None
    frames: dict[tuple[int | None, bool], dict[str, Any]] = field(default_factory=dict)

    @property
    def revision(self) -> int:
        return self.table.revision


def table_state(*, table_id: int) -> TableState:
    """The table as it is now: the table, its host and its seats (one query), its talk (one
    more, once anything was said) and arena bots' names (one more, only with an arena bot)."""
    seats = list(
        GameSeat.objects.select_related("table__host", "user")
        .filter(table_id=table_id)
        .order_by("seat")
    )
    if not seats:  # every table has its seats from the start: no seat, no table
        raise TableNotFound(f"there is no table {table_id}")
    table = seats[0].table
    for seat in seats:
        seat.table = table  # one table for all, not a copy each
    return state_of(table, seats, replay_of(table) if table.started is not None else None)


def state_of(table: GameTable, seats: list[GameSeat], replay: GameReplay | None) -> TableState:
    """The state of a table read already (its host too) with its seats and its game."""
    wanted = [int(s.bot["version"]) for s in seats if s.bot and s.bot.get("kind") == ARENA]
    versions = (
        BotVersion.objects.select_related("bot__owner__user").in_bulk(wanted) if wanted else {}
    )
    game = (
        replay.game
        if replay is not None
        else load_game(table.variant, rules=load_game(table.variant).rules_from_json(table.rules))
    )
    return TableState(
        table=table,
        seats=seats,
        talk=talk_of(table),
        versions=versions,
        game=game,
        replay=replay,
    )


def frame_for(*, table_id: int, viewer: Viewer) -> dict[str, Any]:
    """Everything ``viewer`` may see of the table now (the frame of lobby/README.md)."""
    return frame_of(table_state(table_id=table_id), viewer)


SHARED_TABLES = 256
"""How many tables' latest states a process keeps for its sockets (least recently used go)."""

_SHARED: OrderedDict[int, TableState] = OrderedDict()
_READING: dict[int, threading.Lock] = {}
"""A lock per table: the sockets that want a revision not kept yet wait for one read."""
_SHARED_LOCK = threading.Lock()


def shared_state(*, table_id: int, revision: int | None) -> TableState:
    """The table at ``revision`` or later, shared by the sockets of this process: the
    process's latest state of the table when it is that recent (no query), else read now
    (``None``: read now). A change's message names its revision, so the sockets of one
    process watching a table read it once per change, however many they are."""
    if revision is None:
        return _share(table_state(table_id=table_id))
    kept = _kept(table_id, revision)
    if kept is not None:
        return kept
    # One thread reads the revision; the process's other sockets of the table wait for it.
    with _SHARED_LOCK:
        reading = _READING.setdefault(table_id, threading.Lock())
    with reading:
        kept = _kept(table_id, revision)
        if kept is not None:
            return kept
        return _share(table_state(table_id=table_id))


def _kept(table_id: int, revision: int) -> TableState | None:
    with _SHARED_LOCK:
        kept = _SHARED.get(table_id)
        if kept is not None and kept.revision >= revision:
            _SHARED.move_to_end(table_id)
            return kept
    return None


def _share(state: TableState) -> TableState:
    """Keep ``state`` for the process's sockets, unless a later revision is kept already."""
    table_id = state.table.pk
    with _SHARED_LOCK:
        kept = _SHARED.get(table_id)
        if kept is None or kept.revision < state.revision:
            _SHARED[table_id] = state
        _SHARED.move_to_end(table_id)
        while len(_SHARED) > SHARED_TABLES:
            gone, _ = _SHARED.popitem(last=False)
            _READING.pop(gone, None)
    return state


def act_shared(*, table_id: int, user: Viewer, action: str, ply: int) -> None:
    """A person's move from a socket (``services.table_act``), the table as the committed
    move left it kept for this process's sockets: they need not read it back. (Not at the
    end of the game: the stored result is read back as the database gives it.)"""
    table, seats, replay = table_act_state(table_id=table_id, user=user, action=action, ply=ply)
    if table.status == GameTable.Status.PLAYING:
        _share(state_of(table, seats, replay))


def shared_frame(
    *, table_id: int, viewer: Viewer, revision: int | None
) -> tuple[int, dict[str, Any]]:
    """``viewer``'s frame of the table at ``revision`` or later (``shared_state``), and the
    revision it shows. The frame is shared too: it is not to be changed."""
    state = shared_state(table_id=table_id, revision=revision)
    return state.revision, frame_of(state, viewer)


def forget_shared(table_id: int | None = None) -> None:
    """Drop the process's shared state of one table (``None``: of every table, and the
    moves as seats heard them)."""
    with _SHARED_LOCK:
        if table_id is None:
            _SHARED.clear()
            _READING.clear()
        else:
            _SHARED.pop(table_id, None)
    if table_id is None:
        with _HEARD_LOCK:
            _HEARD.clear()


def frame_of(state: TableState, viewer: Viewer) -> dict[str, Any]:
    """Everything ``viewer`` may see of the table in ``state``, computed once per seat and
    host flag of the viewer (the frame depends on nothing else of them)."""
    mine = viewer_seat(state.seats, viewer)
    is_host = viewer.is_authenticated and viewer.pk == state.table.host_id
    key = (mine, is_host)
    frame = state.frames.get(key)
    if frame is None:
        frame = _frame(state, mine, is_host)
        state.frames[key] = frame
    return frame


def _frame(state: TableState, mine: int | None, is_host: bool) -> dict[str, Any]:
    table, seats, versions, game, replay = (
        state.table,
        state.seats,
        state.versions,
        state.game,
        state.replay,
    )
    playing = table.status == GameTable.Status.PLAYING
    started = table.started is not None
    current = replay.current if replay is not None and playing else None
    frame: dict[str, Any] = {
        "table": table.pk,
        "ply": table.ply,
        "status": table.status,
        "variant": table.variant,
        "variant_label": game.label,
        "rated": table.rated,
        "target": table.target,
        "clock": table.clock,
        "substitute": table.substitute,
        "host": table.host.get_username(),
        "viewer": {
            "seat": mine,
            "host": is_host,
            "token": table.invite_token if is_host else None,
        },
        "seats": [
            {
                "seat": seat.seat,
                "compass": game.seat_name(seat.seat),
                "kind": seat.kind,
                "name": seat_label(seat, versions),
                "connected": seat.connected,
                "substitute": seat.user_id is not None and seat.left,
                "clock": {
                    "bank_s": round(seat.bank_s, 1),
                    "deadline": table.deadline.timestamp()
                    if table.deadline is not None and current == seat.seat
                    else None,
                },
            }
            for seat in seats
        ],
        "hand_no": 0,
        "dealer": table.dealer,
        "to_act": current,
        "phase": table.status,
        "phase_words": "Waiting for players" if not started else "",
        "view": None,
        "table_form": None,
        "legal": [],
        "pick": None,
        "my_meld": None,
        "last_trick": None,
        "last_hand": None,
        "scores": {"sides": side_names(game), "hands": [], "totals": [0] * len(game.teams)},
        "recent": [],
        "talk": state.talk,
        "commitment": table.commitment,
        "seed": table.seed if table.is_over else None,
        "result": table.result if table.is_over else None,
    }
    if replay is None:
        return frame
    hand = replay.hand
    observer = game.observer
    if table.is_over:
        view = observer.open_view(hand)
    elif mine is not None:
        view = observer.seat_view(hand, mine)
    else:
        view = observer.public_view(hand)
    phase = str(getattr(hand.phase, "value", hand.phase))
    frame.update(
        {
            "hand_no": replay.hand_no,
            "dealer": int(getattr(hand, "dealer", table.dealer)),
            "phase": phase,
            "phase_words": "Game over" if table.is_over else phase_words(phase),
            "view": view,
            "table_form": observer.table(view, game.teams, seat_words(game, mine)),
            "last_trick": last_trick(game, view),
            "scores": {
                "sides": side_names(game),
                "hands": [
                    [int(score) for score in result.team_scores] for result in replay.state.results
                ],
                "totals": [int(score) for score in replay.state.scores],
            },
            "recent": recent_heard(
                replay,
                None if table.is_over else mine,
                viewer=mine,
                game_key=(table.pk, table.seed),
            ),
        }
    )
    if replay.last_hand is not None and not table.is_over:
        frame["last_hand"] = last_hand(replay, mine)
    if mine is not None and current == mine and player_of(seats[mine], table) is None:
        legal = [str(action) for action in replay.state.legal_actions]
        frame["legal"], frame["pick"] = legal_for(game, legal)
    if mine is not None and playing and phase == "auction" and "hand" in view:
        frame["my_meld"] = my_meld(game, view["hand"])
    return frame
