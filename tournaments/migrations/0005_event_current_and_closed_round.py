from django.db import migrations, models


def started_events_keep_every_round_open(apps, schema_editor):
    # Events started before rounds were tracked stay open to every round they have, as
    # they were: their last round is the current one.
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.exclude(status="setup"):
        rounds = [s.rounds for s in event.sections.all() if s.rounds]
        event.current_round = max(rounds, default=1)
        event.save(update_fields=["current_round"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_three_hand_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="current_round",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="the round being played: players enter no later round"
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="closed_round",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="rounds up to this one are closed to players' entries"
            ),
        ),
        migrations.RunPython(
            started_events_keep_every_round_open, migrations.RunPython.noop
        ),
    ]
