"""Replays: a hand as ``(rules, seed, dealer, actions)`` plus its result, as versioned JSON.

Re-simulating a replay must reproduce every score; ``verify`` returns the first
difference, or ``None``. What every game's replays share is here; a game that deals its
hands from explicit cards too writes its own replay class on ``HandReplay`` in its own
modules (the pinochle games' ``Replay``, still importable from here, is in
``engine.pinochle_replay``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from engine.actions import Action
from engine.errors import EngineError, ReplayError, RulesError
from engine.rng import DEAL_GENERATOR
from engine.state import State

if TYPE_CHECKING:
    from engine.interface import Game
    from engine.pinochle_replay import Replay

__all__ = [
    "LEGACY_FORMATS",
    "MAX_REPLAY_DEPTH",
    "REPLAY_FORMAT",
    "REPLAY_VERSION",
    "HandReplay",
    "Replay",
    "ReplayDifference",
    "SeededReplay",
    "load_replay_document",
    "migrate_replay",
    "read_fields",
    "read_replay",
]

REPLAY_FORMAT = "pinochle-arena/replay"
REPLAY_VERSION = 2
"""Every game's replays share one format; version 2 replaced the two of version 1."""
LEGACY_FORMATS = {
    "pinochle-arena/hand-replay": "pinochle",
    "pinochle-arena/pinnacolo-replay": "pinnacolo",
}
"""The version-1 formats, one per family of games, migrated when read."""
MAX_REPLAY_DEPTH = 32
"""How deeply a replay document may nest objects and lists (a real one nests 7 levels);
deeper documents are refused before anything walks them recursively."""


def load_replay_document(data: Mapping[str, Any] | str | bytes) -> Mapping[str, Any]:
    """The JSON object of a replay given as a dict, JSON text or UTF-8 bytes.

    Raises ``ReplayError`` for bytes that are not UTF-8, text that is not JSON, anything
    but an object, and nesting deeper than ``MAX_REPLAY_DEPTH``.

    >>> load_replay_document(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    engine.errors.ReplayError: a replay nests at most 32 levels deep
    """
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ReplayError(f"not UTF-8 text (bad byte at offset {error.start})") from None
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except RecursionError:
            raise ReplayError(_TOO_DEEP) from None
        except ValueError as error:
            # JSONDecodeError, and the ValueError of an integer too long to read.
            raise ReplayError(f"not JSON: {error}") from None
    if not isinstance(data, Mapping):
        raise ReplayError("a replay is a JSON object")
    _check_depth(data)
    return data


def migrate_replay(document: Mapping[str, Any]) -> dict[str, Any]:
    """A replay document in the current format and version.

    A version-1 document (``pinochle-arena/hand-replay`` or ``pinochle-arena/pinnacolo-
    replay``) holds the same fields as version 2 under its own format name: it is
    relabelled. ``ReplayError`` for any other format or version.

    >>> migrate_replay({"format": "pinochle-arena/hand-replay", "version": 1})["version"]
    2
    """
    found, version = document.get("format"), document.get("version")
    if found in LEGACY_FORMATS:
        if version != 1:
            raise ReplayError(f"unsupported replay version {version!r} of {found!r}")
        return {**document, "format": REPLAY_FORMAT, "version": REPLAY_VERSION}
    if found != REPLAY_FORMAT:
        raise ReplayError(f"format is {found!r}, expected {REPLAY_FORMAT!r}")
    if version != REPLAY_VERSION:
        raise ReplayError(f"unsupported replay version {version!r}")
    return dict(document)


def read_replay(data: Mapping[str, Any] | str | bytes) -> Any:
    """Read a replay of any registered game (either version-1 format included) with its
    game's ``read_replay`` (the pinochle games' ``Replay``, ``PinnacoloReplay``, or by default
    ``SeededReplay``)."""
    document = migrate_replay(load_replay_document(data))
    variant = document.get("variant")
    if not isinstance(variant, str):
        raise ReplayError("a replay names its variant")
    # Imported here: the registry imports every game, and the games import this module.
    from engine.registry import load_game

    try:
        game = load_game(variant)
    except EngineError as error:
        raise ReplayError(str(error)) from None
    return game.read_replay(document)


def __getattr__(name: str) -> Any:
    # ``engine.replay.Replay``, the pinochle games' replays, read where it once was: it
    # is in the pinochle games' own module, which imports this one.
    if name == "Replay":
        from engine.pinochle_replay import Replay

        return Replay
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_TOO_DEEP = f"a replay nests at most {MAX_REPLAY_DEPTH} levels deep"


