"""Rating writes: the fit after each rated match, its from-scratch recomputation.

Ratings are the board-level maximum-likelihood fit of ``arena.elo`` over every rated
board of a variant. ``rating_apply`` runs inside the transaction that completes a match,
under the completion lock, so matches enter the fit once and in completion order: it
records the match's boards (a ``RatingChange`` per side, with the tally), refits the
variant and stores every version's rating and interval. The fit depends only on the
tallies, so ``ratings_recompute``, which replays the rated matches in the same order
through the same fit, reproduces the stored ratings and history exactly (and repairs them
if they ever differ). ``ratings_refit`` fits the current tallies once, for the periodic
check that nothing was edited behind the fit's back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from arena import selectors
from arena.elo import INITIAL_ELO, Fit, Tally, expected_score, fit_ratings
from arena.http.caching import leaderboard_changed
from arena.models import CompletionCounter, Match, Rating, RatingChange

Tallies = dict[tuple[int, int], Tally]


@dataclass(frozen=True)
class Shown:
    """What a rating row stores of a fit."""

    elo: float
    low: float
    high: float
    boards_to_separate: int | None


def shown_ratings(fit: Fit[int]) -> dict[int, Shown]:
    """Each version's stored rating, interval, and boards to separate it from the version
    just below it in its pool."""
    # Ratings equal up to the fit's rounding noise (far below a millionth of a point) are a
    # tie, broken by the version: the order must not hang on the last step of the fit.
    ordered = sorted(
        fit.ratings, key=lambda version: (-round(fit.ratings[version].rating, 6), version)
    )
    below: dict[int, int] = {}
    for index, version in enumerate(ordered):
        lower = next(
            (other for other in ordered[index + 1 :] if fit.pools[other] == fit.pools[version]),
            None,
        )
        if lower is not None:
            below[version] = lower
    shown = {}
    for version, estimate in fit.ratings.items():
        lower = below.get(version)
        shown[version] = Shown(
            elo=INITIAL_ELO + estimate.rating,
            low=INITIAL_ELO + estimate.low,
            high=INITIAL_ELO + estimate.high,
            boards_to_separate=None if lower is None else fit.boards_to_separate(version, lower),
        )
    return shown


def _stored_tallies(variant: str) -> Tallies:
    """The variant's rated boards, pair by pair."""
    return selectors.rated_tallies(variant=variant)


def _write(variant: str, shown: Mapping[int, Shown]) -> None:
    ratings = list(Rating.objects.filter(variant=variant, version_id__in=list(shown)))
    for rating in ratings:
        value = shown[rating.version_id]
        rating.elo, rating.elo_low, rating.elo_high = value.elo, value.low, value.high
        rating.boards_to_separate = value.boards_to_separate
    Rating.objects.bulk_update(ratings, ["elo", "elo_low", "elo_high", "boards_to_separate"])


def rating_apply(*, match: Match) -> None:
    """Enter a completed match into its variant's ratings (caller holds the completion lock)."""
    assert match.finished is not None
    leaderboard_changed()
    tally = Tally.of(match.board_results)
    before: dict[int, float] = {}
    changes: dict[int, RatingChange] = {}
    for version_id, seen in ((match.version_x_id, tally), (match.version_y_id, tally.flipped())):
        rating, _ = Rating.objects.select_for_update().get_or_create(
            version_id=version_id,
            variant=match.variant,
            defaults={"elo": INITIAL_ELO, "elo_low": INITIAL_ELO, "elo_high": INITIAL_ELO},
        )
        before[version_id] = rating.elo
        rating.matches += 1
        rating.boards += seen.boards
        rating.last_match = match.finished
        rating.save(update_fields=["matches", "boards", "last_match"])
        changes[version_id] = RatingChange(
            rating=rating, match=match, wins=seen.wins, draws=seen.draws, losses=seen.losses
        )
    # The match's own changes are not saved yet: its boards are added to the stored ones.
    tallies = _stored_tallies(match.variant)
    key = (match.version_x_id, match.version_y_id)
    tallies[key] = tallies.get(key, Tally()) + tally
    shown = shown_ratings(fit_ratings(tallies))
    _write(match.variant, shown)
    for version_id, opponent_id in (
        (match.version_x_id, match.version_y_id),
        (match.version_y_id, match.version_x_id),
    ):
        change = changes[version_id]
        _fill(change, before[version_id], before[opponent_id], shown[version_id].elo)
        change.save()


def _fill(change: RatingChange, before: float, opponent_before: float, after: float) -> None:
    seen = Tally(change.wins, change.draws, change.losses)
    change.before = before
    change.after = after
    change.score = seen.score
    change.expected = expected_score(before - opponent_before)


@dataclass(frozen=True)
class RecomputeReport:
    matches: int
    ratings: int
    differences: list[str]


@dataclass
class _Replayed:
    """A rating as the replay builds it."""

    matches: int = 0
    boards: int = 0
    shown: Shown | None = None


