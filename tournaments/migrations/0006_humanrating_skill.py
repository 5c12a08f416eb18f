"""Human ratings become openskill skills (mu, sigma) shown on the Elo scale.

An existing Elo rating is carried over as the skill of that Elo value, with a new player's
uncertainty: the Elo system kept none.
"""

import math

from django.db import migrations, models

INITIAL_MU = 25.0
INITIAL_SIGMA = 25.0 / 3.0
ELO_PER_MU = 400.0 / math.log(10.0) / (math.sqrt(2.0) * 25.0 / 6.0)


def carry_over(apps, schema_editor):
    HumanRating = apps.get_model("tournaments", "HumanRating")
    for rating in HumanRating.objects.all():
        rating.mu = INITIAL_MU + (rating.rating - 1500.0) / ELO_PER_MU
        rating.save(update_fields=["mu"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_event_current_and_closed_round"),
    ]

    operations = [
        migrations.AddField(
            model_name="humanrating",
            name="mu",
            field=models.FloatField(default=INITIAL_MU),
        ),
        migrations.AddField(
            model_name="humanrating",
            name="sigma",
            field=models.FloatField(default=INITIAL_SIGMA),
        ),
        migrations.RunPython(carry_over, migrations.RunPython.noop),
    ]
