"""An arena bot version's decision at a human's table: one sandboxed process per decision.

The process is started as the match runner starts one (arena.runner: the version's files,
``python -m bots.sdk``, the deployment's sandbox), hears everything its seat heard so far,
answers one ``act``, and is stopped. A worker holds no bot between decisions, so a lost
worker loses nothing.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from arena.models import BotVersion
from arena.runner import SDK_LAUNCHER, VersionFiles, materialise
from arena.sandbox import BotConnection, BotProcess, PlainProcess
from arena.sandbox.deployment import sandbox_config, use_sandbox
from bots import protocol
from bots.protocol import ProtocolViolation
from bots.table import SeatFault
from tables.referee import ARENA_CLOCK, Hand, act_request, bot_messages


def arena_move(hand: Hand, seat: int, *, version: BotVersion, variant: str) -> str:
    """The action the version chooses at ``seat``; a BotFault or SeatFault if it fails."""
    config = sandbox_config()
    limits = dataclasses.replace(
        config.limits,
        decision_s=ARENA_CLOCK.decision_ms / 1000,
        time_bank_s=ARENA_CLOCK.bank_ms / 1000,
        startup_s=ARENA_CLOCK.startup_ms / 1000,
    )
    config = dataclasses.replace(config, limits=limits)
    kind = BotProcess if use_sandbox() else PlainProcess
    hello, *told = bot_messages(hand, seat, variant=variant)
    files = VersionFiles(version.pk, version.kind, bytes(version.source))
    with tempfile.TemporaryDirectory(prefix="arena-play-") as scratch:
        directory = materialise(files, Path(scratch) / "bot")
        connection: BotConnection = kind.start(
            config, directory, hello=hello, launcher=SDK_LAUNCHER
        )
        try:
            protocol.read_ready(connection.hello_reply)
            for message in told:
                connection.send(message)
            request, legal = act_request(hand, seat)
            reply = connection.request(request)
            return protocol.read_action(
                reply, request_id=1, legal=set(legal), parse=hand.game.parse_action
            )
        except ProtocolViolation as violation:
            raise SeatFault(str(violation)) from None
        finally:
            connection.close()
