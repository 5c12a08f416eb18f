"""What the broker holds for the re-queue job: which matches and validations have a message.

A queued match (or pending version) may wait in a busy queue for as long as the matches in
front of it take, so its age alone says nothing about whether its message is lost. On Redis,
the broker of every deployment, the messages can be read: those waiting in a queue (a list
per queue and priority) and those delivered to a worker but not yet acknowledged (kombu's
``unacked`` hash: a match being played, a message a worker has reserved, a retry waiting for
its countdown). A message found in neither is gone, with a broker that restarted without
persistence, and the re-queue job sends it again (arena/services/matches.py).

Other brokers (the demo's message files, AMQP) cannot be read that way: ``read`` tells then
only whether the queue is empty.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# The project's Celery app, made current when the arena app is ready (arena/apps.py).
from celery import current_app as celery_app

from arena.queues.routing import all_queues

MATCH_TASK = "arena.match_run"
VALIDATION_TASK = "arena.bot_version_validate"


@dataclass(frozen=True)
class BrokerContents:
    readable: bool
    """The messages were read (Redis); otherwise only ``queue_is_empty`` is known."""
    queue_is_empty: bool
    matches_waiting: frozenset[int] = field(default_factory=frozenset)
    """Matches with a message in a queue, not yet taken by a worker."""
    matches_held: frozenset[int] = field(default_factory=frozenset)
    """Matches with a message taken by a worker and not acknowledged (the worker may have
    died: such a message comes back only after the broker's visibility timeout)."""
    versions: frozenset[int] = field(default_factory=frozenset)
    """Versions with a validation message, waiting or taken."""


def read() -> BrokerContents:
    """The broker's match and validation messages (raises the broker's connection error)."""
    with celery_app.connection_for_read() as connection:
        # kombu's virtual transports' channel; the stub's StdChannel does not say so.
        channel: Any = connection.default_channel
        if connection.transport.driver_type != "redis":
            return BrokerContents(readable=False, queue_is_empty=_queue_is_empty(connection))
        client = channel.client
        queues = _queues()
        lists = [
            channel._q_for_pri(name, step) for name in queues for step in channel.priority_steps
        ]
        # Waiting first, then taken: a message moves only that way, so reading in this order
        # sees it at least once unless it is between the two (the instant a worker takes it).
        waiting = [raw for name in dict.fromkeys(lists) for raw in client.lrange(name, 0, -1)]
        held = [
            payload
            for entry in client.hvals(channel.unacked_key)
            for payload, _exchange, routing_key in [json.loads(entry)]
            if routing_key in queues.values() or routing_key in queues
        ]
    waiting_tasks = [task_of(json.loads(raw)) for raw in waiting]
    held_tasks = [task_of(payload) for payload in held]
    return BrokerContents(
        readable=True,
        queue_is_empty=not waiting,
        matches_waiting=_ids(waiting_tasks, MATCH_TASK),
        matches_held=_ids(held_tasks, MATCH_TASK),
        versions=_ids(waiting_tasks + held_tasks, VALIDATION_TASK),
    )


def _queues() -> dict[str, str]:
    """This deployment's queues, by name, with their routing keys."""
    queues = {name: name for name in all_queues()}
    for name, queue in celery_app.amqp.queues.items():
        queues[name] = str(queue.routing_key or name)
    return queues


def task_of(payload: dict[str, Any]) -> tuple[str, int] | None:
    """The task name and first argument (an id) of a Celery message, or None."""
    try:
        name = payload["headers"]["task"]
        body = payload["body"]
        if payload.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return str(name), int(args[0])
    except (KeyError, IndexError, TypeError, ValueError):
        return None  # not a message of ours, or not one that names an id


def _ids(tasks: Iterable[tuple[str, int] | None], name: str) -> frozenset[int]:
    return frozenset(task[1] for task in tasks if task is not None and task[0] == name)


def _queue_is_empty(connection: Any) -> bool:
    """Whether both task queues hold no message (a transport that counts its messages): a
    queued match or version may be waiting in either."""
    for queue in all_queues():
        try:
            declared = connection.default_channel.queue_declare(queue=queue, passive=True)
        except connection.channel_errors:
            continue  # never declared: nothing was ever queued there
        if int(declared.message_count) > 0:
            return False
    return True
