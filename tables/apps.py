from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Human tables: a person plays a hand with bots, and challenges bots to a match."""

    name = "tables"
    # The label the app had before it was named for what it is: its database tables,
    # migration history and permissions are keyed by it.
    label = "play"
    verbose_name = "Play against bots"
    default_auto_field = "django.db.models.BigAutoField"
