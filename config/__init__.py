"""The Django project: settings, the root URL configuration, the ASGI/WSGI entry points and
the Celery application (``celery -A config worker``).

Apart from the apps it configures. The Celery application is loaded by the arena app's
config (``arena.apps``), not here, so that reading ``config.env`` or the settings
does not start Celery.
"""
