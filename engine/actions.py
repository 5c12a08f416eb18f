"""Actions: small frozen values with a short text form that parses and prints back.

| text | action | when |
|---|---|---|
| ``bid 260`` | ``Bid(260)`` | auction |
| ``pass`` | ``Pass()`` | auction; final for that player |
| ``pass-help`` | ``PassWithHelp()`` | auction, if the rules allow "pass with help" |
| ``trump H`` | ``NameTrump(Suit.H)`` | the declarer names trump |
| ``give QS JD AS`` | ``Give(...)`` | passing: partner to declarer, then declarer back |
| ``throw-in`` | ``ThrowIn()`` | the declarer concedes after the meld |
| ``play-on`` | ``PlayOn()`` | the declarer declines the throw-in and leads |
| ``play TS`` | ``Play(Card.parse("TS"))`` | tricks |
| ``bury AS TS 9C`` | ``Bury(...)`` | three-hand: the declarer discards after the widow |
| ``meld KS QS`` | ``MeldCards(...)`` | two-hand: one meld after a trick won |
| ``no-meld`` | ``NoMeld()`` | two-hand: the trick winner declines to meld |
| ``dix`` | ``ExchangeDix()`` | two-hand: the dix exchanged for the turned-up trump |

>>> Action.parse("give qs jd as")
Give(cards=(Card.parse('AS'), Card.parse('QS'), Card.parse('JD')))
>>> str(Action.parse("give QS JD AS"))
'give AS QS JD'
>>> Action.parse("bid ten")
Traceback (most recent call last):
...
engine.errors.ActionParseError: bad bid amount in 'bid ten'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import CARDS, Card, Suit, parse_cards
from engine.errors import ActionParseError, CardParseError

__all__ = [
    "EXCHANGE_DIX",
    "NO_MELD",
    "PASS",
    "PASS_WITH_HELP",
    "PLAYS",
    "PLAY_ON",
    "THROW_IN",
    "Action",
    "Bid",
    "Bury",
    "ExchangeDix",
    "Give",
    "MeldCards",
    "NameTrump",
    "NoMeld",
    "Pass",
    "PassWithHelp",
    "Play",
    "PlayOn",
    "ThrowIn",
    "is_number",
]


_MAX_DIGITS = 9
"""Numbers in actions (bids, pile depths, meld indices) have at most nine digits: far
above any legal value, and far below what ``int`` refuses to read."""


def is_number(word: str) -> bool:
    """Whether ``word`` is a number in ASCII digits (``"²"`` is a digit to ``str.isdigit``
    but not a number ``int`` reads)."""
    return 0 < len(word) <= _MAX_DIGITS and word.isascii() and word.isdigit()


class Action:
    """Base of every action; ``str(action)`` is its text form."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action's text form (verbs and cards are case-insensitive)."""
        if not isinstance(text, str):
            raise ActionParseError(f"an action is text, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise ActionParseError("empty action")
        verb, args = words[0].lower(), words[1:]
        if verb in _NO_ARGUMENT:
            if args:
                raise ActionParseError(f"{verb!r} takes no argument: {text!r}")
            return _NO_ARGUMENT[verb]
        try:
            if verb == "bid":
                if len(args) != 1 or not is_number(args[0]):
                    raise ActionParseError(f"bad bid amount in {text!r}")
                return Bid(int(args[0]))
            if verb == "trump":
                if len(args) != 1:
                    raise ActionParseError(f"'trump' takes one suit: {text!r}")
                return NameTrump(Suit.parse(args[0]))
            if verb == "give":
                if not args:
                    raise ActionParseError(f"'give' needs cards: {text!r}")
                return Give(tuple(parse_cards(args)))
            if verb in ("bury", "meld"):
                if not args:
                    raise ActionParseError(f"{verb!r} needs cards: {text!r}")
                cards = parse_cards(args)
                return Bury(cards) if verb == "bury" else MeldCards(cards)
            if verb == "play":
                if len(args) != 1:
                    raise ActionParseError(f"'play' takes one card: {text!r}")
                return PLAYS[Card.parse(args[0])]
        except CardParseError as error:
            raise ActionParseError(f"{error} in {text!r}") from None
        raise ActionParseError(f"unknown action {verb!r} in {text!r}")


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``amount`` points (it must be on the variant's bid ladder)."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass: final, the player bids no more in this hand."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PassWithHelp(Action):
    """A pass that tells the partner this hand holds good meld; final and public."""

    def __str__(self) -> str:
        return "pass-help"


@dataclass(frozen=True, slots=True)
class NameTrump(Action):
    """The declarer names the trump suit."""

    suit: Suit

    def __str__(self) -> str:
        return f"trump {self.suit}"


@dataclass(frozen=True, slots=True)
class Give(Action):
    """Pass cards to the partner (a multiset: the order given does not matter)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card]) -> None:
        object.__setattr__(self, "cards", tuple(sorted(map(CARDS.__getitem__, cards))))

    def __str__(self) -> str:
        return "give " + " ".join(str(card) for card in self.cards)


@dataclass(frozen=True, slots=True)
class ThrowIn(Action):
    """The declarer concedes the hand after the meld (RULES.md section 5)."""

    def __str__(self) -> str:
        return "throw-in"


@dataclass(frozen=True, slots=True)
class PlayOn(Action):
    """The declarer declines the throw-in; the tricks are played."""

    def __str__(self) -> str:
        return "play-on"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Bury(Action):
    """The three-hand declarer discards cards after taking the widow (a multiset)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card]) -> None:
        object.__setattr__(self, "cards", tuple(sorted(map(CARDS.__getitem__, cards))))

    def __str__(self) -> str:
        return "bury " + " ".join(str(card) for card in self.cards)


@dataclass(frozen=True, slots=True)
class MeldCards(Action):
    """Two-hand: lay one meld (its cards name it: ``KS QS`` is a marriage in spades)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card]) -> None:
        object.__setattr__(self, "cards", tuple(sorted(map(CARDS.__getitem__, cards))))

    def __str__(self) -> str:
        return "meld " + " ".join(str(card) for card in self.cards)


@dataclass(frozen=True, slots=True)
class NoMeld(Action):
    """Two-hand: the trick winner lays no meld."""

    def __str__(self) -> str:
        return "no-meld"


@dataclass(frozen=True, slots=True)
class ExchangeDix(Action):
    """Two-hand: exchange the dix (nine of trump) for the turned-up trump card."""

    def __str__(self) -> str:
        return "dix"


PASS = Pass()
PASS_WITH_HELP = PassWithHelp()
THROW_IN = ThrowIn()
PLAY_ON = PlayOn()
NO_MELD = NoMeld()
EXCHANGE_DIX = ExchangeDix()
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in CARDS)
"""One interned ``Play`` per face, so the trick loop allocates no actions."""

_NO_ARGUMENT: dict[str, Action] = {
    "pass": PASS,
    "pass-help": PASS_WITH_HELP,
    "throw-in": THROW_IN,
    "play-on": PLAY_ON,
    "no-meld": NO_MELD,
    "dix": EXCHANGE_DIX,
}
