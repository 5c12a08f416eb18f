"""The Django project: settings, the root URL configuration, the ASGI/WSGI entry points and
the Celery application (``celery -A arena.project worker``).

Apart from the apps it configures. The Celery application is loaded by the arena app's
config (``arena.apps``), not here, so that reading ``arena.project.env`` or the settings
does not start Celery.
"""
