"""A league's rule overrides keep only parameters of its variant's game.

Each pinochle game now has rules of its own, and an override naming another game's
parameter is refused. The parameters dropped here never changed a hand: the flat rules
of the releases before refused every other-game parameter that could (a widow outside
three-hand, a stock outside two-hand, passing outside four-hand) unless it held its
default, so what is left out (the widow's visibility outside three-hand, the bidding of
two-hand) was set to no effect. The lists are those releases' own, written out here so
that this migration does not move with the engine.
"""

from django.db import migrations

_STOCK = ("cards_each", "turned_dix", "dix_exchange")
_WIDOW = ("widow", "widow_public", "bury_meld_cards")
_AUCTION = (
    "bid_ladder",
    "bid_max",
    "max_raise_rungs",
    "all_pass",
    "trump_needs_marriage",
    "throw_in",
)
_PASSING = ("pass_count", "pass_with_help")

NOT_OF_THE_GAME = {
    "single4": _WIDOW + _STOCK,
    "auction4": _WIDOW + _STOCK,
    "double4": _WIDOW + _STOCK,
    "cutthroat3": _PASSING + _STOCK,
    "twohand": _AUCTION + _PASSING + _WIDOW,
}


def keep_the_games_own(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    for league in League.objects.exclude(rule_overrides={}):
        dropped = NOT_OF_THE_GAME.get(league.variant, ())
        kept = {k: v for k, v in league.rule_overrides.items() if k not in dropped}
        if kept != league.rule_overrides:
            league.rule_overrides = kept
            league.save(update_fields=["rule_overrides"])


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_variant_choices_from_registry"),
    ]

    operations = [
        migrations.RunPython(keep_the_games_own, migrations.RunPython.noop),
    ]
