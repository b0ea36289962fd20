"""Walking in Burano's greedy bot: one move ahead with a fixed, documented heuristic.

For each legal move the bot applies it to a copy of its view (the seat's view loaded back: it sees
nothing the seat cannot) and scores the result for its own seat:

    value = the seat's score with the final scoring as it stands (`State.estimated_scores`:
            characters, shops, tokens, the closed-window penalty)
          + `coin_weight` x coins held, at most 6 (money for the next placements; the cap, §8)
          + `card_weight` x real cards in the street (progress towards houses and characters)
          + `hand_weight` x cards in hand, at most 3 (material for the next turns; the hand limit, §8)

and plays the best, ties broken at random (seeded). A whole turn is decided one decision at a time
(take, each placement or the end of the build, each character, each return); it never samples chance.
It plays on either implementation through the State API and the position dict only.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from burano_ai.games.walking_in_burano.data import COIN_CAP, HAND_LIMIT

#: The default weights: a coin is worth about a third of a card placed (placements cost 1, 2, 2).
COIN_WEIGHT = 0.5
CARD_WEIGHT = 1.5
HAND_WEIGHT = 0.6


def value(state, seat: int, coin_weight: float, card_weight: float, hand_weight: float) -> float:
    """The heuristic value of `state` for `seat` (see the module docstring)."""
    pos = state.to_dict()
    me = pos["seats"][seat]
    cards = sum(1 for h in me["street"] for f in h["floors"] if isinstance(f, int))
    return (state.estimated_scores()[seat] + coin_weight * min(me["coins"], COIN_CAP) + card_weight * cards
            + hand_weight * min(len(me["hand"]), HAND_LIMIT))


def choose_greedy(world, seat: int, legal: Sequence[int], rng: random.Random, options: Mapping[str, Any],
                  sample_chance: Callable | None = None) -> int:
    """The legal move of best `value` after it (ties: a seeded random one among them)."""
    weights = (float(options.get("coin_weight", COIN_WEIGHT)), float(options.get("card_weight", CARD_WEIGHT)),
               float(options.get("hand_weight", HAND_WEIGHT)))
    scored = []
    for action in legal:
        after = world.clone()
        after.apply_action(action)
        scored.append((value(after, seat, *weights), action))
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])
