from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Arena"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Binds @shared_task to the project's Celery app in every Django process.
        from config import celery  # noqa: F401
