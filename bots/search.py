"""Determinized search for bot authors: deal what a seat cannot see, then play it out.

A four-hand pinochle bot that searches (as the strong reference bot does) needs two
things, and this module gives both, so that its author need not write an engine:

- ``Search.sample(rng)``: a *world*, the four hands as lists of card names, dealt at
  random among the deals consistent with everything the seat has seen: its own hand, the
  cards played, the cards it passed and received, the meld shown, and what the play has
  shown of the others' hands (a void shown by not following suit, a trump not played
  over a winning one where the rules required it);
- ``Search.playout(world, card, policy=..., seed=...)``: the rest of the hand played in
  that world, ``card`` first by this seat (``None``: the seat to move plays by the
  policy too), every other card by ``policy``: ``"greedy"``, the strong reference bot's
  card sense, or ``"random"``, uniform among the legal cards. It returns this seat's
  team's hand score less the other team's (RULES.md section 5: meld plus counters, a
  declarer short of the bid set back by it).

Both run in the C kernel (``engine/_kernel.c``) when it is built and in pure Python
otherwise, card for card the same deals and playouts for the same seeds either way
(``Search.kernel`` says which). A Monte Carlo bot in a few lines::

    import random
    from bots.sdk import Bot
    from bots.search import Search

    class MonteCarlo(Bot):
        deals = 40

        def play(self, observation, legal):
            if len(legal) == 1:
                return legal[0]
            search = Search(observation, self.hello)
            rng = random.Random(" ".join(observation["hand"]))
            cards = [action.split()[1] for action in legal]
            totals = dict.fromkeys(cards, 0)
            for _ in range(self.deals):
                world = search.sample(rng)
                seed = rng.getrandbits(32)
                for card in cards:
                    totals[card] += search.playout(world, card, seed=seed)
            return "play " + max(cards, key=totals.__getitem__)

It serves the four-hand partnership pinochle games, in their trick play
(``observation["phase"] == "tricks"``); anything else is refused with a ``ValueError``
that says why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from bots.reference.greedy import rules_from
from bots.reference.strong import Beliefs, Playout
from engine import kernel
from engine.cards import NUM_FACES, Card, Suit
from engine.rules import Pinochle4Rules

__all__ = ["Policy", "Search", "World"]

Policy = Literal["greedy", "random"]
World = list[list[str]]
"""Four hands, by seat, each a list of card names (``"AS"``, ``"TD"``...)."""


class Search:
    """Sampling and playouts from one observation of the trick play."""

    def __init__(self, observation: dict[str, Any], hello: dict[str, Any] | None = None) -> None:
        """``observation``: the ``act`` message's; ``hello``: the table's greeting (it
        carries the house rules a league may set; without it the variant's preset)."""
        if observation.get("phase") != "tricks":
            raise ValueError(
                f"a search starts in the trick play, not in phase {observation.get('phase')!r}"
            )
        rules = rules_from(hello or {}, observation)
        if not isinstance(rules, Pinochle4Rules) or rules.players != 4:
            raise ValueError(f"{observation.get('variant')!r} is not a four-hand pinochle game")
        self.rules = rules
        self.seat = int(observation["seat"])
        self.beliefs = Beliefs(observation, rules)
        if not self.beliefs.consistent():
            # Only a table that broke its own rules gets here: sample as if nothing showed.
            self.beliefs.forget_exclusions()
        meld = [0, 0]
        for entry in observation["melds"] or []:
            meld[int(entry["seat"]) % 2] += int(entry["total"])
        contract = observation["contract"]
        self.trump = int(Suit.parse(observation["trump"]))
        self._playout = Playout(
            rules, self.trump, int(contract["declarer"]), int(contract["bid"]), meld, self.seat
        )
        self.trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]
        leader = observation["trick"]["leader"]
        self.leader = self.seat if leader is None else int(leader)
        self.taken = [int(points) for points in observation["counters_taken"]]

    @property
    def kernel(self) -> bool:
        """Whether the C kernel deals and plays (else pure Python: the same results)."""
        return self.beliefs.kernel and self._playout.kernel

    def sample(self, rng: random.Random) -> World:
        """One deal of the unseen cards consistent with what this seat has seen."""
        counts = self.beliefs.sample(rng)
        return [_names(hand) for hand in counts]

    def playout(
        self,
        world: Sequence[Sequence[str]],
        card: str | None = None,
        *,
        policy: Policy = "greedy",
        seed: int = 0,
    ) -> int:
        """The hand played out in ``world`` from here, this seat playing ``card`` first:
        this seat's team's score less the other's. The same ``seed`` gives the same
        draws, so candidates compared on one world and one seed differ by their cards."""
        hands = [_counts(hand) for hand in world]
        first = -1 if card is None else int(Card.parse(card))
        if first >= 0 and not hands[self.seat][first]:
            raise ValueError(f"{card} is not in this seat's hand")
        masks = [_mask(counts) for counts in hands]
        if policy == "greedy":
            return self._playout.finish_seeded(
                hands, masks, self.trick, self.leader, self.taken, seed, first
            )
        if policy != "random":
            raise ValueError(f"policy is 'greedy' or 'random', not {policy!r}")
        if self._playout.kernel:
            [won] = kernel.playouts(
                self.rules,
                trump=self.trump,
                hands=hands,
                trick=self.trick,
                leader=self.leader,
                taken=self.taken,
                count=1,
                greedy=False,
                rng=seed,
                first=first,
            )
            return self._playout.score(won)
        draw = random.Random(seed).random
        return self._playout.finish(
            hands, masks, self.trick, self.leader, self.taken, draw, first, uniform=True
        )


def _names(counts: Sequence[int]) -> list[str]:
    return [str(Card(face)) for face in range(NUM_FACES) for _ in range(counts[face])]


def _counts(names: Sequence[str]) -> list[int]:
    counts = [0] * NUM_FACES
    for name in names:
        counts[int(Card.parse(name))] += 1
    return counts


def _mask(counts: Sequence[int]) -> int:
    return sum(1 << face for face in range(NUM_FACES) if counts[face])
