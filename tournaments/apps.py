from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "tournaments"
    verbose_name = "Duplicate tournaments"
    default_auto_field = "django.db.models.BigAutoField"
