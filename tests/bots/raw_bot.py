"""A bot written against the protocol alone, shared by the tests that run such programs."""

# Speaks the protocol by hand: no import of the SDK, the engine or anything of ours.
RAW_BOT = """import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        reply = {"type": "ready", "id": message["id"], "protocol": 1, "name": "raw"}
    elif kind == "act":
        legal = message["legal"]
        plays = [action for action in legal if action.startswith("play ")]
        reply = {"type": "action", "id": message["id"], "action": (plays or legal)[-1]}
    elif kind == "bye":
        break
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""
