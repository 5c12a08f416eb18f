"""Leagues may be played as a knockout: the format's choice and its check."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0004_rule_overrides_of_the_variants_game'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='league',
            name='league_format_valid',
        ),
        migrations.AlterField(
            model_name='league',
            name='format',
            field=models.CharField(choices=[('round_robin', 'Round robin'), ('double_round_robin', 'Double round robin'), ('swiss', 'Swiss'), ('ladder', 'Ladder'), ('knockout', 'Knockout')], max_length=20),
        ),
        migrations.AddConstraint(
            model_name='league',
            constraint=models.CheckConstraint(condition=models.Q(('format__in', ['round_robin', 'double_round_robin', 'swiss', 'ladder', 'knockout'])), name='league_format_valid'),
        ),
    ]
