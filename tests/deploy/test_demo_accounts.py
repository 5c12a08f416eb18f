"""The demo's accounts, whose passwords are published, never reach a production database."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

pytestmark = pytest.mark.django_db


def test_demo_seed_refuses_to_run_with_debug_off(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match=r"refuses to run with DEBUG off.*createsuperuser"):
        call_command("demo_seed")
    assert not get_user_model().objects.exists()
    assert not Client().login(username="admin", password="arena-admin")
