"""A lobby table over real WebSockets: the site's ASGI application (config.asgi) with the
Redis channel layer, on the test database, sockets signed in by their session cookie.

Each test's conversation is one coroutine run to its end by ``async_to_sync`` in a thread
of its own; the tests are transactional, so the consumers' database calls, made from that
thread, read what the services called from the test wrote.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from config.asgi import application
from lobby import selectors, services
from lobby.consumers import CLOSE_NO_TABLE
from lobby.game_state import GameReplay, rebuild
from lobby.models import GameTable
from tests.cards import card_tokens
from tests.conftest import skip_or_fail
from tests.lobby.conftest import choose, person

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_S = 60
"""A safety limit on waiting for a message, never reached when the server works."""


@pytest.fixture(autouse=True)
def _redis_layer() -> None:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if not str(backend).startswith("channels_redis"):
        skip_or_fail("the live tables' tests need REDIS_URL: the Redis channel layer")


def cookie(user: User | None) -> list[tuple[bytes, bytes]]:
    """The headers a browser sends with the socket of a page of this site."""
    headers = [(b"origin", b"http://127.0.0.1")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


class Socket:
    """One browser's socket on a table, and every message it received."""

    def __init__(self, table_id: int, headers: list[tuple[bytes, bytes]], name: str) -> None:
        self.name = name
        self.communicator = WebsocketCommunicator(
            application, f"/ws/tables/{table_id}/", headers=headers
        )
        self.received: list[dict[str, Any]] = []

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.communicator.connect(timeout=WAIT_S)
        assert connected, f"{self.name}'s socket was refused"
        return await self.next()

    async def next(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.communicator.receive_json_from(timeout=WAIT_S)
        self.received.append(message)
        return message

    async def frame_at(self, ply: int) -> dict[str, Any]:
        """The first frame showing the table at ``ply`` or later (errors fail the test)."""
        while True:
            message = await self.next()
            assert message["type"] == "frame", f"{self.name} got {message}"
            if message["frame"]["ply"] >= ply:
                return dict(message["frame"])

    async def settled(self, seated: int) -> dict[str, Any]:
        """The frame once ``seated`` seats show their sockets connected: the presence of the
        sockets opened after this one has arrived, and nothing more is on its way."""
        frame = self.frames()[-1]
        while sum(seat["connected"] for seat in frame["seats"]) < seated:
            frame = await self.frame_at(0)
        return frame

    async def send(self, message: dict[str, Any]) -> None:
        await self.communicator.send_json_to(message)

    async def close(self) -> None:
        await self.communicator.disconnect()

    def frames(self) -> list[dict[str, Any]]:
        return [m["frame"] for m in self.received if m["type"] == "frame"]


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    # A thread of its own: a browser test earlier in this process leaves Playwright's event
    # loop running in the main thread, where async_to_sync refuses to start another.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(_run_and_close, scenario).result()


def _run_and_close(scenario: Callable[[], Awaitable[None]]) -> None:
    try:
        async_to_sync(scenario)()
    finally:
        # The thread's own database connections, or the test database could not be dropped.
        connections.close_all()


def people_table(names: list[str], **options: Any) -> tuple[GameTable, list[User]]:
    """An auction4 table of one hand with four people seated: the game has started."""
    people = [person(name) for name in names]
    table = services.table_open(
        host=people[0],
        variant="auction4",
        target={"kind": "hands", "value": 1},
        seats=[{"kind": "host"}] + [{"kind": "open"}] * 3,
        **options,
    )
    for seat in (1, 2, 3):
        services.table_sit(table_id=table.pk, user=people[seat], seat=seat)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    return table, people


def test_a_seat_a_spectator_and_an_anonymous_visitor_each_get_their_own_frame() -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    watcher = person("wes")
    seat = Socket(table.pk, cookie(people[2]), "cy")
    spectator = Socket(table.pk, cookie(watcher), "wes")
    anonymous = Socket(table.pk, cookie(None), "anonymous")

    async def scenario() -> None:
        for socket in (seat, spectator, anonymous):
            message = await socket.open()
            assert message["type"] == "frame"
            await socket.close()

    run(scenario)
    seat_frame, spectator_frame, anonymous_frame = (
        s.received[0]["frame"] for s in (seat, spectator, anonymous)
    )
    assert seat_frame["viewer"]["seat"] == 2 and "hand" in seat_frame["view"]
    assert (
        seat_frame["view"]["hand"]
        == selectors.frame_for(table_id=table.pk, viewer=people[2])["view"]["hand"]
    )
    for frame in (spectator_frame, anonymous_frame):
        assert frame["viewer"]["seat"] is None and frame["legal"] == []
        assert "hand" not in frame["view"]


def test_a_socket_on_no_table_is_told_so_and_closed() -> None:
    socket = Socket(999_999, cookie(None), "anonymous")

    async def scenario() -> None:
        message = await socket.open()
        assert message == {
            "type": "error",
            "status": 404,
            "message": "there is no table 999999",
        }
        closed = await socket.communicator.receive_output(timeout=WAIT_S)
        assert (closed["type"], closed["code"]) == ("websocket.close", CLOSE_NO_TABLE)

    run(scenario)


def test_a_move_by_one_socket_reaches_every_socket_and_a_refusal_only_its_sender() -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    sockets = [Socket(table.pk, cookie(user), user.username) for user in people]
    sockets.append(Socket(table.pk, cookie(person("wes")), "wes"))
    sockets.append(Socket(table.pk, cookie(None), "anonymous"))

    async def scenario() -> None:
        for socket in sockets:
            await socket.open()
        frames = [await socket.settled(4) for socket in sockets]
        ply, mover = frames[0]["ply"], frames[0]["to_act"]
        legal = frames[mover]["legal"]
        assert legal and all(f["legal"] == [] for i, f in enumerate(frames) if i != mover)
        # A stale ply is refused to its sender alone, and changes nothing.
        await sockets[mover].send({"type": "act", "action": legal[0]["action"], "ply": ply + 5})
        refusal = await sockets[mover].next()
        assert refusal["type"] == "error" and refusal["status"] == 409, refusal
        assert f"ply {ply + 5}" in refusal["message"]
        # Out of turn: the service's refusal, to that socket only.
        other = (mover + 1) % 4
        await sockets[other].send({"type": "act", "action": legal[0]["action"], "ply": ply})
        refusal = await sockets[other].next()
        assert (refusal["type"], refusal["status"]) == ("error", 409), refusal
        # The move: every socket's next message is the frame that shows it (had a refusal
        # gone to the group, it would have come first).
        await sockets[mover].send({"type": "act", "action": legal[0]["action"], "ply": ply})
        for socket in sockets:
            message = await socket.next()
            assert message["type"] == "frame", f"{socket.name} got {message}"
            assert message["frame"]["ply"] == ply + 1
            assert message["frame"]["recent"][-1]["seat"] == mover
        for socket in sockets:
            await socket.close()

    run(scenario)


def test_a_bad_message_is_answered_to_its_sender_with_what_is_wrong() -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    seat = Socket(table.pk, cookie(people[0]), "ann")
    anonymous = Socket(table.pk, cookie(None), "anonymous")

    async def scenario() -> None:
        frame = (await seat.open())["frame"]
        await anonymous.open()
        for sent, status, words in (
            ({"type": "dance"}, 400, "type is one of act, talk, ping"),
            ({"type": "act", "action": "", "ply": 0}, 400, "names its action"),
            ({"type": "act", "action": "pass", "ply": "0"}, 400, "ply of the frame"),
            ({"type": "talk", "key": "no-such-phrase"}, 400, "say one of"),
            (["act"], 400, "type is one of"),
        ):
            await seat.send(sent)  # type: ignore[arg-type]
            answer = await seat.next()
            assert answer["type"] == "error" and answer["status"] == status, (sent, answer)
            assert words in answer["message"], (sent, answer)
        await seat.communicator.send_to(text_data="{not json")
        answer = await seat.next()
        assert (answer["type"], answer["status"]) == ("error", 400)
        await anonymous.send({"type": "act", "action": "pass", "ply": frame["ply"]})
        answer = await anonymous.next()
        assert (answer["type"], answer["status"]) == ("error", 403)
        await seat.send({"type": "ping"})
        assert await seat.next() == {"type": "pong"}
        await seat.close()
        await anonymous.close()

    run(scenario)
    table.refresh_from_db()
    assert table.ply == 0


def test_a_seat_is_shown_connected_while_its_socket_is_open() -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    ann = Socket(table.pk, cookie(people[0]), "ann")
    ben = Socket(table.pk, cookie(people[1]), "ben")

    async def scenario() -> None:
        first = (await ann.open())["frame"]
        assert first["seats"][0]["connected"] is True
        assert first["seats"][1]["connected"] is False
        await ben.open()
        shown = await ann.next()
        assert shown["frame"]["seats"][1]["connected"] is True
        await ben.close()
        shown = await ann.next()
        assert shown["frame"]["seats"][1]["connected"] is False
        await ann.close()

    run(scenario)
    assert not table.seats.filter(connected=True).exists()


def test_talk_reaches_every_socket() -> None:
    table, people = people_table(["ann", "ben", "cy", "di"])
    ann = Socket(table.pk, cookie(people[0]), "ann")
    anonymous = Socket(table.pk, cookie(None), "anonymous")
    key = next(iter(selectors.WORDS))

    async def scenario() -> None:
        await ann.open()
        await anonymous.open()
        await ann.send({"type": "talk", "key": key})
        for socket in (ann, anonymous):
            message = await socket.next()
            assert message["frame"]["talk"][-1]["key"] == key
            assert message["frame"]["talk"][-1]["seat"] == 0
        await ann.close()
        await anonymous.close()

    run(scenario)


# ------------------------------------------------------------------ fair play on the wire


def known_faces(replay: GameReplay, seat: int | None) -> set[str]:
    """Every face ``seat`` (None: a spectator) may know at this point of the hand: its
    observation (its own cards, the played and shown ones) and the moves as it heard them."""
    game, hand = replay.game, replay.hand
    view = game.observer.public_view(hand) if seat is None else hand.observation(seat)
    heard = selectors.recent_heard(replay, seat, kept=replay.ply)
    return set(card_tokens(view)) | set(card_tokens([move["text"] for move in heard]))


def hidden_faces(replay: GameReplay, seat: int | None) -> set[str]:
    """Faces held by the other seats that ``seat`` may not know."""
    held: Counter[str] = Counter()
    for other in range(replay.players):
        if other != seat:
            held.update(str(card) for card in replay.hand.hand(other))
    return set(held) - known_faces(replay, seat)


def replay_at(table: GameTable, ply: int) -> GameReplay:
    # A number no table has, so that the process's kept game of the table is not replaced.
    return rebuild(
        table_id=-table.pk,
        variant=table.variant,
        rules=table.rules,
        target=table.target,
        seed=table.seed,
        dealer=table.dealer,
        actions=table.actions[:ply],
    )


async def play_on(frame: dict[str, Any], rng: random.Random) -> str:
    """A legal action that keeps the hand going to its tricks (no throw-in), so that the
    frames show every phase."""
    if frame["pick"] is not None:
        # Which sets of cards are legal the engine says, read from the database.
        return str(await database_sync_to_async(choose)(frame, rng))
    legal = [entry["action"] for entry in frame["legal"]]
    return rng.choice([a for a in legal if not a.startswith("throw")] or legal)


def test_no_frame_on_the_wire_holds_a_card_its_viewer_may_not_know() -> None:
    """RULES.md section 10: a seat knows its own cards and what the table shows; a rated
    game's spectator the table only, and the hands once the game is over."""
    table, people = people_table(["ann", "ben", "cy", "di"], rated=True)
    seats = [Socket(table.pk, cookie(user), user.username) for user in people]
    spectator = Socket(table.pk, cookie(person("wes")), "wes")
    rng = random.Random(7)

    async def scenario() -> None:
        for socket in (*seats, spectator):
            await socket.open()
        frames = [await socket.settled(4) for socket in seats]
        await spectator.settled(4)
        while frames[0]["status"] == "playing":
            mover = frames[0]["to_act"]
            ply = frames[0]["ply"]
            action = await play_on(frames[mover], rng)
            await seats[mover].send({"type": "act", "action": action, "ply": ply})
            frames = [await socket.frame_at(ply + 1) for socket in seats]
            await spectator.frame_at(ply + 1)
        for socket in (*seats, spectator):
            await socket.close()

    run(scenario)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    for socket in (*seats, spectator):
        assert sum(f["status"] == "playing" for f in socket.frames()) >= table.ply, socket.name
    for seat, socket in [*enumerate(seats), (None, spectator)]:
        for frame in socket.frames():
            if frame["status"] != "playing":
                continue
            hidden = hidden_faces(replay_at(table, frame["ply"]), seat)
            leaked = set(card_tokens(frame)) & hidden
            assert not leaked, f"ply {frame['ply']}: {sorted(leaked)} sent to {socket.name}"
    # The search finds hidden cards where they are: seat 1's first frame holds cards seat 0
    # and the spectator may not know (its own hand), and once the game is over the open
    # frame holds every face the spectator could not see at the deal.
    dealt = replay_at(table, 0)
    assert set(card_tokens(seats[1].frames()[0])) & hidden_faces(dealt, 0)
    assert set(card_tokens(seats[1].frames()[0])) & hidden_faces(dealt, None)
    last = spectator.frames()[-1]
    assert last["status"] == "finished" and last["seed"] == table.seed
    assert hidden_faces(dealt, None) <= set(card_tokens(last["view"]))
