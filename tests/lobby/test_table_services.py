"""Card tables for people: opening, sitting, acting, leaving, the substitute and the clock."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from arena.errors import Conflict, NotAllowed
from engine.registry import load_game
from lobby import selectors, services, turns
from lobby.errors import BadTable, IllegalAction, NotYourTurn, SeatTaken, StalePly
from lobby.models import GameSeat, GameTable
from tests.lobby.conftest import bot, bots_table, choose, person, play_on

pytestmark = pytest.mark.django_db


def test_a_table_of_people_waits_for_them_then_starts_by_itself() -> None:
    host, ann, ben, cid = (person(name) for name in ("hostess", "ann", "ben", "cid"))
    table = services.table_open(
        host=host,
        variant="auction4",
        seats=[{"kind": "host"}, {"kind": "open"}, {"kind": "invite"}, {"kind": "open"}],
    )
    assert table.status == GameTable.Status.WAITING
    assert selectors.frame_for(table_id=table.pk, viewer=ann)["view"] is None
    services.table_sit(table_id=table.pk, user=ann, seat=1)
    with pytest.raises(SeatTaken):
        services.table_sit(table_id=table.pk, user=ben, seat=1)
    with pytest.raises(NotAllowed):  # the invited seat needs the invitation
        services.table_sit(table_id=table.pk, user=ben, seat=2, token="guess")
    services.table_sit(table_id=table.pk, user=ben, seat=2, token=table.invite_token)
    services.table_sit(table_id=table.pk, user=cid, seat=3)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    frame = selectors.frame_for(table_id=table.pk, viewer=ann)
    # RULES.md section 1: the player left of the dealer bids first.
    assert frame["to_act"] == (table.dealer + 1) % 4
    assert frame["phase_words"] == "Bidding"
    assert [seat["compass"] for seat in frame["seats"]] == ["North", "East", "South", "West"]
    assert frame["scores"]["sides"] == ["North-South", "East-West"]
    assert frame["viewer"] == {"seat": 1, "host": False, "token": None}
    assert frame["seed"] is None and len(frame["commitment"]) == 64


def test_bad_tables_are_refused_with_what_is_wrong() -> None:
    host = person("hostess")
    four = [{"kind": "host"}, bot(), bot(), bot()]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"variant": "nope", "seats": four}, "unknown variant"),
        ({"variant": "auction4", "seats": four[:3]}, "4 seats"),
        ({"variant": "auction4", "seats": [bot()] * 4}, "exactly one seat"),
        ({"variant": "auction4", "seats": four, "rated": True}, "people only"),
        ({"variant": "auction4", "seats": four, "target": {"kind": "hands", "value": 0}}, "hands"),
        ({"variant": "auction4", "seats": four, "clock": {"decision_s": 1}}, "decision_s"),
        ({"variant": "auction4", "seats": four, "substitute": "genius"}, "substitute"),
        (
            {"variant": "auction4", "seats": [{"kind": "host"}, bot("genius"), bot(), bot()]},
            "no reference bot",
        ),
    ]
    for options, words in cases:
        with pytest.raises(BadTable, match=words):
            services.table_open(host=host, **options)
    assert not GameTable.objects.exists()


def test_an_illegal_action_is_refused_naming_the_rule_and_the_choices() -> None:
    host = person("hostess")
    table = bots_table(host)
    turns.bot_move(table_id=table.pk, ply=table.ply)
    table.refresh_from_db()
    frame = selectors.frame_for(table_id=table.pk, viewer=host)
    assert frame["to_act"] == 0 and frame["phase"] == "auction"
    # RULES.md section 2.2: a bid must be higher than the current bid, within the ladder.
    with pytest.raises(IllegalAction) as refused:
        services.table_act(table_id=table.pk, user=host, action="bid 5", ply=table.ply)
    assert "legal now:" in refused.value.message and "pass" in refused.value.message
    assert refused.value.rule
    table.refresh_from_db()
    assert table.ply == frame["ply"]


def test_a_stale_or_repeated_submit_is_refused_and_changes_nothing() -> None:
    host = person("hostess")
    table = bots_table(host)
    turns.bot_move(table_id=table.pk, ply=table.ply)
    table.refresh_from_db()
    ply = table.ply
    services.table_act(table_id=table.pk, user=host, action="pass", ply=ply)
    with pytest.raises(StalePly) as refused:
        services.table_act(table_id=table.pk, user=host, action="pass", ply=ply)
    assert refused.value.status == 409
    table.refresh_from_db()
    assert table.ply == ply + 1


def test_acting_out_of_turn_is_a_conflict() -> None:
    host = person("hostess")
    table = bots_table(host)
    table.refresh_from_db()
    frame = selectors.frame_for(table_id=table.pk, viewer=host)
    if frame["to_act"] != 0:
        with pytest.raises(NotYourTurn):
            services.table_act(table_id=table.pk, user=host, action="pass", ply=table.ply)


def test_a_bot_task_for_a_ply_gone_by_does_nothing() -> None:
    host = person("hostess")
    table = bots_table(host)
    table.refresh_from_db()
    made = turns.bot_move(table_id=table.pk, ply=table.ply)
    table.refresh_from_db()
    assert turns.bot_move(table_id=table.pk, ply=table.ply - made) == 0 if made else True
    assert selectors.frame_for(table_id=table.pk, viewer=host)["to_act"] == 0


@pytest.mark.parametrize("variant", ["auction4", "single4", "cutthroat3", "twohand"])
def test_a_game_to_a_low_target_ends_with_the_engines_result(variant: str) -> None:
    host = person("hostess")
    target = load_game(variant).rules.target
    low = max(1, target // 10)
    table = bots_table(host, variant, target={"kind": "score", "value": low})
    table = play_on(table, {0: host})
    assert table.status == GameTable.Status.FINISHED
    result = table.result
    assert result is not None
    # RULES.md section 5: scores accumulate over hands until a side reaches the target.
    totals = [
        sum(hand[side] for hand in selectors_hands(table)) for side in range(len(result["scores"]))
    ]
    assert totals == result["scores"]
    assert result["winner"] is not None and max(result["scores"]) >= low
    frame = selectors.frame_for(table_id=table.pk, viewer=host)
    assert frame["seed"] == table.seed and frame["status"] == "finished"
    assert frame["scores"]["totals"] == result["scores"]


def selectors_hands(table: GameTable) -> list[list[int]]:
    frame = selectors.frame_for(table_id=table.pk, viewer=table.host)
    hands: list[list[int]] = frame["scores"]["hands"]
    return hands


def test_a_game_of_a_number_of_hands_plays_that_many() -> None:
    host = person("hostess")
    table = play_on(bots_table(host, target={"kind": "hands", "value": 2}), {0: host})
    assert table.result is not None and len(table.result["hands"]) == 2


def test_a_person_who_leaves_is_played_by_the_substitute_until_they_sit_again() -> None:
    host, ann = person("hostess"), person("ann")
    table = bots_table(host, seats=[{"kind": "host"}, {"kind": "open"}, bot(), bot()])
    services.table_sit(table_id=table.pk, user=ann, seat=1)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    services.table_leave(table_id=table.pk, user=ann)
    frame = selectors.frame_for(table_id=table.pk, viewer=host)
    assert frame["seats"][1]["substitute"] is True and frame["seats"][1]["name"] == "ann"
    # The substitute plays seat 1 as a bot: the host is the only one the game waits for.
    for _ in range(50):
        table.refresh_from_db()
        turns.bot_move(table_id=table.pk, ply=table.ply)
        frame = selectors.frame_for(table_id=table.pk, viewer=host)
        if frame["to_act"] != 0 or frame["phase"] != "auction":
            break
        services.table_act(table_id=table.pk, user=host, action="pass", ply=frame["ply"])
    assert frame["to_act"] in (0, None)
    with pytest.raises(NotYourTurn):
        services.table_act(table_id=table.pk, user=ann, action="pass", ply=frame["ply"])
    services.table_sit(table_id=table.pk, user=ann, seat=1)
    assert not GameSeat.objects.get(table=table, seat=1).left


def test_leaving_before_the_start_frees_the_seat_and_the_host_closes_the_table() -> None:
    host, ann = person("hostess"), person("ann")
    table = services.table_open(
        host=host, variant="twohand", seats=[{"kind": "host"}, {"kind": "open"}]
    )
    services.table_sit(table_id=table.pk, user=ann, seat=1)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING  # two seats, both filled
    other = services.table_open(
        host=host, variant="twohand", seats=[{"kind": "host"}, {"kind": "open"}]
    )
    services.table_leave(table_id=other.pk, user=host)
    other.refresh_from_db()
    assert other.status == GameTable.Status.FINISHED
    assert other.result is not None and "cancelled" in other.result


def test_the_host_gives_an_empty_seat_to_a_bot_and_the_game_starts() -> None:
    host, ann = person("hostess"), person("ann")
    table = services.table_open(
        host=host, variant="twohand", seats=[{"kind": "host"}, {"kind": "open"}]
    )
    with pytest.raises(NotAllowed):
        services.table_fill(
            table_id=table.pk, user=ann, seat=1, bot={"kind": "reference", "name": "greedy"}
        )
    services.table_fill(
        table_id=table.pk, user=host, seat=1, bot={"kind": "reference", "name": "greedy"}
    )
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    with pytest.raises(Conflict):
        services.table_sit(table_id=table.pk, user=ann, seat=1)


def test_a_decision_past_its_deadline_is_played_by_the_substitute() -> None:
    host = person("hostess")
    table = bots_table(host, clock={"decision_s": 10, "bank_s": 30})
    turns.bot_move(table_id=table.pk, ply=table.ply)
    table.refresh_from_db()
    assert table.deadline is not None and table.turn_started is not None
    assert table.deadline - table.turn_started == timedelta(seconds=40)
    ply = table.ply
    assert turns.clocks_sweep(now=timezone.now()) == 0  # not yet
    GameTable.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert turns.clocks_sweep() == 1
    table.refresh_from_db()
    assert table.ply == ply + 1
    assert GameSeat.objects.get(table=table, seat=0).bank_s == 0.0
    assert turns.clocks_sweep() == 0


def test_a_slow_decision_spends_the_bank() -> None:
    host = person("hostess")
    table = bots_table(host, clock={"decision_s": 10, "bank_s": 30})
    turns.bot_move(table_id=table.pk, ply=table.ply)
    table.refresh_from_db()
    GameTable.objects.filter(pk=table.pk).update(
        turn_started=timezone.now() - timedelta(seconds=25)
    )
    services.table_act(table_id=table.pk, user=host, action="pass", ply=table.ply)
    bank = GameSeat.objects.get(table=table, seat=0).bank_s
    assert 14 <= bank <= 15.5


def test_talk_is_fixed_phrases_from_seated_people() -> None:
    host, ann = person("hostess"), person("ann")
    table = bots_table(host)
    services.table_talk(table_id=table.pk, user=host, key="good_luck")
    with pytest.raises(BadTable):
        services.table_talk(table_id=table.pk, user=host, key="lead spades")
    with pytest.raises(NotAllowed):
        services.table_talk(table_id=table.pk, user=ann, key="hello")
    talk = selectors.frame_for(table_id=table.pk, viewer=ann)["talk"]
    assert talk == [{"seat": 0, "name": "hostess", "key": "good_luck", "text": "Good luck!"}]


def test_presence_marks_a_seated_person_connected() -> None:
    host = person("hostess")
    table = bots_table(host)
    services.presence(table_id=table.pk, user=host, connected=True)
    assert selectors.frame_for(table_id=table.pk, viewer=host)["seats"][0]["connected"]


def test_the_rebuilt_game_matches_a_game_replayed_from_scratch() -> None:
    from lobby import game_state

    host = person("hostess")
    table = play_on(
        bots_table(host, target={"kind": "hands", "value": 2}), {0: host}, rng=random.Random(3)
    )
    kept = services.replay_of(table)
    game_state.forget()
    fresh = services.replay_of(table)
    assert kept.state.scores == fresh.state.scores and kept.actions == fresh.actions


def test_a_person_back_on_their_own_turn_gets_the_decision_and_its_clock() -> None:
    host = person("hostess")
    table = bots_table(host)
    turns.bot_move(table_id=table.pk, ply=table.ply)
    table.refresh_from_db()
    assert selectors.frame_for(table_id=table.pk, viewer=host)["to_act"] == 0
    services.table_leave(table_id=table.pk, user=host)
    table.refresh_from_db()
    assert table.deadline is None  # the substitute's turn now: no person's clock runs
    services.table_sit(table_id=table.pk, user=host, seat=0)
    table.refresh_from_db()
    assert table.deadline is not None
    frame = selectors.frame_for(table_id=table.pk, viewer=host)
    assert frame["legal"] and frame["seats"][0]["clock"]["deadline"] is not None
    # The substitute's task, sent when the host left, finds the person back and does nothing.
    assert turns.bot_move(table_id=table.pk, ply=table.ply) == 0


def test_the_hand_before_shows_its_scores_while_the_next_is_played() -> None:
    host = person("hostess")
    table = bots_table(host, target={"kind": "hands", "value": 2})
    rng = random.Random(1)
    for _ in range(500):
        table.refresh_from_db()
        turns.bot_move(table_id=table.pk, ply=table.ply)
        frame = selectors.frame_for(table_id=table.pk, viewer=host)
        if frame["hand_no"] == 2:
            break
        assert frame["last_hand"] is None
        services.table_act(
            table_id=table.pk, user=host, action=choose(frame, rng), ply=frame["ply"]
        )
    last = frame["last_hand"]
    assert last["hand_no"] == 1 and last["scores"] == frame["scores"]["hands"][0]
    assert last["breakdown"]["outcome"]
