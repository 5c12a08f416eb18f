"""Luck whose odds are known, measured on a played table (after AIVAT, Burch et al. 2018).

A decision taken by a policy the evaluator knows, such as the random reference bot's uniform
choice among the legal actions, is luck in the same sense as a deal. At each such decision
the correction is the value of the action taken less the mean value of the legal actions,
both from the same value function. Whatever that function, the correction has mean zero
given the position, so a board result less its corrections is still an unbiased estimate;
the better the function, the more of the luck it removes.

The value of a position here is the score difference (seats 0/2 less seats 1/3) reached
when the hand is played out from it: by the greedy reference bot at the other seats, and
uniformly at random at the seats whose luck is measured, as they would go on playing
(valuing their later decisions as greedy ones would credit them with skill they do not
have); each action of a decision is valued with the same random draws. Where the C
kernel plays the hand (four-hand partnership games), a card of the tricks is valued by
kernel playouts instead (``CardPlayouts``): the greedy seats play the strong reference
bot's playout card sense there, not the greedy bot's, a cheaper value that tracks the
outcome less closely. The mean over the legal actions is exact when there are few of
them, and estimated from a few actions drawn uniformly, independently of the one taken,
when there are many (bids, passed cards), which keeps the correction's mean at zero while
bounding the work.

``reference_value`` is the same rollout from the freshly dealt hand: the score a fixed
reference pairing makes on that deal, for use as a control variate of its own.

This is an evaluator's tool, run after the hand on its full record: it sees every card,
and nothing it computes is ever shown to a seat.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from bots import protocol
from bots.reference import reference_bots
from bots.reference.greedy import GreedyBot
from bots.reference.strong import Playout
from bots.table import BoardRecord, hello_for
from engine import kernel
from engine.actions import Play
from engine.cards import DECKS, Card
from engine.interface import AnyGame, AnyState
from engine.rules import Pinochle4Rules
from engine.trickstate import Phase, TrickTakingState

CARD_PLAYOUTS = 16
"""Kernel playouts valuing each legal card of a uniform seat's decision in the tricks: a
thousandth of a whole-hand rollout's cost each, so sixteen still cost far less than one
rollout (more did not track the outcome any closer: their card sense, not their noise,
limits them)."""


class GreedyRollout:
    """The greedy reference bot at every seat, asked directly (no messages)."""

    def __init__(self, game: AnyGame, rules: Any) -> None:
        if reference_bots(game).get("greedy") != Path(inspect.getfile(GreedyBot)).resolve():
            # Asked of the declaration: the rollouts are the greedy bot of the game's family.
            raise ValueError(f"the pinochle greedy bot is no reference bot of {game.variant}")
        self.game = game
        self.rules = rules
        self.bots = []
        for seat in range(game.players):
            bot = GreedyBot()
            bot.handle(
                hello_for(
                    game,
                    rules,
                    seat=seat,
                    boards=1,
                    time=protocol.TimeControl(decision_ms=1000, bank_ms=60000, startup_ms=1000),
                )
            )
            self.bots.append(bot)

    def value(self, state: AnyState, uniform_seats: Collection[int] = (), seed: int = 0) -> float:
        """Seats 0/2's score less seats 1/3's when ``state`` is played out: the greedy bot
        at every seat but ``uniform_seats``, which choose uniformly at random (from
        ``seed``), as the random bot does."""
        position = state.copy()
        chance = random.Random(seed)
        while not position.is_terminal():
            seat = position.current_player
            assert seat is not None
            legal = [str(action) for action in position.legal_actions]
            if seat in uniform_seats:
                choice = legal[chance.randrange(len(legal))]
            else:
                choice = self.bots[seat].act(position.observation(seat), legal)
            position.apply(self.game.parse_action(choice))
        scores = position.result().team_scores
        return float(scores[0] - scores[1])


class CardPlayouts:
    """A trick-play position of a four-hand partnership hand, valued through the C
    kernel's playouts: every hand known, the seats of ``uniform_seats`` playing uniformly
    at random and the others by the strong reference bot's playout card sense (the
    kernel's greedy policy, not the greedy bot's: any value function keeps the luck's
    mean at zero, and this one is a thousand times cheaper). A playout's counters are
    scored as the hand would be: seats 0/2's meld and counters less seats 1/3's, a
    declaring side short of its bid losing the bid (RULES.md section 5)."""

    def __init__(self, state: TrickTakingState, uniform_seats: Collection[int]) -> None:
        rules = state.rules
        seat = state.current_player
        assert seat is not None and state.trump is not None and state.declarer is not None
        view = state.observation(seat)
        self.rules = rules
        self.trump = int(state.trump)
        self.hands = [DECKS[rules.deck].counts(state.hand(s)) for s in range(state.num_players)]
        self.trick = [int(Card.parse(name)) for name in view["trick"]["cards"]]
        leader = view["trick"]["leader"]
        self.leader = seat if leader is None else int(leader)
        self.taken = [int(points) for points in view["counters_taken"]]
        self.meld = [0, 0]
        for entry in view["melds"] or []:
            self.meld[int(entry["seat"]) % 2] += int(entry["total"])
        self.bid = int(view["contract"]["bid"])
        self.uniform = tuple(uniform_seats)
        # The strong bot's own scoring of a playout, from seats 0/2's side.
        self.scoring = Playout(rules, self.trump, state.declarer, self.bid, self.meld, 0)

    @staticmethod
    def supports(state: AnyState) -> bool:
        """Whether the kernel values this position: a card to play in the tricks of a
        four-hand partnership hand, whose meld counts whatever tricks are won (the
        playouts report counters, not tricks)."""
        return (
            isinstance(state, TrickTakingState)
            and state.phase is Phase.TRICKS
            and isinstance(state.rules, Pinochle4Rules)
            and not state.rules.meld_needs_trick
            and kernel.supports(state.rules)
        )

    def score(self, taken: Sequence[int]) -> float:
        """Seats 0/2's hand score less seats 1/3's, these counters taken."""
        return float(self.scoring.score(taken))

    def value(self, action: object, seed: int, count: int) -> float:
        """The mean score of ``count`` playouts in which the seat to move plays ``action``
        (a card), all drawn from ``seed``: the same seed for every card of a decision
        gives its cards common random numbers."""
        if not isinstance(action, Play):
            # Every legal action must be valued, or the luck's mean is no longer zero.
            raise TypeError(f"the tricks' playouts value cards, not {action}")
        results = kernel.playouts(
            self.rules,
            trump=self.trump,
            hands=self.hands,
            trick=self.trick,
            leader=self.leader,
            taken=self.taken,
            count=count,
            greedy=True,
            rng=seed,
            first=action.card,
            uniform=self.uniform,
        )
        return sum(self.score(taken) for taken in results) / count


def reference_value(rollout: GreedyRollout, *, seed: int, dealer: int) -> float:
    """The greedy pairing's score difference (0/2 less 1/3) on a deal."""
    return rollout.value(
        rollout.game.with_rules(rollout.rules).new_initial_state(seed=seed, dealer=dealer)
    )


