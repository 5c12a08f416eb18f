"""Running players' bots: sandboxed processes for submitted bots, plain ones for trusted.

Pure Python on purpose (standard library and pyseccomp only): the match runner uses it
through Django, and tests and benchmarks use it without.

    config = SandboxConfig(runtime_packages=("/srv/arena/engine", "/srv/arena/bots"))
    with BotProcess.start(config, bot_dir, hello={"id": 0, "type": "hello"}) as bot:
        reply = bot.request({"id": 1, "type": "act", ...}, deadline_s=1.0)
"""

from arena.sandbox.config import GIB, KIB, MIB, Limits, SandboxConfig
from arena.sandbox.connection import BotConnection
from arena.sandbox.errors import (
    BotCpuExceeded,
    BotCrashed,
    BotFault,
    BotMemoryExceeded,
    BotProtocolError,
    BotTimeout,
    ConfigError,
    InfrastructureFault,
    SandboxError,
    SandboxStartError,
)
from arena.sandbox.inprocess import InProcessBot
from arena.sandbox.process import BotProcess, PlainProcess, sandbox_problems

__all__ = [
    "GIB",
    "KIB",
    "MIB",
    "BotConnection",
    "BotCpuExceeded",
    "BotCrashed",
    "BotFault",
    "BotMemoryExceeded",
    "BotProcess",
    "BotProtocolError",
    "BotTimeout",
    "ConfigError",
    "InProcessBot",
    "InfrastructureFault",
    "Limits",
    "PlainProcess",
    "SandboxConfig",
    "SandboxError",
    "SandboxStartError",
    "sandbox_problems",
]
