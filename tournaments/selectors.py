"""Reads for the tournament views and services: movements, matchpoints, standings, records."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from arena.errors import NotAllowed, NotFound
from arena.models import Player
from engine import Card, format_cards
from engine.registry import load_game
from tournaments.hands import deal, deal_problems
from tournaments.imps import imps
from tournaments.matchpoints import board_matchpoints, half_scale, percentage
from tournaments.models import (
    Board,
    BoardPar,
    Correction,
    Entry,
    Event,
    HumanRating,
    Result,
    Review,
    Section,
)
from tournaments.movements import (
    Movement,
    MovementKind,
    Seating,
    board_set_numbers,
    mitchell_field,
    movement_for,
    team_of,
)


def seat_names(variant: str) -> tuple[str, ...]:
    return load_game(variant).seat_names


def side_names(variant: str) -> tuple[str, ...]:
    """Each scoring side's name, its seats' names joined (``North-South``), in the order
    of a result's scores."""
    game = load_game(variant)
    return tuple("-".join(game.seat_name(seat) for seat in team) for team in game.teams)


def event_list() -> QuerySet[Event]:
    return Event.objects.select_related("director").order_by("-id")


def is_director(*, event: Event, player: Player | None) -> bool:
    """The event's director, or staff, who direct every event except one they play in.

    The director cannot enter the event (``entry_add`` refuses it); a member of staff who
    plays is a player there like any other, so that nobody at a table sees the boards.
    """
    if player is None:
        return False
    if event.director_id == player.pk:
        return True
    return player.user.is_staff and not is_entrant(event=event, player=player)


def is_entrant(*, event: Event, player: Player) -> bool:
    return Entry.objects.filter(section__event=event, players=player).exists()


def is_public(*, event: Event) -> bool:
    """Results, hand records and the secret are public once the event is finished."""
    return event.status == Event.Status.FINISHED


def section_list(*, event: Event) -> QuerySet[Section]:
    entries = Entry.objects.prefetch_related("players").order_by("number")
    return event.sections.prefetch_related(Prefetch("entries", queryset=entries))


def section_movement(*, event: Event, section: Section) -> Movement:
    """The section's movement, rebuilt from its kind and size (set when the event starts)."""
    if section.size is None:
        raise ValueError(f"section {section.name} has no movement before the event starts")
    return movement_for(
        MovementKind(event.movement),
        section.size,
        rounds=section.rounds,
        seats=load_game(event.variant).players,
    )


def board_numbers(*, event: Event, board_set: int) -> range:
    """The event's boards of a board set (``movements.board_set_numbers``)."""
    return board_set_numbers(board_set, per_set=event.boards_per_round)


def event_rounds(*, event: Event) -> int:
    """The number of rounds of the event: its longest section's."""
    return max((s.rounds or 0 for s in event.sections.all()), default=0)


def round_missing_results(*, event: Event, round: int) -> int:
    """How many boards of ``round`` the playing tables of every section have not entered."""
    missing = 0
    for section in event.sections.exclude(size=None):
        movement = section_movement(event=event, section=section)
        present = set(entries_by_number(section=section))
        entered = set(section.results.filter(round=round).values_list("table", "board__number"))
        for seating in movement.seatings:
            if seating.round != round or not seating.playable(present):
                continue
            for number in board_numbers(event=event, board_set=seating.board_set):
                missing += (seating.table, number) not in entered
    return missing


def counted_results(*, section: Section) -> QuerySet[Result]:
    """The section's results that are scored: those the other side (or the director) has
    confirmed. A pending result counts for nothing, in matchpoints, IMPs or ratings."""
    return section.results.filter(status=Result.Status.CONFIRMED)


def pending_results(*, event: Event) -> list[Result]:
    """The event's results that wait for the other side's confirmation, table by table."""
    return list(
        Result.objects.filter(section__event=event, status=Result.Status.PENDING)
        .select_related("section", "board", "entered_by")
        .order_by("section__name", "round", "table", "board__number")
    )


def result_opponents(*, result: Result) -> set[int]:
    """The players who may confirm or reject a result: those at the table on a side other
    than the entering player's (any other seat when every player is for themselves)."""
    section = result.section
    game = load_game(section.event.variant)
    entries = entries_by_number(section=section)
    players = {
        position: {p.pk for p in entries[number].players.all()} if number in entries else set()
        for position, number in enumerate(result.sides)
    }
    entered_at = [pos for pos, pks in players.items() if result.entered_by_id in pks]
    if not entered_at:
        return set()

    def other_side(position: int) -> bool:
        if not game.partnership:
            return position not in entered_at
        return all(game.side_of(position) != game.side_of(mine) for mine in entered_at)

    return {pk for position, pks in players.items() if other_side(position) for pk in pks}


