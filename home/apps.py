from django.apps import AppConfig


class HomeConfig(AppConfig):
    """The site's front: the home page, players' pages and the demo's seeding of every app.

    It sits above every other app (pyproject's import contracts), since a player's page and
    the home page gather what the apps below hold.
    """

    name = "home"
    verbose_name = "Home"
    default_auto_field = "django.db.models.BigAutoField"
