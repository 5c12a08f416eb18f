import django_filters
from django import forms

from arena.models import Bot
from arena.variant_fields import REGISTERED_VARIANTS


class IdFilter(django_filters.NumberFilter):
    """An object's id: a whole number. django-filter's NumberFilter reads a decimal, so that
    ``?version=0.5`` would be taken and match nothing instead of being refused."""

    # The stubs type it as NumberFilter's DecimalField; any form field class is taken.
    field_class = forms.IntegerField  # type: ignore[assignment]


class BotFilter(django_filters.FilterSet):
    owner = django_filters.CharFilter(
        field_name="owner__user__username", help_text="owner's username"
    )
    variant = django_filters.ChoiceFilter(choices=REGISTERED_VARIANTS)
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Bot
        fields = ["owner", "variant", "name"]
