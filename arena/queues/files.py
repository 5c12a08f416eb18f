"""The embedded broker of `make demo`: kombu's filesystem transport, each message file whole
before a worker can see it.

kombu (5.x) writes a message file in place under its final name, and a worker that polls the
folder moves and reads any file of its queue's name: a file caught between its creation and
its write reads empty, and the worker dies on the empty payload (``JSONDecodeError``). Here a
message is written under a name no queue reads, then renamed to its own, and a rename within
one folder is atomic: a worker sees no message file, or a whole one.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

IN_PROGRESS = ".part"
"""The ending of a message file being written: no queue's name ends so (kombu reads the files
named ``<time>_<uuid>.<queue>.msg``)."""


class Channel(filesystem.Channel):
    # kombu's stubs give the abstract channel's _put another signature than the filesystem
    # channel's, whose callers pass ``mandatory`` and more: this is the filesystem channel's.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        """Put ``payload`` on ``queue``: written whole, then renamed into the queue's folder."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + IN_PROGRESS
        try:
            with open(partial, "wb", buffering=0) as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