def result_entering_side(*, result: Result) -> set[int]:
    """The players of the side that entered a result: the entering player and, in a
    partnership, the partners seated with them (every player at the table but its
    opponents)."""
    section = result.section
    entries = entries_by_number(section=section)
    seated = {
        player.pk
        for number in result.sides
        if number in entries
        for player in entries[number].players.all()
    }
    if result.entered_by_id not in seated:
        return {result.entered_by_id}
    return seated - result_opponents(result=result)


def pending_for(*, event: Event, viewer: Player) -> list[Result]:
    """The pending results ``viewer`` may confirm or reject: every one for the director,
    else those entered by the other side at a table where the viewer played."""
    pending = pending_results(event=event)
    if is_director(event=event, player=viewer):
        return pending
    return [r for r in pending if viewer.pk in result_opponents(result=r)]


def review_list(*, event: Event) -> QuerySet[Review]:
    return Review.objects.filter(event=event).select_related("by", "entered_by")


def entries_by_number(*, section: Section) -> dict[int, Entry]:
    return {entry.number: entry for entry in section.entries.all()}


def player_entry_queryset(*, event: Event) -> QuerySet[Entry]:
    return Entry.objects.filter(section__event=event).select_related("section")


def player_entries(*, event: Event, player: Player) -> list[Entry]:
    return list(
        Entry.objects.filter(section__event=event, players=player).select_related("section")
    )


def result_list(*, event: Event) -> QuerySet[Result]:
    return Result.objects.filter(section__event=event).select_related(
        "board", "section__event", "entered_by"
    )


def correction_list(*, event: Event) -> QuerySet[Correction]:
    return Correction.objects.filter(result__section__event=event).select_related(
        "director", "result__board", "result__section"
    )


def direction_of(variant: str, position: int) -> int:
    """0 for North-South, 1 for East-West: which score a side or seat position takes.

    Pair movements list (North-South, East-West); individual movements list the players
    by seat, each on the side the game puts that seat.
    """
    return load_game(variant).side_of(position)


@dataclass
class EntryScore:
    entry: Entry
    points: float = 0.0
    possible: float = 0.0
    boards: int = 0

    @property
    def percentage(self) -> float:
        return percentage(self.points, self.possible)


@dataclass
class ScoredResult:
    result: Result
    ns: float
    ew: float
    top: float
    seats: tuple[float, ...] = ()
    """Three-hand: each seat's matchpoints (``ns`` and ``ew`` are then 0)."""


def section_scores(*, event: Event, section: Section) -> dict[int, ScoredResult]:
    """Matchpoints of every result in the section, by result id.

    A board is compared among the section's tables that played it. Its planned number of
    plays counts the movement's tables where every entrant exists, so a sit-out does not
    penalise a board; a result missing at a table that should have played triggers
    Neuberg for the others.
    """
    movement = section_movement(event=event, section=section)
    present = set(entries_by_number(section=section))
    planned_by_set: dict[int, int] = defaultdict(int)
    for seating in movement.seatings:
        if seating.playable(present):
            planned_by_set[seating.board_set] += 1
    set_of_board = {
        number: board_set
        for board_set in range(1, movement.board_sets + 1)
        for number in board_numbers(event=event, board_set=board_set)
    }
    # Computed on the 2/1 scale (Neuberg's formula is written for it), shown on the event's.
    scale = half_scale if event.scale == Event.Scale.ONE_HALF else float
    by_board: dict[int, list[Result]] = defaultdict(list)
    for result in counted_results(section=section).select_related("board"):
        by_board[result.board.number].append(result)
    scored: dict[int, ScoredResult] = {}
    for number, results in by_board.items():
        planned = planned_by_set[set_of_board[number]]
        if results[0].seat_scores:
            # Three-hand: each seat's score is compared with the same seat (the same
            # cards) at the other tables, so a result gets one matchpoint per player.
            per_seat = [
                board_matchpoints({r.pk: r.seat_scores[seat] for r in results}, planned=planned)
                for seat in range(len(results[0].seat_scores))
            ]
            for result in results:
                seats = tuple(scale(points[result.pk].ns) for points in per_seat)
                top = scale(per_seat[0][result.pk].top)
                scored[result.pk] = ScoredResult(result, 0.0, 0.0, top, seats)
            continue
        # Both sides score in pinochle (it is not zero-sum), so a table's result is
        # North-South's score minus East-West's, as in the arena's duplicate.
        matchpoints = board_matchpoints(
            {r.pk: r.score_ns - r.score_ew for r in results}, planned=planned
        )
        for result in results:
            points = matchpoints[result.pk]
            scored[result.pk] = ScoredResult(
                result, scale(points.ns), scale(points.ew), scale(points.top)
            )
    return scored


