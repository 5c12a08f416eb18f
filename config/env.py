"""Strict readers for configuration taken from the environment.

A misspelt boolean or a malformed URL must stop the process at start-up with a message
naming the variable, not silently fall back to a default: a production worker that
quietly runs with DEBUG on, or against SQLite, is worse than one that refuses to start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

from arena.http.quotas.rates import Rate

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(
    name: str, default: str | None = None, *, env: Mapping[str, str] | None = None
) -> str | None:
    source = os.environ if env is None else env
    value = source.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip()


def env_bool(name: str, default: bool, *, env: Mapping[str, str] | None = None) -> bool:
    value = env_str(name, env=env)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {sorted(_TRUE | _FALSE)}"
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    value = env_str(name, env=env)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    return number


def env_rate(name: str, default: str, *, env: Mapping[str, str] | None = None) -> str:
    """A quota's rate, ``N/period`` (arena.http.quotas.rates), checked now rather than at the first
    request that needs it."""
    value = env_str(name, env=env) or default
    try:
        Rate.parse(value)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}={value!r}: {error}") from None
    return value


def env_list(name: str, default: list[str], *, env: Mapping[str, str] | None = None) -> list[str]:
    value = env_str(name, env=env)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(
            f"{name}={value!r} has an empty item in its comma-separated list"
        )
    return items


def env_url(
    name: str,
    *,
    schemes: tuple[str, ...],
    env: Mapping[str, str] | None = None,
) -> str | None:
    value = env_str(name, env=env)
    if value is None:
        return None
    scheme, sep, rest = value.partition("://")
    if not sep or not rest or scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a URL with one of the schemes {', '.join(schemes)}"
        )
    return value


def env_choice(
    name: str, default: str, *, choices: tuple[str, ...], env: Mapping[str, str] | None = None
) -> str:
    value = env_str(name, env=env)
    if value is None:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(choices)}")
    return value


def env_prefixed(
    prefix: str, *, exclude: tuple[str, ...] = (), env: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Every set variable starting with ``prefix``, keyed by the rest of its name in lower case."""
    source = os.environ if env is None else env
    return {
        name[len(prefix) :].lower(): value
        for name, value in source.items()
        if name.startswith(prefix) and name not in exclude and value.strip()
    }
