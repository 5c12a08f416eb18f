"""Which build of the engine this process runs: the compiled core or pure Python.

The compiled core is the modules of ``COMPILED_MODULES`` compiled by mypyc from these
same typed sources (``make engine-compiled``); without it the engine is pure Python
and behaves the same. ``ENGINE_BUILD`` chooses: ``auto`` (the default) takes the
compiled core when it is built and current, ``pure`` never does, ``compiled`` requires
it. The build lives outside the package (``build/engine-native/engine/``, beside a
manifest of its sources' digests) and is put first on the package's path only while
every source still matches, so an edited module always runs as written.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

__all__ = [
    "BUILDS",
    "COMPILED_MODULES",
    "GROUP",
    "MANIFEST",
    "NATIVE_DIR",
    "choose_build",
    "mypyc_attr",
]

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:
        # The engine needs nothing beyond the standard library: without mypyc's package
        # (the bot sandbox, the demo) the class options it reads are no-ops.
        def mypyc_attr(*attrs, **kwattrs):
            return lambda cls: cls


COMPILED_MODULES = (
    "seats",
    "state",
    "tricks",
    "rng",
    "meld",
    "scoring",
    "trickstate",
    "hand",
    "cutthroat",
    "twohand",
)
"""The modules of the compiled core: the hand states and what their play calls."""

GROUP = "engine._native"
"""The name of the compiled core's shared library (``engine._native__mypyc``)."""
MANIFEST = "manifest.json"
PACKAGE_DIR = Path(__file__).resolve().parent
NATIVE_DIR = PACKAGE_DIR.parent / "build" / "engine-native" / "engine"
BUILDS = ("auto", "pure", "compiled")


def source_digest(name: str) -> str:
    """The SHA-256 of the source of the engine module ``name``."""
    return hashlib.sha256((PACKAGE_DIR / f"{name}.py").read_bytes()).hexdigest()


def _unusable() -> str | None:
    """Why the compiled core cannot be used, or ``None`` when it can."""
    try:
        manifest = json.loads((NATIVE_DIR / MANIFEST).read_text())
    except FileNotFoundError:
        return "is not built (make engine-compiled)"
    except (OSError, ValueError) as error:
        return f"has an unreadable manifest ({error})"
    if not isinstance(manifest, dict) or manifest.get("python") != sys.implementation.cache_tag:
        return f"was not built for {sys.implementation.cache_tag}"
    sources = manifest.get("sources")
    if not isinstance(sources, dict) or set(sources) != set(COMPILED_MODULES):
        return "was built from other modules"
    for name in COMPILED_MODULES:
        if sources[name] != source_digest(name):
            return f"is stale: engine/{name}.py changed since it was built"
    return None


def choose_build(package_path: list[str]) -> str:
    """Put the compiled core first on ``package_path`` (the engine's ``__path__``) when
    ``ENGINE_BUILD`` allows and it is usable; the build chosen: ``compiled`` or ``pure``.

    Called by ``engine/__init__.py`` before any compiled module is imported.
    """
    wanted = os.environ.get("ENGINE_BUILD", "auto").strip().lower() or "auto"
    if wanted not in BUILDS:
        raise ImportError(f"ENGINE_BUILD must be one of {', '.join(BUILDS)}, not {wanted!r}")
    if wanted == "pure":
        return "pure"
    reason = _unusable()
    if reason is None:
        package_path.insert(0, str(NATIVE_DIR))
        try:
            importlib.import_module(f"{GROUP}__mypyc")
        except ImportError as error:
            package_path.remove(str(NATIVE_DIR))
            reason = f"does not load ({error})"
        else:
            return "compiled"
    if wanted == "compiled":
        raise ImportError(f"ENGINE_BUILD=compiled, but the compiled engine {reason}")
    return "pure"
