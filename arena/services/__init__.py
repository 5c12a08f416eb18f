"""Every write of the arena app, as keyword-only functions named ``<entity>_<action>``."""

from arena.services.bots import (
    bot_create,
    bot_of_owner,
    bot_version_publish,
    bot_version_requeue_stale,
    bot_version_submit,
    bot_version_validate,
    challenger_version,
    player_register,
    player_token_of,
)
from arena.services.challenges import match_challenge, match_challenge_once
from arena.services.matches import (
    match_claim,
    match_create,
    match_requeue_stale,
    match_run,
)
from arena.services.ratings import ratings_recompute, ratings_refit

__all__ = [
    "bot_create",
    "bot_of_owner",
    "bot_version_publish",
    "bot_version_requeue_stale",
    "bot_version_submit",
    "bot_version_validate",
    "challenger_version",
    "match_challenge",
    "match_challenge_once",
    "match_claim",
    "match_create",
    "match_requeue_stale",
    "match_run",
    "player_register",
    "player_token_of",
    "ratings_recompute",
    "ratings_refit",
]
