"""Plain-text rendering of a Goofspiel position for the terminal (`State.__str__`, the CLI).

It renders the position dict of `burano_ai.games.goofspiel.position` (`state.to_dict(seat)`), so a
one-seat rendering shows exactly what that seat knows: the other seats' bids of this round as "?".
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.seats import SEAT_LETTERS


def _cards(cards: list[int]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def render(state_dict: dict[str, Any]) -> str:
    """A few lines: the game, the prize and what is left, then one line per seat (hand, bid, points)."""
    d = state_dict
    n = d["players"]
    head = (f"Goofspiel {n} players, {d['num_cards']} cards, {d['points_order']} prizes"
            + (f" (seat {d['view']}'s view)" if d.get("view") else ""))
    if d["phase"] == "over":
        status = "game over"
    elif d["phase"] == "chance":
        status = f"round {d['round'] + 1}: prize to reveal"
    else:
        to_bid = next(p for p in range(n) if d["seats"][p]["bid"] is None)
        status = f"round {d['round'] + 1}: prize {d['prize']}, seat {SEAT_LETTERS[to_bid]} to bid"
    lines = [head, status, f"prizes left: {_cards(d['prizes_left'])}"]
    for p, seat in enumerate(d["seats"]):
        bid = "" if seat["bid"] is None else f"  bid {seat['bid']}"
        lines.append(f"{SEAT_LETTERS[p]}: {seat['points']:3d} pts  hand {_cards(seat['hand'])}{bid}"
                     f"  won {_cards(seat['won'])}")
    return "\n".join(lines)
