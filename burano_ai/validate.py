"""The last check on a loaded position: the seat to move has a legal move, a chance event has outcomes.

A game's position reader (Burano's `burano_ai.games.burano.notation`) checks everything a position says
without knowing the rules (it imports no rules implementation), so it cannot ask whether a decision has a
legal move. This module asks a State built from the position, through the State API every game and rules
implementation shares (`is_terminal`, `is_chance_node`, `legal_actions`, `chance_outcomes`), so one
function serves every game, compiled or reference; `burano_ai.engine.load_position` calls it on every
position it loads. A position that fails here is one the rules never reach: every non-terminal decision
of a real game offers a move (in Burano at worst `done`, [RD-5]) and every chance event has an outcome.

It sits below both rules implementations (it imports neither), so either Game may call it too.
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.errors import PositionError
from burano_ai.core.seats import SEAT_LETTERS


def check_playable(state: Any) -> None:
    """Raise PositionError unless the game is over, the chance event has outcomes, or the actor can move.

    Args:
        state: a State of any rules implementation, freshly built from a validated position.

    Raises:
        PositionError: a decision with no legal move (naming the seat and the phase), or a chance node
            with no outcome (naming the chance kind).
    """
    if state.is_terminal():
        return
    if state.is_chance_node():
        if not state.chance_outcomes():
            kind = f" {state.chance_kind_name()!r}"
            raise PositionError(f"position.context.chance: the chance event{kind} has no outcome here")
        return
    if not state.legal_actions():
        actor = state.current_player()
        seat = SEAT_LETTERS[actor] if 0 <= actor < len(SEAT_LETTERS) else str(actor)
        phase = f" in phase {state.phase_name()!r}"
        raise PositionError(f"position.phase: seat {seat} has no legal move{phase}; no game reaches this position")
