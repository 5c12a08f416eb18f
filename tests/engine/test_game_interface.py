"""The one game interface, asked of every registered variant and of the toy of
``tests/engine/toy_highcard.py``: each ``Game`` is complete, its seats, sides, partners
and dealers agree with each other and with RULES.md, its deal holds exactly the pack,
and its ``Observer`` names no hidden card to a spectator or to another seat.

A game registered in ``engine.registry`` is covered here without a test of its own (its
pack is the one entry to add to ``PACKS``).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Bury, Give
from engine.errors import SeatError
from engine.interface import COMPASS, AnyGame, AnyState, Observer
from engine.pinochle4 import Pinochle4Observer
from engine.registry import game_class, load_game, variant_names
from engine.state import State
from tests.engine.toy_highcard import HighCard, registered_toy

VARIANTS = [*variant_names(), *HighCard.variants]
FEW = settings(max_examples=10, deadline=None, derandomize=True, database=None)

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9=])(?:10|[AKQJT2-9])[SHDC](?![A-Za-z0-9])|\bJK\b")
"""A card in the notation of every game (``QS``, ``TH``, ``9C``, Pinnacolo's ``JK``); a
wild's stand-in (``JK=7H``, not a card) is not one."""

SHOWN = ("melds", "table", "widow", "turned_up")
"""The parts of a view that show cards a seat still holds, face up to everybody: the
pinochle melds (RULES.md 3; in 7.1 the melds on the table), the widow once the declarer
takes it (7.2), the turned-up trump that is drawn last (7.1)."""

OPPOSITE = {"North": "South", "South": "North", "East": "West", "West": "East"}


def pinochle_pack(game: AnyGame) -> Counter[str]:
    """RULES.md section 1: a single deck is two copies of A T K Q J 9 in each suit (48
    cards), a double deck four copies of A T K Q J (80)."""
    copies, ranks = (2, "ATKQJ9") if game.rules.deck == "single" else (4, "ATKQJ")
    return Counter({rank + suit: copies for suit in "SHDC" for rank in ranks})


def pinnacolo_pack(game: AnyGame) -> Counter[str]:
    """RULES.md section 8: two 52-card packs and four jokers, without the red twos (104)."""
    pack = Counter({rank + suit: 2 for suit in "SHDC" for rank in "A23456789TJQK"})
    del pack["2H"], pack["2D"]
    pack["JK"] = 4
    return pack


def toy_pack(game: AnyGame) -> Counter[str]:
    """The toy deals from the single deck (its module's docstring)."""
    return Counter({rank + suit: 2 for suit in "SHDC" for rank in "ATKQJ9"})


PACKS: Mapping[str, Callable[[AnyGame], Counter[str]]] = {
    "pinochle4": pinochle_pack,
    "pinochle3": pinochle_pack,
    "pinochle2": pinochle_pack,
    "pinnacolo": pinnacolo_pack,
    "toy": toy_pack,
}
PACK_SIZES = {"single": 48, "double": 80}


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered_toy():
        yield


def tokens(value: Any) -> set[str]:
    """Every card named by a string anywhere in ``value`` (a view: dicts, lists, text)."""
    if isinstance(value, str):
        return set(CARD_TOKEN.findall(value))
    if isinstance(value, Mapping):
        return set().union(*(tokens(item) for item in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(tokens(item) for item in value))
    return set()


def held(state: AnyState, seat: int) -> Counter[str]:
    return Counter(str(card) for card in state.hand(seat))


# ------------------------------------------------------------------ the Game, complete


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_member_of_the_game_answers(variant: str) -> None:
    cls = game_class(variant)
    game = cls(variant)
    assert game == load_game(variant) and hash(game) == hash(load_game(variant))
    assert variant in cls.variants and game.label == cls.variants[variant]
    assert game.variant == variant == game.rules.name and game.players == game.rules.players
    assert game.rules_from_json(json.loads(json.dumps(game.rules.to_json()))) == game.rules
    assert game.rules_for(None) == game.rules and game.with_rules(None) == game
    assert game.with_rules(game.rules) == game
    assert game.bot_family is None or isinstance(game.bot_family, str)
    assert isinstance(game.observer, Observer)
    state = game.new_initial_state(seed=7, dealer=game.board_dealer(2))
    assert isinstance(state, State) and state.dealer == game.board_dealer(2)
    for action in list(state.legal_actions):
        assert game.parse_action(str(action)) == action
    bounds, anywhere = game.score_bounds(state), game.worst_case_bounds()
    assert len(bounds.low) == len(bounds.high) == len(anywhere.low) == len(game.teams)
    assert all(low <= high for low, high in zip(bounds.low, bounds.high, strict=True))
    assert all(a <= b for a, b in zip(anywhere.low, bounds.low, strict=True))
    assert all(a >= b for a, b in zip(anywhere.high, bounds.high, strict=True))
    assert (
        len(game.forfeit_scores(state, 0)) == len(game.forfeit_scores(None, 0)) == len(game.teams)
    )
    views = [game.observer.seat_view(state, seat) for seat in range(game.players)]
    for view in [*views, game.observer.public_view(state), game.observer.open_view(state)]:
        json.dumps(view)
        mark = game.observer.step_mark(view)
        assert mark is None or isinstance(mark, str)
    opened = game.observer.open_view(state)
    assert [Counter(hand) for hand in opened["hands"]] == [
        held(state, seat) for seat in range(game.players)
    ]
    play_randomly(state, random.Random(7))
    replay = game.read_replay(json.loads(json.dumps(game.write_replay(state).to_json())))
    assert list(replay.actions) == [str(action) for action in state.history]
    match = game.new_target_game(seed=7, dealer=1, max_hands=1)
    assert isinstance(match, State) and match.rules == game.rules
    play_randomly(match, random.Random(7))
    assert len(match.result().team_scores) == len(game.teams)


@pytest.mark.parametrize("variant", VARIANTS)
def test_seats_sides_partners_and_dealers_agree_with_each_other_and_the_rules(
    variant: str,
) -> None:
    game = load_game(variant)
    seats = range(game.players)
    # RULES.md section 1: seats are numbered clockwise from 0, North first.
    assert game.seat_names == COMPASS[game.players]
    assert [game.seat_name(seat) for seat in seats] == list(game.seat_names)
    # Every seat on exactly one side, each side's seats in ``teams``.
    assert sorted(seat for team in game.teams for seat in team) == list(seats)
    for side, team in enumerate(game.teams):
        assert all(game.side_of(seat) == side for seat in team)
    for seat in seats:
        partner = game.partner_of(seat)
        if not game.partnership:
            assert partner is None and game.teams[game.side_of(seat)] == (seat,)
            continue
        # RULES.md sections 1 and 8: partners sit opposite, 0 and 2 against 1 and 3.
        assert partner is not None and game.partner_of(partner) == seat
        assert game.seat_name(partner) == OPPOSITE[game.seat_name(seat)]
        assert game.side_of(partner) == game.side_of(seat) == seat % 2
        assert set(game.teams[game.side_of(seat)]) == {seat, partner}
    if game.partnership:
        assert game.players == 4 and game.teams == ((0, 2), (1, 3))
    # RULES.md section 1: the deal passes one seat to the left (clockwise), and the seat
    # left of the dealer acts first (7.1: the non-dealer leads; 8: the player after the
    # dealer draws first).
    for dealer in seats:
        assert game.next_dealer(dealer) == (dealer + 1) % game.players
        state = game.new_initial_state(seed=3, dealer=dealer)
        assert state.current_player == game.next_dealer(dealer)
    # Board 1 is dealt by seat 0, each next board by the next dealer.
    assert game.board_dealer(1) == 0
    for board in range(1, 3 * game.players):
        assert game.board_dealer(board + 1) == game.next_dealer(game.board_dealer(board))
    # RULES.md section 9: in duplicate each of the two competitors plays every table.
    for lineup in game.seatings.values():
        assert len(lineup) == game.players and set(lineup) == {0, 1}
        if game.partnership:
            assert all(lineup[seat] == lineup[game.partner_of(seat) or 0] for seat in seats)
    for bad in (-1, game.players, True):
        for member in (game.seat_name, game.side_of, game.partner_of, game.next_dealer):
            with pytest.raises(SeatError):
                member(bad)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5])
