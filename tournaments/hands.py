"""Boards from a committed secret, and score entry checked against the dealt cards.

Pure functions over the engine (no Django), so the deal check and the entry rules can be
run by anyone with the revealed secret.

Verifiable deals (``arena.seeding``): when an event is created a 32-byte secret is drawn
and only its commitment ``sha256(secret)`` is published. Board ``i``'s seed is
``arena.seeding.event_board_seed(secret, i)``; the variant's game deals it by the board's
dealer (``Game.board_dealer``). After the event the secret is revealed and
``deal_problems`` re-derives every seed.

A table's paper result is checked and scored by the variant's game
(``Game.score_entry``, ``engine.entry``); what a player who may not see every hand is
told of a refusal is ``public_rejection``'s.
"""

from __future__ import annotations

from arena.seeding import commitment, new_secret
from arena.seeding import event_board_seed as board_seed
from arena.seeding import event_deal_problems as deal_problems
from engine.entry import CardsContradicted, EntryOutcome, EntryRejected, HandScore, ScoreEntry
from engine.interface import AnyGame, AnyState
from engine.registry import load_game

__all__ = [
    "PLAYER_CARDS_MESSAGE",
    "CardsContradicted",
    "EntryOutcome",
    "EntryRejected",
    "HandScore",
    "ScoreEntry",
    "board_seed",
    "commitment",
    "deal",
    "deal_problems",
    "new_secret",
    "public_rejection",
    "score_board_entry",
]


def deal(variant: str, seed: int, dealer: int) -> AnyState:
    """The board's hand as dealt (``Game.initial_deal`` gives its cards)."""
    state: AnyState = load_game(variant).new_initial_state(seed=seed, dealer=dealer)
    return state


def score_board_entry(game: AnyGame, seed: int, dealer: int, entry: ScoreEntry) -> HandScore:
    """Check ``entry`` against the board dealt from ``seed`` by ``dealer`` and score it."""
    state = game.new_initial_state(seed=seed, dealer=dealer)
    return game.score_entry(game.initial_deal(state), entry)


PLAYER_CARDS_MESSAGE = (
    "the result is not possible with the cards dealt: check the declarer, trump, "
    "meld and 'no marriage'"
)


def public_rejection(rejected: EntryRejected) -> EntryRejected:
    """What may be told to someone who may not see every hand of the board.

    Every refusal that depends on the dealt cards gets this one message, whichever rule and
    whichever hand it came from: a message that named the rule or a number would let a
    player learn the hidden hands by submitting wrong entries. The entry rules check
    everything that does not depend on the cards first, so that the message for an input
    wrong in both ways cannot depend on the cards either.
    """
    if isinstance(rejected, CardsContradicted):
        return EntryRejected("cards", PLAYER_CARDS_MESSAGE)
    return rejected