def known_luck(
    record: BoardRecord,
    *,
    rollout: GreedyRollout,
    uniform_seats: Collection[int],
    samples: int,
    exhaustive: int,
    rng: random.Random,
    playouts: int = 1,
) -> float:
    """The luck of seats 0/2 at one table: over the decisions of ``uniform_seats`` (seats
    whose bot picks uniformly among the legal actions), the value of the action taken less
    the mean value of the legal actions: all of them when there are at most
    ``exhaustive``, else ``samples`` drawn uniformly at random. A value is the mean of
    ``playouts`` playouts in which the uniform seats go on choosing at random."""
    if record.fault is not None:
        raise ValueError("a table ended by a fault has no luck to measure")
    game = rollout.game
    state = game.with_rules(rollout.rules).new_initial_state(seed=record.seed, dealer=record.dealer)
    luck = 0.0
    for move in record.moves:
        if move.seat in uniform_seats:
            legal = list(state.legal_actions)
            if len(legal) > 1:
                # The same chance for every action valued here (common random numbers), so
                # the rollouts' own noise mostly cancels in the difference.
                seeds = [rng.getrandbits(32) for _ in range(playouts)]

                def value(action: Any, seeds: list[int] = seeds) -> float:
                    after = state.copy()
                    after.apply(action)
                    return sum(rollout.value(after, uniform_seats, seed) for seed in seeds) / len(
                        seeds
                    )

                luck += value(game.parse_action(move.action))
                # Few actions: the exact mean. Many (bids, passes): a uniform sample, whose
                # own noise is the price of bounded work.
                if len(legal) <= exhaustive:
                    drawn = legal
                else:
                    drawn = [legal[rng.randrange(len(legal))] for _ in range(samples)]
                luck -= sum(value(action) for action in drawn) / len(drawn)
        state.apply(game.parse_action(move.action))
    return luck


def _pinochle(state: AnyState) -> TrickTakingState:
    """The state as the pinochle hand it is (the rollouts only play the pinochle games)."""
    if not isinstance(state, TrickTakingState):
        raise TypeError(f"luck is measured in the pinochle games, not on {type(state).__name__}")
    return state


def bidding(state: AnyState) -> bool:
    """Whether the auction is still going on (nobody has won the contract yet)."""
    return _pinochle(state).declarer is None and not state.is_terminal()


def contract_value(
    rollout: GreedyRollout, state: AnyState, uniform_seats: Collection[int]
) -> float:
    """What the contract is worth to seats 0/2 once the auction is over: its bid, won by a
    declarer of the greedy bot (which bids what it expects to make) and lost by a uniformly
    random one (which bids blind and is set almost surely); 0 if there is no contract."""
    declarer = _pinochle(state).declarer
    bid = _pinochle(state).bid
    if declarer is None or bid is None:
        return 0.0
    value = float(-bid if declarer in uniform_seats else bid)
    return value if rollout.game.side_of(declarer) == 0 else -value


