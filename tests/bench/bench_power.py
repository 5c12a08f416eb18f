"""Power of the designs on the same deals: plain deals, duplicate, duplicate + control variates.

    nice .venv/bin/python tests/bench/bench_power.py --variants single4 \
        --boards 300 --random-boards 300 --reference 300 --ceiling

(one variant a process: each takes 15 to 40 minutes of CPU, most of
it the strong bot's search and the reference pairing on the 1,200 deals of its means).

For each variant it plays strong against greedy, and greedy against random, on the same
deals at the two duplicate tables, and prints for each design the standard error of the
per-table advantage of the first bot, with a 95% bootstrap interval for that standard
error, the ratio to plain deals, and the boards needed to separate the two bots at 95%
(``(1.96 sd / mean)^2``, the mean taken from the best design) with the tables each needs:

- plain: one table per deal, as if there were no duplicate, its seating alternating (table
  A on odd deals, B on even) as an arena of plain deals would seat the two bots, so that
  neither side's seats weigh more in it than in the other designs;
- duplicate: the mean of the two tables (the arena's board result, halved);
- duplicate + CV: the duplicate result less control variates of known mean, cross-fitted
  (``arena.variance``), as the arena's matches carry them (``bots.controls``): the quick
  search bot's duplicate result against greedy on the same deal and the bid greedy's
  declarer lost there with greedy at every seat (three more tables played by the worker),
  less their means measured on ``--reference`` other deals per dealer (whose error is
  added to the standard error; the arena measures them on every earlier match's boards);
  and, against the random bot, the luck of its uniformly random decisions
  (``bots.aivat.luck_terms``: in the auction, every legal bid valued by continued
  auctions, and after it, by whole-hand rollouts), two controls of mean zero exactly;
- dup + reference, dup + luck: duplicate corrected by one of the two controls alone, at
  that control's own cost, as the arena runs it where only that one pays for its work;
- duplicate + CV, long history: the same, were the reference means known exactly, as
  they nearly are in an arena with many earlier matches (their error left out).

Every standard error comes with a 95% bootstrap interval, and so does its ratio to plain
deals (boards resampled once for both, the coefficients refitted on each resample).

A deal of each design costs more than plain's: duplicate plays two tables, the corrected
designs five (the reference pairing's three as well) and, against the random bot, the
valuation of its luck. So each ratio is given three ways: per deal (as many deals), at
equal tables (as many tables played) and at equal worker CPU (as many process seconds: the
tables' bots, run in this process as ``LocalAgent``s, and the controls' play and
valuation, each measured here over the run). With c a deal's cost, the error for a budget
is the error per deal times sqrt(c / budget), so the ratio at equal cost is the ratio per
deal times sqrt(c_plain / c_design), and its interval the per-deal interval so scaled (the
costs are taken as measured, not resampled). For the corrected designs it also prints
duplicate's error over theirs at equal CPU, with its paired interval: whether the controls
pay for the work they add. A last line per pairing names the design an arena can run
(plain, duplicate, duplicate + CV) with the smallest error at equal CPU, and says so when
none is shown to beat plain deals (its interval above 1), the cheapest then doing as well.
In an arena the bots run sandboxed, which adds to every table's cost alike.

It also prints what the reference pairing costs: its worker seconds a board against the
seconds the match's own two tables took (both played in this process).

Not collected by pytest: it takes minutes (the strong bot searches for up to 50 ms a card).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.variance import (
    MeanEstimate,
    bootstrap_ratio_interval,
    bootstrap_se_interval,
    control_variate_mean,
    plain_mean,
)
from bots import protocol
from bots.aivat import GreedyRollout, luck_terms
from bots.controls import QuickStrongBot, reference_controls
from bots.duplicate import table_result
from bots.local import LocalAgent
from bots.match import combine_tables, play_table
from bots.reference import REFERENCE_BOTS
from bots.sdk import Bot, bot_from_module, load_module
from bots.table import Agent, BoardRecord, hello_for
from engine.interface import AnyGame
from engine.registry import load_game

Z95 = 1.959963984540054
EXHAUSTIVE = 16
"""Random decisions after the auction with at most this many legal actions are valued
(every action of each); those with more are left out."""


class SecondQuickBot(QuickStrongBot):
    """The quick bot once more, its searches seeded otherwise: a second run on the same cards."""

    seed_salt = "second run/"


def maker(name: str) -> Callable[[], Bot]:
    module = load_module(REFERENCE_BOTS[name])

    def make() -> Bot:
        bot = bot_from_module(module)
        assert bot is not None
        return bot

    return make


def play(
    game: AnyGame, rules: object, x: str, y: str, boards: int, seed: int
) -> tuple[list[dict[str, BoardRecord]], dict[str, float]]:
    """Each board's tables, and each table's worker (process) seconds in all."""
    makers = (maker(x), maker(y))
    seatings = game.seatings

    def start(table: str, seat: int) -> Agent:
        agent = LocalAgent(makers[seatings[table][seat]]())
        hello = hello_for(
            game,
            rules,
            seat=seat,
            boards=boards,
            time=protocol.TimeControl(decision_ms=10_000, bank_ms=600_000, startup_ms=10_000),
        )
        protocol.read_ready(agent.start(hello))
        return agent

    numbers = range(1, boards + 1)
    tables = {}
    seconds = {}
    for name in seatings:
        started = time.process_time()
        tables[name] = play_table(
            name, game=game, rules=rules, boards=numbers, match_seed=seed, start_agent=start
        )
        seconds[name] = time.process_time() - started
    return [board.tables for board in combine_tables(tables, game, rules)], seconds


@dataclass(frozen=True)
class Reference:
    """The reference controls' long-run means on other deals, by dealer, control by control."""

    value: dict[int, list[float]]
    variance_of_mean: dict[int, list[float]]
    seconds_per_board: float


