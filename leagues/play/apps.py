from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "leagues.play"
    label = "play"
    verbose_name = "Play against bots"
    default_auto_field = "django.db.models.BigAutoField"
