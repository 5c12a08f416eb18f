"""Server-drawn match seeds: committed when a match is created, revealed when it is done.

A rated match must not be dealt from anything a player can know in advance, or a bot could
carry every deal in its code. When a match is created the server draws a 32-byte secret and
publishes only its commitment ``sha256(secret)``. The match seed is the first 8 bytes of
``HMAC-SHA256(secret, MATCH_SEED_LABEL)`` shifted to 63 bits (databases store signed 64-bit
integers), and board ``n`` is dealt from ``bots.duplicate.board_seed(match_seed, n)`` by
the game's ``board_dealer(n)``, as every match is. Once the match is done the
secret is revealed and anyone can re-derive every board:

>>> secret = bytes(range(32))
>>> seed = match_seed(secret)
>>> from engine.registry import load_game, variant_names
>>> game = load_game(variant_names()[0])
>>> deal_problems(secret.hex(), commitment(secret), {1: (board_seed(seed, 1), 0)}, game=game)
[]
>>> deal_problems(secret.hex(), "0" * 64, {}, game=game)
['the revealed secret does not match the published commitment']

Only unrated matches may be dealt from a seed the requester chooses; such a match has no
commitment and says so.

This module is the service's one seed-commitment scheme; what differs between its users is
only how board seeds come from the committed secret:

- a match (and a challenge of the play tables) derives one match seed and deals its boards
  from it as every match does, since the boards are revealed together with the secret;
- a duplicate event (of people or of bots) derives each board's seed on its own,
  ``HMAC-SHA256(secret, board number as 8 bytes)[:8] >> 1`` (``event_board_seed``): an
  entrant's board is revealed once its hand is over, and the next step of a SplitMix64
  can be computed from one output (its mixing is invertible), so a chain would let one
  revealed board deal every later one;
- a single hand at a play table commits to its seed itself (``seed_commitment``).

>>> seeds = {number: event_board_seed(secret, number) for number in (1, 2)}
>>> event_deal_problems(secret.hex(), commitment(secret), seeds)
[]
>>> event_deal_problems(secret.hex(), commitment(secret), {1: seeds[1] + 1})
['board 1: seed 7068804428202801020 is not the one the secret gives (7068804428202801019)']
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from bots.duplicate import board_seed
from engine.interface import AnyGame

__all__ = [
    "MATCH_SEED_LABEL",
    "SCHEME",
    "board_seed",
    "commitment",
    "deal_problems",
    "event_board_seed",
    "event_deal_problems",
    "match_seed",
    "new_secret",
    "seed_commitment",
]

MATCH_SEED_LABEL = b"pinochle-arena/match-seed"
SCHEME = (
    "commitment = sha256(secret); match_seed = HMAC-SHA256(secret, "
    "'pinochle-arena/match-seed')[:8] >> 1; board n: seed = bots.duplicate.board_seed("
    "match_seed, n), dealer = the game's board_dealer(n) (board 1 by seat 0, then left), "
    "dealt by the variant's engine state"
)


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """What is published when the match is created: the SHA-256 of the secret, in hex."""
    return hashlib.sha256(secret).hexdigest()


def seed_commitment(seed: int) -> str:
    """What a single hand dealt from ``seed`` publishes while it is played: the SHA-256 of
    the seed's 8 bytes (big-endian), in hex; the seed revealed at the end must hash to it."""
    return hashlib.sha256(seed.to_bytes(8, "big")).hexdigest()


def _seed_of(secret: bytes, label: bytes) -> int:
    # 63 bits, so that databases store the seed in a signed 64-bit column.
    digest = hmac.new(secret, label, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def match_seed(secret: bytes) -> int:
    return _seed_of(secret, MATCH_SEED_LABEL)


def event_board_seed(secret: bytes, number: int) -> int:
    """The seed of board ``number`` of a duplicate event dealt from ``secret``."""
    return _seed_of(secret, number.to_bytes(8, "big"))


def _secret_problems(secret_hex: str, published: str) -> tuple[bytes | None, list[str]]:
    """The revealed secret (``None`` if it is not hexadecimal) and what is wrong with it."""
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        return None, ["the revealed secret is not hexadecimal"]
    if not hmac.compare_digest(commitment(secret), published):
        return secret, ["the revealed secret does not match the published commitment"]
    return secret, []


def event_deal_problems(secret_hex: str, published: str, seeds: Mapping[int, int]) -> list[str]:
    """Everything that does not match between an event's revealed secret and the seeds its
    boards were dealt from (by board number)."""
    secret, problems = _secret_problems(secret_hex, published)
    if secret is None:
        return problems
    for number, seed in sorted(seeds.items()):
        expected = event_board_seed(secret, number)
        if seed != expected:
            problems.append(
                f"board {number}: seed {seed} is not the one the secret gives ({expected})"
            )
    return problems


def deal_problems(
    secret_hex: str, published: str, boards: Mapping[int, tuple[int, int]], *, game: AnyGame
) -> list[str]:
    """Everything that does not match between a revealed secret and the boards played.

    ``boards`` maps each board number to the (seed, dealer) it was played with.
    """
    secret, problems = _secret_problems(secret_hex, published)
    if secret is None:
        return problems
    seed = match_seed(secret)
    for number, (played_seed, played_dealer) in sorted(boards.items()):
        expected = board_seed(seed, number)
        if played_seed != expected:
            problems.append(
                f"board {number}: seed {played_seed} is not the one the secret gives ({expected})"
            )
        dealer = game.board_dealer(number)
        if played_dealer != dealer:
            problems.append(f"board {number}: dealer {played_dealer} should be {dealer}")
    return problems
