from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """Card tables for people: whole games to the target, seats for people and bots."""

    name = "lobby"
    label = "lobby"
    verbose_name = "Card tables for people"
    default_auto_field = "django.db.models.BigAutoField"