def reference_means(game: AnyGame, rules: object, deals_per_dealer: int, seed: int) -> Reference:
    started = time.process_time()
    rows = reference_controls(game, rules, match_seed=seed, boards=4 * deals_per_dealer)
    seconds = time.process_time() - started
    values: dict[int, list[tuple[float, ...]]] = {}
    for number, row in enumerate(rows, start=1):
        values.setdefault(game.board_dealer(number), []).append(row)
    return Reference(
        {d: [statistics.fmean(c) for c in zip(*v, strict=True)] for d, v in values.items()},
        {
            d: [statistics.variance(c) / len(c) for c in zip(*v, strict=True)]
            for d, v in values.items()
        },
        seconds / len(rows),
    )


@dataclass(frozen=True)
class Design:
    name: str
    estimate: MeanEstimate
    se: float
    se_interval: tuple[float, float]
    ratio_interval: tuple[float, float]
    """A 95% bootstrap interval for plain's standard error over this design's, per deal."""
    over_duplicate_interval: tuple[float, float] | None
    """A 95% bootstrap interval for duplicate's standard error over this design's, per deal
    (the same boards resampled for both): what the controls add to duplicate alone."""
    tables_per_deal: int
    seconds_per_deal: float
    """The worker seconds a deal costs: its tables, and its controls' play and valuation."""

    def ratio_at_equal_cost(self, plain: Design, cost: str) -> tuple[float, float, float]:
        """Plain's standard error over this design's, with its 95% interval, when both
        spend as much: ``cost`` is "deal" (as many deals), "table" (as many tables played)
        or "cpu" (as many worker seconds). With c a deal's cost, an error per deal of se
        becomes se sqrt(c / budget): the ratio per deal times sqrt(c_plain / c_this)."""
        if cost == "deal":
            scale = 1.0
        elif cost == "table":
            scale = math.sqrt(plain.tables_per_deal / self.tables_per_deal)
        else:
            scale = math.sqrt(plain.seconds_per_deal / self.seconds_per_deal)
        low, high = self.ratio_interval
        return plain.se / self.se * scale, low * scale, high * scale


