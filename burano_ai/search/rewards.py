"""What a search iteration scores: win shares, VP margins, the reward that blends them, and the VP estimate
used where an iteration stops before the end of the game.

In a game of win/loss shares (every game but poker), the reward of a seat is
``win_weight * win_share + (1 - win_weight) * sigmoid(margin / margin_scale)`` (`rewards`; why this blend and these defaults: `burano_ai.search.params`). At the end of a game the
win shares are the game's `returns()`; at a cut-off they go to the seat(s) with the highest estimate
(`top_shares`). The native tree (`burano_ai.search._native`) computes the same margins and rewards in C.

In a "payoff" game (poker's chips) it is the seat's payoff normalised by the game's payoff range
(`payoff_rewards`).

Everything here but `estimated_scores` reads plain numbers; `estimated_scores` asks the State (the
game owns its cut-off evaluation).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from burano_ai.search.params import Params


def top_shares(scores: Sequence[float]) -> list[float]:
    """Win shares for estimated scores: 1/k to each of the k seats with the highest estimate."""
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s >= best - 1e-9]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]


def margins(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the best score among the other seats."""
    best = max(scores)
    first = scores.index(best)
    second = max(s for i, s in enumerate(scores) if i != first)
    return [s - second if i == first else s - best for i, s in enumerate(scores)]


def rewards(margin: Sequence[float], shares: Sequence[float], params: Params) -> list[float]:
    """Reward of every seat from its VP margin and win share: the blend described in `params`."""
    w, scale = params.win_weight, params.margin_scale
    exp = math.exp
    out = []
    for share, m in zip(shares, margin):
        x = m / scale
        squashed = 1.0 / (1.0 + exp(-x)) if x > -60 else 0.0
        out.append(w * share + (1.0 - w) * squashed)
    return out


def payoff_rewards(payoffs: Sequence[float], payoff_range: tuple[float, float]) -> list[float]:
    """Reward of every seat in a "payoff" game (`core.game.UTILITY_MODELS`): its payoff (chips) mapped
    linearly from the game's `payoff_range` onto 0..1, so the search maximises expected chips."""
    low, high = payoff_range
    return [(x - low) / (high - low) for x in payoffs]


def estimated_scores(state) -> list[float]:
    """Cut-off estimate of each seat's final score: the game's own (`State.estimated_scores`; Burano's
    counts what final scoring would add now)."""
    return state.estimated_scores()
