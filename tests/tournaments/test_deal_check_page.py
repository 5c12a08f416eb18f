"""The deal-check page: the commitment before, the secret after, and a check anyone can run."""

from __future__ import annotations

import html
import re
import subprocess
import sys

from django.test import Client

from arena.models import Player
from tournaments import services
from tournaments.models import Board

from .conftest import play_all, running_event


def test_the_page_shows_the_commitment_and_keeps_the_secret_until_the_end(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    page = Client().get(f"/tournaments/{event.pk}/verification/").content.decode()
    assert event.commitment in page
    assert event.secret not in page
    assert "<pre" not in page


def test_the_published_check_rederives_every_board_with_the_standard_library(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    play_all(event)
    services.event_finish(event=event, by=alice)
    page = Client().get(f"/tournaments/{event.pk}/verification/").content.decode()
    assert event.secret in page
    snippet = html.unescape(
        re.search(r"<pre class=\"snippet\"><code>(.*?)</code></pre>", page, re.S)[1]
    )
    # Run as a reader would: a fresh interpreter with nothing of ours on its path.
    ran = subprocess.run(
        [sys.executable, "-I", "-c", snippet], capture_output=True, text=True, check=True
    )
    seeds = [board.seed for board in Board.objects.filter(event=event).order_by("number")]
    assert ran.stdout.strip() == str(seeds)