def designs(
    boards: list[dict[str, BoardRecord]],
    plain: list[float],
    duplicate: list[float],
    controls: Sequence[tuple[float, ...]],
    rollout: GreedyRollout,
    reference: Reference,
    random_seats: dict[str, tuple[int, ...]] | None,
    auction_playouts: int,
    playouts: int,
    rng: random.Random,
    table_seconds: dict[str, float],
    reference_seconds_per_deal: float,
) -> list[Design]:
    """The designs on the same deals, each with its cost a deal: plain plays one table,
    duplicate tables A and B, the corrected designs those and the reference pairing's
    three tables, and against the random bot the valuation of its luck as well."""
    covariates: list[list[float]] = []
    luck_seconds = 0.0
    raw: list[list[float]] = []
    dealers: list[int] = []
    for tables, control in zip(boards, controls, strict=True):
        dealer = tables["A"].dealer
        dealers.append(dealer)
        row = [value - mean for value, mean in zip(control, reference.value[dealer], strict=True)]
        raw_row = list(control)
        if random_seats is not None:
            # X sits at 0/2 at table A and at 1/3 at table B: 0/2's luck counts for X at A
            # and against X at B. The auction's luck and the later decisions' are two
            # controls, each with its own coefficient.
            luck_started = time.process_time()
            luck = {
                name: luck_terms(
                    tables[name],
                    rollout=rollout,
                    uniform_seats=random_seats[name],
                    rng=rng,
                    auction_playouts=auction_playouts,
                    playouts=playouts,
                    exhaustive=EXHAUSTIVE,
                )
                for name in ("A", "B")
            }
            luck_seconds += time.process_time() - luck_started
            for term in range(2):
                row.append((luck["A"][term] - luck["B"][term]) / 2)
                raw_row.append(row[-1])
        covariates.append(row)
        raw.append(raw_row)
    # The measured means' error reaches the estimate through the coefficient of the
    # reference control, each dealer weighted by its share of the boards (the luck term's
    # mean is exactly zero).
    shares = {d: dealers.count(d) / len(dealers) for d in set(dealers)}
    mean_variances = [
        sum(w * w * reference.variance_of_mean[d][j] for d, w in shares.items())
        for j in range(len(controls[0]))
    ]
    if random_seats is not None:
        mean_variances += [0.0, 0.0]
    known = control_variate_mean(duplicate, covariates, raw=raw)
    deals = len(boards)
    plain_seconds = sum(table_seconds.values()) / 2 / deals
    duplicate_seconds = sum(table_seconds.values()) / deals
    corrected_seconds = duplicate_seconds + reference_seconds_per_deal + luck_seconds / deals
    width = len(controls[0])
    # Each control alone, as the arena runs it where only that one pays
    # (arena.services.control_value): its columns, its mean's error and its own work.
    alone = [
        _corrected(
            "dup + reference",
            plain,
            duplicate,
            [row[:width] for row in covariates],
            [row[:width] for row in raw],
            mean_variances[:width],
            5,
            duplicate_seconds + reference_seconds_per_deal,
        )
    ]
    if random_seats is not None:
        alone.append(
            _corrected(
                "dup + luck",
                plain,
                duplicate,
                [row[width:] for row in covariates],
                [row[width:] for row in raw],
                mean_variances[width:],
                2,
                duplicate_seconds + luck_seconds / deals,
            )
        )
    return [
        Design(
            "plain",
            plain_mean(plain),
            plain_mean(plain).se,
            bootstrap_se_interval(plain),
            (1.0, 1.0),
            None,
            1,
            plain_seconds,
        ),
        Design(
            "duplicate",
            plain_mean(duplicate),
            plain_mean(duplicate).se,
            bootstrap_se_interval(duplicate),
            bootstrap_ratio_interval(plain, duplicate),
            (1.0, 1.0),
            2,
            duplicate_seconds,
        ),
        _corrected(
            "duplicate + CV",
            plain,
            duplicate,
            covariates,
            raw,
            mean_variances,
            5,
            corrected_seconds,
        ),
        Design(
            "dup + CV, long",
            known,
            known.se,
            bootstrap_se_interval(duplicate, covariates, raw=raw),
            bootstrap_ratio_interval(plain, duplicate, covariates, raw=raw),
            bootstrap_ratio_interval(duplicate, duplicate, covariates, raw=raw),
            5,
            corrected_seconds,
        ),
        *alone,
    ]


