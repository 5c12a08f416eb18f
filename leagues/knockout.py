"""A knockout bracket: seeding, byes, who advances. Pure rules, without the database.

Players are known by their seed (1 is the best). The bracket has the size of the next power
of two, and the seeds sit in the standard order of single-elimination draws (lichess,
Challonge, tennis): round 1 pairs 1 with N, 2 with N - 1, and so on, placed so that the
top two seeds can only meet in the final, the top four only from the semi-finals on. A
seed beyond the field is an empty place, so when the field is not a power of two the byes
fall to the top seeds, one each.

A tie is one duplicate match, decided as the leagues decide a fixture (by the sign of X's
total board result). What a league fixture would call a draw is broken here:

1. the side that won more boards (a board is won when its result is above zero);
2. the better seed.

A fixture without a played match is decided without one: a bye or the opponent's forfeit
advances the player; a failed match (the arena gave up on its infrastructure) and a double
forfeit advance the better seed, as nothing on the board tells the two apart.

>>> seed_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(5)
[(1, None), (4, 5), (2, None), (3, None)]
>>> round_count(5)
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from leagues.fixture_results import Result

Pairing = tuple[int, int | None]


def bracket_size(players: int) -> int:
    """The places in round 1: the smallest power of two that holds the field."""
    if players < 2:
        raise ValueError("a knockout needs at least two players")
    size = 1
    while size < players:
        size *= 2
    return size


def round_count(players: int) -> int:
    """Rounds to a champion: log2 of the bracket's size."""
    return bracket_size(players).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """The seeds in the order of the bracket's places, for a bracket of ``size`` places.

    Each doubling puts beside every seed s its round-1 opponent, size + 1 - s; so the
    first half holds seed 1 and the second half seed 2.

    >>> seed_order(4)
    [1, 4, 2, 3]
    """
    if size < 2 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two, at least 2")
    order = [1]
    while len(order) < size:
        width = 2 * len(order)
        order = [placed for seed in order for placed in (seed, width + 1 - seed)]
    return order


def first_round(players: int) -> list[Pairing]:
    """Round 1, in bracket order: the better seed first (it takes the X seats); a seed
    whose opponent is beyond the field has a bye, written ``(seed, None)``."""
    order = seed_order(bracket_size(players))
    pairings: list[Pairing] = []
    for index in range(0, len(order), 2):
        better, worse = sorted(order[index : index + 2])
        pairings.append((better, None if worse > players else worse))
    return pairings


@dataclass(frozen=True)
class TieOutcome:
    """How a tie between seeds ``x`` (the X seats) and ``y`` ended."""

    result: Result
    boards_won_x: int = 0
    boards_won_y: int = 0


def tie_winner(x: int, y: int | None, outcome: TieOutcome) -> int | None:
    """The seed that advances from a tie, or None while its match is being played.

    >>> tie_winner(3, 6, TieOutcome(Result.DRAWN, boards_won_x=2, boards_won_y=3))
    6
    >>> tie_winner(6, 3, TieOutcome(Result.VOID))
    3
    """
    if y is None or outcome.result == Result.BYE:
        return x
    better = min(x, y)
    if outcome.result == Result.PENDING:
        return None
    if outcome.result in (Result.X_WON, Result.Y_FORFEITED):
        return x
    if outcome.result in (Result.Y_WON, Result.X_FORFEITED):
        return y
    if outcome.result == Result.DRAWN and outcome.boards_won_x != outcome.boards_won_y:
        return x if outcome.boards_won_x > outcome.boards_won_y else y
    # A draw with as many boards won, a failed match, a double forfeit: the better seed.
    return better


def boards_won(board_results: Sequence[int]) -> tuple[int, int]:
    """Boards won by X and by Y, from X's board results.

    >>> boards_won([120, -40, 0, 10])
    (2, 1)
    """
    return (
        sum(1 for result in board_results if result > 0),
        sum(1 for result in board_results if result < 0),
    )


