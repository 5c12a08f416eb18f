"""Demo content for `make demo`, created through the same services and tasks as the API.

Players upload the reference bots as their own bots (validated like any upload), then a
round robin of duplicate matches is played through the match task, and the versions are
rated on their boards, so the leaderboard, matches and replays have content.

With a broker (the demo's workers) validation and matches happen in a worker: the seed
waits for the versions to be validated before it pairs them, and for the matches to be
played before it fits the ratings, saying how far it has got. In the embedded mode without
a broker each task has already run when the call that enqueued it returns.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence

from arena import services
from arena.models import Bot, BotVersion, Match, Player
from arena.services.matches import match_create
from arena.variants import variant_names
from bots.reference import reference_bots
from engine.registry import load_game

DEMO_PASSWORD = "demo-password-2026"

# Who uploads which reference bot.
_OWNERS = {"random": ("alice", "Alice"), "greedy": ("bob", "Bob"), "strong": ("carol", "Carol")}
DEMO_BOARDS = 6
"""Boards per demo match of a partnership game; individual games play 2 (more tables)."""


def _player(username: str, display_name: str, say: Callable[[str], None]) -> Player:
    player = Player.objects.filter(user__username=username).first()
    if player is None:
        player = services.player_register(
            username=username, password=DEMO_PASSWORD, display_name=display_name
        )
        say(f"player {username} (password {DEMO_PASSWORD})")
    return player


WAIT_SECONDS = 1800
"""How long the seed waits for the worker before it gives up (a stuck or absent worker)."""


def wait_until(
    remaining: Callable[[], int], what: str, say: Callable[[str], None], total: int
) -> None:
    """Poll until nothing remains, printing each change of the count."""
    deadline = time.monotonic() + WAIT_SECONDS
    last = -1
    while (left := remaining()) > 0:
        if left != last:
            say(f"{what}: {total - left} of {total} done")
            last = left
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"{what}: {left} still waiting after {WAIT_SECONDS} s; is the worker up?"
            )
        time.sleep(0.25)
    say(f"{what}: all {total} done")


def _reference_version(
    owner: Player, name: str, variant: str, say: Callable[[str], None]
) -> BotVersion:
    bot_name = f"{name}-{variant}"
    bot = Bot.objects.filter(owner=owner, name=bot_name).first()
    if bot is None:
        bot = services.bot_create(
            owner=owner,
            name=bot_name,
            variant=variant,
            description=f"The reference {name} bot for {variant}.",
        )
        source = reference_bots(load_game(variant))[name].read_bytes()
        services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    version = bot.versions.order_by("-number").first()
    assert version is not None
    return version


def _pending(versions: Sequence[BotVersion]) -> int:
    return BotVersion.objects.filter(
        pk__in=[v.pk for v in versions], status=BotVersion.Status.PENDING
    ).count()


def _unfinished(matches: Sequence[Match]) -> int:
    return Match.objects.filter(
        pk__in=[m.pk for m in matches], status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
    ).count()


def seed(
    say: Callable[[str], None] = print,
    variants: Sequence[str] | None = None,
    *,
    boards: int = DEMO_BOARDS,
) -> None:
    """Create the demo arena; does nothing that is already there. ``boards``: of each match
    of a partnership game (the others play two)."""
    submitted: dict[str, list[BotVersion]] = {}
    for variant in variant_names() if variants is None else variants:
        for name in reference_bots(load_game(variant)):
            username, display_name = _OWNERS.get(name, (name, name.title()))
            owner = _player(username, display_name, say)
            submitted.setdefault(variant, []).append(_reference_version(owner, name, variant, say))
    every_version = [v for versions in submitted.values() for v in versions]
    wait_until(lambda: _pending(every_version), "bot validation", say, len(every_version))
    matches: list[Match] = []
    for variant, versions in submitted.items():
        game = load_game(variant)
        active = list(
            BotVersion.objects.filter(
                pk__in=[v.pk for v in versions], status=BotVersion.Status.ACTIVE
            ).select_related("bot")
        )
        for version in versions:
            if version.pk not in {v.pk for v in active}:
                version.refresh_from_db()
                say(f"bot {version.bot.name} v{version.number}: {version.status}")
        for x, y in itertools.combinations(active, 2):
            if not Match.objects.filter(version_x=x, version_y=y).exists():
                count = boards if game.partnership else 2
                match = match_create(version_x=x, version_y=y, boards=count)
                say(f"match {match.pk} {variant}: {x.bot.name} vs {y.bot.name}, {count} boards")
                matches.append(match)
    wait_until(lambda: _unfinished(matches), "demo matches", say, len(matches))
    for variant in submitted:
        # Each match refits its variant as it completes; this only confirms the fit.
        repaired = services.ratings_refit(variant=variant)
        say(f"{variant}: ratings fitted on the boards played ({repaired} repaired)")
