"""The sandbox as this deployment configures it (settings SANDBOX_MODE and SANDBOX_*)."""

from __future__ import annotations

import dataclasses
import logging
from functools import lru_cache

from django.conf import settings

from arena.sandbox import SandboxConfig, sandbox_problems
from engine import kernel

logger = logging.getLogger(__name__)


def sandbox_config() -> SandboxConfig:
    config: SandboxConfig = settings.SANDBOX_CONFIG
    packages = tuple(str(settings.BASE_DIR / name) for name in ("engine", "bots"))
    # The C kernel's build, where there is one, goes beside them (engine.kernel finds it
    # there): a bot's search runs as fast as the reference bots'.
    if (kernel.BUILD_DIR / kernel.MANIFEST).exists():
        packages += (str(kernel.BUILD_DIR),)
    return dataclasses.replace(config, runtime_packages=packages)


def use_sandbox() -> bool:
    """Whether bots run in the sandbox (always in production) or as plain processes.

    ``auto`` (make demo) falls back to plain processes on a machine that cannot sandbox,
    with a warning: fine for the demo's own reference bots, never for strangers' code.
    """
    mode: str = settings.SANDBOX_MODE
    if mode == "bubblewrap":
        return True
    if mode == "plain":
        return False
    return _auto_mode_sandboxes()


@lru_cache(maxsize=1)
def _auto_mode_sandboxes() -> bool:
    problems = sandbox_problems(sandbox_config())
    if problems:
        logger.warning("bots run WITHOUT the sandbox: %s", "; ".join(problems))
    return not problems
