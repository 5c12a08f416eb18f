"""Celery tasks: each takes ids and calls one service; all are safe to deliver twice."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.app.task import Task
from django.conf import settings

from arena import services
from arena.http.quotas import slots
from arena.queues import broker_contents
from arena.sandbox import InfrastructureFault
from arena.services.matches import match_fail
from arena.services.matchmaking import matchmaking_pair
from arena.variants import variant_names

logger = logging.getLogger(__name__)


def _backoff(retries: int) -> int:
    return int(min(600, 5 * 2**retries))


def _retry_or_give_up(task: Task[[int], str], fault: InfrastructureFault) -> bool:
    """Schedule a retry with backoff (raises), or return True when retries are used up.

    In-process execution (no broker) cannot schedule anything: the work is left for the
    periodic re-queue and the caller is not disturbed.
    """
    if task.request.is_eager:
        logger.error("%s: infrastructure fault, left for a later retry: %s", task.name, fault)
        return False
    if task.request.retries >= settings.MATCH_MAX_RETRIES:
        return True
    raise task.retry(exc=fault, countdown=_backoff(task.request.retries))


@shared_task(bind=True, name="arena.bot_version_validate", max_retries=None)
def bot_version_validate_task(self: Task[[int], str], version_id: int) -> str:
    try:
        version = services.bot_version_validate(version_id=version_id)
    except InfrastructureFault as fault:
        if _retry_or_give_up(self, fault):
            logger.error("validation of version %s gave up: %s", version_id, fault)
            return "gave up"
        return "deferred"
    return "skipped" if version is None else version.status


@shared_task(bind=True, name="arena.match_run", max_retries=None)
def match_run_task(self: Task[[int], str], match_id: int) -> str:
    try:
        return services.match_run(match_id=match_id)
    except InfrastructureFault as fault:
        # Infrastructure faults are retried with backoff and never scored or rated.
        if _retry_or_give_up(self, fault):
            match_fail(match_id=match_id, error=f"gave up after retries: {fault}")
            return "failed"
        return "deferred"


@shared_task(name="arena.match_requeue_stale")
def match_requeue_stale_task() -> int:
    broker = broker_contents.read()
    return len(services.match_requeue_stale(broker=broker)) + len(
        services.bot_version_requeue_stale(broker=broker)
    )


@shared_task(name="arena.quota_slots_purge")
def quota_slots_purge_task() -> int:
    return slots.purge()


@shared_task(name="arena.matchmaking")
def matchmaking_task() -> int:
    return sum(len(matchmaking_pair(variant=variant)) for variant in variant_names())


@shared_task(name="arena.ratings_fit")
def ratings_fit_task() -> int:
    """Refit each variant from its stored boards; returns the ratings that had to be repaired
    (each match refits its variant on completion, so this is normally 0)."""
    return sum(services.ratings_refit(variant=variant) for variant in variant_names())
