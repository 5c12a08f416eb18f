"""Movements as data: who sits where, against whom, with which boards, in every round.

A movement is a list of ``Seating`` rows, one per table and round, plus what it promises
(which entrants meet). ``movement_problems`` checks the duplicate invariants against the
rows: nobody plays a board set twice, a board set is at one table per round (the two rooms
of one team match share it by design), nobody is at two tables in a round, and the
meetings are exactly the promised ones. Numbers are 1-based, as a director writes them.

>>> movement = mitchell(3)
>>> [(s.round, s.table, s.sides, s.board_set) for s in movement.seatings if s.round == 2]
[(2, 1, (1, 6), 2), (2, 2, (2, 4), 3), (2, 3, (3, 5), 1)]
>>> movement_problems(movement)
[]

Pair movements put pairs in ``sides`` as ``(north-south, east-west)``; individual
movements put players by seat. An entrant number the event does not fill is a sit-out.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from math import gcd

__all__ = [
    "Movement",
    "MovementError",
    "MovementKind",
    "Seating",
    "board_set_numbers",
    "howell",
    "individual",
    "individual_table_counts",
    "mitchell",
    "mitchell_field",
    "movement_for",
    "movement_problems",
    "team_of",
    "team_of_four",
]


class MovementError(ValueError):
    """A movement cannot be built for the size asked for."""


class MovementKind(enum.Enum):
    MITCHELL = "mitchell"
    HOWELL = "howell"
    TEAMS = "teams"
    INDIVIDUAL = "individual"


@dataclass(frozen=True, slots=True)
class Seating:
    """One table in one round: who sits there and which board set it plays.

    ``match`` groups the open and closed rooms of a team match (they share the boards);
    it is ``None`` in the other movements.
    """

    round: int
    table: int
    board_set: int
    sides: tuple[int, ...]
    match: int | None = None

    @property
    def ns(self) -> int:
        return self.sides[0]

    @property
    def ew(self) -> int:
        return self.sides[1]

    def playable(self, present: Collection[int]) -> bool:
        """A table plays only when every entrant the movement seats there exists (an
        entrant number the event does not fill is a sit-out)."""
        return all(number in present for number in self.sides)


def board_set_numbers(board_set: int, *, per_set: int) -> range:
    """The boards of board set ``board_set``: sets are numbered runs of ``per_set`` boards.

    >>> list(board_set_numbers(2, per_set=3))
    [4, 5, 6]
    """
    first = (board_set - 1) * per_set + 1
    return range(first, first + per_set)


def _meeting(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Movement:
    """A whole movement: its rows and the meetings it promises.

    ``promised`` holds every two entrants who sit at a table together (as opponents, or as
    partners in an individual movement), each as an ordered ``(low, high)`` tuple.
    """

    kind: MovementKind
    tables: int
    rounds: int
    board_sets: int
    entrants: int
    seatings: tuple[Seating, ...]
    promised: frozenset[tuple[int, int]]

    def round_of(self, number: int) -> tuple[Seating, ...]:
        return tuple(s for s in self.seatings if s.round == number)


def _rounds(asked: int | None, most: int) -> int:
    if asked is None:
        return most
    if not 1 <= asked <= most:
        raise MovementError(f"this movement has 1 to {most} rounds, not {asked}")
    return asked


def mitchell(tables: int, *, rounds: int | None = None) -> Movement:
    """North-South pairs 1..n stay; East-West pairs n+1..2n move up; boards move down.

    With an odd number of tables every East-West pair meets every North-South pair and
    every board set once in n rounds. With an even number the East-West pairs skip a
    table after round n/2 (otherwise they would meet the board sets they already played
    half-way through); the skip Mitchell has n - 1 rounds and each East-West pair misses
    the North-South pair of the skipped table.
    """
    if tables < 2:
        raise MovementError("a Mitchell needs at least 2 tables")
    even = tables % 2 == 0
    count = _rounds(rounds, tables - 1 if even else tables)
    half = tables // 2

    def offset(round_index: int) -> int:
        return round_index + (1 if even and round_index >= half else 0)

    seatings = []
    for r in range(count):
        for ew in range(tables):
            table = (ew + offset(r)) % tables
            seatings.append(
                Seating(
                    round=r + 1,
                    table=table + 1,
                    board_set=(table + r) % tables + 1,
                    sides=(table + 1, tables + ew + 1),
                )
            )
    seatings.sort(key=lambda s: (s.round, s.table))
    # The promise, stated from the design rather than the rows: East-West pair j meets the
    # North-South pairs j, j+1, ... in order, jumping the one at the skipped table.
    offsets = [d for d in range(tables) if not (even and d == half)][:count]
    promised = frozenset(
        _meeting((ew + d) % tables + 1, tables + ew + 1) for ew in range(tables) for d in offsets
    )
    return Movement(
        MovementKind.MITCHELL, tables, count, tables, 2 * tables, tuple(seatings), promised
    )


def _starters(modulus: int) -> Iterator[list[tuple[int, int]]]:
    """Pairings of 1..m-1 whose differences cover every non-zero residue once.

    The symmetric pairing (k, -k) comes first: it works for most sizes at once.
    """
    yield [(k, modulus - k) for k in range(1, (modulus + 1) // 2)]

    def extend(
        rest: list[int], used: set[int], acc: list[tuple[int, int]]
    ) -> Iterator[list[tuple[int, int]]]:
        if not rest:
            yield list(acc)
            return
        first = rest[0]
        for other in rest[1:]:
            differences = {(first - other) % modulus, (other - first) % modulus}
            if differences & used:
                continue
            remaining = [x for x in rest if x not in (first, other)]
            yield from extend(remaining, used | differences, [*acc, (first, other)])

    yield from extend(list(range(1, modulus)), set(), [])


def _set_offsets(modulus: int, pairs: list[tuple[int, ...]]) -> list[int] | None:
    """Board-set offsets c_t so that table t plays set r + c_t in round r.

    A pair at table t in round r is r + p for a p of that table, so it plays set
    (its number) - p + c_t; it never repeats a set when the values c_t - p are all
    different, and a round never repeats one when the c_t are.
    """
    offsets: list[int] = []
    used_values: set[int] = set()

    def place(table: int) -> bool:
        if table == len(pairs):
            return True
        for candidate in range(modulus):
            if candidate in offsets:
                continue
            values = {(candidate - p) % modulus for p in pairs[table]}
            if len(values) < len(pairs[table]) or values & used_values:
                continue
            offsets.append(candidate)
            used_values.update(values)
            if place(table + 1):
                return True
            offsets.pop()
            used_values.difference_update(values)
        return False

    return offsets if place(0) else None


@cache
def _howell_base(tables: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """A 1-rotational Howell: pair 2n stays at table 1, the others rotate modulo 2n - 1."""
    modulus = 2 * tables - 1
    for starter in _starters(modulus):
        pairs: list[tuple[int, ...]] = [(0,), *starter]
        offsets = _set_offsets(modulus, pairs)
        if offsets is not None:
            return tuple(((0, -1), *starter)), tuple(offsets)
    raise MovementError(
        f"no Howell with {tables} tables in which every round plays different boards; "
        "use a Mitchell"
    )


def howell(tables: int, *, rounds: int | None = None) -> Movement:
    """Every pair meets every other pair once: 2n pairs, 2n - 1 rounds and board sets.

    The guide cards come from a 1-rotational design: pair 2n stays at table 1 and meets
    pair r + 1 in round r + 1; the other tables seat a fixed pattern of pairs shifted by
    the round, and each table's board set is shifted with it. Such a design exists for 4
    or more tables (found by a short search and cached); 2 and 3 tables have none in
    which every round plays different boards, and a Mitchell serves those fields.
    """
    if tables < 4:
        raise MovementError("a Howell needs at least 4 tables here; use a Mitchell")
    modulus = 2 * tables - 1
    count = _rounds(rounds, modulus)
    pattern, offsets = _howell_base(tables)
    seatings = []
    for r in range(count):
        for index, (first, second) in enumerate(pattern):
            one = (first + r) % modulus + 1
            other = 2 * tables if second == -1 else (second + r) % modulus + 1
            # Alternate directions by round so that each pair sits both ways.
            ns, ew = (one, other) if r % 2 == 0 else (other, one)
            seatings.append(
                Seating(
                    round=r + 1,
                    table=index + 1,
                    board_set=(r + offsets[index]) % modulus + 1,
                    sides=(ns, ew),
                )
            )
    pairs = range(1, 2 * tables + 1)
    promised = (
        frozenset(itertools.combinations(pairs, 2))
        if count == modulus
        else frozenset(_meeting(*s.sides) for s in seatings)
    )
    return Movement(
        MovementKind.HOWELL, tables, count, modulus, 2 * tables, tuple(seatings), promised
    )


def _round_robin(size: int) -> list[list[tuple[int, int]]]:
    """Berger-style circle pairings of 0..size-1 (size even), one list per round."""
    rounds = []
    for r in range(size - 1):
        pairs = [(size - 1, r)]
        pairs += [((r + k) % (size - 1), (r - k) % (size - 1)) for k in range(1, size // 2)]
        rounds.append(pairs)
    return rounds


def mitchell_field(pair: int, tables: int) -> str:
    """A Mitchell's field of a pair, ``NS`` or ``EW``: pairs 1 to ``tables`` sit North-South
    all event, the others East-West, and the two fields are ranked apart."""
    return "NS" if pair <= tables else "EW"


def team_of(pair: int) -> int:
    """The team of a pair in a team-of-four movement: pairs 2t - 1 and 2t are team t."""
    return (pair + 1) // 2


def team_of_four(teams: int, *, rounds: int | None = None) -> Movement:
    """Teams of two pairs play a round robin of matches, each in two rooms.

    Team t is pairs 2t - 1 (its North-South pair in the open room) and 2t (its East-West
    pair in the closed room). In each match the two rooms play the same board set, a set
    of its own, with the teams' pairs in opposite directions, so each team holds both
    hands of every board and the rooms are compared board by board. An odd number of
    teams gives one team a bye each round.
    """
    if teams < 2:
        raise MovementError("a team event needs at least 2 teams")
    field_size = teams + teams % 2
    count = _rounds(rounds, field_size - 1)
    seatings = []
    promised: set[tuple[int, int]] = set()
    table = 0
    board_set = 0
    for r, pairings in enumerate(_round_robin(field_size)[:count]):
        table = 0
        for home, away in pairings:
            if home >= teams or away >= teams:
                continue
            board_set += 1
            match = board_set
            home_ns, home_ew = 2 * home + 1, 2 * home + 2
            away_ns, away_ew = 2 * away + 1, 2 * away + 2
            for sides in ((home_ns, away_ew), (away_ns, home_ew)):
                table += 1
                seatings.append(Seating(r + 1, table, board_set, sides, match=match))
                promised.add(_meeting(*sides))
    return Movement(
        MovementKind.TEAMS,
        table,
        count,
        board_set,
        2 * teams,
        tuple(seatings),
        frozenset(promised),
    )


def individual_table_counts(seats: int, most: int = 15) -> list[int]:
    """Table counts an individual movement accepts: none shares a factor with 2..seats."""
    return [n for n in range(1, most + 1) if all(gcd(n, k) == 1 for k in range(2, seats + 1))]


def individual(tables: int, *, seats: int = 4, rounds: int | None = None) -> Movement:
    """Every player for themselves: the player in seat j moves j tables up each round.

    Boards move down one table. Player (table t, seat j) is at table t + j*r in round r and
    plays board set t + (j+1)*r, so with n tables sharing no factor with 2..seats nobody
    repeats a set, and two players of different starting seats meet exactly once in n
    rounds (in partnership variants, seats 0 and 2 meet as partners). Players of the same
    starting seat never meet. Player numbers: seat j of table t is j*n + t.
    """
    if seats not in (3, 4):
        raise MovementError("individual movements seat 3 or 4 players a table")
    if tables not in individual_table_counts(seats, max(tables, 1)):
        allowed = ", ".join(str(n) for n in individual_table_counts(seats))
        raise MovementError(
            f"an individual movement for {seats} seats needs a table count with no factor "
            f"in 2..{seats}: {allowed}"
        )
    count = _rounds(rounds, tables)
    seatings = []
    for r in range(count):
        at_table: dict[int, list[int]] = {t: [0] * seats for t in range(tables)}
        for seat in range(seats):
            for start in range(tables):
                at_table[(start + seat * r) % tables][seat] = seat * tables + start + 1
        for t in range(tables):
            seatings.append(Seating(r + 1, t + 1, (t + r) % tables + 1, tuple(at_table[t])))
    # Players i (seat a) and j (seat b) meet in the round r solving t_i + a r = t_j + b r.
    promised = set()
    for a, b in itertools.combinations(range(seats), 2):
        for t_a in range(tables):
            for t_b in range(tables):
                meeting_round = ((t_b - t_a) * pow(a - b, -1, tables)) % tables if tables > 1 else 0
                if meeting_round < count:
                    promised.add(_meeting(a * tables + t_a + 1, b * tables + t_b + 1))
    return Movement(
        MovementKind.INDIVIDUAL,
        tables,
        count,
        tables,
        seats * tables,
        tuple(seatings),
        frozenset(promised),
    )


def movement_for(
    kind: MovementKind, size: int, *, rounds: int | None = None, seats: int = 4
) -> Movement:
    """Build a movement of ``kind``; ``size`` is the tables (teams for a team event)."""
    if kind is MovementKind.MITCHELL:
        return mitchell(size, rounds=rounds)
    if kind is MovementKind.HOWELL:
        return howell(size, rounds=rounds)
    if kind is MovementKind.TEAMS:
        return team_of_four(size, rounds=rounds)
    return individual(size, seats=seats, rounds=rounds)


def movement_problems(movement: Movement) -> list[str]:
    """Every broken duplicate invariant, in words; an empty list means a sound movement."""
    problems = []
    sets_played: Counter[tuple[int, int]] = Counter()
    seen_meetings: Counter[tuple[int, int]] = Counter()
    for number in range(1, movement.rounds + 1):
        rows = movement.round_of(number)
        seated = Counter(entrant for s in rows for entrant in s.sides)
        for entrant, times in seated.items():
            if times > 1:
                problems.append(f"round {number}: entrant {entrant} sits at {times} tables")
        tables_by_set: dict[int, set[int | None]] = {}
        for s in rows:
            tables_by_set.setdefault(s.board_set, set()).add(s.match)
            for entrant in s.sides:
                sets_played[(entrant, s.board_set)] += 1
        for board_set, matches in tables_by_set.items():
            tables = [s.table for s in rows if s.board_set == board_set]
            shared_by_one_match = len(matches) == 1 and None not in matches and len(tables) == 2
            if len(tables) > 1 and not shared_by_one_match:
                problems.append(f"round {number}: board set {board_set} at tables {tables}")
        for s in rows:
            for a, b in itertools.combinations(s.sides, 2):
                seen_meetings[_meeting(a, b)] += 1
    for (entrant, board_set), times in sorted(sets_played.items()):
        if times > 1:
            problems.append(f"entrant {entrant} plays board set {board_set} {times} times")
    for meeting, times in sorted(seen_meetings.items()):
        if times > 1:
            problems.append(f"entrants {meeting} meet {times} times")
    missing = sorted(movement.promised - set(seen_meetings))
    extra = sorted(set(seen_meetings) - movement.promised)
    if missing:
        problems.append(f"promised meetings that do not happen: {missing[:5]}")
    if extra:
        problems.append(f"meetings that were not promised: {extra[:5]}")
    return problems
