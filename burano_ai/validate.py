"""The last check on a loaded position: the seat to move has a legal move, a chance event has outcomes.

`burano_ai.games.burano.notation` checks everything a position says without knowing the rules (it imports no rules
implementation), so it cannot ask whether a decision has a legal move. This module asks a State built
from the position, through the State API every rules implementation shares (`is_terminal`,
`is_chance_node`, `legal_actions`, `chance_outcomes`), so one function serves the compiled core and the
reference model alike; `burano_ai.engine.load_position` calls it on every position it loads. A position
that fails here is one the rules never reach: every non-terminal decision of a real game offers a move
(at worst `done`, [RD-5]) and every chance event has an outcome.

It sits below both rules implementations (it imports neither), so either Game may call it too.
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.burano.enums import PHASE_NAMES
from burano_ai.core.errors import PositionError


def check_playable(state: Any) -> None:
    """Raise PositionError unless the game is over, the chance event has outcomes, or the actor can move.

    Args:
        state: a State of either rules implementation, freshly built from a validated Position.

    Raises:
        PositionError: a decision with no legal move (naming the seat and the phase), or a chance node
            with no outcome (naming the chance kind).
    """
    if state.is_terminal():
        return
    if state.is_chance_node():
        if not state.chance_outcomes():
            kind = state.to_dict()["context"]["chance"]   # the core's State keeps the kind in C
            raise PositionError(f"position.context.chance: the chance event {kind!r} has no outcome here")
        return
    if not state.legal_actions():
        actor = state.current_player()
        seat = SEAT_LETTERS[actor] if 0 <= actor < len(SEAT_LETTERS) else str(actor)
        raise PositionError(f"position.phase: seat {seat} has no legal move in phase {PHASE_NAMES[state.phase]!r}; "
                            "no game reaches this position")
