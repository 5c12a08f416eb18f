"""What one seat may know of a Pinnacolo hand (RULES.md section 10).

Its own hand; every other hand's size; the stock's size (never its order); the whole
discard pile in order; every meld on the table with its owner; who has laid down; the
card the current player must meld first; every action so far (all public: ``draw`` names
no card); and the result once the hand is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.seats import check_seat

if TYPE_CHECKING:
    from engine.pinnacolo.state import PinnacoloHand

__all__ = ["observe"]


def observe(state: PinnacoloHand, seat: int) -> dict[str, Any]:
    """A JSON-able dict with the keys ``game``, ``variant``, ``players``, ``pairs``,
    ``seat``, ``team``, ``dealer``, ``phase``, ``current_player``, ``hand``,
    ``hand_sizes``, ``stock_size``, ``discard_pile`` (bottom first), ``melds`` (``index``,
    ``owner``, ``kind``, ``name``, ``cards`` as ``face=stands_for`` for wilds,
    ``points``), ``laid_down`` (per seat), ``must_meld``, ``table_points`` (per side, the
    melds' value so far), ``history`` (``seat``, ``action``) and ``result``.
    """
    check_seat(seat, state.num_players)
    rules = state.rules
    melds = state.melds
    table_points = [0] * rules.sides
    for meld in melds:
        table_points[rules.side_of(meld.owner)] += meld.points()
    return {
        "game": rules.game,
        "variant": rules.name,
        "players": state.num_players,
        "pairs": rules.pairs,
        "seat": seat,
        "team": rules.side_of(seat),
        "dealer": state.dealer,
        "phase": state.phase.value,
        "current_player": state.current_player,
        "hand": list(state.hand(seat)),
        "hand_sizes": list(state.hand_sizes),
        "stock_size": state.stock_size,
        "discard_pile": list(state.pile),
        "melds": [
            {
                "index": index,
                "owner": meld.owner,
                "kind": meld.kind.value,
                "name": meld.name(),
                "cards": meld.text(),
                "points": meld.points(),
            }
            for index, meld in enumerate(melds)
        ],
        "laid_down": [state.laid_down(s) for s in range(state.num_players)],
        "must_meld": state.must_meld,
        "table_points": table_points,
        "history": [{"seat": s, "action": str(action)} for s, action in state._seated_history()],
        "result": state.result().to_json() if state.is_terminal() else None,
    }
