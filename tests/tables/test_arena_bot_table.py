"""A human against an arena bot version: its moves come from a real worker, in the sandbox."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.test import Client

from arena.models import Player
from tables import challenges, referee, services
from tables.models import Challenge, PlayTable
from tests.arena.conftest import PASSWORD, RANDOM_BOT, active_version
from tests.arena.workers import celery_worker, require_sandbox, require_worker_services, wait_for
from tests.leagues.conftest import ready_version

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_an_arena_bots_moves_reach_the_page_from_the_worker(tmp_path: Path, alice: Player) -> None:
    require_worker_services()
    require_sandbox()
    version = active_version(alice, "rival", RANDOM_BOT, variant="twohand")
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    rng = random.Random(4)
    with celery_worker(tmp_path, SANDBOX_MODE="bubblewrap"):
        # The dealer's opponent leads (RULES.md section 7.1): with dealer 0 the bot at seat
        # 1 moves first, from the worker.
        table = services.table_start(
            owner=alice.user,
            variant="twohand",
            seed=21,
            dealer=0,
            human_seat=0,
            bots=[{"kind": "arena", "version": version.pk}],
        )
        assert table.ply == 0
        turns = 0
        while True:
            wait_for(
                lambda: services.hand_of(PlayTable.objects.get(pk=table.pk)).current in (0, None)
                or PlayTable.objects.get(pk=table.pk).is_over,
                120,
                "the worker's bot to move",
            )
            table.refresh_from_db()
            # What the page polls: the fragment shows the table at the worker's latest ply.
            fragment = client.get(f"/play/tables/{table.pk}/state/?seen={table.ply}")
            assert f'data-ply="{table.ply}"' in fragment.content.decode()
            if table.is_over:
                break
            turns += 1
            hand = services.hand_of(table)
            legal = [str(action) for action in hand.state.legal_actions]
            services.table_act(
                table_id=table.pk, user=alice.user, action=rng.choice(legal), ply=table.ply
            )
    assert table.status == PlayTable.Status.FINISHED
    assert table.result["fault"] is None, table.result
    assert turns >= 10
    replayed = services.hand_of(table)
    assert replayed.state.is_terminal()
    assert table.result["side_scores"] == list(replayed.state.result().team_scores)


def test_a_challenge_of_an_arena_bot_is_compared_by_the_worker(
    tmp_path: Path, alice: Player
) -> None:
    require_worker_services()
    require_sandbox()
    version = ready_version(alice, "rival", RANDOM_BOT, variant="twohand")
    rng = random.Random(8)
    with celery_worker(tmp_path, SANDBOX_MODE="bubblewrap"):
        challenge = challenges.challenge_create(
            owner=alice.user,
            variant="twohand",
            opponent={"kind": "arena", "version": version.pk},
            boards=1,
        )
        (row,) = challenges.challenge_tables(challenge)
        table = row.play_table
        while not table.is_over:
            wait_for(
                lambda: services.hand_of(PlayTable.objects.get(pk=table.pk)).current
                in (table.human_seat, None)
                or PlayTable.objects.get(pk=table.pk).is_over,
                120,
                "the worker's bot to move",
            )
            table.refresh_from_db()
            if table.is_over:
                break
            legal = [str(action) for action in services.hand_of(table).state.legal_actions]
            services.table_act(
                table_id=table.pk, user=alice.user, action=rng.choice(legal), ply=table.ply
            )
            table.refresh_from_db()
        # Reading the challenge sends the bot-only table to the worker (play.challenge_par):
        # the version plays every seat there, in the sandbox, and the match is scored.
        challenges.challenge_settle(challenge_id=challenge.pk)
        wait_for(
            lambda: Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.FINISHED,
            300,
            "the worker to play the bot-only table",
        )
    (row,) = challenges.challenge_tables(Challenge.objects.get(pk=challenge.pk))
    assert row.comparison_sent is not None
    assert row.comparison["seats"] == [{"kind": "arena", "version": version.pk}] * 2
    assert row.comparison["fault"] is None, row.comparison["fault"]
    replayed = referee.rebuild(
        "twohand",
        rules=table.rules,
        seed=table.seed,
        dealer=table.dealer,
        actions=row.comparison["actions"],
    )
    assert referee.side_scores(replayed) == row.comparison["side_scores"]
    assert Challenge.objects.get(pk=challenge.pk).board_results == [
        challenges.row_result(challenge, row)
    ]