def test_the_initial_deal_is_exactly_the_pack_and_the_hands_held_at_the_start(
    variant: str, seed: int
) -> None:
    game = load_game(variant)
    state = game.new_initial_state(seed=seed, dealer=game.board_dealer(seed % 7 + 1))
    deal = game.initial_deal(state)
    pack = PACKS[game.name](game)
    if game.name.startswith("pinochle"):
        assert pack.total() == PACK_SIZES[game.rules.deck]
    if game.name == "pinnacolo":
        assert pack.total() == 104
    # Every card of the pack once per copy: in a hand or named among the undealt.
    assert Counter(deal.cards()) == pack
    assert all(name and cards for name, cards in deal.undealt)
    assert len(deal.hands) == game.players
    assert len({len(hand) for hand in deal.hands}) == 1, "every seat is dealt as many"
    for seat in range(game.players):
        assert Counter(deal.hands[seat]) == held(state, seat)
    json.dumps(deal.to_json())


# ------------------------------------------------------------------ what each reader sees


def play_randomly(state: AnyState, choices: random.Random) -> None:
    while not state.is_terminal():
        legal = state.legal_actions
        state.apply(legal[choices.randrange(len(legal))])


def hidden_in_hands(state: AnyState, pack: Counter[str], seats: range) -> set[str]:
    """The cards every copy of which is in the hands of ``seats``: nobody else can have
    seen them unless they were shown."""
    holding: Counter[str] = Counter()
    for seat in seats:
        holding += held(state, seat)
    return {card for card, count in holding.items() if count == pack[card]}


