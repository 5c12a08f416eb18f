"""Human ratings: openskill's Plackett-Luce team model, on the Elo scale with an interval."""

from __future__ import annotations

import math

import pytest

from tournaments.human_ratings import ELO_PER_MU, RatedMeeting, Skill, event_skills


def test_a_new_player_is_1500_with_a_wide_interval() -> None:
    new = Skill()
    assert new.rating == 1500.0
    # 1.96 sigma either side, sigma = 25/3, at (400 / ln 10) / (sqrt(2) 25/6) Elo per mu.
    assert pytest.approx(29.48, abs=0.01) == ELO_PER_MU
    assert new.high - new.rating == pytest.approx(1.96 * 29.48 * 25 / 3, abs=0.5)


def test_one_win_moves_two_new_players_as_the_published_update_says() -> None:
    # Weng and Lin (2011), the Plackett-Luce update of two players of 25 +- 25/3 with
    # beta = 25/6, after openskill's dynamics tau = 25/300 widen sigma^2 by tau^2:
    # c = sqrt(2 s^2 + 2 beta^2) = 13.177 with s^2 = sigma^2 + tau^2; the winner's win
    # probability is 1/2, so mu moves by s^2 / c * (1 - 1/2) = 2.635; sigma shrinks by
    # sqrt(1 - (s / c) (s^2 / c^2) / 4) to 8.066.
    after = event_skills(
        [RatedMeeting((("ann",), ("ben",)), 0.6)], {"ann": Skill(), "ben": Skill()}
    )
    s2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * s2 + 2 * (25 / 6) ** 2)
    assert after["ann"].mu == pytest.approx(25 + s2 / c / 2, abs=1e-9)
    assert after["ben"].mu == pytest.approx(25 - s2 / c / 2, abs=1e-9)
    shrink = math.sqrt(1 - (math.sqrt(s2) / c) * (s2 / c**2) / 4)
    assert after["ann"].sigma == pytest.approx(math.sqrt(s2) * shrink, abs=1e-9)
    assert after["ann"].sigma == pytest.approx(8.066, abs=1e-3)
    assert after["ann"].rating - 1500 == pytest.approx(2.635 * ELO_PER_MU, abs=0.1)


def test_partners_move_together_and_a_tie_between_equals_moves_nobody() -> None:
    skills = {name: Skill() for name in ("ann", "ben", "cid", "dot")}
    pairs = (("ann", "ben"), ("cid", "dot"))
    after = event_skills([RatedMeeting(pairs, 0.75)] * 3, skills)
    assert after["ann"] == after["ben"] and after["cid"] == after["dot"]
    assert after["ann"].rating > 1500 > after["cid"].rating
    assert after["ann"].rating - 1500 == pytest.approx(1500 - after["cid"].rating)
    tied = event_skills([RatedMeeting(pairs, 0.5)], skills)
    assert tied["ann"].mu == pytest.approx(25.0) and tied["ann"].sigma < 25 / 3


def test_the_interval_narrows_as_events_are_played() -> None:
    skills = {name: Skill() for name in ("ann", "ben", "cid", "dot")}
    widths = []
    for round_number in range(6):
        share = 0.6 if round_number % 2 else 0.45
        skills = skills | event_skills(
            [RatedMeeting((("ann", "ben"), ("cid", "dot")), share)], skills
        )
        widths.append(skills["ann"].high - skills["ann"].low)
    assert widths == sorted(widths, reverse=True) and widths[-1] < widths[0]
