"""The game variants a bot can be written for (RULES.md sections 6 to 8).

They are the engine registry's (``engine.registry``): a variant registered there is
offered here, and the database columns take their choices from ``variant_choices``, a
callable, so that a new variant needs no migration.
"""

from __future__ import annotations

from django.db import models

from engine.registry import variant_choices, variant_names

__all__ = ["Variant", "variant_choices", "variant_names"]

Variant = models.TextChoices(  # type: ignore[call-overload]  # the functional API with (value, label) pairs is not in the stubs
    "Variant", [(name.upper(), (name, label)) for name, label in variant_choices()]
)
"""The variants registered at start-up as Django choices, for typing and the API schema.

Code that checks or lists variants calls ``variant_names()`` or ``variant_choices()``
instead, when it runs: a variant registered later is then offered and accepted at once.
"""
