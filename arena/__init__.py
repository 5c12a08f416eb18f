"""Pinochle Arena: the Django project package and the arena app.

The Celery application is loaded by the app config (arena.apps), not here, so that
``arena.sandbox`` can be imported without Django or Celery.
"""
