"""The greedy reference bot's card sense, on positions built by hand.

Every expected action is reasoned from the rules (RULES.md sections 2-4), not read off
the bot. The positions are single4 deals with spades trump: seat 1 bids 16 and the others
pass, the partner (seat 3) passes three clubs that come straight back, so the hands below
are the hands in play and seat 1 leads the first trick.
"""

from __future__ import annotations

import pytest

from bots.reference.greedy import GreedyBot, partner_meld
from engine.actions import Action, Give
from engine.hand import HandState, hand_from_cards, new_hand
from engine.meld import meld
from engine.rules import pinochle_rules

SETUP = ["bid 16", "pass", "pass", "pass", "trump S", "give 9C 9C JC", "give 9C 9C JC"]


def position(hands: list[str], plays: list[str]) -> HandState:
    """Deal ``hands`` (dealer 0), run SETUP, then the given plays."""
    state = hand_from_cards("single4", hands, dealer=0)
    for text in [*SETUP, *plays]:
        state.apply(Action.parse(text))
    return state


def greedy_move(state: HandState) -> str:
    seat = state.current_player
    assert seat is not None
    bot = GreedyBot()
    return bot.act(state.observation(seat), [str(action) for action in state.legal_actions])


# Seat 0 holds the two top hearts; seat 1 leads the king of hearts.
HEARTS_TO_TAKE = [
    "AH AH TH TH JH TD KD QD JD 9D AC TC",
    "KH KH QS JS 9S 9S AD TD KD QD JD 9D",
    "9H 9H AS AS TS TS KS KS QS JS AC TC",
    "QH QH JH 9C 9C JC JC QC QC KC KC AD",
]

# Seat 3 holds no heart and trumps the heart lead; seat 0 holds only hearts and diamonds.
HEARTS_TRUMPED = [
    "AH AH TH TH QH QH JH JH TD KD QD JD",
    "KH KH QS JS AD TD KD QD JD 9D 9D KC",
    "9H 9H AS AS TS TS KS KS QS JS AC TC",
    "9S 9S AC TC KC QC QC JC JC 9C 9C AD",
]


def test_it_takes_a_trick_with_the_cheapest_card_that_wins_it() -> None:
    # KH led, the partner's 9H and the opponent's QH follow: the opponent's king is winning.
    # Seat 0 plays last, so either AH or TH takes the trick for sure; the ten is enough.
    state = position(HEARTS_TO_TAKE, ["play KH", "play 9H", "play QH"])
    assert greedy_move(state) == "play TH"


def test_it_keeps_its_counters_off_a_trick_the_opponents_have_trumped() -> None:
    # KH led, the partner plays 9H, seat 3 trumps with 9S. Seat 0 must follow hearts and
    # no heart can win: the trick is lost, so an ace or a ten would hand over a counter.
    state = position(HEARTS_TRUMPED, ["play KH", "play 9H", "play 9S"])
    assert greedy_move(state) in ("play QH", "play JH")


def test_it_gives_a_counter_to_its_partner_winning_the_last_seat() -> None:
    # 9D led; the partner, void in diamonds, trumps with the ace of trumps; seat 3 follows
    # with AD. Seat 0 plays last and the partner's trick is safe, so a counter goes on it.
    state = position(HEARTS_TO_TAKE, ["play 9D", "play AS", "play AD"])
    assert greedy_move(state) in ("play TD", "play KD")


def test_it_leads_a_side_ace_first() -> None:
    # Seat 1 leads the first trick holding AD, a card nobody can beat except by trumping,
    # and nobody has shown a void yet.
    state = position(HEARTS_TO_TAKE, [])
    assert greedy_move(state) == "play AD"


def partner_gift(partner_hand: str, seat_0_hand: str) -> list[str]:
    """What seat 3 passes to its partner, seat 1, declarer in spades."""
    hands = [
        seat_0_hand,
        "KH KH QS JS 9S 9S AD TD KD QD JD 9D",
        "AS 9H 9H TS KS KS QS JS AC TC QC QC",
        partner_hand,
    ]
    state = hand_from_cards("single4", hands, dealer=0)
    for text in ["bid 16", "pass", "pass", "pass", "trump S"]:
        state.apply(Action.parse(text))
    move = Action.parse(greedy_move(state))
    assert isinstance(move, Give)
    return sorted(str(card) for card in move.cards)


def test_the_partner_passes_trumps_and_side_aces() -> None:
    # No meld to keep: the ace and ten of trumps and a side ace are what take tricks.
    passed = partner_gift(
        "AS TS AH AD QH QH JH JD KC JC JC 9D", "AH TH TH JH TD KD QD AC TC KC 9C 9C"
    )
    assert passed in (["AD", "AS", "TS"], ["AH", "AS", "TS"])


def test_the_partner_keeps_the_aces_of_its_aces_around() -> None:
    # AS AH AD AC are aces around (10 points, more than any card takes in tricks): the
    # partner passes the ten of trumps and two cards worth nothing, and keeps every ace.
    passed = partner_gift(
        "AS TS AH AD QH QH JH JD KC JC JC AC", "AH TH TH JH TD KD QD 9D TC KC 9C 9C"
    )
    assert "TS" in passed
    assert not any(card.startswith("A") for card in passed)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # A double run in spades scores 150 on its own: worth far more than 31.
        ("AS AS TS TS KS KS QS QS JS JS AH AD", "bid 31"),
        # Nines and jacks: the dix at most, no ace, no king. Even with the partner's meld,
        # 31 needs every trick point, which a hand without an ace cannot expect.
        ("9S JH JH 9H 9D 9D JD JC JC 9C 9C QH", "pass"),
    ],
)
def test_it_overcalls_only_within_its_meld_and_trick_estimate(hand: str, expected: str) -> None:
    pack = [rank + suit for suit in "SHDC" for rank in "ATKQJ9" for _ in range(2)]
    for card in hand.split():
        pack.remove(card)
    # Seat 1 opens (dealer 0) with 30; seat 2 holds the hand, the pack's rest goes around.
    hands = [" ".join(pack[0:12]), " ".join(pack[12:24]), hand, " ".join(pack[24:36])]
    state = hand_from_cards("single4", hands, dealer=0)
    state.apply(Action.parse("bid 30"))
    assert greedy_move(state) == expected


@pytest.mark.parametrize("seed", range(30))
def test_it_never_bids_beyond_its_meld_plus_every_trick_point(seed: int) -> None:
    rules = pinochle_rules("auction4")
    state = new_hand("auction4", seed=seed, dealer=0)
    state.apply(Action.parse("bid 260"))
    seat = state.current_player
    assert seat is not None
    move = greedy_move(state)
    if move.startswith("bid"):
        best = max(meld(state.hand(seat), trump, rules).total for trump in range(4))
        # Its own meld, the partner's average and what a pass can build, and all tricks.
        ceiling = best + partner_meld(rules) + rules.total_in_tricks
        assert int(move.split()[1]) <= ceiling
