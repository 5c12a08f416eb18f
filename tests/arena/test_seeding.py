"""The commit-and-reveal scheme of match seeds, without a database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from arena.seeding import board_seed, commitment, deal_problems, match_seed
from engine.registry import load_game

FOUR = load_game("single4")
THREE = load_game("cutthroat3")

secrets_ = st.binary(min_size=32, max_size=32)


@given(secret=secrets_, boards=st.integers(min_value=1, max_value=40))
def test_the_boards_a_secret_deals_always_verify(secret: bytes, boards: int) -> None:
    seed = match_seed(secret)
    played = {n: (board_seed(seed, n), FOUR.board_dealer(n)) for n in range(1, boards + 1)}
    assert deal_problems(secret.hex(), commitment(secret), played, game=FOUR) == []


@given(secret=secrets_, other=secrets_, board=st.integers(min_value=1, max_value=40))
def test_a_board_from_another_secret_or_commitment_is_reported(
    secret: bytes, other: bytes, board: int
) -> None:
    if secret == other:
        return
    foreign = (board_seed(match_seed(other), board), THREE.board_dealer(board))
    problems = deal_problems(secret.hex(), commitment(other), {board: foreign}, game=THREE)
    assert problems[0] == "the revealed secret does not match the published commitment"
    assert any(p.startswith(f"board {board}: seed ") for p in problems)


def test_a_secret_that_is_not_hexadecimal_is_reported() -> None:
    assert deal_problems("not hex", "0" * 64, {}, game=FOUR) == [
        "the revealed secret is not hexadecimal"
    ]
