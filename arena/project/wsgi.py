"""WSGI entry point (`gunicorn arena.project.wsgi`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.project.settings")
application = get_wsgi_application()
