"""Reports what the bot's runtime looks like from inside: files, imports, environment."""

import importlib
import json
import os
import sys

for line in sys.stdin:
    message = json.loads(line)
    reply = {"id": message.get("id")}
    module = message.get("import")
    if module:
        try:
            reply["module_file"] = importlib.import_module(module).__file__
        except ImportError as error:
            reply["import_error"] = str(error)
    reply["root"] = sorted(os.listdir("/"))
    reply["cwd"] = os.getcwd()
    reply["pythonpath"] = os.environ.get("PYTHONPATH")
    reply["argv"] = sys.argv
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