@dataclass(frozen=True)
class Tie:
    """One place of the bracket: two seeds (None: not known yet), and who advanced."""

    round: int
    x: int | None
    y: int | None
    bye: bool = False
    winner: int | None = None


def bracket(players: int, winners: Mapping[frozenset[int], int]) -> list[list[Tie]]:
    """Every round of the bracket, in bracket order, as far as the results decide it.

    ``winners`` maps each decided tie (the two seeds) to the seed that advanced: two
    players meet at most once in a knockout, so the pair names the tie. A later round's
    tie ``i`` is between the winners of ties ``2i`` and ``2i + 1`` of the round before.

    >>> [[(t.x, t.y, t.winner) for t in r] for r in bracket(3, {frozenset({2, 3}): 3})]
    [[(1, None, 1), (2, 3, 3)], [(1, 3, None)]]
    """
    rounds: list[list[Tie]] = [
        [
            Tie(1, x, y, bye=y is None, winner=x if y is None else winners.get(frozenset((x, y))))
            for x, y in first_round(players)
        ]
    ]
    for number in range(2, round_count(players) + 1):
        previous = rounds[-1]
        ties = []
        for index in range(0, len(previous), 2):
            a, b = previous[index].winner, previous[index + 1].winner
            x, y = (a, b) if a is None or b is None else (min(a, b), max(a, b))
            winner = None if x is None or y is None else winners.get(frozenset((x, y)))
            ties.append(Tie(number, x, y, winner=winner))
        rounds.append(ties)
    return rounds


def round_pairings(
    players: int, number: int, winners: Mapping[frozenset[int], int]
) -> list[Pairing]:
    """Round ``number``'s pairings (better seed first), once the round before is decided.

    Raises ``ValueError`` if a tie of the round before has no winner yet."""
    if not 1 <= number <= round_count(players):
        raise ValueError(f"a knockout of {players} players has rounds 1 to {round_count(players)}")
    if number == 1:
        return first_round(players)
    pairings: list[Pairing] = []
    for tie in bracket(players, winners)[number - 1]:
        if tie.x is None or tie.y is None:
            raise ValueError(f"round {number - 1} has a tie without a winner")
        pairings.append((tie.x, tie.y))
    return pairings


def champion(players: int, winners: Mapping[frozenset[int], int]) -> int | None:
    """The winner of the final, once it is decided."""
    return bracket(players, winners)[-1][0].winner


def elimination_order(players: int, winners: Mapping[frozenset[int], int]) -> list[int]:
    """The seeds ranked by how far they went: the champion, the finalist, then those out
    in the semi-finals, and so on; seeds out in the same round (or still in it) by seed.

    >>> elimination_order(4, {frozenset({1, 4}): 4, frozenset({2, 3}): 2, frozenset({2, 4}): 2})
    [2, 4, 1, 3]
    """
    reached = dict.fromkeys(range(1, players + 1), 0)
    for ties in bracket(players, winners):
        for tie in ties:
            for seed in (tie.x, tie.y):
                if seed is not None:
                    reached[seed] = tie.round
    title = champion(players, winners)
    if title is not None:
        reached[title] += 1
    return sorted(reached, key=lambda seed: (-reached[seed], seed))


def seeding(ratings: Sequence[float | None]) -> list[int]:
    """Seeds for entrants in order of entry, given each one's rating (None: unrated):
    the higher the rating, the better the seed; unrated entrants after every rated one;
    equal ratings, and the unrated among themselves, in order of entry.

    >>> seeding([1500.0, None, 1620.5, 1500.0])
    [2, 4, 1, 3]
    """
    ranked = sorted(
        range(len(ratings)),
        key=lambda index: (ratings[index] is None, -(ratings[index] or 0.0), index),
    )
    seeds = [0] * len(ratings)
    for seed, index in enumerate(ranked, start=1):
        seeds[index] = seed
    return seeds
