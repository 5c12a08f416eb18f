from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Arena"
    default_auto_field = "django.db.models.BigAutoField"
