"""Pinochle Arena's rules engine: pure Python, standard library only, no I/O.

An optional C kernel (``engine.kernel``, ``make engine-kernel``) runs the hot core of a
pinochle hand behind the same classes (``engine.handcore``: cards, bids and passes
applied, the legal actions counted and indexed) and plays whole random hands (every
pinochle game's and Pinnacolo's) and trick playouts in batches, card for card the hands
of this engine; without it the engine is pure Python and behaves the same.

Quick start::

    >>> import engine
    >>> state = engine.new_hand("auction4", seed=42, dealer=0)
    >>> state.current_player, state.phase
    (1, <Phase.AUCTION: 'auction'>)
    >>> [str(a) for a in state.legal_actions]
    ['pass', 'pass-help', 'bid 250', 'bid 260']
    >>> state.apply(engine.Action.parse("bid 260"))

Public interface (RULES.md section 10):

- Hands. ``new_hand(variant, *, seed, dealer=0, rules=None) -> HandState`` deals from a
  seed with the ``splitmix64-fy-v1`` generator; ``hand_from_cards(variant, hands, *,
  dealer=0, rules=None)`` starts from explicit hands. On a ``HandState``:
  ``current_player`` (seat or ``None`` when over), ``phase`` (``Phase``),
  ``legal_actions`` (lazy view: ``in``, iteration, ``len``, indexing), ``apply(action)``
  (an ``Action`` or its text; an illegal one raises ``IllegalActionError`` naming the
  rule, and changes nothing), ``copy()``, ``is_terminal()``, ``observation(seat) -> dict``
  (JSON-able, only what that seat may know), ``result() -> HandResult`` (per-team and
  per-seat scores with the breakdown, ``.to_json()``), ``history`` (the actions),
  ``num_players``, ``teams`` (the seats of each side), ``seed`` (``None`` when dealt from
  explicit hands), ``play_randomly(rng)``.
- Games. ``GameState(variant, *, seed, dealer=0, rules=None, max_hands=None)`` plays hands
  to the target (dealer rotating, hand seeds ``hand_seed(seed, n)``). Like every game's
  driver to its target (``TargetGame``) it is a ``State`` itself, with the members of a
  hand (passed through to ``current_hand``), plus ``scores``, ``winner``, ``results``,
  ``replays`` and ``result()`` (the whole game's).
- Actions (``Action.parse(text)``, ``str(action)``): ``bid 260`` ``Bid``, ``pass``
  ``Pass``, ``pass-help`` ``PassWithHelp``, ``trump H`` ``NameTrump``, ``give QS JD AS``
  ``Give``, ``throw-in`` ``ThrowIn``, ``play-on`` ``PlayOn`` (the declarer declines the
  throw-in), ``play TS`` ``Play``. Bad text raises ``ActionParseError``.
- Rules. ``rules_for(variant, overrides=None)`` gives any registered variant's rules (its
  preset with a league's overrides, of its game's own type); ``variant_names()`` lists every
  registered variant. The pinochle games' ``Rules`` (frozen; ``to_json``/``from_json``/
  ``replace``), one class a game with only its parameters (``Pinochle4Rules``,
  ``Pinochle3Rules``, ``Pinochle2Rules`` of ``engine.rules``), have presets ``single4``,
  ``auction4``, ``double4``, ``cutthroat3`` and ``twohand`` (``engine.rules.pinochle_rules``,
  ``pinochle_variants``); a bad override, or one naming another game's parameter, raises
  ``RulesError`` naming the parameter.
- Public rule functions: ``meld(hand, trump, rules) -> Meld`` (``total``, ``items``) and
  ``legal_plays(hand, trick, trump, *, must_head, must_trump, must_overtrump)``;
  ``trick_winner(trick, trump)``.
- Cards: ``Card`` (``Card.parse("TS")``, ``str``), ``Suit``, ``Rank``, ``parse_cards``,
  ``format_cards``, ``SINGLE_DECK``, ``DOUBLE_DECK``; ``shuffle`` and ``DEAL_GENERATOR``.
- Replays: ``Replay.from_state(state)``, ``to_json()``, ``Replay.from_json(data)``,
  ``simulate()``, ``verify() -> ReplayDifference | None``.
- Any game (``engine.interface``): a ``Game``, its ``State`` and its ``Observer``, as in
  OpenSpiel: the three public abstractions. ``load_game(variant, *, rules=None,
  overrides=None) -> Game`` is one variant with its rules fixed: ``name``, ``variants``,
  ``label``, ``players``, ``partnership``, ``teams``, ``side_of``, ``partner_of``,
  ``seat_name``/``seat_names``, ``next_dealer``, ``board_dealer``, ``seatings``
  (duplicate), ``rules``, ``rules_for(overrides)``, ``with_rules``, ``rules_from_json``,
  ``new_initial_state(seed, dealer)``, ``initial_deal(state)`` (every card as dealt),
  ``parse_action``, ``write_replay``/``read_replay`` (by default a hand replayed from
  its seed, ``engine.replay.SeededReplay``: a game needs no replay code), ``score_bounds``,
  ``worst_case_bounds``, ``forfeit_scores(state, leavers)``, ``new_target_game(seed,
  dealer, max_hands=)`` (every game to its target through the one driver,
  ``TargetGame``), ``bot_family`` and ``observer`` (``seat_view``, ``public_view``,
  ``open_view``, ``heard``, ``step_mark``). Every state, a hand of any game (four-hand,
  three-hand, two-hand, Pinnacolo) or a whole game to its target, is an
  ``engine.state.State``: ``current_player``, ``phase``, ``legal_actions``, ``apply``,
  ``copy``, ``is_terminal``, ``observation(seat)``, ``result()``, ``history`` (the
  actions), ``hand(seat)``, ``teams`` (a seat's side: ``Game.side_of``) and ``seed`` (the
  seed the hand was dealt from, ``None`` for explicit cards); the cards dealt are
  ``Game.initial_deal(state)`` alone. The three pinochle states share
  ``engine.trickstate.TrickTakingState``. Each game declares itself in its own module
  (``engine.pinochle4``, ``engine.pinochle3``, ``engine.pinochle2``,
  ``engine.pinnacolo.variants``) and registers there (``register_game``);
  ``variant_names()``, ``variant_choices()`` and ``game_class(variant)`` read the one
  registry. ``play(state, agents)`` drives any ``State`` with one agent a seat: the loop
  a match runner uses. Replays of every game share one format
  (``pinochle-arena/replay`` version 2); version-1 documents are migrated when read
  (``engine.replay.read_replay``).
- Errors (``engine.errors``): every refusal is an ``EngineError``, a ``ValueError``:
  ``CardError`` (``CardParseError`` for bad notation), ``ActionParseError``,
  ``IllegalActionError``, ``MeldError``, ``RulesError`` (``UnknownVariantError``),
  ``ReplayError``, ``SeatError`` (``dealer=True`` is not seat 1), ``SeedError``,
  ``TrickError``, ``NotOverError``, ``RegistryError``. A refused call changes nothing.
- Command line: ``python -m engine meld|legal|play|replay verify`` (see ``engine.cli``).

Where RULES.md is silent, the engine decides as follows (each is a parameter or is
documented where it is implemented):

- Bid limits: bids above ``bid_max`` are refused, the same for every seat: 250 in
  ``single4``, 2500 in ``auction4``, 500 in ``double4``. A player who has bid may pass
  later; a pass is final.
- Pass with help is open to every seat in ``auction4`` except the stuck dealer, whose only
  action is the minimum bid. ``all_pass = "redeal"`` (no preset) lets the dealer pass too;
  the hand then scores nothing (``passed_out``) and the deal moves on.
- ``double4``'s trump restriction is checked when the auction ends: with no marriage in
  any suit the hand ends at once (``no_marriage``); there is no action to take.
- The throw-in is an explicit choice of the declarer after the meld, in variants with
  ``throw_in``: ``throw-in`` concedes, ``play-on`` declines and leads the first trick.
- ``meld_needs_trick`` (no preset) does not apply to a thrown-in hand, where no tricks
  are played.
- The shuffled pack is dealt in four consecutive blocks, the first to the seat left of
  the dealer. In a ``GameState`` hand ``n`` is dealt from ``hand_seed(seed, n)``, the
  ``n``-th SplitMix64 output of the game seed.
- Observations show every pass of cards to all seats (who gave to whom, how many) and
  its cards only to the giver and the receiver; each seat's meld, with its cards, to
  everybody once the meld is shown.
"""

