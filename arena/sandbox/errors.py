"""Why a bot run stopped: the bot's fault, or the machine's.

Callers record a `BotFault` against the bot (its `reason` is fit for the owner's log) and
retry on an `InfrastructureFault` (nothing the bot did caused it).
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base of every error raised by the sandbox."""


class ConfigError(SandboxError, ValueError):
    """A sandbox setting is missing, unknown or malformed."""


class BotFault(SandboxError):
    """The bot broke a rule; `reason` is a short sentence for the record."""

    def __init__(self, reason: str, *, stderr: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.stderr = stderr


class BotTimeout(BotFault):
    """The bot did not answer within its decision deadline, time bank or start-up budget."""


class BotCrashed(BotFault):
    """The bot's process exited or closed its output before answering."""


class BotProtocolError(BotFault):
    """The bot's output is not one JSON object per line answering the current request."""


class BotMemoryExceeded(BotFault):
    """The bot was stopped for using more memory than its limit."""


class BotCpuExceeded(BotFault):
    """The bot used up its CPU-time limit."""


class InfrastructureFault(SandboxError):
    """The machine could not run the bot; the same run may succeed later or elsewhere."""


class SandboxStartError(InfrastructureFault):
    """The sandbox could not be set up (bubblewrap, bot user, cgroups, interpreter)."""
