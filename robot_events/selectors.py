"""Reads of the robot events for the API and the pages, each deciding what the viewer sees.

A board's results, traveller and hand record are shown to a viewer who may know them: the
director (who does not play) and staff without an entry at any time, everyone once the event
is closed, and in an instant event an entrant who has played the board to the end of the
hand (not one who left it). Standings show percentages (or IMPs) and board counts only,
never a score or a card. ``table_seal`` keeps an entrant's own table's seed and replay
hidden by the same rule.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from arena.errors import NotAllowed, NotFound
from arena.models import Player
from engine import Card
from engine.registry import load_game
from robot_events import permissions, standings
from robot_events.models import RobotBoard, RobotEntry, RobotEvent, RobotPlay, RobotSchedule
from tables.models import PlayTable
from tournaments.hands import deal, deal_problems

SCHEME = (
    "commitment = sha256(secret); board n: seed = HMAC-SHA256(secret, n as 8 bytes "
    "big-endian)[:8] >> 1, dealer = game.board_dealer(n) (board 1 dealt by seat 0, the deal "
    "moving left board by board), dealt by game.new_initial_state(seed, dealer) with "
    "game = engine.registry.load_game(variant)"
)

__all__ = [
    "board_traveller",
    "board_visible",
    "entry_of",
    "event_list",
    "event_overview",
    "event_standings",
    "event_verification",
    "schedule_list",
    "sees_all",
    "table_seal",
]


def event_list() -> QuerySet[RobotEvent]:
    return RobotEvent.objects.select_related("director")


def schedule_list() -> QuerySet[RobotSchedule]:
    """Every daily timetable, with its time of day (the beat's crontab) and its director."""
    return RobotSchedule.objects.select_related("director", "task__crontab")


def entry_of(*, event: RobotEvent, player: Player | None) -> RobotEntry | None:
    if player is None:
        return None
    return RobotEntry.objects.filter(event=event, player=player).first()


def joined_entry(*, event: RobotEvent, player: Player) -> RobotEntry:
    """The player's entry in the event: only an entrant has boards to play."""
    entry = entry_of(event=event, player=player)
    if entry is None:
        raise NotAllowed("you have not joined this event: join it before playing its boards")
    return entry


def sees_all(*, event: RobotEvent, player: Player | None) -> bool:
    """The director, or staff who do not play in it: they may see every board at any time."""
    if player is None or not permissions.directs(event, player):
        return False
    return entry_of(event=event, player=player) is None


def _finished(event: RobotEvent) -> QuerySet[RobotPlay]:
    return (
        RobotPlay.objects.filter(entry__event=event, finished__isnull=False)
        .select_related("board", "entry__player")
        .order_by("board__number", "finished", "pk")
    )


def board_visible(*, event: RobotEvent, player: Player | None, number: int) -> bool:
    """Whether ``player`` may see board ``number``'s results and hands.

    Everyone once the event is closed: closed by ``robot_event_close``, which ends every
    table still in play, not merely past a daylong event's published end (a table may be
    in play until the close job has run). Before that, the director and staff without an
    entry; and in an instant event an entrant whose table of the board was played to the
    end of the hand. A table left, ended by the close or by a fault is over but was not
    played out: it opens nothing, or leaving a board at once would show its hands to a
    second account of the one still to play it.
    """
    if event.closed is not None or sees_all(event=event, player=player):
        return True
    if event.kind != RobotEvent.Kind.INSTANT or player is None:
        return False
    play = (
        RobotPlay.objects.filter(entry__event=event, entry__player=player, board__number=number)
        .select_related("table")
        .first()
    )
    return play is not None and _played_out(play.table)


TABLE_SEAL = (
    "this board is played at the event's other tables: its seed and replay are shown when "
    "the event closes"
)


def table_seal(table: PlayTable) -> str | None:
    """Why an entrant's finished table hides its seed and replay; None for any other table.

    The seed deals every hand of the board, and the open replay shows them: they reach the
    entrant exactly when the board's traveller does (``board_visible``), so a board left at
    once shows its own table nothing more than its traveller.
    """
    play = (
        RobotPlay.objects.filter(table_id=table.pk)
        .select_related("entry__event", "entry__player", "board")
        .first()
    )
    if play is None:
        return None
    event, player = play.entry.event, play.entry.player
    if board_visible(event=event, player=player, number=play.board.number):
        return None
    return TABLE_SEAL


def _played_out(table: PlayTable | None) -> bool:
    """The table's hand was played to its end: no seat of it can act, and no fault ended it."""
    if table is None or table.status != PlayTable.Status.FINISHED or table.result is None:
        return False
    return table.result.get("fault") is None


def _nets(plays: Iterable[RobotPlay]) -> dict[int, dict[int, int]]:
    """Board number -> entry id -> North-South net, from finished plays."""
    nets: dict[int, dict[int, int]] = defaultdict(dict)
    for play in plays:
        net = play.net
        assert net is not None
        nets[play.board.number][play.entry_id] = net
    return dict(nets)


def _board_scores(
    event: RobotEvent, nets: dict[int, dict[int, int]]
) -> dict[int, dict[int, float]]:
    """Each board's matchpoints (Neuberg to the most-played board) or cross-IMPs."""
    planned = max((len(results) for results in nets.values()), default=0)
    if event.scoring == RobotEvent.Scoring.IMPS:
        return {n: standings.board_cross_imps(r, variant=event.variant) for n, r in nets.items()}
    return {n: standings.board_matchpoints(r, planned=planned) for n, r in nets.items()}


def event_standings(*, event: RobotEvent) -> list[dict[str, Any]]:
    plays = list(_finished(event))
    names = {play.entry_id: play.entry.player.display_name for play in plays}
    lines = standings.standings(_nets(plays), scoring=event.scoring, variant=event.variant)
    return [
        {
            "rank": line.rank,
            "entry": line.entrant,
            "name": names[line.entrant],
            "boards": line.boards,
            "matchpoints": line.matchpoints,
            "top": line.top,
            "percentage": line.percentage,
            "imps": line.imps,
        }
        for line in lines
    ]


def _hands(board: RobotBoard, variant: str) -> list[dict[str, Any]]:
    game = load_game(variant)
    dealt = game.initial_deal(deal(variant, board.seed, board.dealer))
    hands = []
    for name, hand in zip(game.seat_names, dealt.hands, strict=True):
        by_suit: dict[str, list[Any]] = defaultdict(list)
        for card in map(Card.parse, hand):
            by_suit[str(card.suit)].append(card)
        suits = {
            suit: " ".join(c.rank.symbol for c in sorted(by_suit[suit], key=lambda c: c.rank))
            or "-"
            for suit in ("S", "H", "D", "C")
        }
        hands.append({"seat": name, "suits": suits, "cards": list(hand)})
    return hands


def board_traveller(*, event: RobotEvent, viewer: Player | None, number: int) -> dict[str, Any]:
    """Every human result on the board with its score, the robots' par and the hands.

    Raises NotAllowed for a viewer who may not see the board yet, NotFound for a board the
    event does not have.
    """
    board = event.board_set.filter(number=number).first()
    if board is None:
        raise NotFound(f"the event has boards 1 to {event.boards}, not {number}")
    if not board_visible(event=event, player=viewer, number=number):
        raise NotAllowed(
            "a board's results and hands are shown once you have played it to the end of the "
            "hand (a board left or ended unfinished opens when the event closes)"
            if event.kind == RobotEvent.Kind.INSTANT
            else "a board's results and hands are shown when the event closes"
        )
    plays = list(_finished(event))
    scores = _board_scores(event, _nets(plays)).get(number, {})
    closed = event.closed is not None
    rows: list[dict[str, Any]] = [
        {
            "entry": play.entry_id,
            "name": play.entry.player.display_name,
            "contract": play.result,
            "score_ns": play.score_ns,
            "score_ew": play.score_ew,
            "net": play.net,
            "score": scores.get(play.entry_id),
        }
        for play in plays
        if play.board.number == number
    ]
    rows.sort(key=lambda row: -(row["net"] or 0))
    par = None
    if closed and board.par_result is not None:
        par = dict(board.par_result, score_ns=board.par_ns, score_ew=board.par_ew)
        par["net"] = (board.par_ns or 0) - (board.par_ew or 0)
    return {
        "event": event,
        "board": number,
        "dealer": load_game(event.variant).seat_name(board.dealer),
        "boards": list(range(1, event.boards + 1)),
        "rows": rows,
        "score_label": "IMPs" if event.scoring == RobotEvent.Scoring.IMPS else "MP",
        "closed": closed,
        "par": par,
        "par_pending": closed and board.par_result is None,
        "hands": _hands(board, event.variant),
    }


def _progress(event: RobotEvent, entry: RobotEntry, viewer: Player) -> list[dict[str, Any]]:
    """The entrant's boards; on those they may see, their score against the field so far."""
    plays = {play.board.number: play for play in entry.plays.select_related("board")}
    scores = _board_scores(event, _nets(_finished(event)))
    progress: list[dict[str, Any]] = []
    for number in range(1, event.boards + 1):
        play = plays.get(number)
        done = play is not None and play.finished is not None
        progress.append(
            {
                "number": number,
                "state": "played" if done else "playing" if play is not None else "to play",
                "table_id": None if play is None else play.table_id,
                "score_ns": play.score_ns if done and play else None,
                "score_ew": play.score_ew if done and play else None,
                "visible": done and board_visible(event=event, player=viewer, number=number),
            }
        )
        line = progress[-1]
        line["score"] = scores.get(number, {}).get(entry.pk) if line["visible"] else None
        line["results"] = len(scores.get(number, {})) if line["visible"] else None
    return progress


def event_overview(*, event: RobotEvent, viewer: Player | None) -> dict[str, Any]:
    state = permissions.status(event)
    entry = entry_of(event=event, player=viewer)
    progress = _progress(event, entry, viewer) if entry is not None and viewer else []
    played = sum(1 for board in progress if board["state"] == "played")
    playing = next((board for board in progress if board["state"] == "playing"), None)
    director = sees_all(event=event, player=viewer)
    return {
        "event": event,
        "status": state,
        "entry": entry,
        "progress": progress,
        "played": played,
        "playing": playing,
        "next_board": played + 1 if entry is not None and played < event.boards else None,
        "may_join": state == "open"
        and viewer is not None
        and entry is None
        and viewer.pk != event.director_id,
        "may_close": event.closed is None
        and viewer is not None
        and permissions.directs(event, viewer),
        "director": director,
        "visible_boards": [
            n
            for n in range(1, event.boards + 1)
            if board_visible(event=event, player=viewer, number=n)
        ],
        "standings": event_standings(event=event),
        "entrants": event.entries.count(),
    }


def event_verification(*, event: RobotEvent) -> dict[str, Any]:
    """The commitment; once the event is closed, the secret, every board's seed and the
    server's own check (``tournaments.hands.deal_problems``)."""
    out: dict[str, Any] = {"commitment": event.commitment, "scheme": SCHEME}
    if event.closed is None:
        return out
    boards = list(event.board_set.order_by("number"))
    problems = deal_problems(event.secret, event.commitment, {b.number: b.seed for b in boards})
    game = load_game(event.variant)
    problems += [
        f"board {b.number}: dealer {b.dealer} should be {game.board_dealer(b.number)}"
        for b in boards
        if b.dealer != game.board_dealer(b.number)
    ]
    out.update(
        secret=event.secret,
        boards=[{"board": b.number, "seed": b.seed, "dealer": b.dealer} for b in boards],
        verified=not problems,
        problems=problems,
    )
    return out
