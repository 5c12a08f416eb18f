"""A well-behaved bot: answers every request with the request itself."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    sys.stdout.write(json.dumps({"id": message.get("id"), "echo": message}) + "\n")
    sys.stdout.flush()
