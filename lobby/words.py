"""What people may say at a table: fixed phrases only, so that talk carries no signal about
cards (no free text, no phrase that names a suit, a card or a bid)."""

from __future__ import annotations

WORDS: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "thanks": "Thanks!",
    "well_played": "Well played!",
    "oops": "Oops!",
    "one_moment": "One moment, please.",
    "back": "I'm back.",
    "good_game": "Good game!",
    "bye": "Bye!",
}
"""Each phrase by its key, in the order a table offers them."""
