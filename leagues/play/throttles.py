"""The quota on a human's challenges of a bot: one count for the page and the API.

Creating a challenge deals its first table and lets the bots move in the web process, so
it is counted (``arena.throttles``: only accepted challenges take a slot), per player and
per client IP, apart from the bots' matches.
"""

from __future__ import annotations

from arena.throttles import Quota

PLAY_CHALLENGES = Quota(
    "play-challenges",
    what="challenges of a bot",
    per_player="PLAY_CHALLENGE_RATE",
    per_ip="PLAY_CHALLENGE_RATE_PER_IP",
)
