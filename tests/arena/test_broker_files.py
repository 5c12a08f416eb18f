"""The embedded broker of `make demo` hands a worker whole messages only
(arena/queues/files.py): a message file being written is not read, where kombu's own
filesystem transport reads it and the worker dies on the empty payload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kombu import Connection

from arena.queues.files import IN_PROGRESS


def _connection(folder: Path, transport: str = "arena.queues.files:Transport") -> Connection:
    (folder / "control").mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder / "control"),
    }
    return Connection("filesystem://", transport=transport, transport_options=options)


def test_a_message_is_written_whole_under_its_queue_name_and_read(tmp_path: Path) -> None:
    with _connection(tmp_path) as connection:
        queue = connection.SimpleQueue("moves")
        queue.put({"table": 7, "ply": 3})
        (written,) = tmp_path.glob("*.msg")
        assert written.name.endswith(".moves.msg")
        assert json.loads(written.read_bytes())["body"]
        message = queue.get(block=False)
        assert message.payload == {"table": 7, "ply": 3}
        message.ack()
        assert list(tmp_path.glob("*.msg")) == []


def test_a_message_being_written_is_not_read(tmp_path: Path) -> None:
    # A file caught between its creation and its write: empty, as a writer leaves it.
    (tmp_path / f"1_a.moves.msg{IN_PROGRESS}").write_bytes(b"")
    with _connection(tmp_path) as connection:
        queue = connection.SimpleQueue("moves")
        with pytest.raises(queue.Empty):
            queue.get(block=False)
    # kombu's own transport writes under the final name at once: the same empty file under
    # that name is read, and fails, which is what a worker died of.
    (tmp_path / "1_a.moves.msg").write_bytes(b"")
    with (
        _connection(tmp_path, transport="filesystem") as connection,
        pytest.raises(json.JSONDecodeError),
    ):
        connection.SimpleQueue("moves").get(block=False)
