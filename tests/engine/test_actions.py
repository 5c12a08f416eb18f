"""Actions and their text form."""

from __future__ import annotations

import pytest

from engine import (
    Action,
    ActionParseError,
    Bid,
    Card,
    Give,
    NameTrump,
    Pass,
    PassWithHelp,
    Play,
    PlayOn,
    Suit,
    ThrowIn,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid 260", Bid(260)),
        ("pass", Pass()),
        ("pass-help", PassWithHelp()),
        ("trump H", NameTrump(Suit.H)),
        ("give AS QS JD", Give(parse_cards("QS JD AS"))),
        ("throw-in", ThrowIn()),
        ("play-on", PlayOn()),
        ("play TS", Play(Card.parse("TS"))),
    ],
)
def test_each_action_parses_and_prints_back(text: str, action: Action) -> None:
    assert Action.parse(text) == action
    assert str(action) == text
    assert eval(repr(action)) == action


def test_a_give_is_a_multiset_whatever_the_order() -> None:
    assert Action.parse("give QS JD AS") == Action.parse("give AS JD QS")
    assert str(Action.parse("give qs 10d qs")) == "give QS QS TD"


def test_actions_are_frozen_and_hashable() -> None:
    action = Bid(250)
    with pytest.raises(AttributeError):
        action.amount = 260  # type: ignore[misc]
    assert len({Bid(250), Bid(250), Pass()}) == 2


@pytest.mark.parametrize(
    "text",
    [
        "",
        "bid",
        "bid ten",
        "bid -5",
        "pass now",
        "trump X",
        "trump",
        "give",
        "give ZZ",
        "play",
        "play AS KS",
        "fold",
        "throw-in please",
    ],
)
def test_bad_text_raises_a_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError):
        Action.parse(text)
    assert issubclass(ActionParseError, ValueError)
