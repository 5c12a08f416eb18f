"""Reference pairings replayed on a match's deals: control variates for its board results.

Duplicate removes the luck of the cards that both tables share; what is left is how much
the deal lets the skill of one side show (on a deal with nothing to play for, the best
bot and the worst score alike). Two reference plays measure that on each deal, on the same
cards as the match:

- the quick search bot (the strong reference bot held to ``QUICK_CARD_PLAYS`` card plays a
  decision, a third of its full budget) against the greedy reference bot, both ways round:
  its duplicate result is high where card play pays. The closer its skill to the bots
  measured, the more of their result it explains: at a tenth of the budget it correlated
  0.43 with strong against greedy in the single-deck four-hand game, at a third 0.68
  (``tests/bench/bench_power.py``), for about twice the work;
- the greedy bot at every seat: the bid its declarer lost (set or thrown in; 0 when the
  contract was made), high where a contract hangs on the play, the boards whose swings
  dominate a double-deck match.

Each, less its long-run mean, is a control variate (``arena.variance``): its mean is known
and it moves with the match's boards.

The bots are the project's own code, deterministic for a given deal, and are run in this
process: no sandbox, no clock (the quick search is bounded by work only; the hello
announces a generous clock so that no safety stop can fire). The same deals always give
the same controls, on any machine.

When one side of the match is the random reference bot itself (its uploaded source is
the reference file, byte for byte), its decisions are luck of known odds: ``random_luck``
measures them (``bots.aivat.luck_terms``), two more controls of mean exactly zero that need
no long-run mean.

Only the games whose declared reference bots are the pinochle greedy and strong bots have
the pairing (not Pinnacolo in pairs, whose reference bots are its own):
``reference_supported`` asks the declaration.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bots import protocol
from bots.aivat import GreedyRollout, luck_terms
from bots.duplicate import table_result
from bots.local import LocalAgent
from bots.match import DuplicateBoard, combine_tables, play_table
from bots.reference import reference_bots
from bots.reference.greedy import GreedyBot
from bots.reference.strong import StrongBot
from bots.sdk import Bot
from bots.table import Agent, BoardRecord, hello_for
from engine.interface import AnyGame
from engine.results import HandOutcome

QUICK_CARD_PLAYS = 4_000
"""The quick bot's search budget a decision (a third of the strong bot's)."""
REFERENCE_VERSION = "quick-4000+greedy"
"""Names the reference pairing: the long-run means of one pairing never centre another's."""
CONTROL_NAMES = ("quick bot's duplicate result against greedy", "bid lost by greedy's declarer")
"""What each board's controls are, in order."""
LUCK_NAMES = ("the random bot's luck in the auction", "the random bot's luck after it")
"""The controls a match against the random reference bot adds, in order."""
LUCK_AUCTION_PLAYOUTS = 4
"""Continued auctions valuing each legal bid."""
LUCK_PLAYOUTS = 1
"""Whole-hand rollouts valuing each later action."""
GREEDY_TABLE = "R"
"""The reference table where greedy plays every seat."""
_LOST = (HandOutcome.SET, HandOutcome.THROWN_IN)
_CLOCK = protocol.TimeControl(decision_ms=600_000, bank_ms=36_000_000, startup_ms=60_000)
"""Announced to the reference bots: so long that their budget is their own cap and the
safety clock never stops a search (their play then depends on the deal alone)."""


class QuickStrongBot(StrongBot):
    """The strong reference bot with a third of its search: cheaper, and still skilful."""

    name = "quick-strong"
    max_card_plays = QUICK_CARD_PLAYS
    # The pairing's long-run means (REFERENCE_VERSION) are of this very bot: the
    # pure-Python search at its own calibration and the greedy auction, kernel or not.
    kernel_search = False
    auction_search = False


def reference_supported(game: AnyGame) -> bool:
    """Whether the pairing's bots are the game's own reference bots: this module plays the
    pinochle strong bot (quick) against the pinochle greedy bot, so only a game whose
    declared family has those very bots (``bots.reference.FAMILIES``) has the pairing."""
    declared = reference_bots(game)
    pairing: dict[str, type[Bot]] = {"greedy": GreedyBot, "strong": StrongBot}
    return all(declared.get(name) == _module_file(bot) for name, bot in pairing.items())


def _module_file(bot: type[Bot]) -> Path:
    return Path(inspect.getfile(bot)).resolve()