def _corrected(
    name: str,
    plain: list[float],
    duplicate: list[float],
    covariates: list[list[float]],
    raw: list[list[float]],
    mean_variances: list[float],
    tables: int,
    seconds: float,
) -> Design:
    """Duplicate corrected by the given controls' columns (all of them, or one control's
    alone), at those controls' cost."""
    estimate = control_variate_mean(duplicate, covariates, mean_variances=mean_variances, raw=raw)
    return Design(
        name,
        estimate,
        estimate.se,
        bootstrap_se_interval(duplicate, covariates, mean_variances=mean_variances, raw=raw),
        bootstrap_ratio_interval(
            plain, duplicate, covariates, mean_variances=mean_variances, raw=raw
        ),
        bootstrap_ratio_interval(
            duplicate, duplicate, covariates, mean_variances=mean_variances, raw=raw
        ),
        tables,
        seconds,
    )


def table_results(
    game: AnyGame, rules: object, boards: list[dict[str, BoardRecord]]
) -> tuple[list[float], list[float]]:
    """Each board's plain result (one table, A and B in turn) and duplicate result (the
    tables' mean)."""
    seatings = game.seatings
    plain, duplicate = [], []
    for number, tables in enumerate(boards):
        results = [float(table_result(tables[name], seatings[name], game, rules)) for name in "AB"]
        plain.append(results[number % 2])
        duplicate.append(sum(results) / 2)
    return plain, duplicate


def correlation(left: Sequence[float], right: Sequence[float]) -> float | None:
    """Pearson's correlation, rounded; None when either side never varies."""
    try:
        return round(statistics.correlation(left, right), 3)
    except statistics.StatisticsError:
        return None


def ceiling(
    boards: list[dict[str, BoardRecord]],
    plain: list[float],
    duplicate: list[float],
    controls: Sequence[tuple[float, ...]],
    second: Sequence[tuple[float, ...]],
    reference: Reference,
) -> dict[str, float | None]:
    """How much of the quick bot's result the cards decide, and what that allows.

    Two runs of the quick bot against greedy on the same deals, with other search seeds,
    agree only as far as the cards decide their result: their correlation is the share of a
    run's variance that any function of the deal could predict. The quick bot's control can
    explain the measured pairing's result no better than that deal-decided part does; the
    mean of the two runs comes closer to it (printed with the means known, its ratio to
    plain deals is that of the "long" design with the mean as the first control)."""
    first = [row[0] for row in controls]
    again = [row[0] for row in second]
    both = [(a + b) / 2 for a, b in zip(first, again, strict=True)]
    raw = [[mean, row[1]] for mean, row in zip(both, controls, strict=True)]
    dealers = [tables["A"].dealer for tables in boards]
    centred = [
        [value - centre for value, centre in zip(row, reference.value[dealer], strict=True)]
        for row, dealer in zip(raw, dealers, strict=True)
    ]
    estimate = control_variate_mean(duplicate, centred, raw=raw)
    return {
        "corr_result_quick": correlation(duplicate, first),
        "corr_quick_second_run": correlation(first, again),
        "corr_result_mean_of_runs": correlation(duplicate, both),
        "plain_over_two_runs_long": round(plain_mean(plain).se / estimate.se, 2),
    }


COSTS = ("deal", "table", "cpu")
"""What two designs spend alike when their errors are compared: deals, tables played or
worker seconds."""
ARENA_DESIGNS = ("plain", "duplicate", "duplicate + CV", "dup + reference", "dup + luck")
"""The designs an arena can run today (both controls, either alone, or none): the "long"
one assumes the reference means known."""


