"""No part of the service outside the games' own modules knows a game.

A game is one module of the engine (``engine.interface``): its variants, seats, partners,
dealers, scales and score rules are declared there and read from the registry. So the
service's source and templates (``arena/``, ``bots/`` but for the reference bots, which are
each a game's own player, and ``leagues/``) name no registered variant and hold none of the
arithmetic of a particular table: a modulo of four seats, a partner across the table, a
probe of what a state happens to hold. Each hit is listed as ``file:line``.

Each area is its own case, so that a failure says where the knowledge crept in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine  # noqa: F401  (registers the built-in games)
from engine.registry import variant_names

ROOT = Path(__file__).resolve().parents[1]

AREAS = {
    "arena": ("arena",),
    "bots": ("bots",),
    "leagues": ("leagues",),
    "tournaments": ("tournaments",),
    "robot_events": ("robot_events",),
    "tables": ("tables",),
}
"""Each case's folders; ``leagues`` is the app's own modules, without its sub-apps."""

SUB_APPS = ("tournaments", "robot_events", "tables")

EXCLUDED = ("migrations", "bots/reference")
"""Migrations record the choices of their day; the reference bots are each a game's own."""

SUFFIXES = (".py", ".html", ".js")

PATTERNS = (
    re.compile(r"% 4\b"),
    re.compile(r"\+ 2\) % 4"),
    re.compile(r"\bseat % 2\b"),
    re.compile(r"range\(4\)"),
    re.compile(r"hasattr\(state\b"),
    re.compile(r"[\"']pinochle[234][\"']"),
    re.compile(r"[\"']JK[\"']"),
)
"""A modulo of four seats, a partner across the table or by parity, four seats assumed, a
probe of a state, a game tested by its name, and the joker of one game's pack."""


def _variant_pattern() -> re.Pattern[str]:
    names = sorted(variant_names(), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(name) for name in names) + r")\b")


def _files(area: str) -> Iterator[Path]:
    for folder in AREAS[area]:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if not path.is_file() or path.suffix not in SUFFIXES:
                continue
            if any(part in relative.split("/") or relative.startswith(part) for part in EXCLUDED):
                continue
            if area == "leagues" and relative.startswith(SUB_APPS):
                continue
            yield path


def knowledge_hits(area: str) -> list[str]:
    """``file:line: text`` of every line in ``area`` that names a variant or holds a
    game-specific pattern."""
    patterns = (_variant_pattern(), *PATTERNS)
    hits = []
    for path in _files(area):
        relative = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(pattern.search(line) for pattern in patterns):
                hits.append(f"{relative}:{number}: {line.strip()}")
    return hits


def test_the_search_finds_what_it_looks_for() -> None:
    # The search itself: a variant's name as a word, and each pattern, but not a longer word.
    variant = variant_names()[0]
    lines = [
        f'name = "{variant}"',
        "partner = (seat + 2) % 4",
        "x = f(hasattr(state, 'a'))",
        "team = seat % 2",
        "for seat in range(4):",
        'if rules.game == "pinochle4":',
        'if face === "JK" {',
    ]
    pattern = _variant_pattern()
    assert all(pattern.search(line) or any(p.search(line) for p in PATTERNS) for line in lines)
    assert not pattern.search(f"{variant}x = 1")


@pytest.mark.parametrize("area", list(AREAS))
def test_no_game_knowledge_outside_the_games(area: str) -> None:
    hits = knowledge_hits(area)
    assert not hits, f"{len(hits)} lines of {area} know a game:\n" + "\n".join(hits)
