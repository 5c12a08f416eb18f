"""Build the engine's optional compiled core: the same typed modules, compiled by mypyc.

    python deploy/build_engine.py          # or: make engine-compiled

The extension modules go to ``build/engine-native/engine/`` beside a manifest of the
sources they were compiled from; ``engine/native.py`` puts that directory first on the
engine package's path only while every source still matches, so an edited module is
never shadowed by a stale build. Nothing is written inside ``engine/``: the bot sandbox,
which copies the package, keeps the pure-Python engine.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.native import (  # noqa: E402
    COMPILED_MODULES,
    GROUP,
    MANIFEST,
    NATIVE_DIR,
    source_digest,
)

# The modules' own settings only: the project's mypy configuration loads Django's plugin.
_MYPY_CONFIG = "[mypy]\npython_version = 3.11\nstrict = True\n"


def build() -> float:
    """Compile ``COMPILED_MODULES`` into ``NATIVE_DIR``; the seconds it took."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    started = time.monotonic()
    out = NATIVE_DIR.parent
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="engine-native-") as temp:
        config = Path(temp, "mypy.ini")
        config.write_text(_MYPY_CONFIG)
        previous = os.getcwd()
        os.chdir(ROOT)
        try:
            paths = [f"engine/{name}.py" for name in COMPILED_MODULES]
            extensions = mypycify(
                ["--config-file", str(config), *paths],
                opt_level="3",
                group_name=GROUP,
                target_dir=str(Path(temp, "c")),
            )
            distribution = Distribution({"name": "engine-native", "ext_modules": extensions})
            command = distribution.get_command_obj("build_ext")
            command.build_lib = str(out)
            command.build_temp = str(Path(temp, "objects"))
            command.parallel = os.cpu_count() or 1
            distribution.run_command("build_ext")
        finally:
            os.chdir(previous)
    manifest = {
        "python": sys.implementation.cache_tag,
        "sources": {name: source_digest(name) for name in COMPILED_MODULES},
    }
    (NATIVE_DIR / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return time.monotonic() - started


def main() -> None:
    seconds = build()
    modules = ", ".join(COMPILED_MODULES)
    print(f"compiled engine ({modules}) in {seconds:.0f} s: {NATIVE_DIR.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