def auction_value(
    rollout: GreedyRollout,
    state: AnyState,
    uniform_seats: Collection[int],
    seeds: Sequence[int],
    high_seat: int | None,
    memo: dict[tuple[int, int | None, int | None], str],
) -> float:
    """The mean ``contract_value`` over auctions continued from ``state`` (the greedy bot at
    its seats, uniform choices at ``uniform_seats``), one for each seed: only the bids are
    played out, so every action of a bidding decision can be valued.

    The greedy bot's bid is remembered by seat, standing bid and its holder (``memo``), a
    close approximation of its rule that makes thousands of auctions cheap: any value
    function keeps the luck's mean at zero, an approximate one only removes less luck."""
    total = 0.0
    for seed in seeds:
        position = state.copy()
        holder = high_seat
        chance = random.Random(seed)
        while bidding(position):
            seat = position.current_player
            assert seat is not None
            legal = position.legal_actions
            if seat in uniform_seats:
                action = legal[chance.randrange(len(legal))]
            else:
                key = (seat, _pinochle(position).bid, holder)
                choice = memo.get(key)
                if choice is None:
                    texts = [str(action) for action in legal]
                    choice = memo[key] = rollout.bots[seat].act(position.observation(seat), texts)
                action = rollout.game.parse_action(choice)
            if str(action).startswith("bid"):
                holder = seat
            position.apply(action)
        total += contract_value(rollout, position, uniform_seats)
    return total / len(seeds)


def luck_terms(
    record: BoardRecord,
    *,
    rollout: GreedyRollout,
    uniform_seats: Collection[int],
    rng: random.Random,
    auction_playouts: int = 4,
    playouts: int = 1,
    exhaustive: int = 16,
    card_playouts: int = CARD_PLAYOUTS,
) -> tuple[float, float]:
    """The luck of seats 0/2 at one table in two terms of mean zero: in the auction and
    after it. Each is, over the decisions of ``uniform_seats``, the value of the action
    taken less the mean value of every legal action (an exact mean, never a sample: a
    sampled mean adds noise of its own, as large as the luck it removes when the actions'
    values spread as widely as bids do).

    A bid is valued by ``auction_value`` over ``auction_playouts`` continued auctions, cheap
    enough for every legal bid; a later decision (trump, cards, plays) by ``playouts``
    whole-hand rollouts when it has at most ``exhaustive`` legal actions, and is left out
    when it has more (leaving a decision out keeps the mean at zero). A card of the
    tricks is valued by ``card_playouts`` kernel playouts instead (``CardPlayouts``) where
    the kernel plays the hand. Every action of a decision is valued on the same random
    draws (common random numbers)."""
    if record.fault is not None:
        raise ValueError("a table ended by a fault has no luck to measure")
    if auction_playouts < 1 or playouts < 1 or card_playouts < 1:
        raise ValueError("every value needs at least one playout")
    game = rollout.game
    state = game.with_rules(rollout.rules).new_initial_state(seed=record.seed, dealer=record.dealer)
    luck = [0.0, 0.0]
    high_seat: int | None = None
    memo: dict[tuple[int, int | None, int | None], str] = {}
    for move in record.moves:
        action = game.parse_action(move.action)
        if move.seat in uniform_seats:
            legal = list(state.legal_actions)
            in_auction = bidding(state)
            if len(legal) > 1 and (in_auction or len(legal) <= exhaustive):
                if not in_auction and CardPlayouts.supports(state):
                    # One seed for every card: the kernel's playouts of each draw from it.
                    position = CardPlayouts(_pinochle(state), uniform_seats)
                    seed = rng.getrandbits(32)
                    values = {
                        str(choice): position.value(choice, seed, card_playouts) for choice in legal
                    }
                else:
                    count = auction_playouts if in_auction else playouts
                    seeds = [rng.getrandbits(32) for _ in range(count)]
                    values = {
                        str(choice): _action_value(
                            rollout, state, choice, move.seat, high_seat, uniform_seats, seeds, memo
                        )
                        for choice in legal
                    }
                luck[0 if in_auction else 1] += values[str(action)] - sum(values.values()) / len(
                    values
                )
        if move.action.startswith("bid"):
            high_seat = move.seat
        state.apply(action)
    return luck[0], luck[1]


def _action_value(
    rollout: GreedyRollout,
    state: AnyState,
    action: Any,
    seat: int,
    high_seat: int | None,
    uniform_seats: Collection[int],
    seeds: Sequence[int],
    memo: dict[tuple[int, int | None, int | None], str],
) -> float:
    """The value of ``seat`` taking ``action`` at ``state``: by continued auctions while
    the bidding goes on, else by whole-hand rollouts, one for each seed."""
    after = state.copy()
    after.apply(action)
    if bidding(state):
        holder = seat if str(action).startswith("bid") else high_seat
        return auction_value(rollout, after, uniform_seats, seeds, holder, memo)
    return sum(rollout.value(after, uniform_seats, s) for s in seeds) / len(seeds)
