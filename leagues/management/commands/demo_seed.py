"""Populate an empty service with demo content: the arena, a league and a tournament."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from arena import demo as arena_demo
from leagues import demo as leagues_demo
from leagues.tournaments import demo as tournaments_demo


class Command(BaseCommand):
    help = "Create demo players, reference bots, matches, a league and a tournament (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", "arena-admin")
        arena_demo.seed(say=self.stdout.write)
        leagues_demo.seed(say=self.stdout.write)
        tournaments_demo.seed(say=self.stdout.write)
