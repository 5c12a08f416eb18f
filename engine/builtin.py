"""The built-in games, imported in the order forms and lists show them: each module
declares its game and registers it (``engine.registry``)."""

# The order of these imports is the order of the registry.
# isort: off
import engine.pinochle4
import engine.pinochle3
import engine.pinochle2
import engine.pinnacolo.variants

# isort: on

__all__ = ["BUILTIN_GAMES"]

BUILTIN_GAMES = (
    engine.pinochle4.Pinochle4,
    engine.pinochle3.Pinochle3,
    engine.pinochle2.Pinochle2,
    engine.pinnacolo.variants.Pinnacolo,
)