def _check_depth(document: Mapping[str, Any]) -> None:
    # Iterative, so that a document too deep for recursion is measured all the same.
    pending: list[tuple[object, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_REPLAY_DEPTH:
            raise ReplayError(_TOO_DEEP)
        if isinstance(value, Mapping):
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list | tuple):
            pending.extend((item, depth + 1) for item in value)


@dataclass(frozen=True, slots=True)
class ReplayDifference:
    """The first place where a replay and its re-simulation disagree."""

    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected!r}, got {self.actual!r}"


S = TypeVar("S", bound=State[Any, Any])


class HandReplay(Generic[S]):
    """What the replays of every game share: the one document (``to_json``), reading its
    common fields (``read_fields``), and re-simulating it (``simulate``, ``verify``). A
    replay is a frozen dataclass with ``rules``, ``seed``, ``dealer``, ``actions``,
    ``result`` and ``deal`` that says how to write its deal, read its actions and deal
    its first state: ``SeededReplay`` for any game that deals from a seed, ``Replay``
    and ``engine.pinnacolo.PinnacoloReplay`` for hands dealt from explicit cards too.
    """

    __slots__ = ()

    rules: Any
    seed: int | None
    dealer: int
    actions: tuple[str, ...]
    result: Mapping[str, Any] | None

    @classmethod
    def of_hand(cls, state: S, deal: Any) -> Self:
        """The replay of ``state``'s hand so far (its result too once it is over), dealt
        from ``deal`` (``None``: from its seed)."""
        make: Any = cls  # the game's dataclass, whose fields are these
        replay: Self = make(
            rules=state.rules,
            seed=state.seed,
            dealer=state.dealer,
            actions=tuple(str(action) for action in state.history),
            result=state.result().to_json() if state.is_terminal() else None,
            deal=deal,
        )
        return replay

    def _deal_json(self) -> Any:
        """The explicit deal as JSON (``None`` for a hand dealt from its seed)."""
        raise NotImplementedError

    @staticmethod
    def _parse(text: str) -> Action:
        return Action.parse(text)

    def initial_state(self) -> S:
        raise NotImplementedError

    def _game_name(self) -> str:
        """The name of the game (``Game.name``) the document says it replays."""
        name: str = self.rules.game
        return name

    def to_json(self) -> dict[str, Any]:
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "game": self._game_name(),
            "variant": self.rules.name,
            "rules": self.rules.to_json(),
            "generator": DEAL_GENERATOR,
            "seed": self.seed,
            "dealer": self.dealer,
            "deal": self._deal_json(),
            "actions": list(self.actions),
            "result": None if self.result is None else dict(self.result),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    def simulate(self) -> S:
        """Deal and apply every action; raises if an action is unreadable or illegal."""
        state = self.initial_state()
        for text in self.actions:
            state.apply(self._parse(text))
        return state

    def verify(self) -> ReplayDifference | None:
        """Re-simulate and compare with the recorded result: the first difference, or None."""
        try:
            state = self.initial_state()
        except EngineError as error:
            return ReplayDifference("deal", "a valid deal", str(error))
        for index, text in enumerate(self.actions):
            try:
                state.apply(self._parse(text))
            except EngineError as error:
                return ReplayDifference(f"actions[{index}]", text, str(error))
        actual = state.result().to_json() if state.is_terminal() else None
        return _first_difference("result", self.result, actual)


