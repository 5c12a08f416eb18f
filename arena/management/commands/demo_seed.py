"""Populate an empty arena with demo players and bots, through the same services as the API."""

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
        summary = demo.seed()
        for line in summary:
            self.stdout.write(line)