def reference_controls(
    game: AnyGame,
    rules: Any,
    *,
    match_seed: int,
    boards: int,
    on_board: Callable[[BoardRecord], None] | None = None,
    quick: type[Bot] = QuickStrongBot,
) -> list[tuple[float, ...]]:
    """Each board's controls (``CONTROL_NAMES``), for boards 1..``boards`` of the match
    whose deals come from ``match_seed``: the quick bot's duplicate result against greedy,
    half the sum of its two tables' margins (its side's score less the other's), and the
    bid that greedy's declarer lost with greedy at every seat. ``on_board`` is called
    after each table's board, as the match's tables call it. ``quick`` replaces the quick
    bot (a benchmark's second run with other search seeds)."""
    if not reference_supported(game):
        raise ValueError(f"no reference pairing plays {game.variant}")
    makers: tuple[type[Bot], type[Bot]] = (quick, GreedyBot)
    seatings = game.seatings

    def start(table: str, seat: int) -> Agent:
        maker = GreedyBot if table == GREEDY_TABLE else makers[seatings[table][seat]]
        agent = LocalAgent(maker())
        hello = hello_for(game, rules, seat=seat, boards=boards, time=_CLOCK)
        protocol.read_ready(agent.start(hello))
        return agent

    numbers = range(1, boards + 1)
    tables = {
        name: play_table(
            name,
            game=game,
            rules=rules,
            boards=numbers,
            match_seed=match_seed,
            start_agent=start,
            on_board=on_board,
        )
        for name in seatings
    }
    greedy = play_table(
        GREEDY_TABLE,
        game=game,
        rules=rules,
        boards=numbers,
        match_seed=match_seed,
        start_agent=start,
        on_board=on_board,
    )
    controls: list[tuple[float, ...]] = []
    for board, alone in zip(combine_tables(tables, game, rules), greedy, strict=True):
        margins = [
            float(table_result(record, seatings[name], game, rules))
            for name, record in board.tables.items()
        ]
        controls.append((sum(margins) / len(margins), lost_bid(alone)))
    return controls


def lost_bid(record: BoardRecord) -> float:
    """The bid the declarer lost at a table (set or thrown in), else 0."""
    result = record.result
    if result is None or result.bid is None or result.outcome not in _LOST:
        return 0.0
    return float(result.bid)


def mean_board_controls(rows: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """The column means of per-board controls."""
    return tuple(sum(column) / len(rows) for column in zip(*rows, strict=True))


def random_side(game: AnyGame, x_source: bytes, y_source: bytes) -> int | None:
    """The side (0 for X, 1 for Y) that is the random reference bot, uploaded unchanged;
    None if neither or both are."""
    path = reference_bots(game).get("random")
    if path is None:
        return None
    reference = path.read_bytes()
    sides = [side for side, source in enumerate((x_source, y_source)) if source == reference]
    return sides[0] if len(sides) == 1 else None


def random_luck(
    game: AnyGame,
    rules: Any,
    boards: Sequence[DuplicateBoard],
    *,
    side: int,
    match_seed: int,
    on_board: Callable[[], None] | None = None,
) -> list[tuple[float, ...]] | None:
    """Each board's luck of the random bot playing ``side``, for bot X (``LUCK_NAMES``):
    at each table, the luck of seats 0/2 (``luck_terms``) counted for X where X sits at 0/2
    and against X where it sits at 1/3, summed over the tables as the board result is.
    None if a table ended by a fault (its moves stop short of a hand to value). The
    rollouts' draws come from ``match_seed``: the same match gives the same luck."""
    if not reference_supported(game):
        raise ValueError(f"no luck is measured in {game.variant}")
    if any(record.fault is not None for board in boards for record in board.tables.values()):
        return None
    rollout = GreedyRollout(game, rules)
    rng = random.Random(match_seed)
    seatings = game.seatings
    rows: list[tuple[float, ...]] = []
    for board in boards:
        total = [0.0, 0.0]
        for name, record in board.tables.items():
            lineup = seatings[name]
            seats = {seat for seat, of in enumerate(lineup) if of == side}
            terms = luck_terms(
                record,
                rollout=rollout,
                uniform_seats=seats,
                rng=rng,
                auction_playouts=LUCK_AUCTION_PLAYOUTS,
                playouts=LUCK_PLAYOUTS,
            )
            sign = 1.0 if lineup[0] == 0 else -1.0
            total = [t + sign * term for t, term in zip(total, terms, strict=True)]
        rows.append(tuple(total))
        if on_board is not None:
            on_board()
    return rows