from engine.actions import (
    Action,
    Bid,
    Give,
    NameTrump,
    Pass,
    PassWithHelp,
    Play,
    PlayOn,
    ThrowIn,
)
from engine.agents import Agent, play
from engine.builtin import BUILTIN_GAMES  # the built-in games register themselves
from engine.cards import (
    DOUBLE_DECK,
    SINGLE_DECK,
    Card,
    Deck,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)
from engine.errors import (
    ActionParseError,
    CardError,
    CardParseError,
    EngineError,
    IllegalActionError,
    MeldError,
    NotOverError,
    RegistryError,
    ReplayError,
    RulesError,
    SeatError,
    SeedError,
    StateError,
    TrickError,
    UnknownVariantError,
)
from engine.game import GameResult, GameState, TargetGame, hand_seed
from engine.hand import HandState, LegalActions, Phase, hand_from_cards, new_hand
from engine.interface import Deal, Game, Observer
from engine.meld import Meld, MeldItem, MeldKind, meld
from engine.pinochle_replay import Replay
from engine.registry import (
    game_class,
    load_game,
    register_game,
    rules_for,
    variant_choices,
    variant_names,
)
from engine.replay import ReplayDifference
from engine.results import HandOutcome, HandResult, TeamResult
from engine.rng import DEAL_GENERATOR, SplitMix64, shuffle
from engine.rules import AllPass, MeldTable, MustHead, MustTrump, Rules
from engine.tricks import legal_plays, trick_winner

__all__ = [
    "BUILTIN_GAMES",
    "DEAL_GENERATOR",
    "DOUBLE_DECK",
    "SINGLE_DECK",
    "Action",
    "ActionParseError",
    "Agent",
    "AllPass",
    "Bid",
    "Card",
    "CardError",
    "CardParseError",
    "Deal",
    "Deck",
    "EngineError",
    "Game",
    "GameResult",
    "GameState",
    "Give",
    "HandOutcome",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "LegalActions",
    "Meld",
    "MeldError",
    "MeldItem",
    "MeldKind",
    "MeldTable",
    "MustHead",
    "MustTrump",
    "NameTrump",
    "NotOverError",
    "Observer",
    "Pass",
    "PassWithHelp",
    "Phase",
    "Play",
    "PlayOn",
    "Rank",
    "RegistryError",
    "Replay",
    "ReplayDifference",
    "ReplayError",
    "Rules",
    "RulesError",
    "SeatError",
    "SeedError",
    "SplitMix64",
    "StateError",
    "Suit",
    "TargetGame",
    "TeamResult",
    "ThrowIn",
    "TrickError",
    "UnknownVariantError",
    "format_cards",
    "game_class",
    "hand_from_cards",
    "hand_seed",
    "legal_plays",
    "load_game",
    "meld",
    "new_hand",
    "parse_cards",
    "play",
    "register_game",
    "rules_for",
    "shuffle",
    "trick_winner",
    "variant_choices",
    "variant_names",
]
