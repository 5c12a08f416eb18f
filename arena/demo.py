"""Demo content for `make demo`, created through the same services and tasks as the API.

Players upload the reference bots as their own bots (validated like any upload), then a
round robin of duplicate matches is played through the match task, and the
Bradley-Terry intervals are fitted, so the leaderboard, matches and replays have content.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from arena import services
from arena.models import Bot, BotVersion, Match, Player
from arena.services.matches import match_create
from arena.variants import PLAYABLE_VARIANTS
from bots.games import game_for

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


def _reference_version(
    owner: Player, name: str, variant: str, say: Callable[[str], None]
) -> BotVersion | None:
    bot_name = f"{name}-{variant}"
    bot = Bot.objects.filter(owner=owner, name=bot_name).first()
    if bot is None:
        bot = services.bot_create(
            owner=owner,
            name=bot_name,
            variant=variant,
            description=f"The reference {name} bot for {variant}.",
        )
        source = game_for(variant).reference_bots[name].read_bytes()
        services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    version = bot.versions.order_by("-number").first()
    assert version is not None
    say(f"bot {owner.user.username}/{bot_name} v{version.number}: {version.status}")
    return version if version.status == BotVersion.Status.ACTIVE else None


def seed(say: Callable[[str], None] = print) -> None:
    """Create the demo arena; does nothing that is already there."""
    for variant in PLAYABLE_VARIANTS:
        game = game_for(variant)
        versions = []
        for name in game.reference_bots:
            username, display_name = _OWNERS.get(name, (name, name.title()))
            version = _reference_version(_player(username, display_name, say), name, variant, say)
            if version is not None:
                versions.append(version)
        for x, y in itertools.combinations(versions, 2):
            if not Match.objects.filter(version_x=x, version_y=y).exists():
                # In the embedded mode the match is played as soon as this commits.
                boards = DEMO_BOARDS if game.partnership else 2
                match = match_create(version_x=x, version_y=y, boards=boards)
                match.refresh_from_db()
                say(
                    f"match {match.pk} {variant}: {x.bot.name} vs {y.bot.name}: {match.status}, "
                    f"board points {match.score_x:+d}"
                    if match.score_x is not None
                    else f"match {match.pk} {variant}: {match.status}"
                )
