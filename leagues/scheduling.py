"""Pairing rules for leagues: Berger round robins, Swiss rounds and ladder challenges.

Pure functions over pairing numbers (1..n): no Django, no database. A pairing is an
ordered pair ``(x, y)``: ``x`` takes the X seats of the duplicate match (seats 0/2 at
table A), the counterpart of White in the FIDE tables. ``None`` in a pairing's second
place is a bye.

- Round robin: the FIDE Berger tables (FIDE Handbook C.05, Annex 1). For an odd field a
  dummy player n + 1 is added and whoever meets it has the bye.
- Double round robin: the tables twice, seats reversed in the second cycle; as Annex 1
  recommends, the last two rounds of the first cycle are exchanged so that nobody takes
  the same seats three rounds running across the cycles' boundary.
- Swiss: a simplified Dutch system (see ``swiss_pairings``).
- Ladder: challenges upward within a reach; a winning challenger takes the defender's rung.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Pairing = tuple[int, int | None]


class PairingImpossible(ValueError):
    """No pairing of the field avoids a rematch (or a second bye)."""


def round_robin_round_count(players: int) -> int:
    """Rounds of a single round robin: n - 1 for an even field, n for an odd one."""
    return players - 1 if players % 2 == 0 else players


def berger_round(players: int, round_number: int) -> list[Pairing]:
    """Round ``round_number`` (1-based) of the Berger table for ``players`` players.

    Round 1 pairs 1 with n, 2 with n - 1, and so on. Every later round adds n / 2 to each
    number other than n, counted modulo n - 1 over 1..n - 1, keeping the boards in order;
    player n takes the X seats in even rounds. This reproduces the printed tables.

    >>> berger_round(4, 2)
    [(4, 3), (1, 2)]
    >>> berger_round(3, 1)
    [(1, None), (2, 3)]
    """
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    size = players + players % 2
    if not 1 <= round_number <= size - 1:
        raise ValueError(f"a round robin of {players} players has rounds 1 to {size - 1}")
    shift = (round_number - 1) * (size // 2)

    def moved(number: int) -> int:
        return number if number == size else (number - 1 + shift) % (size - 1) + 1

    pairings: list[Pairing] = []
    for board in range(1, size // 2 + 1):
        x, y = moved(board), moved(size + 1 - board)
        if board == 1 and round_number % 2 == 0:
            x, y = y, x
        pairings.append(_with_bye(x, y, players))
    return pairings


def _with_bye(x: int, y: int, players: int) -> Pairing:
    """Replace the dummy player of an odd field by a bye, listed second."""
    if x > players:
        return (y, None)
    if y > players:
        return (x, None)
    return (x, y)


def double_round_robin_round_count(players: int) -> int:
    return 2 * round_robin_round_count(players)


def double_round_robin_round(players: int, round_number: int) -> list[Pairing]:
    """Round ``round_number`` of a double round robin (two Berger cycles, seats reversed)."""
    cycle = round_robin_round_count(players)
    if not 1 <= round_number <= 2 * cycle:
        raise ValueError(f"a double round robin of {players} players has rounds 1 to {2 * cycle}")
    if round_number > cycle:
        return [
            (x, None) if y is None else (y, x)
            for x, y in berger_round(players, round_number - cycle)
        ]
    if cycle >= 2 and round_number in (cycle - 1, cycle):
        round_number = 2 * cycle - 1 - round_number
    return berger_round(players, round_number)


@dataclass(frozen=True)
class SwissPlayer:
    """What the Swiss pairing needs to know of a player after the rounds played so far."""

    number: int
    score: float
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    seat_balance: int = 0
    """X seats taken minus Y seats taken."""
    last_seat: str = ""
    """"x", "y" or "" before the first round."""


def swiss_round_count(players: int) -> int:
    """The customary number of Swiss rounds: enough for one clear winner, ceil(log2 n)."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 0


