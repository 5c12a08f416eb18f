"""Build the engine's optional C kernel, ``engine/_kernel.c``, with gcc and the Python headers.

    python deploy/build_kernel.py          # or: make engine-kernel

The extension module goes to ``build/engine-kernel/`` beside a manifest of the source's
digest; ``engine/kernel.py`` loads it only while the source still matches. Nothing is
written inside ``engine/`` (the bot sandbox copies the package and keeps the pure engine).
Exit status 0 when built, 1 with the reason otherwise: ``make`` goes on without it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.kernel import KERNEL_DIR, MANIFEST, SOURCE, library_path, source_digest  # noqa: E402


def build() -> float:
    """Compile the kernel into ``KERNEL_DIR``; the seconds it took. ``RuntimeError`` says
    why it could not."""
    started = time.monotonic()
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise RuntimeError("no C compiler (gcc)")
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        raise RuntimeError(f"no Python headers in {include} (python3-dev)")
    KERNEL_DIR.mkdir(parents=True, exist_ok=True)
    (KERNEL_DIR / MANIFEST).unlink(missing_ok=True)
    target = library_path()
    temporary = target.with_suffix(".tmp")
    command = [
        compiler,
        "-O3",
        "-shared",
        "-fPIC",
        "-std=c11",
        "-Wall",
        # A function the headers do not declare fails the build, not the load.
        "-Werror=implicit-function-declaration",
        f"-I{include}",
        str(SOURCE),
        "-o",
        str(temporary),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"gcc failed:\n{done.stderr.strip()}")
    temporary.replace(target)
    manifest = {"python": sys.implementation.cache_tag, "source": source_digest()}
    (KERNEL_DIR / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return time.monotonic() - started


def main() -> int:
    try:
        seconds = build()
    except (RuntimeError, OSError) as error:
        print(f"the C kernel was not built: {error}; the pure engine runs", file=sys.stderr)
        return 1
    print(f"built the C kernel in {seconds:.1f} s: {library_path().relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
