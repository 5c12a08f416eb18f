import django_filters

from arena.models import Bot
from arena.variant_fields import REGISTERED_VARIANTS


class BotFilter(django_filters.FilterSet):
    owner = django_filters.CharFilter(
        field_name="owner__user__username", help_text="owner's username"
    )
    variant = django_filters.ChoiceFilter(choices=REGISTERED_VARIANTS)
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Bot
        fields = ["owner", "variant", "name"]
