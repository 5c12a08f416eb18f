"""The JSON-lines loop shared by the hostile bots: each request names an attack to try.

A request is {"id": ..., "do": name, "args": {...}}; the reply carries the same id and
either the attack's result or the error it met, so tests read what the bot managed.
"""

import json
import sys


def attempt(action, *args, **kwargs):
    try:
        return {"ok": True, "value": action(*args, **kwargs)}
    except BaseException as error:  # a report, whatever went wrong
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}


def serve(actions):
    for line in sys.stdin:
        message = json.loads(line)
        name = message.get("do", "hello")
        if name == "hello":
            reply = {"ready": True}
        else:
            reply = actions[name](**message.get("args", {}))
        if reply is None:
            continue
        reply["id"] = message.get("id")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
