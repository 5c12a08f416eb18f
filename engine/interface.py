"""The one game interface: a ``Game``, its ``State`` and its ``Observer``.

In the spirit of OpenSpiel (Game / State / Observer) and python-chess (a variant is a
small class found by name). Everything the service knows of a game is asked of these
three; a game is one module that subclasses ``Game`` and registers it
(``engine.registry.register_game``).

- ``Game``: what does not change while a hand is played. Declared by the game's class:
  ``name``, ``variants`` (name and label of each), the reference bots' family, the
  observer, and the rules in its own typed rules class (``preset``, ``rules_from_json``).
  An instance is one variant with its rules fixed: ``players``, ``teams``,
  ``side_of``/``partner_of``, ``seat_name``, the dealer of each board, the duplicate
  ``seatings``, ``new_initial_state``, ``parse_action``, replays (in the one format, by
  default from the hand's seed), forfeits and the game to its target.
- ``State`` (``engine.state.State``): a hand in play, or a whole game to its target
  (``engine.game.TargetGame``): ``current_player``, ``phase``, ``legal_actions``,
  ``apply``, ``copy``, ``is_terminal``, ``result``, ``history``, ``hand``, ``teams`` and
  ``seed``; the cards a hand was dealt are ``Game.initial_deal(state)``;
  ``engine.agents.play`` drives any.
- ``Observer``: what a reader may see: one seat's view, the public view (a spectator),
  the open view (everything, once the hand is over) and an action as each seat hears it;
  and, drawn from a view alone for the replay viewer, a step in words, the table in a
  form every game shares and the breakdown of the result.

>>> from engine.registry import load_game
>>> game = load_game("single4")
>>> game.players, game.teams, game.partner_of(1), game.seat_name(2)
(4, ((0, 2), (1, 3)), 3, 'South')
>>> state = game.new_initial_state(seed=1, dealer=game.board_dealer(1))
>>> "hand" in game.observer.public_view(state), len(game.observer.open_view(state)["hands"])
(False, 4)
"""

from __future__ import annotations

import abc
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from engine.actions import Action
from engine.errors import RegistryError, RulesError, SeatError
from engine.forfeit import ScoreBounds
from engine.game import TargetGame
from engine.replay import HandReplay, SeededReplay
from engine.seats import left_of, partner_of
from engine.state import State

if TYPE_CHECKING:
    from engine.entry import HandScore, ScoreEntry

__all__ = [
    "COMPASS",
    "AnyGame",
    "AnyState",
    "Deal",
    "Game",
    "Observer",
    "RulesLike",
    "phase_title",
    "seat_number",
    "seatings_for",
    "sentence",
]

COMPASS = {
    4: ("North", "East", "South", "West"),
    3: ("North", "East", "West"),
    2: ("North", "South"),
}
"""Seat names by number of players, clockwise from seat 0 (the dealer's left is the next
seat): the names a table, a hand record and a replay show."""


def seat_number(seat: int) -> str:
    """A seat by its number (``seat 2``): the name of a seat where no other is given."""
    return f"seat {seat}"


def sentence(text: str) -> str:
    """``text`` with its first letter made a capital, as a line that starts with a name."""
    return text[:1].upper() + text[1:]


class RulesLike(Protocol):
    """What every game's rules class offers: its variant's name, its number of players,
    and JSON (``Game.rules_from_json`` reads it back)."""

    @property
    def name(self) -> str: ...

    @property
    def players(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=RulesLike)
