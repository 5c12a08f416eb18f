"""Running players' bots: sandboxed processes for submitted bots, plain ones for trusted.

Pure Python on purpose (standard library and pyseccomp only): the match runner uses it
through Django, and tests and benchmarks use it without. The one module that reads Django's
settings, ``deployment`` (the sandbox as this deployment configures it), is not imported
here, so that the package stays importable without Django.

    config = SandboxConfig(runtime_packages=("/srv/arena/engine", "/srv/arena/bots"))
    with BotProcess.start(
        config, "/srv/uploads/1234/bot.py", launcher="bots.sdk", hello={"id": 0, ...}
    ) as bot:
        bot.send({"type": "hand_start", ...})
        reply = bot.request({"id": 1, "type": "act", ...}, deadline_s=1.0)

A BotFault (BotTimeout, BotCrashed, BotProtocolError, BotMemoryExceeded, BotCpuExceeded)
is the bot's doing: record its `reason`. An InfrastructureFault (SandboxStartError) is
the machine's: retry. `sandbox_problems(config)` says whether this host can sandbox at
all; deploy/sandbox-setup.sh prepares it.
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
