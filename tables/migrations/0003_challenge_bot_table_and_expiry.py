"""Challenges compared with a bot-only table, and their expiry.

Challenges already started keep the earlier two-table format (their tables and results stay
as they are) and expire PLAY_CHALLENGE_EXPIRES_S after they were created, as new ones do.
"""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models


def set_expiry(apps, schema_editor):
    Challenge = apps.get_model("play", "Challenge")
    after = timedelta(seconds=settings.PLAY_CHALLENGE_EXPIRES_S)
    for challenge in Challenge.objects.all().only("pk", "created"):
        Challenge.objects.filter(pk=challenge.pk).update(expires=challenge.created + after)


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0002_challenges"),
    ]

    operations = [
        migrations.AddField(
            model_name="challenge",
            name="format",
            field=models.CharField(
                choices=[
                    ("bot_table", "one table a board, compared with the bot at every seat"),
                    ("two_tables", "every table of a board, the human in another seat at each"),
                ],
                default="two_tables",
                help_text="how the boards are compared; two_tables: started before the bot-only table",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="challenge",
            name="format",
            field=models.CharField(
                choices=[
                    ("bot_table", "one table a board, compared with the bot at every seat"),
                    ("two_tables", "every table of a board, the human in another seat at each"),
                ],
                default="bot_table",
                help_text="how the boards are compared; two_tables: started before the bot-only table",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="challenge",
            name="expires",
            field=models.DateTimeField(
                null=True,
                help_text="when the boards not played by then count as the human's forfeits",
            ),
        ),
        migrations.RunPython(set_expiry, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="challenge",
            name="expires",
            field=models.DateTimeField(
                help_text="when the boards not played by then count as the human's forfeits"
            ),
        ),
        migrations.AlterField(
            model_name="challenge",
            name="board_results",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="the human's duplicate result per board: the human side's margin at the human's table minus its margin at the bot-only table (scoring.py); positive: better than the bot",
            ),
        ),
        migrations.AddField(
            model_name="challengetable",
            name="comparison",
            field=models.JSONField(
                blank=True,
                null=True,
                help_text="the board played by the challenged bot at every seat, once the human's table is over: seats, actions, side_scores, hand (the engine's result) and fault",
            ),
        ),
        migrations.AddField(
            model_name="challengetable",
            name="comparison_sent",
            field=models.DateTimeField(
                blank=True, null=True, help_text="when the bot-only table's task was last sent"
            ),
        ),
    ]
