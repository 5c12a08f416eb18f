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
have); each action of a decision is valued with the same random draws. The mean
over the legal actions is exact when there are few of them, and estimated from a few actions
drawn uniformly, independently of the one taken, when there are many (bids, passed cards),
which keeps the correction's mean at zero while bounding the work.

``reference_value`` is the same rollout from the freshly dealt hand: the score a fixed
reference pairing makes on that deal, for use as a control variate of its own.

This is an evaluator's tool, run after the hand on its full record: it sees every card,
and nothing it computes is ever shown to a seat.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from bots import protocol
from bots.games import Game, Refereed
from bots.reference.greedy import GreedyBot
from bots.table import BoardRecord


class GreedyRollout:
    """The greedy reference bot at every seat, asked directly (no messages)."""

    def __init__(self, game: Game, rules: Any) -> None:
        if game.players != 4 or not game.partnership:
            raise ValueError(
                f"rollouts are for the four-hand partnership games, not {game.variant}"
            )
        self.game = game
        self.rules = rules
        self.bots = []
        for seat in range(game.players):
            bot = GreedyBot()
            bot.handle(
                game.hello(
                    rules,
                    seat=seat,
                    boards=1,
                    time=protocol.TimeControl(decision_ms=1000, bank_ms=60000, startup_ms=1000),
                )
            )
            self.bots.append(bot)

    def value(self, state: Refereed, uniform_seats: Collection[int] = (), seed: int = 0) -> float:
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


def reference_value(rollout: GreedyRollout, *, seed: int, dealer: int) -> float:
    """The greedy pairing's score difference (0/2 less 1/3) on a deal."""
    return rollout.value(rollout.game.new_state(rollout.rules, seed=seed, dealer=dealer))


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
    state = game.new_state(rollout.rules, seed=record.seed, dealer=record.dealer)
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
