"""Write a bot in a few lines: subclass :class:`Bot`, or define ``act(observation, legal)``.

Run one against the protocol on stdin/stdout::

    python -m bots.sdk mybot.py

``mybot.py`` may define

- a subclass of :class:`Bot` (one method per decision, each defaulting to the first legal
  action; state kept on ``self`` between calls), or
- a function ``act(observation, legal) -> str``, or
- neither: it is then run as a plain script that speaks the protocol itself.

>>> class FirstCard(Bot):
...     def play(self, observation, legal):
...         return legal[-1]
>>> bot = FirstCard()
>>> bot.handle({"type": "hello", "id": 0, "protocol": 1, "seat": 2})
{'type': 'ready', 'id': 0, 'protocol': 1, 'name': 'FirstCard'}
>>> bot.handle({"type": "act", "id": 1, "observation": {"phase": "tricks"},
...             "legal": ["play AS", "play 9S"], "time_left_ms": 1000})
{'type': 'action', 'id': 1, 'action': 'play 9S'}
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import json
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from bots.protocol import PROTOCOL_VERSION

Observation = dict[str, Any]
ActFunction = Callable[[Observation, list[str]], str]


class Bot:
    """Base class of SDK bots. Override the decisions you care about.

    ``act`` dispatches on ``observation["phase"]``: ``bid`` in the auction, ``trump`` to
    name trump, ``give`` when passing cards, ``throw_in`` when the declarer may concede,
    ``play`` for tricks. Every method receives the observation (a dict, see PROTOCOL.md)
    and the legal actions as text, and returns one of them.
    """

    name: str = ""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.hello: dict[str, Any] = {}

    # ---- decisions -----------------------------------------------------------------
    def act(self, observation: Observation, legal: list[str]) -> str:
        handler = _PHASE_METHODS.get(str(observation.get("phase")), "other")
        decide: ActFunction = getattr(self, handler)
        return decide(observation, legal)

    def bid(self, observation: Observation, legal: list[str]) -> str:
        return legal[0]

    def trump(self, observation: Observation, legal: list[str]) -> str:
        return legal[0]

    def give(self, observation: Observation, legal: list[str]) -> str:
        return legal[0]

    def throw_in(self, observation: Observation, legal: list[str]) -> str:
        return legal[0]

    def play(self, observation: Observation, legal: list[str]) -> str:
        return legal[0]

    def other(self, observation: Observation, legal: list[str]) -> str:
        """Decisions of phases this class has no method for (other games)."""
        return legal[0]

    # ---- notifications ---------------------------------------------------------------
    def on_hello(self, hello: dict[str, Any]) -> None:
        """The table starts: ``hello`` holds the game, variant, rules, seat and clock."""

    def on_hand_start(self, message: dict[str, Any]) -> None:
        """A new board: its number, dealer and this seat's cards."""

    def on_event(self, event: dict[str, Any]) -> None:
        """Someone acted (public part only)."""

    def on_hand_end(self, message: dict[str, Any]) -> None:
        """The board is over: its result, or the fault that ended it."""

    def on_game_end(self, message: dict[str, Any]) -> None:
        """The table is over: the total scores."""

    # ---- protocol --------------------------------------------------------------------
    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Answer one host message: a reply for ``hello`` and ``act``, None otherwise."""
        kind = message.get("type")
        if kind == "hello":
            self.hello = message
            self.seat = message.get("seat")
            self.on_hello(message)
            return {
                "type": "ready",
                "id": message.get("id"),
                "protocol": PROTOCOL_VERSION,
                "name": self.name or type(self).__name__,
            }
        if kind == "act":
            action = self.act(message["observation"], message["legal"])
            return {"type": "action", "id": message["id"], "action": action}
        if kind == "hand_start":
            self.on_hand_start(message)
        elif kind == "event":
            self.on_event(message)
        elif kind == "hand_end":
            self.on_hand_end(message)
        elif kind == "game_end":
            self.on_game_end(message)
        return None


_PHASE_METHODS = {
    "auction": "bid",
    "trump": "trump",
    "pass_to_declarer": "give",
    "pass_back": "give",
    "throw_in": "throw_in",
    "tricks": "play",
}


class FunctionBot(Bot):
    """Wraps a module-level ``act(observation, legal)`` function."""

    def __init__(self, function: ActFunction, name: str) -> None:
        super().__init__()
        self._function = function
        self.name = name

    def act(self, observation: Observation, legal: list[str]) -> str:
        return self._function(observation, legal)


def load_module(path: str | Path) -> ModuleType:
    """Import a bot's file as a module (its directory first on the import path)."""
    location = Path(path).resolve()
    if str(location.parent) not in sys.path:
        sys.path.insert(0, str(location.parent))
    spec = importlib.util.spec_from_file_location(f"bot_{location.stem}", location)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load a bot from {location}")
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as a normal import would be: dataclasses and typing look
    # the module up by name while its classes are being created.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def bot_from_module(module: ModuleType) -> Bot | None:
    """The bot a module defines: its Bot subclass, or its ``act`` function; None if neither."""
    classes = [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, Bot)
        and value not in (Bot, FunctionBot)
        and value.__module__ == module.__name__
    ]
    if len(classes) > 1:
        names = ", ".join(sorted(cls.__name__ for cls in classes))
        raise TypeError(f"the module defines several bots ({names}); keep one")
    if classes:
        return classes[0]()
    function = getattr(module, "act", None)
    if callable(function):
        return FunctionBot(function, getattr(module, "NAME", module.__name__))
    return None


def serve(bot: Bot, reader: IO[str], writer: IO[str]) -> None:
    """Answer messages until ``bye`` or the end of input."""
    for line in reader:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "bye":
            return
        reply = bot.handle(message)
        if reply is not None:
            writer.write(json.dumps(reply, separators=(",", ":")) + "\n")
            writer.flush()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m bots.sdk BOT.py", file=sys.stderr)
        return 2
    path = Path(args[0])
    if not path.is_file():
        print(f"no such bot file: {path}", file=sys.stderr)
        return 2
    if not uses_sdk(path.read_text(encoding="utf-8")):
        # A bot that speaks the protocol itself: run it once, as the main program.
        sys.path.insert(0, str(path.resolve().parent))
        runpy.run_path(str(path), run_name="__main__")
        return 0
    bot = bot_from_module(load_module(path))
    if bot is None:
        print(f"{path} defines neither a Bot subclass nor act()", file=sys.stderr)
        return 2
    serve(bot, sys.stdin, sys.stdout)
    return 0


def uses_sdk(source: str) -> bool:
    """Whether a bot's source uses the SDK: a Bot subclass, ``act``, or imports from bots.

    Decided from the syntax tree, without running the module, so that a plain protocol
    script is executed exactly once.
    """
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "bots":
            return True
        if isinstance(node, ast.FunctionDef) and node.name == "act":
            return True
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                if name == "Bot":
                    return True
    return False


if __name__ == "__main__":
    # Run main() from the module imported as bots.sdk, not from this __main__ copy, so that
    # the Bot class a bot subclasses is the very class bot_from_module looks for.
    from bots.sdk import main as sdk_main

    sys.exit(sdk_main())
