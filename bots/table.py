"""One table: a set of bots, one per seat, playing boards through the protocol.

The loop is the whole of refereeing: ask the seat to move with its observation and the
legal actions, check the reply, apply it, tell everyone what they may see. It knows
nothing of processes or sandboxes: a seat is anything with ``request`` and ``send``
(the arena's sandboxed processes, or an in-process SDK bot).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bots import protocol
from bots.protocol import ProtocolViolation
from engine.actions import Action
from engine.interface import AnyGame, AnyState


def hello_for(
    game: AnyGame, rules: Any, *, seat: int, boards: int, time: protocol.TimeControl
) -> dict[str, Any]:
    """The hello a seat of ``game`` under ``rules`` hears."""
    return protocol.hello_message(
        game=game.name,
        variant=game.variant,
        rules=rules.to_json(),
        seat=seat,
        players=game.players,
        boards=boards,
        time=time,
    )


LEGAL_SHOWN = 12
"""The most legal actions a fault's reason lists: a passing or melding decision can have
hundreds, and the first few show what kind of action was wanted."""


def legal_listing(legal: Sequence[str]) -> str:
    """The legal actions of a decision, the first ``LEGAL_SHOWN`` of them if more, saying
    how many there were.

    >>> legal_listing(["pass", "bid 250"])
    'pass, bid 250'
    >>> legal_listing([f"bid {250 + 10 * step}" for step in range(30)])[-42:]
    'bid 340, bid 350, bid 360, ... (30 in all)'
    """
    if len(legal) <= LEGAL_SHOWN:
        return ", ".join(legal)
    return ", ".join(legal[:LEGAL_SHOWN]) + f", ... ({len(legal)} in all)"


def describe_decision(
    game: AnyGame,
    state: AnyState,
    seat: int,
    *,
    board: int,
    decision: int,
    view: Mapping[str, Any],
) -> str:
    """Which decision of a hand ``state`` is at, in words: the board, the decision's
    number in the hand, the seat to act, the phase its view names and the part of the hand
    (``trick 4``, ``turn 12``) the game's step marks name, e.g. ``board 2, decision 21 of
    the hand (South, seat 2, to act in phase tricks, trick 4)``.

    The part of the hand is the step mark of the hand just after one of the legal actions
    (any of them: each belongs to the same trick or turn), since a mark names the trick a
    view is in and a seat about to lead is not in its trick yet."""
    where = (
        [f"phase {phase.replace('_', ' ')}"] if isinstance(phase := view.get("phase"), str) else []
    )
    if part := _part_of_hand(game, state, seat):
        where.append(part[:1].lower() + part[1:])
    at = f" in {', '.join(where)}" if where else ""
    who = f"{game.seat_name(seat)}, seat {seat}, to act{at}"
    return f"board {board}, decision {decision} of the hand ({who})"


def _part_of_hand(game: AnyGame, state: AnyState, seat: int) -> str | None:
    try:
        after = state.copy()
        after.apply(state.legal_actions[0])
        return game.observer.step_mark(game.observer.seat_view(after, seat))
    except Exception:
        # Only words for a fault's reason: a game whose hand cannot be stepped on a copy
        # here must not turn a bot's fault into a failure of the table itself.
        return None


class Agent(Protocol):
    """A bot at a seat, as the table sees it."""

    def request(
        self, message: Mapping[str, object], deadline_s: float | None = None
    ) -> dict[str, object]: ...

    def send(self, message: Mapping[str, object]) -> None: ...

    @property
    def time_bank_remaining(self) -> float: ...


class SeatFault(Exception):
    """A bot broke a rule of the protocol at the table (illegal action, bad reply)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Fault:
    """Why a board ended early: which seat, what kind of fault, and the reason."""

    seat: int
    kind: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "reason": self.reason}


@dataclass(frozen=True)
class Move:
    seat: int
    action: str
    elapsed_ms: float

    def to_json(self) -> list[Any]:
        return [self.seat, self.action, self.elapsed_ms]


@dataclass
class BoardRecord:
    """What happened at one table on one board."""

    board: int
    seed: int
    dealer: int
    moves: list[Move] = field(default_factory=list)
    result: Any = None
    """The game's hand result (``team_scores``, ``to_json()``), None after a fault."""
    fault: Fault | None = None

    @property
    def actions(self) -> list[str]:
        return [move.action for move in self.moves]


FaultKind = Callable[[BaseException], str]


def _fault_kind(error: BaseException) -> str:
    """A short name for a fault: BotTimeout -> 'timeout', SeatFault -> 'protocol'.

    A fault that names its own ``kind`` (the local runner's program faults) keeps it.
    """
    if isinstance(error, SeatFault):
        return "protocol"
    kind = getattr(error, "kind", None)
    if isinstance(kind, str):
        return kind
    name = type(error).__name__
    for prefix in ("Bot", "Seat"):
        name = name.removeprefix(prefix)
    return {
        "Timeout": "timeout",
        "Crashed": "crash",
        "ProtocolError": "protocol",
        "MemoryExceeded": "memory",
        "CpuExceeded": "cpu",
    }.get(name, name.lower())


