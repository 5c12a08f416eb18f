"""Rating writes: the incremental Elo update, its from-scratch recomputation, Bradley-Terry.

``rating_apply`` runs inside the transaction that completes a match, under the completion
lock, so updates happen once per match and in completion order. ``ratings_recompute``
replays every rated match in that same order through the same step function, so it
reproduces the stored ratings bit for bit (and repairs them if they ever differ).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from arena.caching import leaderboard_changed
from arena.models import CompletionCounter, Match, Rating, RatingChange
from arena.ratings import (
    INITIAL_ELO,
    PROVISIONAL_MATCHES,
    Result,
    bradley_terry_intervals,
    elo_expected,
    k_factor,
)


@dataclass(frozen=True)
class EloStep:
    """One match's Elo arithmetic, shared by the incremental and the recomputing path."""

    expected_x: float
    k_x: float
    k_y: float
    after_x: float
    after_y: float


def elo_step(elo_x: float, elo_y: float, matches_x: int, matches_y: int, share_x: float) -> EloStep:
    expected_x = elo_expected(elo_x, elo_y)
    k_x, k_y = k_factor(matches_x), k_factor(matches_y)
    return EloStep(
        expected_x=expected_x,
        k_x=k_x,
        k_y=k_y,
        after_x=elo_x + k_x * (share_x - expected_x),
        after_y=elo_y + k_y * ((1.0 - share_x) - (1.0 - expected_x)),
    )


def _rating(version_id: int, variant: str) -> Rating:
    rating, _ = Rating.objects.select_for_update().get_or_create(
        version_id=version_id, variant=variant, defaults={"elo": INITIAL_ELO}
    )
    return rating


def rating_apply(*, match: Match) -> None:
    """Apply a completed match to both versions' ratings (caller holds the completion lock)."""
    assert match.share_x is not None and match.finished is not None
    leaderboard_changed()
    rating_x = _rating(match.version_x_id, match.variant)
    rating_y = _rating(match.version_y_id, match.variant)
    step = elo_step(rating_x.elo, rating_y.elo, rating_x.matches, rating_y.matches, match.share_x)
    for rating, after, k, score, expected in (
        (rating_x, step.after_x, step.k_x, match.share_x, step.expected_x),
        (rating_y, step.after_y, step.k_y, 1.0 - match.share_x, 1.0 - step.expected_x),
    ):
        RatingChange.objects.create(
            rating=rating,
            match=match,
            before=rating.elo,
            after=after,
            score=score,
            expected=expected,
            k_factor=k,
        )
        rating.elo = after
        rating.matches += 1
        rating.boards += match.board_count
        rating.provisional = rating.matches < PROVISIONAL_MATCHES
        rating.last_match = match.finished
        rating.save(update_fields=["elo", "matches", "boards", "provisional", "last_match"])


@dataclass(frozen=True)
class RecomputeReport:
    matches: int
    ratings: int
    differences: list[str]


def ratings_recompute(*, repair: bool = True) -> RecomputeReport:
    """Recompute every Elo rating from the rated matches, in completion order.

    Returns the differences from the stored ratings (none, when every incremental update was
    applied exactly once); with ``repair`` the stored ratings and history are replaced.
    """
    CompletionCounter.objects.get_or_create(pk=1)
    with transaction.atomic():
        CompletionCounter.objects.select_for_update().get(pk=1)
        state: dict[tuple[int, str], tuple[float, int, int]] = {}
        changes: list[tuple[Match, int, float, float, float, float, float]] = []
        matches = (
            Match.objects.filter(status=Match.Status.DONE, rated=True)
            .exclude(completion_seq=None)
            .order_by("completion_seq")
        )
        count = 0
        for match in matches.iterator():
            count += 1
            key_x, key_y = (match.version_x_id, match.variant), (match.version_y_id, match.variant)
            elo_x, n_x, boards_x = state.get(key_x, (INITIAL_ELO, 0, 0))
            elo_y, n_y, boards_y = state.get(key_y, (INITIAL_ELO, 0, 0))
            assert match.share_x is not None
            step = elo_step(elo_x, elo_y, n_x, n_y, match.share_x)
            changes.append(
                (
                    match,
                    match.version_x_id,
                    elo_x,
                    step.after_x,
                    step.k_x,
                    match.share_x,
                    step.expected_x,
                )
            )
            changes.append(
                (
                    match,
                    match.version_y_id,
                    elo_y,
                    step.after_y,
                    step.k_y,
                    1.0 - match.share_x,
                    1.0 - step.expected_x,
                )
            )
            state[key_x] = (step.after_x, n_x + 1, boards_x + match.board_count)
            state[key_y] = (step.after_y, n_y + 1, boards_y + match.board_count)
        stored = {(r.version_id, r.variant): r for r in Rating.objects.all()}
        differences = []
        for key, (elo, played, _boards) in sorted(state.items()):
            rating = stored.get(key)
            if rating is None or rating.elo != elo or rating.matches != played:
                differences.append(
                    f"version {key[0]} {key[1]}: stored "
                    f"{None if rating is None else (rating.elo, rating.matches)}, "
                    f"recomputed {(elo, played)}"
                )
        for key, rating in stored.items():
            if key not in state and rating.matches:
                differences.append(f"version {key[0]} {key[1]}: rated without a rated match")
        if repair and differences:
            _rewrite(state, changes)
    return RecomputeReport(count, len(state), differences)


def _rewrite(
    state: dict[tuple[int, str], tuple[float, int, int]],
    changes: list[tuple[Match, int, float, float, float, float, float]],
) -> None:
    leaderboard_changed()
    RatingChange.objects.all().delete()
    ratings = {}
    for (version_id, variant), (elo, played, boards) in state.items():
        rating, _ = Rating.objects.update_or_create(
            version_id=version_id,
            variant=variant,
            defaults={
                "elo": elo,
                "matches": played,
                "boards": boards,
                "provisional": played < PROVISIONAL_MATCHES,
            },
        )
        ratings[(version_id, variant)] = rating
    for match, version_id, before, after, k, score, expected in changes:
        RatingChange.objects.create(
            rating=ratings[(version_id, match.variant)],
            match=match,
            before=before,
            after=after,
            k_factor=k,
            score=score,
            expected=expected,
        )
    last = Match.objects.filter(status=Match.Status.DONE, rated=True)
    for rating in ratings.values():
        finished = last.filter(**{"version_x_id": rating.version_id}).aggregate(at=Max("finished"))[
            "at"
        ]
        other = last.filter(version_y_id=rating.version_id).aggregate(at=Max("finished"))["at"]
        rating.last_match = max(filter(None, (finished, other)), default=None)
        rating.save(update_fields=["last_match"])


def ratings_fit_bradley_terry(*, variant: str, samples: int = 200) -> int:
    """Fit Bradley-Terry ratings with bootstrap intervals for a variant; returns versions fitted."""
    results = [
        Result(x, y, share)
        for x, y, share in Match.objects.filter(
            variant=variant, status=Match.Status.DONE, rated=True
        ).values_list("version_x_id", "version_y_id", "share_x")
    ]
    if not results:
        return 0
    intervals = bradley_terry_intervals(results, samples=samples, seed=0)
    with transaction.atomic():
        leaderboard_changed()
        for version_id, interval in intervals.items():
            # Shown on the Elo scale's origin, so the two columns read alike.
            Rating.objects.filter(version_id=version_id, variant=variant).update(
                bt_rating=INITIAL_ELO + interval.rating,
                bt_low=INITIAL_ELO + interval.low,
                bt_high=INITIAL_ELO + interval.high,
            )
    return len(intervals)