def swiss_pairings(players: Sequence[SwissPlayer]) -> list[Pairing]:
    """Pair a Swiss round: score groups, no rematch, at most one bye each, seats balanced.

    A simplification of the FIDE Dutch system: players are ranked by score, then by
    pairing number. The bye goes to the lowest-ranked player who has not had one. Then,
    from the top, each player is paired inside their score group with the player half the
    group further down (top half against bottom half), else with the nearest possible
    player of the group, else with the highest-ranked player of a lower group (a floater).
    When that leads to a dead end, the search backtracks, so a pairing without rematches is
    found whenever one exists. Seats: the player with fewer X seats so far takes X; on equal
    balance, whoever sat Y last; otherwise the higher-ranked. As in the Dutch system, two
    players who have both taken one seat two times more than the other are not paired
    together unless no other pairing exists, so a seat balance stays within two.
    """
    numbers = [player.number for player in players]
    if len(set(numbers)) != len(numbers):
        raise ValueError("pairing numbers must be distinct")
    ranked = sorted(players, key=lambda player: (-player.score, player.number))
    for strict_seats in (True, False):
        for bye in _bye_candidates(ranked):
            field_without_bye = [player for player in ranked if player is not bye]
            pairs = _pair_from_top(field_without_bye, strict_seats)
            if pairs is not None:
                pairings: list[Pairing] = [_seated(a, b) for a, b in pairs]
                if bye is not None:
                    pairings.append((bye.number, None))
                return pairings
    raise PairingImpossible("every pairing of this field repeats a pairing")


def _bye_candidates(ranked: Sequence[SwissPlayer]) -> Iterable[SwissPlayer | None]:
    if len(ranked) % 2 == 0:
        return [None]
    return [player for player in reversed(ranked) if not player.had_bye]


