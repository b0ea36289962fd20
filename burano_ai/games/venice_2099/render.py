"""A Venice 2099 position as plain text for an 80x24 terminal (at most 18 lines, 80 columns).

Drawn from the position dict (full or one seat's view), so it never shows what the view hides::

    Venice 2099 - 3 players - turn 5 of 36 - B to move (buy)
        a    b    c    d    e    f    g    h
     1  K5A  ~~   ==   G3 3 ...

A cell is the district (colour letter + value; `~~` sunk, `==` a platform), the seat letter of the
figure on it, and the coins on it (a digit, `+` for 10 or more).
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.seats import SEAT_LETTERS

COLOURS = "KPGTRB"


def _cell(cell: str | None, occupant: str, coins: int) -> str:
    if cell is None:
        tile = "  "
    elif cell.startswith("~"):
        tile = "~~"
    else:
        tile = cell
    coin = " " if not coins else (str(coins) if coins < 10 else "+")
    return f"{tile}{occupant}{coin}"


def render(pos: dict[str, Any]) -> str:
    """The board, the seats (coins, gondola cards, tokens, hand) and the last cards played."""
    n = pos["players"]
    board = pos["board"]
    N = len(board)
    occupant: dict[str, str] = {}
    for p, seat in enumerate(pos["seats"]):
        for x in seat["figures"]:
            if x not in (None, "lost", "water"):
                occupant[x] = SEAT_LETTERS[p]
    turns = n * (pos["seats"][0]["hand_size"] + sum(1 for q, _ in pos["played"] if q == "A")) \
        if pos["phase"] not in ("setup",) else 0
    phase, to_move = pos["phase"], pos["to_move"]
    if phase == "over":
        status = "game over"
    elif phase == "setup":
        status = "setup"
    elif phase == "place":
        status = f"placement - {to_move} to place"
    else:
        status = f"turn {pos['turn'] + 1} of {turns} - {to_move} to move ({phase})"
    view = f" - {pos['view']}'s view" if pos["view"] else ""
    lines = [f"Venice 2099 - {n} players - {status}{view}"]
    lines.append("    " + "".join(f"{'abcdefgh'[c]:<5}" for c in range(N)).rstrip())
    for r in range(N):
        cells = []
        for c in range(N):
            sq = f"{'abcdefgh'[c]}{r + 1}"
            cells.append(_cell(board[r][c], occupant.get(sq, " "), pos["coins_on"].get(sq, 0)))
        lines.append(f"{r + 1:>2}  " + " ".join(cells).rstrip())
    for p, seat in enumerate(pos["seats"]):
        mark = ">" if to_move == SEAT_LETTERS[p] else " "
        tokens = " ".join(f"{c}{seat['tokens'][c]}" for c in COLOURS)
        lost = sum(1 for x in seat["figures"] if x in ("lost", "water"))
        hand = " ".join(seat["hand"]) if seat["hand"] is not None else f"({seat['hand_size']} cards)"
        line = (f"{mark}{SEAT_LETTERS[p]} {seat['coins']:>2}c {seat['gondolas']}g {tokens}"
                f"{' -' + str(lost) + 'fig' if lost else ''} hand {hand}")
        lines.append(line[:80])
    supply = pos["supply"]
    supply_text = "unlimited" if supply is None else " ".join(f"{c}{supply[c]}" for c in COLOURS)
    removed = f" - {pos['removed_colour']} left out" if pos["removed_colour"] else ""
    lines.append(f"supply {supply_text} - coins sunk {pos['coins_sunk']}{removed}")
    last = pos["played"][-n:]
    lines.append("played: " + (", ".join(f"{q} {k}" for q, k in last) if last else "none") +
                 f" ({len(pos['played'])} in all)")
    lines.append("cell: district, figure's seat, coins; ~~ sunk, == platform; 7c coins 1g gondolas")
    return "\n".join(line[:80] for line in lines)
