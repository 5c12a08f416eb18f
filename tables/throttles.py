"""The quotas on a human's challenges of a bot and casual tables: one count for the page
and the API.

Creating a challenge deals its first table and lets the bots move in the web process, so
it is counted (``arena.http.quotas``: only accepted challenges take a slot), per player and
per client IP, apart from the bots' matches. So is starting a casual table: the open-table
limit bounds the tables held at once, and this rate what leaving one to start the next
costs the web process (the strong bots think before the human's first turn).
"""

from __future__ import annotations

from arena.http.quotas.throttles import Quota

PLAY_CHALLENGES = Quota(
    "play-challenges",
    what="challenges of a bot",
    per_player="PLAY_CHALLENGE_RATE",
    per_ip="PLAY_CHALLENGE_RATE_PER_IP",
)

PLAY_TABLES = Quota(
    "play-tables",
    what="tables started",
    per_player="PLAY_TABLE_RATE",
    per_ip="PLAY_TABLE_RATE_PER_IP",
)
