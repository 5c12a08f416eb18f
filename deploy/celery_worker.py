"""The Celery application as a production worker runs it (`celery -A deploy.celery_worker worker`).

A match occupies a worker for minutes and plays bots in sandboxes, so a worker takes one
task at a time and acknowledges it only when done (acks_late and the broker's visibility
timeout are project settings, in config/settings.py): a worker that dies mid-match leaves
the message to be delivered again, and the task's claim makes the second delivery safe.

``ARENA_WORKER_QUEUES`` says which of the two queues (arena/queues/routing.py) the worker consumes:
``interactive`` (uploads' validation, challenges, arena bots' moves at human tables, pars,
the short periodic jobs), ``background`` (matchmaking and league matches, rating refits) or
both, comma-separated; unset, both. A pool of ``interactive`` workers is what keeps a
person's work from waiting behind an hour of matchmaking matches (deploy/README.md).

These settings are applied to the application itself rather than read through
`celery --config`: the arena app configures itself from Django's settings, which makes
Celery ignore a `--config` module without a word.
"""

import os

from kombu import Exchange, Queue

from arena.queues.routing import background_queue, interactive_queue
from config.celery import app

QUEUE_NAMES = {"interactive": interactive_queue, "background": background_queue}


def worker_queues(selection: str) -> list[Queue]:
    """The queues named by ``ARENA_WORKER_QUEUES``, declared as Celery declares a queue it
    sends to (an exchange of the same name, routed by the name)."""
    chosen = [part.strip() for part in selection.split(",") if part.strip()] or list(QUEUE_NAMES)
    unknown = sorted(set(chosen) - set(QUEUE_NAMES))
    if unknown:
        raise ValueError(
            f"ARENA_WORKER_QUEUES names {', '.join(unknown)}; "
            f"the queues are {', '.join(QUEUE_NAMES)}"
        )
    names = [QUEUE_NAMES[part]() for part in dict.fromkeys(chosen)]
    return [Queue(name, Exchange(name), routing_key=name) for name in names]


WORKER_SETTINGS = {
    "worker_concurrency": 1,
    "worker_prefetch_multiplier": 1,
    "task_acks_late": True,
    "task_reject_on_worker_lost": True,
    # A fresh child process now and then returns whatever memory the bots' games left behind.
    "worker_max_tasks_per_child": 200,
    # The queues a worker consumes when started without -Q.
    "task_queues": worker_queues(os.environ.get("ARENA_WORKER_QUEUES", "")),
}
app.conf.update(WORKER_SETTINGS)

__all__ = ["app"]
