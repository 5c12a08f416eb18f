"""Tell the sockets watching a table that it changed: each then sends its own viewer's frame.

Only the new ply and the table's revision (``GameTable.revision``, one more with each
committed change) go over the channel layer, never a frame: a frame is computed for each
socket's own viewer (``lobby.selectors.frame_for``), so no message on the layer holds a
card. Without a channel layer configured (a process that serves no sockets) it does nothing.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

__all__ = ["group_name", "publish"]


def group_name(table_id: int) -> str:
    """The channel group of the sockets watching a table."""
    return f"table-{table_id}"


def publish(table_id: int, ply: int, revision: int) -> None:
    """Send ``{"type": "table.changed", "ply": ply, "revision": revision}`` to the table's
    group (no layer: no-op). A process serving several of the table's sockets reads the
    table once for the revision, for all of them (``lobby.selectors.shared_frame``).

    A layer that cannot be reached loses the message, not the change: the change is
    committed, and a socket sends a fresh frame when it reconnects."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(table_id), {"type": "table.changed", "ply": ply, "revision": revision}
        )
    except Exception:  # the layer's transport (Redis) may be down: the change stands
        logger.warning("table %s changed but the channel layer could not be told", table_id)