def ratings_recompute(*, repair: bool = True) -> RecomputeReport:
    """Refit every rating from the rated matches, match by match in completion order.

    Returns the differences from the stored ratings and history (none, when every match was
    entered exactly once); with ``repair`` the stored ratings and history are replaced.
    """
    CompletionCounter.objects.get_or_create(pk=1)
    with transaction.atomic():
        CompletionCounter.objects.select_for_update().get(pk=1)
        matches = list(
            Match.objects.filter(status=Match.Status.DONE, rated=True)
            .exclude(completion_seq=None)
            .order_by("completion_seq")
        )
        tallies: dict[str, Tallies] = {}
        state: dict[tuple[int, str], _Replayed] = {}
        history: list[tuple[Match, int, RatingChange]] = []
        for match in matches:
            tally = Tally.of(match.board_results)
            pool = tallies.setdefault(match.variant, {})
            key = (match.version_x_id, match.version_y_id)
            pool[key] = pool.get(key, Tally()) + tally
            sides = ((match.version_x_id, tally), (match.version_y_id, tally.flipped()))
            before = {
                version_id: _shown_elo(state.get((version_id, match.variant)))
                for version_id, _ in sides
            }
            shown = shown_ratings(fit_ratings(pool))
            for version_id, seen in sides:
                replayed = state.setdefault((version_id, match.variant), _Replayed())
                replayed.matches += 1
                replayed.boards += seen.boards
                change = RatingChange(
                    match=match, wins=seen.wins, draws=seen.draws, losses=seen.losses
                )
                opponent = key[1] if version_id == key[0] else key[0]
                _fill(change, before[version_id], before[opponent], shown[version_id].elo)
                history.append((match, version_id, change))
            for version_id, value in shown.items():
                state[(version_id, match.variant)].shown = value
        differences = _differences(state, history)
        if repair and differences:
            _rewrite(state, history)
    return RecomputeReport(len(matches), len(state), differences)


def _shown_elo(replayed: _Replayed | None) -> float:
    return INITIAL_ELO if replayed is None or replayed.shown is None else replayed.shown.elo


def _differences(
    state: Mapping[tuple[int, str], _Replayed],
    history: Iterable[tuple[Match, int, RatingChange]],
) -> list[str]:
    stored = {(r.version_id, r.variant): r for r in Rating.objects.all()}
    differences = []
    for key, replayed in sorted(state.items()):
        rating = stored.get(key)
        assert replayed.shown is not None
        expected = (
            replayed.shown.elo,
            replayed.shown.low,
            replayed.shown.high,
            replayed.shown.boards_to_separate,
            replayed.matches,
            replayed.boards,
        )
        found = (
            None
            if rating is None
            else (
                rating.elo,
                rating.elo_low,
                rating.elo_high,
                rating.boards_to_separate,
                rating.matches,
                rating.boards,
            )
        )
        if found != expected:
            differences.append(f"version {key[0]} {key[1]}: stored {found}, recomputed {expected}")
    for key, rating in stored.items():
        if key not in state and rating.matches:
            differences.append(f"version {key[0]} {key[1]}: rated without a rated match")
    changes = {
        (change.match_id, change.rating.version_id): change
        for change in RatingChange.objects.select_related("rating")
    }
    fields = ("before", "after", "wins", "draws", "losses", "score", "expected")
    replayed_keys = set()
    for match, version_id, change in history:
        replayed_keys.add((match.pk, version_id))
        found_change = changes.get((match.pk, version_id))
        want = tuple(getattr(change, name) for name in fields)
        have = None if found_change is None else tuple(getattr(found_change, n) for n in fields)
        if have != want:
            differences.append(
                f"match {match.pk} version {version_id}: stored change {have}, recomputed {want}"
            )
    for match_id, version_id in sorted(set(changes) - replayed_keys):
        differences.append(f"match {match_id} version {version_id}: a change of no rated match")
    return differences


def _rewrite(
    state: Mapping[tuple[int, str], _Replayed],
    history: Iterable[tuple[Match, int, RatingChange]],
) -> None:
    leaderboard_changed()
    RatingChange.objects.all().delete()
    Rating.objects.exclude(
        pk__in=[
            rating.pk
            for rating in Rating.objects.all()
            if (rating.version_id, rating.variant) in state
        ]
    ).delete()
    ratings = {}
    for (version_id, variant), replayed in state.items():
        assert replayed.shown is not None
        rating, _ = Rating.objects.update_or_create(
            version_id=version_id,
            variant=variant,
            defaults={
                "elo": replayed.shown.elo,
                "elo_low": replayed.shown.low,
                "elo_high": replayed.shown.high,
                "boards_to_separate": replayed.shown.boards_to_separate,
                "matches": replayed.matches,
                "boards": replayed.boards,
            },
        )
        ratings[(version_id, variant)] = rating
    for match, version_id, change in history:
        change.rating = ratings[(version_id, match.variant)]
        change.save()
    last = Match.objects.filter(status=Match.Status.DONE, rated=True)
    for rating in ratings.values():
        as_x = last.filter(version_x_id=rating.version_id).aggregate(at=Max("finished"))["at"]
        as_y = last.filter(version_y_id=rating.version_id).aggregate(at=Max("finished"))["at"]
        rating.last_match = max(filter(None, (as_x, as_y)), default=None)
        rating.save(update_fields=["last_match"])


def ratings_refit(*, variant: str) -> int:
    """Fit the variant's ratings from its stored tallies and repair any rating that differs
    (none should: each match refits on completion). Returns the versions repaired."""
    CompletionCounter.objects.get_or_create(pk=1)
    with transaction.atomic():
        # Under the completion lock, so no match enters the tallies while they are read.
        CompletionCounter.objects.select_for_update().get(pk=1)
        tallies = _stored_tallies(variant)
        if not tallies:
            return 0
        shown = shown_ratings(fit_ratings(tallies))
        stale = {
            rating.version_id
            for rating in Rating.objects.filter(variant=variant, version_id__in=list(shown))
            if (rating.elo, rating.elo_low, rating.elo_high, rating.boards_to_separate)
            != (
                shown[rating.version_id].elo,
                shown[rating.version_id].low,
                shown[rating.version_id].high,
                shown[rating.version_id].boards_to_separate,
            )
        }
        if stale:
            leaderboard_changed()
            _write(variant, {version: shown[version] for version in stale})
    return len(stale)
