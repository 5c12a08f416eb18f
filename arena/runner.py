"""Plays a duplicate match between two bot versions: no database, only processes.

The match service hands over a :class:`MatchPlan`; this module materialises each version's
files, starts one bot process per seat per table (sandboxed, or plain for trusted bots),
lets :mod:`bots.match` referee the boards, and returns everything that happened. A bot's
fault is part of the outcome; an ``InfrastructureFault`` propagates so the caller retries.
"""

from __future__ import annotations

import dataclasses
import io
import resource
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.sandbox import BotConnection, BotFault, BotProcess, PlainProcess, SandboxConfig
from bots import protocol
from bots.duplicate import Summary, summarize
from bots.match import DuplicateBoard, combine_tables, play_table
from bots.table import Agent, BoardRecord, SeatFault, hello_for
from engine.interface import AnyGame

STARTUP_MS = 10_000
"""How long a bot process may take to start and answer the handshake."""
SDK_LAUNCHER = "bots.sdk"
"""Every uploaded bot.py runs as ``python -m bots.sdk bot.py`` (see bots/sdk.py)."""


@dataclass(frozen=True)
class VersionFiles:
    """An uploaded bot version as the runner needs it."""

    version_id: int
    kind: str  # "module" or "zip"
    source: bytes


@dataclass(frozen=True)
class MatchPlan:
    game: AnyGame
    rules: Any
    seed: int
    boards: int
    x: VersionFiles
    y: VersionFiles
    decision_ms: int
    bank_ms: int
    startup_ms: int = STARTUP_MS


@dataclass
class TableStderr:
    """What each seat's bot processes wrote to stderr at one table."""

    by_seat: dict[int, str] = field(default_factory=dict)

    def add(self, seat: int, text: str) -> None:
        if text:
            self.by_seat[seat] = self.by_seat.get(seat, "") + text


@dataclass
class MatchOutcome:
    boards: list[DuplicateBoard]
    summary: Summary
    stderr: dict[str, TableStderr]
    cpu_seconds: float | None = None
    """Worker CPU seconds the tables took: the referee's and the bot processes'."""

    @property
    def faults(self) -> int:
        return sum(1 for board in self.boards for record in board.tables.values() if record.fault)


def run_match(
    plan: MatchPlan,
    *,
    config: SandboxConfig,
    sandboxed: bool = True,
    on_board: Callable[[BoardRecord], None] | None = None,
    heartbeat: Callable[[], None] | None = None,
) -> MatchOutcome:
    """Play every table of the match and score it from bot X's side.

    ``heartbeat`` is called before and after every wait on a bot (a start-up, a decision),
    so that a caller can show it is alive; it should be cheap when called often.
    """
    limits = dataclasses.replace(
        config.limits,
        decision_s=plan.decision_ms / 1000,
        time_bank_s=plan.bank_ms / 1000,
        startup_s=plan.startup_ms / 1000,
    )
    config = dataclasses.replace(config, limits=limits)
    pulse = heartbeat or _no_heartbeat
    started = _cpu_seconds()
    with tempfile.TemporaryDirectory(prefix="arena-match-") as scratch:
        directories = (
            materialise(plan.x, Path(scratch) / "x"),
            materialise(plan.y, Path(scratch) / "y"),
        )
        stderr: dict[str, TableStderr] = {}
        records: dict[str, list[BoardRecord]] = {}
        for table in plan.game.seatings:
            stderr[table] = TableStderr()
            records[table] = _play_one_table(
                plan, table, config, sandboxed, directories, stderr[table], on_board, pulse
            )
    boards = combine_tables(records, plan.game, plan.rules)
    return MatchOutcome(
        boards,
        summarize([board.result for board in boards]),
        stderr,
        cpu_seconds=_cpu_seconds() - started,
    )


def _cpu_seconds() -> float:
    """This process's CPU time and that of its children which have ended and been waited
    for: every bot process of a table is, when the table closes it."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _play_one_table(
    plan: MatchPlan,
    table: str,
    config: SandboxConfig,
    sandboxed: bool,
    directories: Sequence[Path],
    stderr: TableStderr,
    on_board: Callable[[BoardRecord], None] | None,
    heartbeat: Callable[[], None],
) -> list[BoardRecord]:
    live: list[tuple[int, BotConnection]] = []
    kind = BotProcess if sandboxed else PlainProcess

    def start(table_name: str, seat: int) -> Agent:
        hello = hello_for(
            plan.game,
            plan.rules,
            seat=seat,
            boards=plan.boards,
            time=protocol.TimeControl(plan.decision_ms, plan.bank_ms, plan.startup_ms),
        )
        directory = directories[plan.game.seatings[table_name][seat]]
        heartbeat()
        try:
            connection = kind.start(config, directory, hello=hello, launcher=SDK_LAUNCHER)
        except BotFault as fault:
            # A bot that fails before answering hello is already gone: its stderr (the
            # traceback of a crash at start-up) travels with the fault.
            stderr.add(seat, fault.stderr)
            raise
        heartbeat()
        live.append((seat, connection))
        try:
            protocol.read_ready(connection.hello_reply)
        except protocol.ProtocolViolation as violation:
            raise SeatFault(str(violation)) from None
        return _BankPerBoard(connection, heartbeat)

    try:
        return play_table(
            table,
            game=plan.game,
            rules=plan.rules,
            boards=range(1, plan.boards + 1),
            match_seed=plan.seed,
            start_agent=start,
            bot_faults=(BotFault,),
            on_board=on_board,
        )
    finally:
        for seat, connection in live:
            connection.close()
            stderr.add(seat, connection.stderr)


def _no_heartbeat() -> None:
    return None


class _BankPerBoard:
    """A bot connection whose time bank is refilled at the start of every board, and which
    beats the runner's heartbeat around every decision."""

    def __init__(self, connection: BotConnection, heartbeat: Callable[[], None]) -> None:
        self.connection = connection
        self.heartbeat = heartbeat

    @property
    def time_bank_remaining(self) -> float:
        return self.connection.time_bank_remaining

    def request(self, message: Any, deadline_s: float | None = None) -> dict[str, object]:
        self.heartbeat()
        try:
            return self.connection.request(message, deadline_s)
        finally:
            self.heartbeat()

    def send(self, message: Any) -> None:
        if message.get("type") == "hand_start":
            self.connection.reset_time_bank()
        self.connection.send(message)


def materialise(version: VersionFiles, directory: Path) -> Path:
    """Write a version's files into ``directory``."""
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    if version.kind == "zip":
        with zipfile.ZipFile(io.BytesIO(version.source)) as archive:
            # Entries were checked at upload (no absolute paths, no '..', no links).
            archive.extractall(directory)
    else:
        (directory / "bot.py").write_bytes(version.source)
    return directory
