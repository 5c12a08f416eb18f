"""Demo content for `make demo`, created through the services the API uses."""

from __future__ import annotations

from arena import services
from arena.models import Bot, Player

DEMO_PASSWORD = "demo-password-2026"

_PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")]

_SAMPLE_MODULE = '''"""A sample bot upload for the demo arena."""


def describe() -> str:
    return "sample"
'''


def seed() -> list[str]:
    lines: list[str] = []
    players: dict[str, Player] = {}
    for username, display_name in _PLAYERS:
        player = Player.objects.filter(user__username=username).first()
        if player is None:
            player = services.player_register(
                username=username, password=DEMO_PASSWORD, display_name=display_name
            )
            lines.append(f"player {username} (password {DEMO_PASSWORD})")
        players[username] = player
    if not Bot.objects.filter(owner=players["alice"], name="sample").exists():
        bot = services.bot_create(
            owner=players["alice"], name="sample", variant="single4", description="A sample upload"
        )
        services.bot_version_submit(bot=bot, data=_SAMPLE_MODULE.encode(), filename="bot.py")
        lines.append("bot alice/sample v1")
    return lines or ["demo data already present"]
