"""The Celery application as a production worker runs it (`celery -A deploy.celery_worker worker`).

A match occupies a worker for minutes and plays bots in sandboxes, so a worker takes one
task at a time and acknowledges it only when done (acks_late and the broker's visibility
timeout are project settings, in arena/settings.py): a worker that dies mid-match leaves
the message to be delivered again, and the task's claim makes the second delivery safe.

These settings are applied to the application itself rather than read through
`celery --config`: the arena app configures itself from Django's settings, which makes
Celery ignore a `--config` module without a word.
"""

from arena.celery import app

WORKER_SETTINGS = {
    "worker_concurrency": 1,
    "worker_prefetch_multiplier": 1,
    "task_acks_late": True,
    "task_reject_on_worker_lost": True,
    # A fresh child process now and then returns whatever memory the bots' games left behind.
    "worker_max_tasks_per_child": 200,
}
app.conf.update(WORKER_SETTINGS)

__all__ = ["app"]
