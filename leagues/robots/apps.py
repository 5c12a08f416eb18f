from django.apps import AppConfig


class RobotsConfig(AppConfig):
    name = "leagues.robots"
    label = "robots"
    verbose_name = "Robot duplicate events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from leagues.play.seals import seal_with
        from leagues.robots.selectors import table_seal

        # An entrant's own table shows the board's hands no sooner than its traveller does.
        seal_with(table_seal)
