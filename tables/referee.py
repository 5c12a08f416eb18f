"""A human's table, without the database: rebuild it from its log, and let bots move.

A table is nothing but its variant, rules, seed, dealer and the actions taken so far: the
engine re-deals the seed and re-applies the actions, so a reload, a second worker or a
restarted server all see exactly the same hand. Bots are rebuilt the same way for every
decision: a fresh bot hears ``hello``, its ``hand_start`` and every event its seat heard
(``game.observer.heard``), then answers ``act`` with its seat's observation. A bot
therefore knows what it would have known at a live table, and nothing lives only in a
process (tests/tables/test_challenge_board_examples.py shows a table rebuilt and bots moving).
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bots import protocol
from bots.reference import reference_bots
from bots.sdk import Bot, bot_from_module
from bots.table import hello_for
from engine.actions import Action
from engine.interface import AnyGame, AnyState
from engine.registry import load_game

HUMAN = "human"
REFERENCE = "reference"
ARENA = "arena"

ARENA_CLOCK = protocol.TimeControl(decision_ms=1000, bank_ms=60_000, startup_ms=10_000)
"""The clock of an arena bot at a human's table: the arena's default, enforced by the sandbox."""

REFERENCE_CLOCK = protocol.TimeControl(decision_ms=200, bank_ms=60_000, startup_ms=10_000)
"""The clock announced to reference bots at a human's table: an interactive work budget.

The strong reference bot sizes its search from the announced clock alone, as a number of
card plays, never from the wall clock: 200 ms a decision gives it a tenth of it, some 20 ms
of work on the arena's machines (200,000 card plays in the C kernel, two thirds of its
arena budget; 8,000 in CPython without it), so that
three strong bots answer a human's card well within 300 ms on a busy machine
(tests/bench/bench_play_latency.py). The other reference bots do not search. At a
human's table the strong bot searches this whole budget on every card, forced or not
(``reference_bot``), so that answer times carry no hint of its cards
(tests/bench/bench_answer_timing.py).
"""

BOARD = 1
"""A table plays one board; bots hear it as board 1."""


class SeatSpecError(ValueError):
    """A seat is neither "human" nor a bot this variant can seat."""


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: the human, a reference bot by name, or an arena bot version."""

    kind: str
    name: str = ""
    version: int = 0

    def to_json(self) -> str | dict[str, Any]:
        if self.kind == HUMAN:
            return HUMAN
        if self.kind == REFERENCE:
            return {"kind": REFERENCE, "name": self.name}
        return {"kind": ARENA, "version": self.version}

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN


def parse_seat(raw: object, variant: str) -> Seat:
    """Read one seat's spec, naming what is wrong with it."""
    if raw == HUMAN:
        return Seat(HUMAN)
    if not isinstance(raw, Mapping):
        raise SeatSpecError(f'a seat is "human" or a bot spec object, not {raw!r}')
    kind = raw.get("kind")
    if kind == REFERENCE:
        name = raw.get("name")
        known = reference_bots(load_game(variant))
        if name not in known:
            raise SeatSpecError(
                f"{variant} has no reference bot {name!r} (known: {', '.join(sorted(known))})"
            )
        return Seat(REFERENCE, name=str(name))
    if kind == ARENA:
        version = raw.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise SeatSpecError(f"an arena bot seat names a bot version id, not {version!r}")
        return Seat(ARENA, version=version)
    raise SeatSpecError(f'a bot spec\'s kind is "reference" or "arena", not {kind!r}')


def parse_seats(raw: Sequence[object], variant: str) -> list[Seat]:
    """Every seat of a table: one per player, exactly one of them the human."""
    players = load_game(variant).players
    if len(raw) != players:
        raise SeatSpecError(f"{variant} has {players} seats, not {len(raw)}")
    seats = [parse_seat(item, variant) for item in raw]
    humans = sum(1 for seat in seats if seat.kind == HUMAN)
    if humans != 1:
        raise SeatSpecError(f"a table has exactly one human seat, not {humans}")
    return seats


@dataclass
class Hand:
    """A table's hand rebuilt from its log: the live state and who made each move."""

    game: AnyGame
    rules: Any
    state: AnyState
    actors: list[int]
    actions: list[str]
    initial_hands: list[list[str]]

    @property
    def ply(self) -> int:
        """How many actions were taken: the ply the next action answers."""
        return len(self.actions)

    @property
    def current(self) -> int | None:
        return None if self.state.is_terminal() else self.state.current_player

    def apply(self, text: str) -> str:
        """Apply one action (the engine referees); return its canonical text."""
        action = self.game.parse_action(text)
        actor = self.state.current_player
        self.state.apply(action)
        assert actor is not None
        canonical = str(action)
        self.actors.append(actor)
        self.actions.append(canonical)
        return canonical

    def heard_by(self, seat: int) -> list[tuple[int, str]]:
        """Every move so far as ``seat`` heard of it: (actor, what the game lets it hear)."""
        heard = self.game.observer.heard
        return [
            (actor, heard(self.game.parse_action(text), actor, seat))
            for actor, text in zip(self.actors, self.actions, strict=True)
        ]