def section_standings(*, event: Event, section: Section) -> list[EntryScore]:
    """Each entry's matchpoints and percentage over the boards it played, best first."""
    entries = entries_by_number(section=section)
    totals = {number: EntryScore(entry) for number, entry in entries.items()}
    for scored in section_scores(event=event, section=section).values():
        for position, number in enumerate(scored.result.sides):
            direction = direction_of(event.variant, position)
            total = totals[number]
            if scored.seats:
                total.points += scored.seats[position]
            else:
                total.points += scored.ns if direction == 0 else scored.ew
            total.possible += scored.top
            total.boards += 1
    return sorted(totals.values(), key=lambda s: (-s.percentage, s.entry.number))


def event_standings(*, event: Event) -> list[dict[str, Any]]:
    """Standings per section: the field (pairs or players), or the teams of a team event.

    In a Mitchell the North-South and East-West pairs are ranked apart: they never
    compete on the same scores.
    """
    out = []
    mitchell = event.movement == MovementKind.MITCHELL.value
    for section in section_list(event=event):
        if section.size is None:
            continue
        standings = section_standings(event=event, section=section)
        movement = section_movement(event=event, section=section)
        rows = []
        ranks: dict[str, int] = defaultdict(int)
        for score in standings:
            field_name = "all"
            if mitchell:
                field_name = mitchell_field(score.entry.number, movement.tables)
            ranks[field_name] += 1
            rows.append(
                {
                    "entry": score.entry.number,
                    "name": entry_label(score.entry),
                    "players": [p.display_name for p in score.entry.players.all()],
                    "field": field_name,
                    "rank": ranks[field_name],
                    "matchpoints": round(score.points, 2),
                    "top": round(score.possible, 2),
                    "percentage": round(score.percentage, 2),
                    "boards": score.boards,
                }
            )
        block: dict[str, Any] = {"section": section.name, "standings": rows}
        if event.movement == MovementKind.TEAMS.value:
            matches = team_matches(event=event, section=section)
            block["teams"] = _team_standings(standings, matches)
            block["matches"] = matches
        out.append(block)
    return out


def team_matches(*, event: Event, section: Section) -> list[dict[str, Any]]:
    """Each team match with its IMPs: every board's swing between the two rooms.

    The home team sits North-South in the open room and East-West in the closed one, so
    its swing on a board is the open room's net result minus the closed room's. A board
    counts once both rooms have reported it.
    """
    movement = section_movement(event=event, section=section)
    nets = {
        (r.round, r.table, r.board.number): r.score_ns - r.score_ew
        for r in counted_results(section=section).select_related("board")
    }
    rooms: dict[int, list[Seating]] = defaultdict(list)
    for seating in movement.seatings:
        rooms[seating.match or 0].append(seating)
    matches = []
    for match, (open_room, closed_room) in sorted(rooms.items()):
        home, away = team_of(open_room.ns), team_of(open_room.ew)
        swings = []
        for number in board_numbers(event=event, board_set=open_room.board_set):
            in_open = nets.get((open_room.round, open_room.table, number))
            in_closed = nets.get((closed_room.round, closed_room.table, number))
            if in_open is not None and in_closed is not None:
                swings.append(imps(in_open - in_closed, event.variant))
        matches.append(
            {
                "match": match,
                "round": open_room.round,
                "home": home,
                "away": away,
                "boards": len(swings),
                "imps_home": sum(s for s in swings if s > 0),
                "imps_away": -sum(s for s in swings if s < 0),
            }
        )
    return matches


