"""The table's words name the seats as the table does: the auction, the cards passed, the
contract and the trick's winner by compass point, the viewer's own seat as "(you)", never
by a seat's number (which a person at the table never sees)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from lobby import selectors, services, turns
from tests.lobby.conftest import bots_table, person

pytestmark = pytest.mark.django_db

NUMBERED = re.compile(r"\bseat \d", re.IGNORECASE)


def _frames_to_the_tricks(variant: str) -> list[dict[str, Any]]:
    """The host's frames from the deal to the first trick's end, the host passing in the
    auction and otherwise making the first legal move."""
    host = person("ann")
    table = bots_table(host, variant)
    frames = []
    for _ in range(200):
        table.refresh_from_db()
        turns.bot_move(table_id=table.pk, ply=table.ply)
        frame = selectors.frame_for(table_id=table.pk, viewer=host)
        frames.append(frame)
        if frame["last_trick"] or frame["status"] != "playing":
            return frames
        if frame["to_act"] == 0:
            if frame["pick"] is not None:
                cards = frame["pick"]["cards"][: frame["pick"]["count"]]
                action = " ".join([frame["pick"]["verb"], *cards])
            else:
                action = frame["legal"][0]["action"]
            services.table_act(table_id=table.pk, user=host, action=action, ply=frame["ply"])
    raise AssertionError("no trick was taken")


@pytest.mark.parametrize("variant", ["auction4", "cutthroat3", "twohand"])
def test_the_table_names_seats_by_compass_point_and_the_viewer_as_you(variant: str) -> None:
    frames = _frames_to_the_tricks(variant)
    names = [seat["compass"] for seat in frames[0]["seats"]]
    said = [json.dumps(frame["table_form"]) + json.dumps(frame["recent"]) for frame in frames]
    assert not [text for text in said if NUMBERED.search(text)]
    facts = [fact for frame in frames for fact in frame["table_form"]["facts"]]
    calls = {call for fact in facts if fact["label"] == "Auction" for call in fact["items"]}
    if variant != "twohand":
        # The host passes when it may; a dealer whom everyone passed to must bid, and
        # then holds the contract.
        assert any(call.startswith(f"{names[0]} (you): ") for call in calls)
        assert {call.split(":")[0] for call in calls} <= {f"{names[0]} (you)", *names[1:]}
        contract = next(fact["value"] for fact in facts if fact["label"] == "Contract")
        holders = [re.escape(f"{names[0]} (you)"), *names[1:]]
        assert re.fullmatch(rf"\d+ by ({'|'.join(holders)})", contract)
    if variant == "auction4":
        passes = {fact["label"] for fact in facts if "passed" in fact["label"]}
        assert passes and all(
            re.fullmatch(r"(North|East|South|West)( \(you\))? passed \d+ cards to .+", label)
            for label in passes
        )
    trick = frames[-1]["table_form"]["center"]
    assert trick is None or not NUMBERED.search(trick["label"])
