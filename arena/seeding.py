"""Server-drawn match seeds: committed when a match is created, revealed when it is done.

A rated match must not be dealt from anything a player can know in advance, or a bot could
carry every deal in its code. When a match is created the server draws a 32-byte secret and
publishes only its commitment ``sha256(secret)``. The match seed is the first 8 bytes of
``HMAC-SHA256(secret, MATCH_SEED_LABEL)`` shifted to 63 bits (databases store signed 64-bit
integers), and board ``n`` is dealt from ``bots.duplicate.board_seed(match_seed, n)`` by
``board_dealer(n, players)``, as every match is. Once the match is done the
secret is revealed and anyone can re-derive every board:

>>> secret = bytes(range(32))
>>> seed = match_seed(secret)
>>> deal_problems(secret.hex(), commitment(secret), {1: (board_seed(seed, 1), 0)}, players=4)
[]
>>> deal_problems(secret.hex(), "0" * 64, {}, players=4)
['the revealed secret does not match the published commitment']

Only unrated matches may be dealt from a seed the requester chooses; such a match has no
commitment and says so.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from bots.duplicate import board_seed

__all__ = [
    "MATCH_SEED_LABEL",
    "SCHEME",
    "board_dealer",
    "board_seed",
    "commitment",
    "deal_problems",
    "match_seed",
    "new_secret",
]

MATCH_SEED_LABEL = b"pinochle-arena/match-seed"
SCHEME = (
    "commitment = sha256(secret); match_seed = HMAC-SHA256(secret, "
    "'pinochle-arena/match-seed')[:8] >> 1; board n: seed = bots.duplicate.board_seed("
    "match_seed, n), dealer = (n - 1) % players, dealt by the variant's engine state"
)


def board_dealer(number: int, players: int) -> int:
    """The dealer of board ``number`` in the published scheme: the deal moves left from
    board to board (``engine.interface.Game.board_dealer``)."""
    return (number - 1) % players


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """What is published when the match is created: the SHA-256 of the secret, in hex."""
    return hashlib.sha256(secret).hexdigest()


def match_seed(secret: bytes) -> int:
    digest = hmac.new(secret, MATCH_SEED_LABEL, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_problems(
    secret_hex: str, published: str, boards: Mapping[int, tuple[int, int]], *, players: int
) -> list[str]:
    """Everything that does not match between a revealed secret and the boards played.

    ``boards`` maps each board number to the (seed, dealer) it was played with.
    """
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        return ["the revealed secret is not hexadecimal"]
    problems = []
    if not hmac.compare_digest(commitment(secret), published):
        problems.append("the revealed secret does not match the published commitment")
    seed = match_seed(secret)
    for number, (played_seed, played_dealer) in sorted(boards.items()):
        expected = board_seed(seed, number)
        if played_seed != expected:
            problems.append(
                f"board {number}: seed {played_seed} is not the one the secret gives ({expected})"
            )
        dealer = board_dealer(number, players)
        if played_dealer != dealer:
            problems.append(f"board {number}: dealer {played_dealer} should be {dealer}")
    return problems
