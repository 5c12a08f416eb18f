"""The settings as the type checker loads them: django-stubs' mypy plugin imports the
settings module, and ``config.settings`` refuses to load without a ``SECRET_KEY``
(DEBUG off). A placeholder key lets ``mypy`` run with no environment; nothing else differs,
and nothing is reached (no database, broker or cache). Never a deployment's settings."""

import os

os.environ.setdefault("SECRET_KEY", "type-check-only-secret-key")

from config.settings import *  # noqa: F403