class Table:
    """Seats bound to agents; plays boards one after another with the same agents.

    ``bot_faults`` are the exception types that mean "this seat's bot failed" (the arena
    passes its sandbox's BotFault); anything else propagates to the caller (an
    infrastructure fault is retried as a whole, never scored). A seat whose bot failed is
    given a fresh agent from ``restart`` before the next board.
    """

    def __init__(
        self,
        agents: Sequence[Agent | None],
        *,
        game: AnyGame,
        restart: Callable[[int], Agent] | None = None,
        bot_faults: tuple[type[BaseException], ...] = (),
    ) -> None:
        self.agents: list[Agent | None] = list(agents)
        self._game = game
        self._restart = restart
        self._bot_faults: tuple[type[BaseException], ...] = (SeatFault, *bot_faults)
        self._next_id = [1] * len(agents)
        self._pending: list[list[dict[str, Any]]] = [[] for _ in agents]

    def play_board(self, state: AnyState, *, board: int, seed: int) -> BoardRecord:
        """Play ``state`` (a freshly dealt hand) to its end, or to the first fault."""
        record = BoardRecord(board=board, seed=seed, dealer=state.dealer)
        seat = 0
        try:
            for seat in range(len(self.agents)):
                if self.agents[seat] is None:
                    self.agents[seat] = self._fresh_agent(seat)
                self._pending[seat].append(
                    protocol.hand_start_message(
                        board=board,
                        dealer=record.dealer,
                        seat=seat,
                        hand=[str(card) for card in state.hand(seat)],
                    )
                )
            while not state.is_terminal():
                current = state.current_player
                assert current is not None
                seat = current
                move = self._ask(state, seat, board, decision=len(record.moves) + 1)
                record.moves.append(move)
                action = self._game.parse_action(move.action)
                state.apply(action)
                self._announce(board, seat, action)
        except self._bot_faults as error:
            record.fault = Fault(seat, _fault_kind(error), getattr(error, "reason", str(error)))
            self.agents[seat] = None
        if record.fault is None:
            record.result = state.result()
        end = protocol.hand_end_message(
            board=board,
            result=None if record.result is None else record.result.to_json(),
            fault=None if record.fault is None else record.fault.to_json(),
        )
        for other in range(len(self.agents)):
            self._pending[other].append(end)
            self._flush(other)
        return record

    def finish(self, scores: list[int]) -> None:
        """Tell every live bot the table is over, then say goodbye."""
        for seat in range(len(self.agents)):
            self._pending[seat] += [protocol.game_end_message(scores=scores), protocol.BYE]
            self._flush(seat)

    def _ask(self, state: AnyState, seat: int, board: int, *, decision: int) -> Move:
        agent = self.agents[seat]
        assert agent is not None
        self._flush(seat)
        legal = [str(action) for action in state.legal_actions]
        request_id = self._next_id[seat]
        self._next_id[seat] += 1
        observation = state.observation(seat)
        message = protocol.act_message(
            request_id=request_id,
            board=board,
            observation=observation,
            legal=legal,
            time_left_ms=int(agent.time_bank_remaining * 1000),
        )
        started = time.perf_counter()
        reply = agent.request(message)
        elapsed_ms = round((time.perf_counter() - started) * 1000, 3)
        try:
            text = protocol.read_action(
                reply, request_id=request_id, legal=set(legal), parse=self._game.parse_action
            )
        except ProtocolViolation as violation:
            where = describe_decision(
                self._game, state, seat, board=board, decision=decision, view=observation
            )
            raise SeatFault(f"{violation} at {where}; legal: {legal_listing(legal)}") from None
        return Move(seat, text, elapsed_ms)

    def _announce(self, board: int, actor: int, action: Action) -> None:
        heard = self._game.observer.heard
        for viewer in range(len(self.agents)):
            self._pending[viewer].append(
                protocol.event_message(board=board, seat=actor, action=heard(action, actor, viewer))
            )

    def _flush(self, seat: int) -> None:
        """Deliver the seat's queued notifications, just before it next hears from us."""
        agent = self.agents[seat]
        queued, self._pending[seat] = self._pending[seat], []
        if agent is None:
            return
        try:
            for message in queued:
                agent.send(message)
        except self._bot_faults:
            # A bot that fails while being told of a result is replaced before its next
            # board; the board it failed after is already scored.
            self.agents[seat] = None

    def _fresh_agent(self, seat: int) -> Agent:
        if self._restart is None:
            raise RuntimeError(f"seat {seat} has no bot and no way to start one")
        return self._restart(seat)
