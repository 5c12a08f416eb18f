from django.apps import AppConfig


class RobotsConfig(AppConfig):
    name = "leagues.robots"
    label = "robots"
    verbose_name = "Robot duplicate events"
    default_auto_field = "django.db.models.BigAutoField"
