"""The rating intervals say what they claim: a seeded simulation of leagues of known
strength (tests/arena/rating_simulation.py), small enough for the suite. The full measure,
at 200 leagues or more per scenario, is tests/bench/bench_rating_coverage.py."""

from __future__ import annotations

import pytest

from tests.arena.rating_simulation import SCENARIOS, Scenario, coverage

LEAGUES = 60
FAR_LEAGUES = 150


@pytest.mark.parametrize("scenario", SCENARIOS[:3], ids=lambda scenario: scenario.name)
def test_the_95_percent_intervals_hold_the_true_ratings_about_95_percent_of_the_time(
    scenario: Scenario,
) -> None:
    # 60 leagues of 6 bots: 360 intervals, so a coverage of 95% is seen within about
    # +-3% (the bots of one league share their errors). Before draws were allowed for, the
    # 40% drawn scenario covered 99.7%: its intervals were a quarter too wide.
    found = coverage(scenario, LEAGUES, seed=7)
    assert 0.91 <= found.overall <= 0.985
    for bot in range(len(found.covered)):
        # The reported error is the real one (within the noise of 60 leagues), and the
        # ratings are unbiased: less than a quarter of the error off on average, give or
        # take the 0.13 errors (1 / sqrt(60)) a mean over 60 leagues wanders by.
        assert 0.8 < found.mean_se(bot) / found.spread(bot) < 1.25
        assert abs(found.bias(bot)) < 0.4 * found.spread(bot)


def test_a_bot_far_behind_the_rest_is_not_lifted_by_the_prior_and_its_interval_holds() -> None:
    # One bot 900 Elo below five others, 50 boards a pair: it wins about 1.5 boards of its
    # 250, and in some leagues none. The one virtual draw per pair used before lifted it 153
    # Elo (more than its error, coverage 53%); Firth's adjustment leaves it within its error.
    # Its likelihood is far from a parabola: the symmetric interval missed whenever it won 4
    # boards or more (coverage 92.7% over 1000 leagues), the likelihood's reaches further down
    # than up and holds it 95.5% of the time. 150 leagues: its coverage within about +-3.5%.
    found = coverage(SCENARIOS[3], FAR_LEAGUES, seed=7)
    far = len(found.covered) - 1
    assert abs(found.bias(far)) < 0.3 * found.spread(far)
    assert 0.91 <= found.per_bot()[far] <= 0.99
    below, above = found.mean_arms(far)
    assert below > 1.5 * above
    assert 0.93 <= found.overall <= 0.975
