"""Populate an empty service with demo content: the arena, a league and a tournament."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from arena import demo as arena_demo
from leagues import demo as leagues_demo
from robot_events import demo as robots_demo
from tournaments import demo as tournaments_demo

DEMO_ADMIN = ("admin", "arena-admin")


class Command(BaseCommand):
    help = (
        "Create demo players, reference bots, matches, a league, a tournament and a robot "
        "duplicate event (idempotent). "
        "Only with DEBUG on: the demo accounts' passwords are published."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            # Every demo account, the administrator's included, has a password printed in the
            # README: in a real database they would be open doors.
            raise CommandError(
                "demo_seed creates accounts with published passwords and refuses to run with "
                "DEBUG off; it is for `make demo` only. For a real deployment, create the "
                "administrator with `python manage.py createsuperuser`."
            )
        User = get_user_model()
        username, password = DEMO_ADMIN
        if not User.objects.filter(username=username).exists():
            User.objects.create_superuser(username, f"{username}@example.com", password)
        # The tournaments first: they are played here, in a minute, while the arena's
        # matches wait for the worker.
        tournaments_demo.seed(say=self.stdout.write)
        robots_demo.seed(say=self.stdout.write)
        arena_demo.seed(say=self.stdout.write)
        leagues_demo.seed(say=self.stdout.write)
        self.stdout.write("demo: everything is in place")