def report(
    variant: str, pairing: str, result: Sequence[Design], seconds: float
) -> dict[str, object]:
    best = result[2].estimate.mean
    plain = result[0]
    duplicate = result[1]
    rows = []
    for design in result:
        count = len(design.estimate.adjusted)
        sd = design.se * math.sqrt(count)
        needed = math.ceil((Z95 * sd / best) ** 2) if best else None
        row: dict[str, object] = {
            "design": design.name,
            "mean": round(design.estimate.mean, 2),
            "se": round(design.se, 3),
            "se_95": [round(design.se_interval[0], 3), round(design.se_interval[1], 3)],
            "tables_per_deal": design.tables_per_deal,
            "seconds_per_deal": round(design.seconds_per_deal, 4),
            # The error this design would have on plain's tables, or plain's worker seconds.
            "se_equal_tables": round(
                design.se * math.sqrt(design.tables_per_deal / plain.tables_per_deal), 3
            ),
            "se_equal_cpu": round(
                design.se * math.sqrt(design.seconds_per_deal / plain.seconds_per_deal), 3
            ),
            "boards_to_separate": needed,
            "tables_to_separate": None if needed is None else needed * design.tables_per_deal,
            "cpu_seconds_to_separate": None
            if needed is None
            else round(needed * design.seconds_per_deal, 1),
        }
        for cost in COSTS:
            ratio, low, high = design.ratio_at_equal_cost(plain, cost)
            suffix = "" if cost == "deal" else f"_equal_{cost}"
            row[f"plain_over_this{suffix}"] = round(ratio, 2)
            row[f"plain_over_this{suffix}_95"] = [round(low, 2), round(high, 2)]
        if design.over_duplicate_interval is not None:
            # Duplicate's error over this design's at equal worker seconds: whether the
            # controls pay for the work they add.
            scale = math.sqrt(duplicate.seconds_per_deal / design.seconds_per_deal)
            low, high = design.over_duplicate_interval
            row["duplicate_over_this_equal_cpu"] = round(duplicate.se / design.se * scale, 2)
            row["duplicate_over_this_equal_cpu_95"] = [
                round(low * scale, 2),
                round(high * scale, 2),
            ]
        rows.append(row)
    return {
        "variant": variant,
        "pairing": pairing,
        "boards": len(result[0].estimate.adjusted),
        "seconds": round(seconds, 1),
        "designs": rows,
        "verdict_equal_cpu": verdict(result),
    }


