"""Populate an empty arena with players, reference bots, matches and ratings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from arena import demo


class Command(BaseCommand):
    help = "Create demo players, bots and bot versions (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", "arena-admin")
        demo.seed(say=self.stdout.write)
