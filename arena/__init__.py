"""Pinochle Arena: the Django project package and the arena app."""

from arena.celery import app as celery_app

__all__ = ["celery_app"]
