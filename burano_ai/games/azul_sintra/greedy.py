"""Azul: Stained Glass of Sintra's greedy bot: one move ahead with a fixed, documented heuristic.

For each legal move the bot applies it to a copy of its view (a completing draft together with its
best keep: they are one turn) and scores the result for its own seat:

    value = the score with the final scoring as it stands now (`State.estimated_scores`: leftover
            pieces, broken-glass track value, ornaments or windows x colour)
          + `strip_weight` x the pieces on its strips (progress towards the next completion)

and plays the best, ties broken at random (seeded). It looks at nothing the seat cannot see and never
samples chance (a turn has none). It plays on either implementation through the State API only.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from burano_ai.games.azul_sintra.rules import PHASE_KEEP

#: The default weight of a piece on a strip (a completion scores about 3-8 points for 5 pieces).
STRIP_WEIGHT = 0.25


def strip_pieces(position: dict[str, Any], seat: int) -> int:
    """Pieces on the seat's strips (those still above their column)."""
    return sum(len(col["pieces"]) + len(col["jokers"]) for col in position["seats"][seat]["columns"]
               if col["window"][1] is None)


def value(state, seat: int, strip_weight: float) -> float:
    """The heuristic value of `state` for `seat` (a completed strip's keep resolved at its best)."""
    if state.current_player() == seat and state.phase == PHASE_KEEP:
        best = None
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            v = value(after, seat, strip_weight)
            best = v if best is None or v > best else best
        return best if best is not None else 0.0
    return state.estimated_scores()[seat] + strip_weight * strip_pieces(state.to_dict(), seat)


def choose_greedy(world, seat: int, legal: Sequence[int], rng: random.Random, options: Mapping[str, Any],
                  sample_chance: Callable | None = None) -> int:
    """The legal move of best `value` after it (ties: a seeded random one among them)."""
    weight = float(options.get("strip_weight", STRIP_WEIGHT))
    scored = []
    for action in legal:
        after = world.clone()
        after.apply_action(action)
        scored.append((value(after, seat, weight), action))
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])
