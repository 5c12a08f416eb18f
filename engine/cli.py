"""``python -m engine``: meld and legality look-ups, random playouts, replay checks.

    python -m engine meld --variant V --trump S CARD...
        {"variant", "trump", "total", "items": [{"meld", "name", "times", "suit", "value",
        "cards"}]}
    python -m engine legal --trump S --hand CARD... [--trick CARD...]
            [--must-head always|trump_led_only|lead_suit_even_if_trumped|never]
            [--must-trump always|only_if_winning] [--overtrump|--no-overtrump]
        {"legal": [the sorted distinct faces that may be played]}
        (defaults: --must-head always, --must-trump always, --no-overtrump)
    python -m engine play --variant V --hands N --seed S
        random legal playouts of N whole hands, N from 1 to 100000 (MAX_PLAY_HANDS:
        minutes of work at most); hand n dealt from hand_seed(S, n), dealer n mod the
        number of players, choices from random.Random(S); a JSON summary with
        "hands_per_second" (wall clock; "cpu_seconds" is the processor time, steadier on a
        shared machine); "mean_team_scores" is per side: per partnership or pair,
        otherwise per player (engine.playouts, the same for every registered variant);
        "kernel": true when the C kernel played them (engine.kernel: the same hands)
    python -m engine info
        {"kernel": "loaded" or why the C kernel is not used, "kernel_variants": the
        presets whose hands the C kernel plays, [] without it} (engine.kernel)
    python -m engine replay verify FILE
        exit 0 when the replay reproduces its result, 1 with the first difference; a file
        that is not UTF-8 JSON, or nests deeper than MAX_REPLAY_DEPTH, is refused

Every command prints JSON on stdout. Bad arguments, and every refusal of the engine
(``engine.errors.EngineError``: a card not in the deck, an unknown variant...), exit 2
with a one-line message on stderr and no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from engine.cards import Card, CardParseError, Suit
from engine.errors import EngineError, ReplayError
from engine.kernel import kernel_status, kernel_variants
from engine.meld import meld
from engine.playouts import play_summary
from engine.registry import variant_names
from engine.replay import HandReplay, read_replay
from engine.rules import MustHead, MustTrump, pinochle_rules, pinochle_variants
from engine.tricks import legal_plays

__all__ = ["MAX_PLAY_HANDS", "main"]

MAX_PLAY_HANDS = 100_000
"""The most hands ``play`` runs: bounded so that a typo cannot start a run of years."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _card(text: str) -> Card:
    try:
        return Card.parse(text)
    except CardParseError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _suit(text: str) -> Suit:
    try:
        return Suit.parse(text)
    except CardParseError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 1 <= value <= MAX_PLAY_HANDS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_PLAY_HANDS}: {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to 2**64 - 1: {text!r}")
    return value


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="python -m engine",
        description="Pinochle rules engine: meld, legality, random playouts, replays.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    meld_cmd = commands.add_parser("meld", help="score the meld of a hand")
    meld_cmd.add_argument("--variant", required=True, choices=pinochle_variants())
    meld_cmd.add_argument("--trump", required=True, type=_suit)
    meld_cmd.add_argument("cards", nargs="+", type=_card, metavar="CARD")

    legal_cmd = commands.add_parser("legal", help="the cards that may be played to a trick")
    legal_cmd.add_argument("--trump", required=True, type=_suit)
    legal_cmd.add_argument("--hand", required=True, nargs="+", type=_card, metavar="CARD")
    legal_cmd.add_argument("--trick", nargs="*", default=[], type=_card, metavar="CARD")
    legal_cmd.add_argument(
        "--must-head", default=MustHead.ALWAYS.value, choices=[m.value for m in MustHead]
    )
    legal_cmd.add_argument(
        "--must-trump", default=MustTrump.ALWAYS.value, choices=[m.value for m in MustTrump]
    )
    legal_cmd.add_argument(
        "--overtrump",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="void players must over-trump a trumped trick if able (default: no)",
    )

    play_cmd = commands.add_parser("play", help="random legal playouts of whole hands")
    play_cmd.add_argument("--variant", required=True, choices=variant_names())
    play_cmd.add_argument("--hands", required=True, type=_count)
    play_cmd.add_argument("--seed", required=True, type=_seed)

    commands.add_parser("info", help="which build of the engine runs, and the C kernel")

    replay_cmd = commands.add_parser("replay", help="replay files")
    replay_commands = replay_cmd.add_subparsers(dest="replay_command", required=True)
    verify_cmd = replay_commands.add_parser("verify", help="re-simulate and compare a replay")
    verify_cmd.add_argument("file")
    return parser


def _print(data: Any) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


def _run_meld(args: argparse.Namespace) -> int:
    result = meld(args.cards, args.trump, pinochle_rules(args.variant))
    _print({"variant": args.variant, "trump": str(args.trump), **result.to_json()})
    return 0


def _run_legal(args: argparse.Namespace) -> int:
    legal = legal_plays(
        args.hand,
        args.trick,
        args.trump,
        must_head=args.must_head,
        must_trump=args.must_trump,
        must_overtrump=args.overtrump,
    )
    _print({"legal": [str(card) for card in legal]})
    return 0


def _run_play(args: argparse.Namespace) -> int:
    _print(play_summary(args.variant, hands=args.hands, seed=args.seed))
    return 0


def _run_info() -> int:
    _print({"kernel": kernel_status(), "kernel_variants": kernel_variants()})
    return 0


def _run_replay_verify(parser: _Parser, args: argparse.Namespace) -> int:
    try:
        with open(args.file, "rb") as handle:
            content = handle.read()
    except OSError as error:
        parser.error(f"cannot read {args.file}: {error.strerror}")
    try:
        replay: HandReplay[Any] = read_replay(content)
    except ReplayError as error:
        parser.error(f"{args.file}: {error}")
    difference = replay.verify()
    if difference is None:
        _print({"ok": True, "actions": len(replay.actions)})
        return 0
    _print({"ok": False, "difference": str(difference), "path": difference.path})
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "meld":
            return _run_meld(args)
        if args.command == "legal":
            return _run_legal(args)
        if args.command == "play":
            return _run_play(args)
        if args.command == "info":
            return _run_info()
        return _run_replay_verify(parser, args)
    except EngineError as error:
        # One line, whatever the message quotes (an action's text may hold a newline).
        parser.error(" ".join(str(error).split()))
