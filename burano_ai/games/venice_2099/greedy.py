"""Venice 2099's greedy bot: one move ahead, judged on the final board the deals it cannot see allow.

For each legal move the bot applies it to copies of a few determinizations of its view (its view
with the other hands and the set-aside pile redrawn by `State.resample`, seeded from the decision's
rng), and scores the result for its own seat:

    value = its §7 score on the final board that determinization fixes (`State.estimated_scores`:
            every card still in a hand sinks its district, so the token values and which figures
            stand on survivors are known), a coin counting `coin_weight` instead of 1,
          - the best other seat's estimate,

averaged over the samples. A move is judged together with the seat's best purchase after it (a move
and a buy are one turn). Ties go to a seeded random choice. The bot reads nothing its view hides.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from burano_ai.games.venice_2099.rules import PHASE_BUY

#: The default worth of a coin relative to its 1 point at the end.
COIN_WEIGHT = 1.0
#: Determinizations per decision.
SAMPLES = 4


def value(state, seat: int, coin_weight: float) -> float:
    """The heuristic value of `state` for `seat` (a pending buy of `seat` resolved at its best)."""
    if state.current_player() == seat and state.phase == PHASE_BUY:
        best = None
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            v = value(after, seat, coin_weight)
            best = v if best is None or v > best else best
        return best if best is not None else 0.0
    est = state.estimated_scores()
    if coin_weight != 1.0:
        est = [e + (coin_weight - 1.0) * state.coins[p] for p, e in enumerate(est)]
    others = [e for p, e in enumerate(est) if p != seat]
    return est[seat] - (max(others) if others else 0.0)


def choose_greedy(world, seat: int, legal: Sequence[int], rng: random.Random, options: Mapping[str, Any],
                  sample_chance: Callable | None = None) -> int:
    """The legal move of best mean `value` over `SAMPLES` determinizations (ties: a seeded random one)."""
    weight = float(options.get("coin_weight", COIN_WEIGHT))
    if len(legal) == 1:
        return legal[0]
    worlds = [world.resample(seat, rng.getrandbits(63)) for _ in range(SAMPLES)]
    scored = []
    for action in legal:
        total = 0.0
        for w in worlds:
            after = w.clone()
            after.apply_action(action)
            total += value(after, seat, weight)
        scored.append((total, action))
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])

