from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues and tournaments"
    default_auto_field = "django.db.models.BigAutoField"