def verdict(result: Sequence[Design]) -> str:
    """Which of the designs an arena can run gives the smallest error for its worker
    seconds, and whether it is shown to beat plain deals (its interval above 1)."""
    plain = result[0]
    runnable = [design for design in result if design.name in ARENA_DESIGNS]
    best = max(runnable, key=lambda design: design.ratio_at_equal_cost(plain, "cpu")[0])
    ratio, low, high = best.ratio_at_equal_cost(plain, "cpu")
    beating = [
        design.name
        for design in runnable
        if design is not plain and design.ratio_at_equal_cost(plain, "cpu")[1] > 1.0
    ]
    if not beating:
        return (
            f"no design is shown to beat plain deals at equal worker CPU (best: {best.name},"
            f" plain/it {ratio:.2f} [{low:.2f}, {high:.2f}]): as far as this run can tell,"
            " the cheapest, plain, does as well"
        )
    return (
        f"smallest error at equal worker CPU: {best.name}, plain/it {ratio:.2f}"
        f" [{low:.2f}, {high:.2f}]; shown to beat plain: {', '.join(beating)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["auction4"])
    parser.add_argument("--boards", type=int, default=60, help="deals of strong vs greedy")
    parser.add_argument("--random-boards", type=int, default=60, help="deals of greedy vs random")
    parser.add_argument(
        "--reference", type=int, default=40, help="deals per dealer measuring the reference mean"
    )
    parser.add_argument(
        "--auction-playouts",
        type=int,
        default=4,
        help="continued auctions valuing each legal bid of the random bot (common draws)",
    )
    parser.add_argument(
        "--playouts",
        type=int,
        default=1,
        help="whole-hand playouts valuing each later action of the random bot (common draws)",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="play the quick bot a second time with other search seeds (strong vs greedy): "
        "how much of its result the cards decide",
    )
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(
        "plain deals' standard error over each design's, when both play as many deals, as"
        " many tables, or spend as many worker CPU seconds (95% paired bootstrap intervals)"
    )
    print(
        "variant   pairing          design          mean  SE/deal (95% boot.)  "
        "plain/this: per deal      equal tables      equal CPU         CPU s/deal  boards"
    )
    for variant in args.variants:
        game = load_game(variant)
        rules = game.rules_for({})
        rollout = GreedyRollout(game, rules)
        reference = reference_means(game, rules, args.reference, seed=args.seed + 1)
        # In the seating plan, Y (the random bot, index 1) sits where the lineup says 1.
        random_seats = {
            name: tuple(seat for seat, side in enumerate(lineup) if side == 1)
            for name, lineup in game.seatings.items()
        }
        shared: list[tuple[float, ...]] = []
        seconds_per_board = 0.0
        for x, y, boards, seats in (
            ("strong", "greedy", args.boards, None),
            ("greedy", "random", args.random_boards, random_seats),
        ):
            if boards <= 0:
                continue
            started = time.perf_counter()
            played, table_seconds = play(game, rules, x, y, boards, seed=args.seed)
            tables_seconds = sum(table_seconds.values())
            # Both pairings play the same deals: the reference pairing plays them once, and
            # its cost a board is the same for either.
            if len(shared) < boards:
                controls_started = time.process_time()
                shared = reference_controls(game, rules, match_seed=args.seed, boards=boards)
                controls_seconds = time.process_time() - controls_started
                seconds_per_board = controls_seconds / boards
            controls = shared[:boards]
            controls_seconds = seconds_per_board * boards
            plain, duplicate = table_results(game, rules, played)
            result = designs(
                played,
                plain,
                duplicate,
                controls,
                rollout,
                reference,
                seats,
                args.auction_playouts,
                args.playouts,
                rng,
                table_seconds,
                seconds_per_board,
            )
            summary = report(variant, f"{x} vs {y}", result, time.perf_counter() - started)
            summary["reference_seconds_per_board"] = round(controls_seconds / boards, 3)
            summary["tables_seconds_per_board"] = round(tables_seconds / boards, 3)
            for row in summary["designs"]:  # type: ignore[attr-defined]
                low, high = row["se_95"]
                ratios = "".join(
                    f"{row[key]:5.2f}x ({row[key + '_95'][0]:5.2f}-{row[key + '_95'][1]:5.2f})  "
                    for key in (
                        "plain_over_this",
                        "plain_over_this_equal_table",
                        "plain_over_this_equal_cpu",
                    )
                )
                print(
                    f"{variant:9} {x + ' vs ' + y:16} {row['design']:14} {row['mean']:7.1f} "
                    f"{row['se']:6.2f} ({low:6.2f}-{high:6.2f})  {ratios}"
                    f"{row['seconds_per_deal']:8.3f}  {row['boards_to_separate']}",
                    flush=True,
                )
            for row in summary["designs"]:  # type: ignore[attr-defined]
                if "duplicate_over_this_equal_cpu" in row and row["design"] != "duplicate":
                    low, high = row["duplicate_over_this_equal_cpu_95"]
                    print(
                        f"{variant:9} {x + ' vs ' + y:16} {row['design']}: duplicate's error"
                        f" over this at equal worker CPU {row['duplicate_over_this_equal_cpu']:.2f}"
                        f" ({low:.2f}-{high:.2f}): the controls "
                        + (
                            "pay for their work"
                            if low > 1.0
                            else "cost more than they give"
                            if high < 1.0
                            else "are not shown to pay"
                        ),
                        flush=True,
                    )
            print(f"{variant:9} {x + ' vs ' + y:16} {summary['verdict_equal_cpu']}", flush=True)
            print(
                f"{variant:9} {x + ' vs ' + y:16} worker seconds a board: the two tables "
                f"{tables_seconds / boards:.3f}, the reference pairing "
                f"{controls_seconds / boards:.3f} "
                f"({controls_seconds / max(tables_seconds, 1e-9):.0%} more)",
                flush=True,
            )
            correlations = [
                correlation(duplicate, [row[j] for row in controls])
                for j in range(len(controls[0]))
            ]
            summary["control_correlations"] = correlations
            print(
                f"{variant:9} {x + ' vs ' + y:16} the reference controls' correlation with "
                f"the duplicate result: {correlations}",
                flush=True,
            )
            if args.ceiling and seats is None:
                second = reference_controls(
                    game, rules, match_seed=args.seed, boards=boards, quick=SecondQuickBot
                )
                limits = ceiling(played, plain, duplicate, controls, second, reference)
                summary["ceiling"] = limits
                print(f"{variant:9} {x + ' vs ' + y:16} ceiling: {summary['ceiling']}", flush=True)
            print(json.dumps(summary), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
