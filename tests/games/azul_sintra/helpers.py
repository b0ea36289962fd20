"""Building Azul: Stained Glass of Sintra test positions by hand (shared by the tests in this folder)."""

from __future__ import annotations

import json
from pathlib import Path

from burano_ai.games.azul_sintra.data import COLUMNS, NUM_COLOURS, PIECES_PER_COLOUR
from burano_ai.games.azul_sintra.rules import PHASE_DRAFT

P, O, Y, B, G = range(5)
LETTERS = "POYBG"
#: The built-in component data file (placeholder data, AD-4..AD-7).
PLACEHOLDER = Path(__file__).resolve().parents[3] / "burano_ai/games/azul_sintra/data/placeholder.json"


def corrected_data(name: str = "corrected (test)") -> dict:
    """The placeholder file with `placeholder: false`, the name `name` and every window worth 10 more."""
    data = json.loads(PLACEHOLDER.read_text(encoding="utf-8"))
    data["placeholder"] = False
    data["name"] = name
    data["window_values"]["value"] = [v + 10 for v in data["window_values"]["value"]]
    return data


def strip_id(name: str) -> int:
    """"S6" -> 5."""
    return int(name[1:]) - 1


def lay(state, seat: int, column: int, name: str, face: str) -> None:
    """Put strip `name` (S1..S8) face `face` above `column` (0-based) of `seat`, swapping the strip that
    was there into the strip's old column (the strips stay a permutation)."""
    b = state.boards[seat]
    s = strip_id(name)
    old = b.strips.index(s)
    b.strips[old], b.faces[old] = b.strips[column], b.faces[column]
    b.strips[column], b.faces[column] = s, "ab".index(face)


def put(state, seat: int, column: int, pieces: str = "", jokers: str = "") -> None:
    b = state.boards[seat]
    b.filled[column] = [pieces.count(x) for x in LETTERS]
    b.jokers[column] = [jokers.count(x) for x in LETTERS]


def counts(letters: str) -> list[int]:
    return [letters.count(x) for x in LETTERS]


def table(game, indicator: str = "PPOYBG", round_: int = 0, to_move: int = 0):
    """A state in the draft phase of round `round_` after a setup that laid strip k, face a, above
    column k of every seat; the indicator reads `indicator` (rounds I..VI). The table is empty: the
    caller puts pieces, then calls `balance`."""
    state = game.new_initial_state()
    for b in state.boards:
        b.strips = list(range(COLUMNS))
        b.faces = [0] * COLUMNS
    state.indicator = [LETTERS.index(x) for x in indicator]
    state.phase = PHASE_DRAFT
    state.round = round_
    state.to_move = to_move
    state.starter = to_move
    state.token = -1
    return state


def absorb(state, surplus: list[int]) -> None:
    """Lay `surplus` pieces (counts per colour) on the window tops and strips of every seat, filling
    coloured cells only and leaving each strip at most 4 pieces (a helper to make positions add up)."""
    surplus = list(surplus)
    for b in state.boards:
        for k in range(COLUMNS):
            if b.bottom[k] >= 0:
                continue
            if b.top[k] < 0:
                c = max(range(NUM_COLOURS), key=lambda x: surplus[x])
                if surplus[c]:
                    b.top[k] = c
                    surplus[c] -= 1
            face = state.data.face_counts[b.strips[k]][b.faces[k]]
            for c in range(NUM_COLOURS):
                while surplus[c] and b.filled[k][c] < face[c] and b.strip_pieces(k) < 4:
                    b.filled[k][c] += 1
                    surplus[c] -= 1
    assert not any(surplus), f"could not lay {surplus}"


def balance(state, tower: bool = False) -> None:
    """Put every piece not placed elsewhere into the bag (or the tower), then check the position."""
    state.bag = [0] * NUM_COLOURS
    if tower:
        state.tower = [0] * NUM_COLOURS
    have = state.piece_counts()
    rest = [PIECES_PER_COLOUR - have[c] for c in range(NUM_COLOURS)]
    assert min(rest) >= 0, f"too many pieces: {have}"
    if tower:
        state.tower = rest
    else:
        state.bag = rest
    state.check()
