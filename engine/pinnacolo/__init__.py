"""Pinnacolo (RULES.md section 8): a rummy game for 2, 3 or 4 players, or two pairs.

Quick start::

    >>> import random
    >>> from engine.pinnacolo import new_hand, parse_action
    >>> state = new_hand("pinnacolo", seed=42, dealer=0)
    >>> state.current_player, state.phase, state.hand_sizes
    (1, <PinnacoloPhase.DRAW: 'draw'>, (13, 13, 13, 13))
    >>> state.apply("draw")
    >>> state.play_randomly(random.Random(1))
    >>> state.card_count(), state.result().outcome in Outcome
    (104, True)

Variants: ``pinnacolo`` (two pairs, partners opposite), ``pinnacolo2``, ``pinnacolo3``,
``pinnacolo4`` (individual). The interface is the four-hand engine's (section 10):

- Hands. ``new_hand(variant, *, seed, dealer=0, rules=None) -> PinnacoloHand`` deals with
  ``splitmix64-fy-v1`` (13 cards to each seat from the dealer's left, one card to the
  pile, the rest the stock), so a deal depends only on the rules, the seed and the
  dealer; ``hand_from_cards(variant, hands, *, pile, stock=None, dealer=0, rules=None)``
  starts from explicit cards. A ``PinnacoloHand`` has ``current_player``, ``phase``
  (``PinnacoloPhase``: draw, play, over), ``legal_actions`` (a lazy view: ``in`` checks
  any action by the rules ``apply`` uses; iteration, ``len`` and indexing list every
  legal action, every formable meld included), ``apply(action or text)`` (an illegal
  action raises ``IllegalActionError`` naming the rule and changes nothing), ``copy()``,
  ``determinize(seat, rng)``, ``is_terminal()``, ``observation(seat)``, ``result()``
  (``PinnacoloResult``), ``actions``, ``hand(seat)``, ``pile``, ``melds``,
  ``stock_size``, ``hand_sizes``, ``card_count()``, ``play_randomly(rng)``.
- Actions (``parse_action(text)``, ``str(action)``): ``draw``, ``take 3``,
  ``meld 5H 6H JK=7H``, ``add 0 8H``, ``replace 0 7H``, ``discard 9C`` (and ``join 0 1``,
  always refused). See ``engine.pinnacolo.actions``.
- Games to 1500: ``PinnacoloGame`` (the one driver, ``engine.game.TargetGame``).
  Replays: ``PinnacoloReplay``. Rules: ``PinnacoloRules``, ``pinnacolo_rules(variant,
  overrides)``, ``PINNACOLO_PRESETS``.

Where RULES.md is silent the engine decides as follows:

- ``wilds_per_meld`` (1 in the presets) bounds the wilds of a meld, and a meld always
  holds more natural cards than wilds, so a league allowing two lets them into scale of
  five or more cards only.
- A tris holds three cards (at most one wild, declared as a suit with ``JK=7S``); four
  cards make a poker only when all four are natural, so a tris with a wild takes no
  fourth card until the wild is replaced. Three pinelle (``2S``/``2C`` in any mix) or
  three jokers take no more cards and have no wild to replace.
- The first meld or addition after taking from the pile must hold the deepest card
  taken (the seed: "la prima carta pescata debba essere anche la prima calata"); a take
  is legal only if such a meld exists, keeping a card to discard. A wild taken back by a
  replacement is bound the same way, and no replacement is made while a card is owed.
- A scala is a sesta once it has held six or more cards with no wild (at laying down,
  or after additions or a replacement); it then doubles the unbroken run of natural
  cards that holds the sesta as laid (not the longest, nor the first on the ladder: the
  seed's "carte in sequenza"), and every other card counts once, the cards joined to it
  through a wild included.
- An addition extends one end of a scala (one or more cards in sequence); both ends
  need two additions. Melds are never merged (``join`` is always refused).
- Adding to the partner's melds, and replacing wilds, need a meld of one's own on the
  table, laid this turn or before. Cards added to a meld score for the meld's owner.
- With the stock empty, ``draw`` ends the hand (no closing bonus); taking from the pile
  is still allowed (``empty_stock = "last_card_ends"`` ends it instead with the discard
  of the player who drew the last card).
- In pairs each seat is scored alone (the -200 applies per seat) and the pair sums them.
- ``PinnacoloGame`` ends after the hand in which a side reaches the target; sides level
  at the top play on.
"""

from engine.pinnacolo.actions import (
    DRAW,
    Add,
    Discard,
    Draw,
    Join,
    MeldCards,
    PinnacoloAction,
    Replace,
    Take,
    parse_action,
)
from engine.pinnacolo.cards import JOKER, PINELLE, WILDS, card_name, parse_card
from engine.pinnacolo.game import PinnacoloGame, PinnacoloGameResult
from engine.pinnacolo.melds import MeldError, MeldKind, TableMeld, build_meld, extend_meld
from engine.pinnacolo.replay import PinnacoloReplay
from engine.pinnacolo.results import Outcome, PinnacoloResult, SeatResult
from engine.pinnacolo.rules import (
    PINNACOLO_PRESETS,
    EmptyStock,
    NoMeldPenalty,
    PinnacoloRules,
    TakenCard,
    pinnacolo_rules,
)
from engine.pinnacolo.state import (
    PinnacoloHand,
    PinnacoloLegalActions,
    PinnacoloPhase,
    hand_from_cards,
    new_hand,
)

__all__ = [
    "DRAW",
    "JOKER",
    "PINELLE",
    "PINNACOLO_PRESETS",
    "WILDS",
    "Add",
    "Discard",
    "Draw",
    "EmptyStock",
    "Join",
    "MeldCards",
    "MeldError",
    "MeldKind",
    "NoMeldPenalty",
    "Outcome",
    "PinnacoloAction",
    "PinnacoloGame",
    "PinnacoloGameResult",
    "PinnacoloHand",
    "PinnacoloLegalActions",
    "PinnacoloPhase",
    "PinnacoloReplay",
    "PinnacoloResult",
    "PinnacoloRules",
    "Replace",
    "SeatResult",
    "TableMeld",
    "Take",
    "TakenCard",
    "build_meld",
    "card_name",
    "extend_meld",
    "hand_from_cards",
    "new_hand",
    "parse_action",
    "parse_card",
    "pinnacolo_rules",
]
