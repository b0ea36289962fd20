"""Seeded random play over the State API (either implementation): the one place that samples a
chance outcome by its probability or a uniformly random decision for tests, tools and transcripts.

It runs no playouts (the search's leaf evaluation plays those; the compiled core plays whole games in
C): it picks one random legal action or chance outcome at a time. `sample_chance` here is the
documented chance sampler (``random.Random.choices`` over the outcomes); the search keeps its own
(`burano_ai.search.evaluators.sample_chance`: a cumulative ``r < acc`` scan, one ``rng.random()`` per
draw), which can pick differently for the same RNG, so the two are not interchangeable without
changing seeded results. The arena and the bots draw chance with the search's (golden-pinned).
"""

from __future__ import annotations

import random
from typing import Callable


def sample_chance(state, rng: random.Random) -> int:
    """A chance outcome of `state` drawn with its probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def random_action(state, rng: random.Random) -> int:
    """A chance outcome (by probability) at a chance node, else a uniformly random legal action."""
    if state.is_chance_node():
        return sample_chance(state, rng)
    return rng.choice(state.legal_actions())


def random_step(state, rng: random.Random) -> int:
    """Apply one `random_action` and return it."""
    action = random_action(state, rng)
    state.apply_action(action)
    return action


def play_randomly(state, rng: random.Random, until: Callable[[object], bool] | None = None) -> None:
    """Play random steps until `until(state)` holds or the game is over."""
    while not state.is_terminal() and not (until and until(state)):
        random_step(state, rng)
