"""Ratings fitted on boards: an interval on every rating, a board tally on every change.

Existing changes get their tallies from their match's board results; the ratings themselves
are rebuilt by ``manage.py recompute_ratings`` (until then each shows a zero-width interval).
"""

from django.db import migrations, models


def tally_existing_changes(apps, schema_editor):
    RatingChange = apps.get_model("arena", "RatingChange")
    for change in RatingChange.objects.select_related("rating", "match"):
        sign = 1 if change.rating.version_id == change.match.version_x_id else -1
        results = [sign * result for result in change.match.board_results]
        change.wins = sum(1 for result in results if result > 0)
        change.losses = sum(1 for result in results if result < 0)
        change.draws = len(results) - change.wins - change.losses
        change.save(update_fields=["wins", "draws", "losses"])


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0005_match_publish_pending_idempotency_record"),
    ]

    operations = [
        migrations.RemoveField(model_name="rating", name="bt_rating"),
        migrations.RemoveField(model_name="rating", name="bt_low"),
        migrations.RemoveField(model_name="rating", name="bt_high"),
        migrations.RemoveField(model_name="rating", name="provisional"),
        migrations.RemoveField(model_name="ratingchange", name="k_factor"),
        migrations.AddField(
            model_name="rating",
            name="elo_low",
            field=models.FloatField(default=0.0, help_text="the 95% interval's lower end"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="rating",
            name="elo_high",
            field=models.FloatField(default=0.0, help_text="the 95% interval's upper end"),
            preserve_default=False,
        ),
        migrations.RunSQL(
            "UPDATE arena_rating SET elo_low = elo, elo_high = elo", migrations.RunSQL.noop
        ),
        migrations.AddField(
            model_name="rating",
            name="boards_to_separate",
            field=models.PositiveIntegerField(
                blank=True,
                null=True,
                help_text="more boards against the next version below that would make the gap "
                "significant at 95% (0: it is; 1000000: a million or more; empty: no version "
                "below in the same pool)",
            ),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="wins",
            field=models.PositiveIntegerField(
                default=0, help_text="boards this version won in the match"
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="draws",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="losses",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.RunPython(tally_existing_changes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="ratingchange",
            name="score",
            field=models.FloatField(
                help_text="points per board in the match, a draw counting 1/2"
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="expected",
            field=models.FloatField(
                help_text="the score per board expected from the ratings before"
            ),
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.CheckConstraint(
                condition=models.Q(elo_low__lte=models.F("elo"), elo__lte=models.F("elo_high")),
                name="rating_inside_its_interval",
            ),
        ),
    ]
