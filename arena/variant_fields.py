"""Variant fields that read the engine registry when they are used, not when imported.

The database columns take their choices from ``variant_choices``, a callable; these do the
same for the API and the forms, so a variant registered after start-up (a new game's
``register_game``) is accepted everywhere at once. ``REGISTERED_VARIANTS`` is a lazy
choices iterable for Django forms and django-filter; ``VariantChoiceField`` is the DRF
field (DRF copies its choices when built, so it looks again on each use).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.choices import BaseChoiceIterator
from rest_framework import serializers

from engine.registry import variant_choices

__all__ = ["REGISTERED_VARIANTS", "RegisteredVariants", "VariantChoiceField"]


class RegisteredVariants(BaseChoiceIterator):
    """``(variant, label)`` for every registered variant, listed afresh on each iteration."""

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(variant_choices())


REGISTERED_VARIANTS = RegisteredVariants()
"""The choices of a form or filter field of variants (a lazy iterable, not a snapshot)."""


class VariantChoiceField(serializers.ChoiceField):
    """A registered variant, checked against the registry as it is when the field is used."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=variant_choices(), **kwargs)

    def _refresh(self) -> None:
        current = variant_choices()
        if dict(current) != self._choices:
            self._set_choices(current)

    def _get_choices(self) -> dict[Any, Any]:
        self._refresh()
        return self._choices

    choices = property(_get_choices, serializers.ChoiceField._set_choices)

    def to_internal_value(self, data: Any) -> Any:
        self._refresh()
        return super().to_internal_value(data)

    def to_representation(self, value: Any) -> Any:
        self._refresh()
        return super().to_representation(value)

    def iter_options(self) -> Iterable[Any]:
        self._refresh()
        return super().iter_options()
