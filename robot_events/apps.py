from django.apps import AppConfig


class RobotEventsConfig(AppConfig):
    name = "robot_events"
    # The label the app had before it was named for what it is: its database tables,
    # migration history and permission (robots.direct_robotevent) are keyed by it.
    label = "robots"
    verbose_name = "Robot duplicate events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from robot_events.selectors import table_seal
        from tables.seals import seal_with

        # An entrant's own table shows the board's hands no sooner than its traveller does.
        seal_with(table_seal)
