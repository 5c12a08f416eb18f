"""The arena app: bots, their versions, matches run in the sandbox, ratings and replays.

The Celery application (``config.celery``) is loaded by the app config (arena.apps),
not here, so that ``arena.sandbox`` can be imported without Django or Celery.
"""
