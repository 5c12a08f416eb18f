"""The tables of daylong events still open stop at the event's end and open at its close.

Tables started before ``PlayTable.plays_until`` existed had no end of play, and were public
from the event's published end (``public_after``), before the close job had ended the
boards still in play. They now follow the rule new tables follow.
"""

from typing import Any

from django.db import migrations


def stop_at_the_end(apps: Any, schema_editor: Any) -> None:
    RobotEvent = apps.get_model("robots", "RobotEvent")
    PlayTable = apps.get_model("play", "PlayTable")
    for event in RobotEvent.objects.filter(closed__isnull=True, closes__isnull=False):
        PlayTable.objects.filter(robot_play__entry__event=event).update(
            plays_until=event.closes, public_after=None
        )


class Migration(migrations.Migration):
    dependencies = [
        ("robots", "0001_initial"),
        ("play", "0005_table_plays_until"),
    ]

    operations = [migrations.RunPython(stop_at_the_end, migrations.RunPython.noop)]