S = TypeVar("S", bound=State[Any, Any])


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of a hand as dealt, in each game's notation: the hands by seat, then the
    cards dealt to nobody (the widow, the stock from the top, the discard pile), each
    named."""

    hands: tuple[tuple[str, ...], ...]
    undealt: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [list(hand) for hand in self.hands],
            **{name: list(cards) for name, cards in self.undealt},
        }

    def cards(self) -> list[str]:
        """Every card of the deal, hands first."""
        found = [card for hand in self.hands for card in hand]
        return found + [card for _, cards in self.undealt for card in cards]


class Observer(Generic[S]):
    """What a reader may see of a hand of one game.

    ``seat_view`` is exactly what one seat may know (the state's ``observation``);
    ``public_view`` what every seat knows (a spectator's view during play: no hidden
    card); ``open_view`` every card, on and under the table (shown only after the end);
    ``heard`` an action's text as one seat (or a spectator, ``None``) learns of it.
    """

    def seat_view(self, state: S, seat: int) -> dict[str, Any]:
        return state.observation(seat)

    def public_view(self, state: S) -> dict[str, Any]:
        """What every seat knows: seat 0's view without its hand (a game with other
        private information overrides it)."""
        view = dict(state.observation(0))
        view.pop("hand", None)
        view["seat"] = None
        return view

    def open_view(self, state: S) -> dict[str, Any]:
        """The public view with every seat's hand."""
        view = self.public_view(state)
        view["hands"] = [[str(card) for card in state.hand(s)] for s in range(state.num_players)]
        return view

    def heard(self, action: Action, actor: int, viewer: int | None) -> str:
        """What ``viewer`` (a seat, or ``None`` for a spectator) learns of ``actor``'s
        ``action``: by default the whole action."""
        return str(action)

    def step_mark(self, view: Mapping[str, Any]) -> str | None:
        """The label of the part of the hand a view is in (``Trick 3``), or None: the
        replay viewer's jump marks."""
        return None

    def trick_plays(self, trick: object, players: int) -> list[tuple[int | None, str]]:
        """A trick of a view with the seat that played each card, as far as the view says.

        A trick given as its ``leader`` and ``cards`` went round the table from the leader,
        each seat playing after the seat on its right (seat ``s + 1`` after ``s``, as the
        deal passes); a trick given as its cards alone names no seat (``None``).
        """
        if isinstance(trick, Mapping):
            leader, cards = trick.get("leader"), trick.get("cards")
        else:
            leader, cards = None, trick
        if not isinstance(cards, Sequence) or isinstance(cards, str):
            return []
        if not isinstance(leader, int):
            return [(None, str(card)) for card in cards]
        return [(left_of(leader, players, index), str(card)) for index, card in enumerate(cards)]

    def caption(
        self, actor: int, action: str, view: Mapping[str, Any], name: Callable[[int], str]
    ) -> str:
        """One step in words: ``actor``'s ``action`` as the reader heard it, ``view`` the
        reader's view after it, ``name`` the name of a seat (``Seat 2 (alice)``). Built
        from the heard action and the view alone, it names no card the reader did not see.
        By default the seat's name and the action's text."""
        return f"{name(actor)}: {action}"

    def table(
        self,
        view: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        name: Callable[[int], str] = seat_number,
    ) -> dict[str, Any]:
        """The table a view shows, in a form that any game shares (the replay viewer draws
        it without knowing the game); built from the view alone, so it shows nothing the
        view hides. ``teams`` are the seats of each side, in ``Game.teams`` order; ``name``
        names a seat in the table's words (a page passes the names it shows its seats by,
        ``North``; by default ``seat 2``).

        - ``title``: a heading for the state of the hand (``Phase: tricks``), or None;
        - ``seats``: by seat, ``{"seat", "tags", "to_act", "cards", "count", "groups"}``:
          the hand's cards if the view shows them (else ``None``), else how many it holds
          if the view tells (else ``None``); ``tags`` name the seat's roles (``dealer``);
          ``groups`` are the cards the seat has on the table, each ``{"label", "rows"}``
          and each row ``{"label", "cards"}`` (a label may be ``None``);
        - ``center``: the cards in play in the middle, ``{"label", "plays"}`` with each play
          ``{"seat", "card"}``, or None;
        - ``areas``: other places of the table, each ``{"label"}`` with ``cards`` (face up)
          or ``count`` (face down), or neither (a line of text);
        - ``facts``: about the hand, each ``{"label"}`` with a ``value`` (text), ``items``
          (a list of lines) or ``cards``;
        - ``score``: the running score, ``{"columns", "rows"}`` with one row of values by
          side in ``teams`` order, or None.

        The default shows the hands (``hand``, ``hands``, ``hand_sizes``), the dealer and
        the seat to act, and the rest of the view as it comes: a list of strings as cards,
        any other value as a fact.
        """
        shown = {"game", "variant", "seat", "phase", "dealer", "current_player", "result"}
        shown |= {"hand", "hands", "hand_sizes"}
        areas: list[dict[str, Any]] = []
        facts: list[dict[str, Any]] = []
        for key, value in view.items():
            if key in shown or value is None:
                continue
            label = key.replace("_", " ").capitalize()
            if isinstance(value, list) and all(isinstance(item, str) for item in value):
                areas.append({"label": label, "cards": value})
            elif isinstance(value, list):
                facts.append({"label": label, "value": ", ".join(map(str, value))})
            else:
                facts.append({"label": label, "value": str(value)})
        return {
            "title": phase_title(view),
            "seats": self.table_seats(view, teams),
            "center": None,
            "areas": areas,
            "facts": facts,
            "score": None,
        }

    def table_seats(
        self, view: Mapping[str, Any], teams: Sequence[Sequence[int]]
    ) -> list[dict[str, Any]]:
        """The ``seats`` of ``table``: each seat's hand as far as the view shows it, with
        the dealer and the seat to act tagged, and no group."""
        hands = view.get("hands")
        sizes = view.get("hand_sizes")
        entries = []
        for seat in sorted(seat for team in teams for seat in team):
            if hands is not None:
                cards = list(hands[seat])
            elif seat == view.get("seat") and "hand" in view:
                cards = list(view["hand"])
            else:
                cards = None
            tags = ["dealer"] if view.get("dealer") == seat else []
            to_act = view.get("current_player") == seat
            entries.append(
                {
                    "seat": seat,
                    "tags": tags + (["to act"] if to_act else []),
                    "to_act": to_act,
                    "cards": cards,
                    "count": None if cards is not None or sizes is None else sizes[seat],
                    "groups": [],
                }
            )
        return entries

    def breakdown(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """How the hand a (final) view shows was scored, or None (by default: not told).

        ``{"outcome", "details", "header", "columns", "rows"}``: the outcome's name and a
        line about it, the heading of the first column and the others' ``{"label",
        "numeric"}``, and the rows, each ``{"label", "cells"}`` with one ``{"value",
        "numeric"}`` a column."""
        return None


def phase_title(view: Mapping[str, Any]) -> str | None:
    """A view's phase as a heading (``Phase: tricks``), or None if it has none."""
    phase = view.get("phase")
    return None if phase is None else "Phase: " + str(phase).replace("_", " ")


def seatings_for(players: int, partnership: bool) -> dict[str, tuple[int, ...]]:
    """Which of the two competitors (0 = X, 1 = Y) sits in each seat, table by table.

    Duplicate (RULES.md section 9): partners at 0/2 and 1/3 swap sides at the second table;
    in individual games the board is played once for each arrangement of the two over
    the seats in which both play (2 players: 2 tables; 3 players: 6), so each meets
    every position equally often.
    """
    if partnership:
        return {"A": (0, 1, 0, 1), "B": (1, 0, 1, 0)}
    if players == 2:
        return {"A": (0, 1), "B": (1, 0)}
    arrangements = [
        lineup
        for lineup in itertools.product((0, 1), repeat=players)
        if 0 in lineup and 1 in lineup and (players != 4 or lineup.count(0) == 2)
    ]
    return {chr(ord("A") + index): lineup for index, lineup in enumerate(arrangements)}


class Game(abc.ABC, Generic[R, S]):
    """One variant of a game with its rules fixed (``load_game`` builds one by name).

    A game's class declares ``name``, ``variants`` (variant name: label, in the order
    forms list them), ``observer``, ``bot_family`` (the reference bots' family in
    ``bots.reference``; ``None``: the random bot only) and implements the abstract
    methods. A variant is played by two partnerships (seats 0/2 against 1/3) when
    ``partnered`` holds it; otherwise every player is a side of their own.
    """

    name: ClassVar[str]
    variants: ClassVar[Mapping[str, str]]
    observer: ClassVar[Observer[Any]]
    partnered: ClassVar[frozenset[str]] = frozenset()
    bot_family: ClassVar[str | None] = None
    target_game: ClassVar[type[TargetGame[Any, Any]] | None] = None
    """The driver of hands to the target (``None``: played one hand at a time)."""
    card_verbs: ClassVar[frozenset[str]] = frozenset({"play"})
    """Verbs of the actions that name one card of the hand (``play AS``): a table offers
    them by a click on the card."""
    pick_verbs: ClassVar[frozenset[str]] = frozenset()
    """Verbs of the actions that name several cards of the hand at once (a pass): a table
    offers them by picking the cards, then sending them."""
    amount_verbs: ClassVar[frozenset[str]] = frozenset()
    """Verbs of the actions that name one of many amounts (a bid): a table offers them as
    one list. Every other action is a button of its own."""
    rule_summaries: ClassVar[Mapping[str, str]] = {}
    """A refused action's rule (``IllegalActionError.rule``) as a player is told it, for
    the rules that have a short saying ("you must follow suit"); the others are told by
    the engine's reason alone."""
    main_variant: ClassVar[str | None] = None
    """The variant shown where the service needs one of the game's (a link to its
    leaderboard, demo data); ``None``: the first of ``variants``."""
    hand_record_variants: ClassVar[frozenset[str]] = frozenset()
    """The variants whose hands a table can report on paper (``score_entry``): duplicate
    events for people are run for these."""
    robot_event_variants: ClassVar[frozenset[str]] = frozenset()
    """The variants of duplicate events for bots, scored against the reference bots."""
    imp_scales: ClassVar[Mapping[str, tuple[int, ...]]] = {}
    """By variant, the rising swing thresholds of its IMP-like scale (a swing earns one IMP
    per threshold it reaches); a variant without one has no IMP scoring."""

    __slots__ = ("rules", "variant")

    def __init__(self, variant: str, rules: R | None = None) -> None:
        if variant not in self.variants:
            raise RegistryError(f"{variant!r} is not a variant of {self.name!r}")
        if rules is None:
            rules = self.preset(variant)
        elif rules.name != variant:
            raise RulesError("name", f"the rules are for {rules.name!r}, not {variant!r}")
        self.variant = variant
        self.rules: R = rules

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.variant}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and type(other) is type(self)
            and (other.variant, other.rules) == (self.variant, self.rules)
        )

    def __hash__(self) -> int:
        return hash((type(self), self.variant))

    # ------------------------------------------------------------ rules

    @classmethod
    @abc.abstractmethod
    def preset(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> R:
        """A variant's preset rules, changed by a league's ``overrides`` (a bad one raises
        ``RulesError`` naming the parameter)."""

    @classmethod
    @abc.abstractmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> R:
        """Rules read back from their JSON (``RulesError`` if they are not valid)."""

    def rules_for(self, overrides: Mapping[str, Any] | None) -> R:
        """This variant's preset changed by ``overrides`` (none: the preset itself)."""
        return self.preset(self.variant, overrides)

    def with_rules(self, rules: R | None) -> Game[R, S]:
        """The same variant under other rules (``None``: its preset)."""
        return type(self)(self.variant, rules)

    # ------------------------------------------------------------ seats

    @property
    def label(self) -> str:
        """The variant's name for people."""
        return self.variants[self.variant]

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def partnership(self) -> bool:
        """Whether two partnerships play (seats 0/2 against 1/3)."""
        return self.variant in self.partnered

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each scoring side, in the order of a result's ``team_scores``."""
        if self.partnership:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(self.players))

    def check_seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise SeatError(f"{self.variant} has seats 0 to {self.players - 1}, not {seat!r}")
        return seat

    def side_of(self, seat: int) -> int:
        """The index of ``seat``'s side in a result's ``team_scores``."""
        self.check_seat(seat)
        return seat % 2 if self.partnership else seat

    def partner_of(self, seat: int) -> int | None:
        """The seat's partner (across the table), or ``None`` in a game without partners."""
        self.check_seat(seat)
        return partner_of(seat) if self.partnership else None

    def seat_name(self, seat: int) -> str:
        """The seat's compass name (``North`` is seat 0)."""
        return COMPASS[self.players][self.check_seat(seat)]

    @property
    def seat_names(self) -> tuple[str, ...]:
        return COMPASS[self.players]

    def next_dealer(self, dealer: int) -> int:
        """Who deals the next hand: the deal passes to the left (RULES.md section 5)."""
        return left_of(self.check_seat(dealer), self.players)

    def board_dealer(self, board: int) -> int:
        """The dealer of board ``board`` (1-based) of a match or an event: board 1 is dealt
        by seat 0 and the deal moves left from board to board, as at a table."""
        return left_of(0, self.players, board - 1)

    @property
    def seatings(self) -> dict[str, tuple[int, ...]]:
        """The duplicate tables: which of two competitors (0 or 1) sits in each seat."""
        return seatings_for(self.players, self.partnership)

    # ------------------------------------------------------------ events

    @property
    def has_hand_records(self) -> bool:
        """Whether a table's paper result of this variant can be scored (``score_entry``)."""
        return self.variant in self.hand_record_variants

    @property
    def has_robot_events(self) -> bool:
        return self.variant in self.robot_event_variants

    @property
    def imp_scale(self) -> tuple[int, ...] | None:
        """This variant's IMP thresholds (``imp_scales``), or ``None``."""
        return self.imp_scales.get(self.variant)

    def score_entry(self, deal: Deal, entry: ScoreEntry) -> HandScore:
        """Check a table's paper result of the hand dealt ``deal`` against the rules and
        the cards, and score it (``engine.entry``); ``EntryRejected`` names the rule an
        entry breaks."""
        raise RegistryError(f"{self.variant!r} has no score entry from a table's result")

    def score_accepted(self, entry: ScoreEntry) -> HandScore:
        """The scores of an entry ``score_entry`` accepted, from its totals alone."""
        raise RegistryError(f"{self.variant!r} has no score entry from a table's result")

    # ------------------------------------------------------------ hands

    @abc.abstractmethod
    def new_initial_state(self, seed: int, dealer: int = 0) -> S:
        """A hand dealt from ``seed`` by ``dealer`` (``splitmix64-fy-v1``)."""

    @abc.abstractmethod
    def initial_deal(self, state: S) -> Deal:
        """The cards ``state``'s hand was dealt (every hand, and any cards dealt to nobody)."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> Action:
        """An action of this game from its text (``ActionParseError`` naming what is
        wrong); ``str(action)`` prints it back."""

    def write_replay(self, state: S) -> HandReplay[S]:
        """The replay of a hand of this game (its result too, once it is over), in the one
        replay format. By default the hand's ``seed`` and dealer and its actions' text
        (``engine.replay.SeededReplay``): a game that deals hands from explicit cards
        writes its own."""
        return SeededReplay.from_state(self, state)

    def read_replay(self, data: Mapping[str, Any]) -> HandReplay[S]:
        """A replay of this game read from its document (older versions migrated): by
        default dealt again from its seed, its rules read by ``rules_from_json`` and its
        actions by ``parse_action``."""
        return SeededReplay.from_json(self, data)

    @abc.abstractmethod
    def score_bounds(self, state: S) -> ScoreBounds:
        """For each side, the lowest and highest score it can still reach from ``state``,
        as sound bounds (``engine.forfeit``)."""

    @abc.abstractmethod
    def worst_case_bounds(self) -> ScoreBounds:
        """The same bounds from any position under these rules (no position at hand)."""

    def margin(self, side_scores: Sequence[int], lineup: Sequence[int]) -> Fraction:
        """One table's duplicate result (RULES.md section 9): the mean score of the seats
        where ``lineup`` has 0 less the mean where it has 1, each seat scoring its side's
        score (``side_scores`` in ``teams`` order). A board's result sums it over the
        board's tables, the same lineup throughout, so that the cards' luck cancels."""
        seats = [int(side_scores[self.side_of(seat)]) for seat in range(self.players)]
        x = [seats[seat] for seat in range(self.players) if lineup[seat] == 0]
        y = [seats[seat] for seat in range(self.players) if lineup[seat] == 1]
        return Fraction(sum(x), len(x)) - Fraction(sum(y), len(y))

    def forfeit_scores(self, state: S | None, leavers: int | Iterable[int]) -> tuple[int, ...]:
        """Each side's score, in ``teams`` order, when ``leavers`` (a seat, or every seat
        of one competitor) abandon the hand at ``state``: their sides at the lowest score
        they could still reach, every other side at the highest, so that leaving never
        pays (``engine.forfeit``). Without a position, the bounds of any position."""
        seats = (leavers,) if isinstance(leavers, int) else tuple(leavers)
        leaving = {self.side_of(seat) for seat in seats}
        bounds = self.worst_case_bounds() if state is None else self.score_bounds(state)
        return bounds.forfeit(leaving)

    def new_target_game(
        self, seed: int, dealer: int = 0, *, max_hands: int | None = None
    ) -> TargetGame[Any, Any]:
        """Hands to the target under these rules, the dealer moving left each hand."""
        if self.target_game is None:
            raise RegistryError(f"{self.variant!r} is played one hand at a time: no target")
        return self.target_game(
            self.variant, seed=seed, dealer=dealer, rules=self.rules, max_hands=max_hands
        )


AnyGame = Game[Any, Any]
"""A game of any kind, as the parts of the service that play every game hold one."""

AnyState = State[Any, Any]
"""A hand of any game."""