def _team_standings(
    standings: Iterable[EntryScore], matches: Iterable[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Teams of four, ranked on the two pairs' matchpoints together. With each board in
    two rooms this is board-a-match scoring: a team wins a board (4 of 4) when both its
    pairs beat the other room, and ties it at 2. IMPs for and against are shown beside."""
    teams: dict[int, list[EntryScore]] = defaultdict(list)
    for score in standings:
        teams[team_of(score.entry.number)].append(score)
    imps_for: dict[int, int] = defaultdict(int)
    imps_against: dict[int, int] = defaultdict(int)
    for match in matches:
        imps_for[match["home"]] += match["imps_home"]
        imps_against[match["home"]] += match["imps_away"]
        imps_for[match["away"]] += match["imps_away"]
        imps_against[match["away"]] += match["imps_home"]
    rows: list[dict[str, Any]] = []
    for team, members in teams.items():
        points = sum(m.points for m in members)
        possible = sum(m.possible for m in members)
        rows.append(
            {
                "team": team,
                "pairs": [m.entry.number for m in members],
                "names": [entry_label(m.entry) for m in members],
                "matchpoints": round(points, 2),
                "percentage": round(percentage(points, possible), 2),
                "imps_for": imps_for[team],
                "imps_against": imps_against[team],
            }
        )
    rows.sort(key=lambda row: (-row["percentage"], row["team"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def entry_label(entry: Entry) -> str:
    return entry.name or " & ".join(p.display_name for p in entry.players.all())


def _on_side(result: Result, side: int) -> list[int]:
    """The entries of a partnership result on ``side`` (0: North-South, 1: East-West)."""
    variant = result.section.event.variant
    return [n for pos, n in enumerate(result.sides) if direction_of(variant, pos) == side]


def result_row(scored: ScoredResult | None, result: Result) -> dict[str, Any]:
    if result.seat_scores:
        return {
            "id": result.pk,
            "status": result.status,
            "section": result.section.name,
            "round": result.round,
            "table": result.table,
            "board": result.board.number,
            "sides": result.sides,
            "outcome": result.outcome,
            "hand_outcome": result.hand_outcome,
            "declarer": result.declarer,
            "declarer_seat": seat_names(result.section.event.variant)[result.declarer],
            "bid": result.bid,
            "trump": result.trump or None,
            "meld": result.seat_melds,
            "taken": result.seat_taken,
            "buried": result.buried,
            "scores": result.seat_scores,
            "matchpoints": None if scored is None else [round(p, 2) for p in scored.seats],
            "top": None if scored is None else round(scored.top, 2),
        }
    return {
        "id": result.pk,
        "status": result.status,
        "section": result.section.name,
        "round": result.round,
        "table": result.table,
        "board": result.board.number,
        "sides": result.sides,
        "ns": _on_side(result, 0),
        "ew": _on_side(result, 1),
        "outcome": result.outcome,
        "hand_outcome": result.hand_outcome,
        "declarer": result.declarer,
        "declarer_seat": seat_names(result.section.event.variant)[result.declarer],
        "bid": result.bid,
        "trump": result.trump or None,
        "meld": [result.meld_ns, result.meld_ew],
        "taken": [result.taken_ns, result.taken_ew],
        "score_ns": result.score_ns,
        "score_ew": result.score_ew,
        "matchpoints_ns": None if scored is None else round(scored.ns, 2),
        "matchpoints_ew": None if scored is None else round(scored.ew, 2),
        "top": None if scored is None else round(scored.top, 2),
    }


def entry_scorecard(*, event: Event, entry: Entry) -> dict[str, Any]:
    """An entry's rounds: where it sat, against whom, and its results with matchpoints."""
    section = entry.section
    movement = section_movement(event=event, section=section)
    entries = entries_by_number(section=section)
    present = set(entries)
    scored = section_scores(event=event, section=section)
    results = {
        (r.round, r.table, r.board.number): r
        for r in counted_results(section=section).select_related("board")
    }
    # The par would tell a player how a board should go before everyone has played it.
    pars = (
        {board.number: par_of(board) for board in event.boards.select_related("par")}
        if is_public(event=event)
        else {}
    )
    rounds = []
    for seating in movement.seatings:
        if entry.number not in seating.sides:
            continue
        position = seating.sides.index(entry.number)
        direction = direction_of(event.variant, position)
        playable = seating.playable(present)
        boards = []
        for number in board_numbers(event=event, board_set=seating.board_set):
            result = results.get((seating.round, seating.table, number))
            row: dict[str, Any] = {"board": number, "result": None}
            if result is not None:
                row["result"] = result_row(scored.get(result.pk), result)
                points = scored[result.pk]
                mine = points.seats[position] if points.seats else None
                if mine is None:
                    mine = points.ns if direction == 0 else points.ew
                row["matchpoints"] = round(mine, 2)
            if pars:
                row["par"] = pars[number]
            boards.append(row)
        rounds.append(
            {
                "round": seating.round,
                "table": seating.table,
                "direction": None
                if not load_game(event.variant).partnership
                else ("NS" if direction == 0 else "EW"),
                "seat": seat_names(event.variant)[position] if len(seating.sides) > 2 else None,
                "sides": [
                    {
                        "entry": number,
                        "name": entry_label(entries[number]) if number in entries else "sit-out",
                    }
                    for number in seating.sides
                ],
                "sits_out": not playable,
                "boards": boards if playable else [],
            }
        )
    return {"entry": entry.number, "name": entry_label(entry), "rounds": rounds}


def board_comparison(*, event: Event, number: int) -> dict[str, Any]:
    """Every table's result on one board, matchpointed within its section, with the par."""
    board = event.boards.select_related("par").get(number=number)
    rows = []
    for section in section_list(event=event):
        if section.size is None:
            continue
        scored = section_scores(event=event, section=section)
        counted = counted_results(section=section).filter(board=board)
        for result in counted.select_related("board", "section"):
            rows.append(result_row(scored.get(result.pk), result))
    return {
        "board": number,
        "dealer": seat_names(event.variant)[board.dealer],
        "results": rows,
        "par": par_of(board),
    }


def par_of(board: Board) -> dict[str, Any] | None:
    try:
        par: BoardPar = board.par
    except BoardPar.DoesNotExist:
        return None
    return {
        "bot": par.bot,
        "score_ns": par.score_ns,
        "score_ew": par.score_ew,
        "outcome": par.result.get("outcome"),
        "bid": par.result.get("bid"),
        "declarer": par.result.get("declarer"),
        "trump": par.result.get("trump"),
        # One score per side: North-South and East-West, or each seat of a three-hand board.
        "scores": par.result.get("team_scores"),
    }


def _suit_lines(cards: Iterable[Any]) -> dict[str, str]:
    """A hand as one line per suit, the way hand records print it."""
    by_suit: dict[str, list[Any]] = defaultdict(list)
    for card in cards:
        by_suit[str(card.suit)].append(card)
    return {
        suit: " ".join(c.rank.symbol for c in sorted(by_suit[suit], key=lambda c: c.rank)) or "-"
        for suit in ("S", "H", "D", "C")
    }


def hand_records(*, event: Event, with_results: bool) -> list[dict[str, Any]]:
    """Every board's hands (seat by seat, suit by suit), and its results when asked."""
    game = load_game(event.variant)
    names = game.seat_names
    records = []
    for board in event.boards.select_related("par").order_by("number"):
        dealt = game.initial_deal(deal(event.variant, board.seed, board.dealer))

        def shown(name: str, cards: Iterable[str]) -> dict[str, Any]:
            parsed = [Card.parse(card) for card in cards]
            return {"seat": name, "cards": format_cards(parsed), "suits": _suit_lines(parsed)}

        record: dict[str, Any] = {
            "board": board.number,
            "dealer": names[board.dealer],
            "hands": [shown(names[seat], hand) for seat, hand in enumerate(dealt.hands)],
            # The cards dealt to nobody (a widow), shown where an empty seat would be.
            "widow": next((shown(name.capitalize(), cards) for name, cards in dealt.undealt), None),
        }
        if with_results:
            comparison = board_comparison(event=event, number=board.number)
            record["results"] = comparison["results"]
            record["par"] = comparison["par"]
        records.append(record)
    return records


def deal_verification(*, event: Event) -> dict[str, Any]:
    """The commitment, and once the event is over the secret, the seeds and the check."""
    out: dict[str, Any] = {
        "commitment": event.commitment,
        "scheme": "commitment = sha256(secret); seed(i) = HMAC-SHA256(secret, i as 8 bytes "
        "big-endian)[:8] >> 1; dealer(i) = game.board_dealer(i) (board 1 dealt by seat 0, "
        "the deal moving left board by board); deal = game.initial_deal("
        "game.new_initial_state(seed(i), dealer(i))) with game = "
        "engine.registry.load_game(variant)",
    }
    if not is_public(event=event):
        return out
    seeds = {board.number: board.seed for board in event.boards.order_by("number")}
    problems = deal_problems(event.secret, event.commitment, seeds)
    out.update(
        secret=event.secret,
        boards=[{"board": n, "seed": s} for n, s in seeds.items()],
        verified=not problems,
        problems=problems,
    )
    return out


def human_rating_list(*, variant: str | None) -> QuerySet[HumanRating]:
    """Human ratings, best first (ties by age), of one variant or all."""
    ratings = HumanRating.objects.select_related("player").order_by("-rating", "id")
    return ratings.filter(variant=variant) if variant else ratings


# --- reads for the pages: one call per page, each saying what the viewer may see ---------


def can_see_results(*, event: Event, player: Player | None) -> bool:
    """Results, travellers, hand records, par and others' scorecards: director or public."""
    return is_public(event=event) or is_director(event=event, player=player)


def require_results_visible(*, event: Event, viewer: Player | None, what: str) -> None:
    """Refuse ``what`` (results, hand records...) to anyone but the director before the
    event is finished."""
    if not can_see_results(event=event, player=viewer):
        raise NotAllowed(f"{what} are published when the event finishes")


def require_started(*, event: Event) -> None:
    """Refuse what exists only once the event has started (the movement, standings)."""
    if event.status == Event.Status.SETUP:
        raise NotFound("the event has not started: there is no movement yet")


def require_scorecard_visible(*, event: Event, viewer: Player | None, entry: Entry) -> None:
    """An entry's scorecard is its players' while the event runs; others' are the
    director's, and everyone's once the event is finished."""
    own = viewer is not None and entry.players.filter(pk=viewer.pk).exists()
    if not own:
        require_results_visible(event=event, viewer=viewer, what="other entries' scorecards")


def own_entry(*, event: Event, viewer: Player) -> Entry:
    """The viewer's entry in the event (NotFound when they have none)."""
    own = player_entries(event=event, player=viewer)
    if not own:
        raise NotFound("you have no entry in this event")
    return own[0]


def require_at_table(
    *, event: Event, player: Player, seating: Seating, entries: dict[int, Entry]
) -> bool:
    """Only the players seated at a table, or the director, enter its results; True for
    the director."""
    if is_director(event=event, player=player):
        return True
    seated = {p.pk for n in seating.sides if n in entries for p in entries[n].players.all()}
    if player.pk not in seated:
        raise NotAllowed("only the players at this table or the director enter its results")
    return False


def _seating_labels(seating: Seating, entries: dict[int, Entry]) -> list[str]:
    return [
        entry_label(entries[number]) if number in entries else "sit-out" for number in seating.sides
    ]


def _may_enter(*, event: Event, round: int, director: bool) -> bool:
    if event.status != Event.Status.RUNNING:
        return False
    return director or event.closed_round < round <= event.current_round


def event_overview(*, event: Event, viewer: Player | None) -> dict[str, Any]:
    """The event page: details, each section's movement as a round-by-table grid, links."""
    director = is_director(event=event, player=viewer)
    seated_in: set[int] = set()
    if viewer is not None:
        seated_in = {e.pk for e in player_entries(event=event, player=viewer)}
    sections: list[dict[str, Any]] = []
    for section in section_list(event=event):
        if section.size is None:
            sections.append({"name": section.name, "entries": list(section.entries.all())})
            continue
        movement = section_movement(event=event, section=section)
        entries = entries_by_number(section=section)
        present = set(entries)
        rows: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for seating in movement.seatings:
            boards = board_numbers(event=event, board_set=seating.board_set)
            playable = seating.playable(present)
            mine = any(
                number in entries and entries[number].pk in seated_in for number in seating.sides
            )
            rows[seating.round].append(
                {
                    "table": seating.table,
                    "sides": seating.sides,
                    "labels": _seating_labels(seating, entries),
                    "boards": f"{boards[0]}-{boards[-1]}" if len(boards) > 1 else str(boards[0]),
                    "playable": playable,
                    "mine": mine,
                    "enter": playable
                    and (mine or director)
                    and _may_enter(event=event, round=seating.round, director=director),
                }
            )
        sections.append(
            {
                "name": section.name,
                "entries": list(section.entries.all()),
                "tables": movement.tables,
                "rounds": [
                    {"round": number, "tables": sorted(cells, key=lambda c: c["table"])}
                    for number, cells in sorted(rows.items())
                ],
            }
        )
    own = [] if viewer is None else player_entries(event=event, player=viewer)
    return {
        "event": event,
        "director": director,
        "results_visible": can_see_results(event=event, player=viewer),
        "started": event.status != Event.Status.SETUP,
        "last_round": event_rounds(event=event),
        "sections": sections,
        "own_entries": own,
        "boards": list(event.boards.values_list("number", flat=True)),
        "panel": director_panel(event=event) if director else None,
        # A player's own list of what the other side entered and waits for her word.
        "to_confirm": []
        if viewer is None or director or event.status != Event.Status.RUNNING
        else pending_for(event=event, viewer=viewer),
        "hand_records_visible": bool(own) or can_see_results(event=event, player=viewer),
    }


def standings_page(*, event: Event) -> dict[str, Any]:
    """Live standings for everyone, as the API gives them."""
    started = event.status != Event.Status.SETUP
    return {
        "event": event,
        "running": event.status == Event.Status.RUNNING,
        "sections": event_standings(event=event) if started else [],
        "started": started,
    }


def traveller_page(*, event: Event, viewer: Player | None, number: int) -> dict[str, Any]:
    """A board's traveller: every table's result with matchpoints, the par and the hands."""
    require_results_visible(event=event, viewer=viewer, what="board results")
    if not event.boards.filter(number=number).exists():
        raise NotFound(f"the event has no board {number}")
    comparison = board_comparison(event=event, number=number)
    labels = {
        (section.name, entry.number): entry_label(entry)
        for section in section_list(event=event)
        for entry in section.entries.all()
    }
    rows = []
    for row in comparison["results"]:
        names = [labels.get((row["section"], n), "sit-out") for n in row["sides"]]
        rows.append(dict(row, names=names))
    record = next(r for r in hand_records(event=event, with_results=False) if r["board"] == number)
    return {
        "event": event,
        "board": number,
        "dealer": comparison["dealer"],
        "per_seat": not load_game(event.variant).partnership,
        "rows": rows,
        "par": comparison["par"],
        "record": record,
        "boards": list(event.boards.values_list("number", flat=True)),
    }


def scorecard_page(
    *, event: Event, viewer: Player | None, section_name: str, number: int
) -> dict[str, Any]:
    """An entry's scorecard: the entry's players, the director, or everyone once published."""
    entry = (
        player_entry_queryset(event=event)
        .filter(section__name=section_name, number=number)
        .prefetch_related("players")
        .first()
    )
    if entry is None or entry.section.size is None:
        raise NotFound("no such entry in a started section")
    require_scorecard_visible(event=event, viewer=viewer, entry=entry)
    return {
        "event": event,
        "section": section_name,
        "card": entry_scorecard(event=event, entry=entry),
        "per_seat": not load_game(event.variant).partnership,
        "results_visible": can_see_results(event=event, player=viewer),
    }


def verification_page(*, event: Event) -> dict[str, Any]:
    return {"event": event, "check": deal_verification(event=event)}


def table_entry_page(
    *, event: Event, viewer: Player, section_name: str, round: int, table: int
) -> dict[str, Any]:
    """A table's boards in a round: what is entered, and who may enter or correct what."""
    section = event.sections.filter(name=section_name).exclude(size=None).first()
    if section is None:
        raise NotFound(f"no playing section {section_name}")
    movement = section_movement(event=event, section=section)
    seating = next((s for s in movement.seatings if s.round == round and s.table == table), None)
    if seating is None:
        raise NotFound(f"section {section_name} has no table {table} in round {round}")
    entries = entries_by_number(section=section)
    director = require_at_table(event=event, player=viewer, seating=seating, entries=entries)
    results = {
        r.board.number: r
        for r in result_list(event=event).filter(section=section, round=round, table=table)
    }
    names = seat_names(event.variant)
    labels = _seating_labels(seating, entries)
    # Pairs sit as North-South and East-West; individual players each have their seat.
    sides = names if len(seating.sides) > 2 else side_names(event.variant)
    positions = [f"{side}: {label}" for side, label in zip(sides, labels, strict=True)]
    boards = [
        {
            "number": number,
            "dealer": names[board.dealer],
            "result": results.get(number),
            "row": result_row(None, results[number]) if number in results else None,
            "pending": number in results and results[number].status == Result.Status.PENDING,
            # The other side confirms or rejects what one side entered; the director may too.
            "may_review": number in results
            and results[number].status == Result.Status.PENDING
            and event.status == Event.Status.RUNNING
            and (director or viewer.pk in result_opponents(result=results[number])),
        }
        for number in board_numbers(event=event, board_set=seating.board_set)
        for board in [event.boards.get(number=number)]
    ]
    corrections = (
        list(
            correction_list(event=event).filter(
                result__section=section, result__round=round, result__table=table
            )
        )
        if director or is_public(event=event)
        else []
    )
    return {
        "event": event,
        "section": section_name,
        "round": round,
        "table": table,
        "director": director,
        "playable": seating.playable(set(entries)),
        "may_enter": _may_enter(event=event, round=round, director=director),
        "positions": positions,
        "boards": boards,
        "corrections": corrections,
        "seats": names,
        "sides": side_names(event.variant),
        "per_seat": not load_game(event.variant).partnership,
    }


def played_boards(*, event: Event, player: Player) -> set[int]:
    """The boards ``player`` has played: a result is entered at a table where her entry sat
    (the score entry follows the play, so the hands hold no news for her)."""
    numbers: set[int] = set()
    for entry in player_entries(event=event, player=player):
        section = entry.section
        if section.size is None:
            continue
        movement = section_movement(event=event, section=section)
        entered = set(section.results.values_list("round", "table", "board__number"))
        for seating in movement.seatings:
            if entry.number not in seating.sides:
                continue
            for number in board_numbers(event=event, board_set=seating.board_set):
                if (seating.round, seating.table, number) in entered:
                    numbers.add(number)
    return numbers


def hand_records_page(*, event: Event, viewer: Player | None) -> dict[str, Any]:
    """Printable hand records: every board for the director (with the par) and for everyone
    once the event is finished (with the results); a player sees the boards she has
    played, their hands alone, while the event runs; nobody else sees any before the end."""
    require_started(event=event)
    public = is_public(event=event)
    director = is_director(event=event, player=viewer)
    records = hand_records(event=event, with_results=public)
    if not (public or director):
        if viewer is None or not is_entrant(event=event, player=viewer):
            raise NotAllowed("hand records are published when the event finishes")
        played = played_boards(event=event, player=viewer)
        records = [r for r in records if r["board"] in played]
    elif director and not public:
        pars = {b.number: par_of(b) for b in event.boards.select_related("par")}
        for record in records:
            record["par"] = pars[record["board"]]
    return {
        "event": event,
        "records": records,
        "public": public,
        "director": director,
        "every_board": public or director,
    }


def guide_cards_page(*, event: Event) -> dict[str, Any]:
    """Table guide cards: for each table, round by round, who sits where and which boards
    (the movement is public: everyone may know where they will sit)."""
    require_started(event=event)
    names = seat_names(event.variant)
    sides = side_names(event.variant)
    sections = []
    for section in section_list(event=event).exclude(size=None):
        movement = section_movement(event=event, section=section)
        entries = entries_by_number(section=section)
        present = set(entries)
        tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for seating in movement.seatings:
            labels = _seating_labels(seating, entries)
            where = names if len(seating.sides) > 2 else sides
            boards = board_numbers(event=event, board_set=seating.board_set)
            tables[seating.table].append(
                {
                    "round": seating.round,
                    "seats": [
                        {"where": place, "entry": number, "name": label}
                        for place, number, label in zip(where, seating.sides, labels, strict=True)
                    ],
                    "boards": list(boards),
                    "sits_out": not seating.playable(present),
                }
            )
        sections.append(
            {
                "name": section.name,
                "tables": [
                    {"table": table, "rounds": sorted(rows, key=lambda r: r["round"])}
                    for table, rows in sorted(tables.items())
                ],
            }
        )
    return {"event": event, "sections": sections}


def director_panel(*, event: Event) -> dict[str, Any]:
    """What the director watches while the event runs: the current round's tables with
    their boards (as the movement gives them) and how many are entered and confirmed, the
    results waiting for confirmation, and the audit trail of corrections and reviews."""
    rows = []
    if event.status == Event.Status.RUNNING:
        for section in event.sections.exclude(size=None):
            movement = section_movement(event=event, section=section)
            entries = entries_by_number(section=section)
            present = set(entries)
            statuses = dict(
                (((r.table, r.board.number), r.status))
                for r in section.results.filter(round=event.current_round).select_related("board")
            )
            for seating in movement.seatings:
                if seating.round != event.current_round:
                    continue
                boards = list(board_numbers(event=event, board_set=seating.board_set))
                entered = [statuses.get((seating.table, n)) for n in boards]
                rows.append(
                    {
                        "section": section.name,
                        "table": seating.table,
                        "labels": _seating_labels(seating, entries),
                        "boards": boards,
                        "playable": seating.playable(present),
                        "confirmed": entered.count(Result.Status.CONFIRMED),
                        "pending": entered.count(Result.Status.PENDING),
                        "missing": entered.count(None),
                    }
                )
    return {
        "round_tables": rows,
        "pending": pending_results(event=event),
        "corrections": list(correction_list(event=event)),
        "reviews": list(review_list(event=event)),
    }