def rules_of(variant: str, rules: Mapping[str, Any] | None) -> Any:
    game = load_game(variant)
    return game.rules_for(None) if rules is None else game.rules_from_json(rules)


def rebuild(
    variant: str, *, rules: Mapping[str, Any] | None, seed: int, dealer: int, actions: Sequence[str]
) -> Hand:
    """Deal the seed and re-apply the log through the engine."""
    game = load_game(variant)
    parsed_rules = rules_of(variant, rules)
    state = game.with_rules(parsed_rules).new_initial_state(seed=seed, dealer=dealer)
    initial = [[str(card) for card in state.hand(seat)] for seat in range(game.players)]
    hand = Hand(game, parsed_rules, state, [], [], initial)
    for text in actions:
        hand.apply(text)
    return hand


def bot_messages(
    hand: Hand, seat: int, *, variant: str, clock: protocol.TimeControl = ARENA_CLOCK
) -> list[dict[str, Any]]:
    """What a bot at ``seat`` has been told so far, from ``hello`` on (``hello`` first)."""
    messages: list[dict[str, Any]] = [
        hello_for(hand.game, hand.rules, seat=seat, boards=1, time=clock),
        protocol.hand_start_message(
            board=BOARD,
            dealer=hand.state.dealer,
            seat=seat,
            hand=hand.initial_hands[seat],
        ),
    ]
    messages += [
        protocol.event_message(board=BOARD, seat=actor, action=text)
        for actor, text in hand.heard_by(seat)
    ]
    return messages


def act_request(
    hand: Hand, seat: int, *, clock: protocol.TimeControl = ARENA_CLOCK
) -> tuple[dict[str, Any], list[str]]:
    """The ``act`` message for ``seat`` now, and its legal actions as text."""
    legal = [str(action) for action in hand.state.legal_actions]
    message = protocol.act_message(
        request_id=1,
        board=BOARD,
        observation=hand.game.observer.seat_view(hand.state, seat),
        legal=legal,
        time_left_ms=clock.bank_ms,
    )
    return message, legal


@functools.cache
def _reference_factory(variant: str, name: str) -> Callable[[], Bot]:
    path = reference_bots(load_game(variant))[name]
    module = importlib.import_module(f"bots.reference.{path.stem}")

    def make() -> Bot:
        bot = bot_from_module(module)
        assert bot is not None, f"{path.name} defines no bot"
        return bot

    return make


def reference_bot(
    hand: Hand,
    seat: int,
    *,
    name: str,
    variant: str,
    clock: protocol.TimeControl = REFERENCE_CLOCK,
) -> Bot:
    """A fresh reference bot at ``seat`` that has heard everything its seat heard so far.

    A bot that searches is made ``steady``: it spends its whole work budget on every
    decision, a forced card included, so that how fast a bot answers tells the human
    nothing of its cards (a bot that answers at once only when it holds a single legal
    card would show a void). The work, not a delay, is what is held constant: the server
    does the same work whatever the cards, and no answer waits on a timer.
    """
    bot = _reference_factory(variant, name)()
    if hasattr(bot, "steady"):
        bot.steady = True
    for message in bot_messages(hand, seat, variant=variant, clock=clock):
        bot.handle(json.loads(json.dumps(message)))
    return bot


def reference_move(hand: Hand, seat: int, *, name: str, variant: str) -> str:
    """The move a reference bot makes at ``seat``, computed in this process.

    Messages go through JSON as they would over the protocol, so the bot gets copies.
    """
    bot = reference_bot(hand, seat, name=name, variant=variant)
    request, legal = act_request(hand, seat, clock=REFERENCE_CLOCK)
    reply = bot.handle(json.loads(json.dumps(request)))
    assert reply is not None
    return protocol.read_action(reply, request_id=1, legal=set(legal), parse=hand.game.parse_action)


def reference_turns(hand: Hand, seats: Sequence[Seat], *, variant: str) -> list[tuple[int, str]]:
    """Let reference bots move until the human's turn, an arena bot's, or the end."""
    moves: list[tuple[int, str]] = []
    while (current := hand.current) is not None and seats[current].kind == REFERENCE:
        text = reference_move(hand, current, name=seats[current].name, variant=variant)
        moves.append((current, hand.apply(text)))
    return moves


def side_scores(hand: Hand) -> list[int]:
    """One score per side (team, or seat in individual games) of the finished hand."""
    result = hand.state.result()
    return [int(score) for score in result.team_scores]


def forfeit_scores(game: AnyGame, rules: Any, faulting_seat: int, state: AnyState) -> list[int]:
    """A board ended by a fault or a leave: one score per side, so that leaving never pays.

    The faulting seat's side scores the lowest it could still reach from ``state`` (the
    hand where it stopped), every other side the highest it could still reach
    (``engine.forfeit``, the rule of a bot's fault in an arena match, bots/duplicate.py).
    Any duplicate comparison of the board then finds the leaver no better off than by
    playing on. Always from the hand's own position: the engine's bounds for any position
    of the variant (``state`` None there) are far harsher than the hand could come to.
    """
    return list(game.with_rules(rules).forfeit_scores(state, faulting_seat))


def action_for(hand: Hand, text: str) -> Action:
    """Parse the human's action text (ActionParseError names what is unreadable)."""
    return hand.game.parse_action(text)
