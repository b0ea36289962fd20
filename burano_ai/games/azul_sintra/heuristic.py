"""Azul: Stained Glass of Sintra's cheap move preference, and the search prior made of it (readable form).

`draft_value` is the heuristic playout's preference (`_core.draft_value_c`, the same arithmetic): for the
seat to move, the pieces a draft places (in either order of filling, `joker_choice`), minus `BREAK_COST` per piece broken and for the token's step,
plus `COMPLETION_BONUS` when it completes the strip, minus `JUMP_COST` per column the glazier jumps
right; a reset is worth 0.

`prior` turns it into the search prior (`State.prior`, the C interface's `prior`): a softmax of
`draft_value / PRIOR_TEMPERATURE` over the legal drafts and reset of the seat to move; no prior in the
keep phase (the keep choice changes nothing the preference sees). Measured in docs/strength.md (Azul).
"""

from __future__ import annotations

from typing import Sequence

from burano_ai.core.priors import softmax_prior
from burano_ai.games.azul_sintra.data import NUM_COLOURS, STRIP_CELLS, TOKEN_STEPS
from burano_ai.games.azul_sintra.rules import (
    BREAK, CENTRE, JOKER_DRAFT0, PHASE_DRAFT, RESET, decode_draft, decode_joker_draft,
)

BREAK_COST = 1.5
COMPLETION_BONUS = 3.0
JUMP_COST = 0.3
#: The softmax temperature of the prior (points of `draft_value`).
PRIOR_TEMPERATURE = 1.0


def draft_value(state, action: int) -> float:
    """The preference of the seat to move for a draft or reset of the reference `state` (see the module docstring)."""
    if action == RESET:
        return 0.0
    src, c, t = decode_joker_draft(action) if action >= JOKER_DRAFT0 else decode_draft(action)
    n = state.centre[c] if src == CENTRE else state.factories[src][c]
    v = 0.0
    if src == CENTRE and state.token < 0:
        v -= BREAK_COST * TOKEN_STEPS
    if t == BREAK:
        return v - BREAK_COST * n
    b = state.boards[state.to_move]
    face = state.data.face_counts[b.strips[t]][b.faces[t]]
    free = face[c] - b.filled[t][c] + face[NUM_COLOURS] - sum(b.jokers[t])
    placed = min(n, free)
    v += placed - BREAK_COST * (n - placed) - JUMP_COST * (t - b.glazier)
    if b.strip_pieces(t) + placed == STRIP_CELLS:
        v += COMPLETION_BONUS
    return v


def prior(state, player: int, legal: Sequence[int]) -> dict[int, float] | None:
    """The softmax of `draft_value / PRIOR_TEMPERATURE` over `legal` for the seat to move in a draft; None
    elsewhere (the keep phase, another seat, no moves)."""
    if state.phase != PHASE_DRAFT or player != state.to_move or not legal:
        return None
    return softmax_prior(legal, [draft_value(state, a) for a in legal], PRIOR_TEMPERATURE)