class Readers:
    """What the spectator and each seat may know of one hand, followed action by action:
    the cards they heard named (``Observer.heard``) and the cards every seat has seen
    face up out of any hand (the pile, a trick, the turned-up trump), which stay known
    once taken into a hand. ``leaks`` lists each card a reader is told but may not know.
    """

    def __init__(self, game: AnyGame, observer: Observer[Any]) -> None:
        self.game, self.observer = game, observer
        self.pack = PACKS[game.name](game)
        self.seats = range(game.players)
        self.heard: dict[int | None, set[str]] = {seat: set() for seat in (None, *self.seats)}
        self.seen_by_all: set[str] = set()
        self.steps: list[tuple[int, Action]] = []

    def hear(self, actor: int, action: Action) -> None:
        self.steps.append((actor, action))
        for viewer in self.heard:
            self.heard[viewer] |= tokens(self.observer.heard(action, actor, viewer))

    def leaks(self, state: AnyState) -> list[str]:
        found = []
        public = self.observer.public_view(state)
        hidden = hidden_in_hands(state, self.pack, self.seats)
        # A card named in the public view while a copy is out of every hand is out in the
        # open (a sound check: it may also hide a leak of another copy, later).
        self.seen_by_all |= tokens(public) - hidden
        known_to_all = shown(public) | self.heard[None] | self.seen_by_all
        # (a) The spectator: no card that is in a hand and was never shown to everybody.
        for card in sorted((tokens(public) & hidden) - known_to_all):
            found.append(f"public view names {card}, held in a hand and never shown")
        # (b) A passed or buried card is heard by the seats that exchange it alone.
        for actor, action in self.steps:
            if isinstance(action, Give | Bury):
                told = tokens(self.observer.heard(action, actor, None)) & tokens(str(action))
                found += [f"a spectator hears {card} of {action}" for card in sorted(told)]
        # (c) A seat: no card of another seat's hand it was not shown, given or passed.
        for seat in self.seats:
            view = dict(self.observer.seat_view(state, seat))
            assert Counter(view.pop("hand")) == held(state, seat)
            unseen = hidden - set(held(state, seat)) - known_to_all - self.heard[seat]
            found += [
                f"seat {seat} is told {card} of another seat's hand"
                for card in sorted(tokens(view) & unseen)
            ]
        return found


def shown(view: Mapping[str, Any]) -> set[str]:
    return tokens([view.get(part) for part in SHOWN])


@pytest.mark.parametrize("variant", VARIANTS)
@FEW
@given(seed=st.integers(0, 2**64 - 1), choices=st.integers(0, 2**32))
def test_no_reader_is_told_a_card_hidden_from_them(variant: str, seed: int, choices: int) -> None:
    game = load_game(variant)
    state = game.new_initial_state(seed=seed, dealer=game.board_dealer(choices % 7 + 1))
    readers = Readers(game, game.observer)
    rng = random.Random(choices)
    while True:
        assert readers.leaks(state) == []
        if state.is_terminal():
            break
        actor = state.current_player
        assert actor is not None
        legal = state.legal_actions
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        readers.hear(actor, action)


class LeakyObserver(Pinochle4Observer):
    """The four-hand observer with three deliberate leaks, one for each check above."""

    def public_view(self, state: Any) -> dict[str, Any]:
        return {**super().public_view(state), "hint": list(map(str, state.hand(1)))}

    def seat_view(self, state: Any, seat: int) -> dict[str, Any]:
        view = super().seat_view(state, seat)
        return {**view, "peek": list(map(str, state.hand((seat + 1) % 4)))}

    def heard(self, action: Action, actor: int, viewer: int | None) -> str:
        return str(action)


def test_the_checks_catch_a_leaking_observer() -> None:
    game = load_game("auction4")
    state = game.new_initial_state(seed=4, dealer=0)
    leaky = Readers(game, LeakyObserver())
    found = leaky.leaks(state)
    assert any(leak.startswith("public view names") for leak in found)
    assert any(leak.startswith("seat 0 is told") for leak in found)
    # Play to the pass of cards, which a spectator must not hear.
    readers = Readers(game, game.observer)
    rng = random.Random(1)
    while not any(isinstance(action, Give) for _, action in readers.steps):
        actor = state.current_player
        assert actor is not None
        legal = state.legal_actions
        action = legal[0] if state.phase.value == "auction" else legal[rng.randrange(len(legal))]
        state.apply(action)
        leaky.hear(actor, action)
        readers.hear(actor, action)
    assert any(leak.startswith("a spectator hears") for leak in leaky.leaks(state))
    # The game's own observer tells none of these.
    assert readers.leaks(state) == []