@dataclass(frozen=True, slots=True)
class SeededReplay(HandReplay[S]):
    """The replay of a hand of any game that deals its hands from a seed: what
    ``Game.write_replay`` and ``Game.read_replay`` give unless a game writes its own
    (the pinochle games and Pinnacolo do, for hands dealt from explicit cards).

    The hand is dealt again by ``game.new_initial_state(seed, dealer)``, its actions read
    by ``game.parse_action`` and its rules by ``game.rules_from_json``: a game writes no
    replay code of its own.
    """

    game: Game[Any, S]
    seed: int
    dealer: int
    actions: tuple[str, ...]
    result: Mapping[str, Any] | None

    @property
    def rules(self) -> Any:
        return self.game.rules

    @property
    def deal(self) -> None:
        """No explicit deal: the seed deals the hand."""
        return None

    @classmethod
    def from_state(cls, game: Game[Any, S], state: S) -> SeededReplay[S]:
        """The replay of ``state``'s hand so far (its result too once it is over), a hand
        of ``game`` dealt from its seed (``ReplayError`` for one dealt from explicit cards)."""
        if state.seed is None:
            raise ReplayError(f"{game.name!r} replays only hands dealt from a seed")
        return cls(
            game=game,
            seed=state.seed,
            dealer=state.dealer,
            actions=tuple(str(action) for action in state.history),
            result=state.result().to_json() if state.is_terminal() else None,
        )

    @classmethod
    def from_json(
        cls, game: Game[Any, S], data: Mapping[str, Any] | str | bytes
    ) -> SeededReplay[S]:
        """Read a replay of one of ``game``'s variants (a dict, JSON text or UTF-8 bytes);
        ``ReplayError`` when malformed, of another game or dealt from explicit cards."""
        rules, seed, dealer, actions, result, _ = read_fields(
            data,
            plays=lambda name: name == game.name,
            of=repr(game.name),
            read_rules=game.rules_from_json,
            read_deal=_no_deal(game.name),
        )
        try:
            played = type(game)(rules.name, rules)
        except EngineError as error:
            raise ReplayError(str(error)) from None
        # A seed is certain here: a document without one is refused unless it has a deal.
        assert seed is not None
        return cls(game=played, seed=seed, dealer=dealer, actions=actions, result=result)

    def _game_name(self) -> str:
        return self.game.name

    def _deal_json(self) -> Any:
        return None

    def _parse(self, text: str) -> Action:  # type: ignore[override]
        return self.game.parse_action(text)

    def initial_state(self) -> S:
        return self.game.new_initial_state(self.seed, self.dealer)


def _no_deal(name: str) -> Callable[[Any], Any]:
    def refuse(deal_data: Any) -> Any:
        raise ReplayError(f"a replay of {name!r} is dealt from its seed, not from cards")

    return refuse


def read_fields(
    data: Mapping[str, Any] | str | bytes,
    *,
    plays: Callable[[Any], bool],
    of: str,
    read_rules: Callable[[Any], Any],
    read_deal: Callable[[Any], Any],
    refused: tuple[type[Exception], ...] = (),
) -> tuple[Any, int | None, int, tuple[str, ...], Mapping[str, Any] | None, Any]:
    """``(rules, seed, dealer, actions, result, deal)`` of a replay document (migrated
    from version 1 if need be), for a game whose ``plays(document["game"])`` holds (``of``
    names it in the refusal). ``read_deal`` reads an explicit deal; the ``refused``
    errors of the game's readers become ``ReplayError``s, as every malformed field does.
    """
    caught: tuple[type[Exception], ...] = (RulesError, AttributeError, TypeError, *refused)
    data = migrate_replay(load_replay_document(data))
    if not plays(data.get("game")):
        raise ReplayError(f"a replay of {data.get('game')!r}, not of {of}")
    if data.get("generator", DEAL_GENERATOR) != DEAL_GENERATOR:
        raise ReplayError(f"unknown deal generator {data.get('generator')!r}")
    try:
        rules = read_rules(data["rules"])
        seed = data.get("seed")
        deal_data = data.get("deal")
        deal = None
        if deal_data is not None:
            deal = read_deal(deal_data)
        elif not isinstance(seed, int):
            raise ReplayError("a replay needs an integer seed or an explicit deal")
        dealer = data.get("dealer", 0)
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ReplayError("actions must be a list of strings")
        result = data.get("result")
        if result is not None and not isinstance(result, Mapping):
            raise ReplayError("result must be an object or null")
    except KeyError as error:
        raise ReplayError(f"missing field {error.args[0]!r}") from None
    except caught as error:
        raise ReplayError(str(error)) from None
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ReplayError("dealer must be an integer")
    return rules, seed, dealer, tuple(actions), result, deal


def _first_difference(path: str, expected: Any, actual: Any) -> ReplayDifference | None:
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        for key in list(expected) + [k for k in actual if k not in expected]:
            if key not in expected or key not in actual:
                return ReplayDifference(f"{path}.{key}", expected.get(key), actual.get(key))
            found = _first_difference(f"{path}.{key}", expected[key], actual[key])
            if found:
                return found
        return None
    if (
        isinstance(expected, Sequence)
        and isinstance(actual, Sequence)
        and not isinstance(expected, str)
        and not isinstance(actual, str)
    ):
        for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
            found = _first_difference(f"{path}[{index}]", left, right)
            if found:
                return found
        if len(expected) != len(actual):
            return ReplayDifference(f"{path}.length", len(expected), len(actual))
        return None
    if expected != actual or type(expected) is not type(actual):
        return ReplayDifference(path, expected, actual)
    return None