def _pair_from_top(
    ranked: list[SwissPlayer], strict_seats: bool
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    if not ranked:
        return []
    top, rest = ranked[0], ranked[1:]
    for opponent in _preferred_opponents(top, rest):
        if opponent.number in top.opponents:
            continue
        if strict_seats and _same_seat_due(top, opponent):
            continue
        remainder = _pair_from_top(
            [player for player in rest if player is not opponent], strict_seats
        )
        if remainder is not None:
            return [(top, opponent), *remainder]
    return None


def _preferred_opponents(top: SwissPlayer, rest: list[SwissPlayer]) -> list[SwissPlayer]:
    group = [player for player in rest if player.score == top.score]
    lower = [player for player in rest if player.score != top.score]
    # Within the group (top included) the ideal opponent sits half the group further down.
    ideal = (len(group) + 1) // 2 - 1
    in_group = sorted(range(len(group)), key=lambda index: (abs(index - ideal), -index))
    return [group[index] for index in in_group] + lower


def _same_seat_due(a: SwissPlayer, b: SwissPlayer) -> bool:
    """Both must take the same seat to keep their balance within two."""
    return (a.seat_balance >= 2 and b.seat_balance >= 2) or (
        a.seat_balance <= -2 and b.seat_balance <= -2
    )


def _seated(a: SwissPlayer, b: SwissPlayer) -> Pairing:
    if a.seat_balance != b.seat_balance:
        return (a.number, b.number) if a.seat_balance < b.seat_balance else (b.number, a.number)
    if a.last_seat != b.last_seat:
        return (a.number, b.number) if a.last_seat != "x" else (b.number, a.number)
    return (a.number, b.number)


@dataclass(frozen=True)
class LadderChallenge:
    challenger: int
    defender: int


def ladder_challenges(ladder: Sequence[int], *, reach: int) -> list[LadderChallenge]:
    """One round of challenges on a ladder (``ladder[0]`` is the top rung).

    From the bottom up, every player not yet engaged challenges the lowest free player
    above them within ``reach`` rungs; a player is in at most one challenge per round.
    The challenger takes the X seats.

    >>> ladder_challenges([10, 20, 30, 40], reach=2)
    [LadderChallenge(challenger=40, defender=30), LadderChallenge(challenger=20, defender=10)]
    """
    if reach < 1:
        raise ValueError("the reach of a ladder challenge is at least one rung")
    engaged: set[int] = set()
    challenges: list[LadderChallenge] = []
    for rung in range(len(ladder) - 1, 0, -1):
        challenger = ladder[rung]
        if challenger in engaged:
            continue
        for above in range(rung - 1, max(-1, rung - 1 - reach), -1):
            defender = ladder[above]
            if defender not in engaged:
                engaged.update((challenger, defender))
                challenges.append(LadderChallenge(challenger, defender))
                break
    return challenges


def ladder_after(ladder: Sequence[int], winners: Mapping[LadderChallenge, bool]) -> list[int]:
    """The ladder after a round: a challenger who won takes the defender's rung, and the
    players from the defender down to the challenger's old rung move one rung down.
    ``winners`` maps each challenge to whether the challenger won; a draw or a loss
    changes nothing. Challenges are applied from the top of the ladder down.

    >>> ladder_after([10, 20, 30], {LadderChallenge(30, 10): True})
    [30, 10, 20]
    """
    order = list(ladder)
    for challenge in sorted(winners, key=lambda c: ladder.index(c.defender)):
        if not winners[challenge]:
            continue
        order.remove(challenge.challenger)
        order.insert(order.index(challenge.defender), challenge.challenger)
    return order


@dataclass
class StandingRow:
    """One player's line in a table of standings, tiebreaks included."""

    number: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    points: int = 0
    board_difference: int = 0
    sonneborn_berger: float = 0.0
    buchholz: int = 0
    opponents: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class GameResult:
    """A played fixture between two players: ``score_x`` is X's total board result."""

    x: int
    y: int
    score_x: int


WIN_POINTS = 2
DRAW_POINTS = 1
LOSS_POINTS = 0


def fixture_points(score_x: int) -> tuple[int, int]:
    """League points of X and Y by the sign of X's total board result: 2 / 1 / 0."""
    if score_x > 0:
        return WIN_POINTS, LOSS_POINTS
    if score_x < 0:
        return LOSS_POINTS, WIN_POINTS
    return DRAW_POINTS, DRAW_POINTS


@dataclass(frozen=True)
class Forfeit:
    """A fixture decided without a match: ``winner`` is None when both sides forfeited."""

    winner: int | None
    loser: int


def standings(
    players: Iterable[int],
    games: Iterable[GameResult],
    *,
    byes: Iterable[int] = (),
    bye_points: int = 0,
    forfeits: Iterable[Forfeit] = (),
    swiss: bool = False,
) -> list[StandingRow]:
    """The table, best first, with the tiebreaks of TOURNAMENTS.md.

    Order: points; then for a round robin the board-score difference and then
    Sonneborn-Berger; for a Swiss, Buchholz, then the board-score difference, then
    Sonneborn-Berger; the pairing number decides what is still equal.

    - Sonneborn-Berger: the final points of every opponent beaten plus half the final points
      of every opponent drawn with (one term per game, so twice in a double round robin).
    - Buchholz: the sum of the final points of every opponent met (one term per game).
    - A bye scores ``bye_points``; a forfeit scores a win's points for the winner and a loss
      for the loser. Neither adds board difference or tiebreak terms: nobody was met.
    """
    rows = {number: StandingRow(number) for number in players}
    played = list(games)
    for game in played:
        points_x, points_y = fixture_points(game.score_x)
        for me, other, points, difference in (
            (game.x, game.y, points_x, game.score_x),
            (game.y, game.x, points_y, -game.score_x),
        ):
            row = rows[me]
            row.played += 1
            row.points += points
            row.board_difference += difference
            row.opponents.append(other)
            _count(row, points)
    for number in byes:
        rows[number].byes += 1
        rows[number].points += bye_points
    for forfeit in forfeits:
        if forfeit.winner is not None:
            rows[forfeit.winner].points += WIN_POINTS
            _count(rows[forfeit.winner], WIN_POINTS)
        _count(rows[forfeit.loser], LOSS_POINTS)
    for row in rows.values():
        row.buchholz = sum(rows[other].points for other in row.opponents)
    for game in played:
        for me, other, points in zip(
            (game.x, game.y), (game.y, game.x), fixture_points(game.score_x), strict=True
        ):
            rows[me].sonneborn_berger += rows[other].points * points / WIN_POINTS
    return sorted(rows.values(), key=_swiss_order if swiss else _round_robin_order)


def _count(row: StandingRow, points: int) -> None:
    row.won += points == WIN_POINTS
    row.drawn += points == DRAW_POINTS
    row.lost += points == LOSS_POINTS


def _round_robin_order(row: StandingRow) -> tuple[float, ...]:
    return (-row.points, -row.board_difference, -row.sonneborn_berger, row.number)


def _swiss_order(row: StandingRow) -> tuple[float, ...]:
    return (-row.points, -row.buchholz, -row.board_difference, -row.sonneborn_berger, row.number)
