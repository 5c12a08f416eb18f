"""Worker-side Celery settings (`celery -A arena worker --config deploy.celery_worker`).

A match occupies a worker for minutes and plays bots in sandboxes, so a worker takes one
task at a time and acknowledges it only when done: a worker that dies mid-match leaves the
message to be delivered again, and the task's claim makes the second delivery safe.
"""

worker_concurrency = 1
worker_prefetch_multiplier = 1
task_acks_late = True
task_reject_on_worker_lost = True
# Longer than the longest match, or Redis hands an unacknowledged match to a second worker.
broker_transport_options = {"visibility_timeout": 6 * 3600}
worker_max_tasks_per_child = 200
