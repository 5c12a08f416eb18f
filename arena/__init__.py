"""Pinochle Arena: the arena app, with the Django project that configures it in ``project``.

The Celery application (``arena.project.celery``) is loaded by the app config (arena.apps),
not here, so that ``arena.sandbox`` can be imported without Django or Celery.
"""
