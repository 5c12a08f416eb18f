"""Boards are fixed before play: the published commitment and the revealed secret agree."""

from __future__ import annotations

import hashlib
import hmac

from tests.engine.helpers import dealt_parts
from tournaments.hands import (
    board_seed,
    commitment,
    deal,
    deal_problems,
    new_secret,
)


def test_the_commitment_is_the_sha256_of_the_secret() -> None:
    secret = new_secret()
    assert len(secret) == 32
    assert commitment(secret) == hashlib.sha256(secret).hexdigest()


def test_a_board_seed_is_the_hmac_of_its_number_truncated_to_63_bits() -> None:
    secret = b"\x01" * 32
    digest = hmac.new(secret, (7).to_bytes(8, "big"), hashlib.sha256).digest()
    assert board_seed(secret, 7) == int.from_bytes(digest[:8], "big") >> 1
    assert 0 <= board_seed(secret, 7) < 2**63


def test_anyone_can_redeal_the_boards_from_the_revealed_secret() -> None:
    secret = new_secret()
    seeds = {number: board_seed(secret, number) for number in range(1, 9)}
    assert deal_problems(secret.hex(), commitment(secret), seeds) == []
    first = deal("auction4", seeds[1], 0)
    again = deal("auction4", board_seed(bytes.fromhex(secret.hex()), 1), 0)
    assert [dealt_parts(first)[s] for s in range(4)] == [dealt_parts(again)[s] for s in range(4)]


def test_a_different_secret_or_a_changed_seed_is_caught() -> None:
    secret, other = new_secret(), new_secret()
    seeds = {1: board_seed(secret, 1), 2: board_seed(secret, 2)}
    assert deal_problems(other.hex(), commitment(secret), seeds)[0] == (
        "the revealed secret does not match the published commitment"
    )
    seeds[2] += 1
    assert deal_problems(secret.hex(), commitment(secret), seeds) == [
        f"board 2: seed {seeds[2]} is not the one the secret gives ({seeds[2] - 1})"
    ]
    assert deal_problems("zz", commitment(secret), seeds) == [
        "the revealed secret is not hexadecimal"
    ]
