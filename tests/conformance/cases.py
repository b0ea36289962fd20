"""The cases every registered game must pass: (game key, implementation, player count).

Every game in `burano_ai.games` is found here by registering: nothing in the suite names a game.
Each implementation is tested at every player count the game allows.
"""

from __future__ import annotations

import random

import pytest

from burano_ai.games import all_specs
from burano_ai.random_play import random_step

from .every_state import NothingToCheck


def _cases():
    out = []
    for spec in all_specs():
        counts = range(spec.min_players, spec.max_players + 1)
        for implementation in spec.implementations:
            for n in counts:
                out.append(pytest.param(spec, implementation, n, id=f"{spec.key}-{implementation}-{n}p"))
    return out


CASES = _cases()
#: Only the compiled implementations (the searches run on them).
COMPILED = [c for c in CASES if c.values[1] == "compiled"]


def decisions(game, seed: int, name: str) -> list:
    """Every decision (a seat to move with two legal actions or more) of one seeded random game, as clones.

    Raises:
        NothingToCheck: the game had none (a search test would otherwise check nothing, or worse).
    """
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = []
    while not state.is_terminal():
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            out.append(state.clone())
        random_step(state, rng)
    if not out:
        raise NothingToCheck(f"{name} seed {seed}: a random game without a decision with two legal actions or more")
    return out


def spread(states: list, count: int) -> list:
    """Up to `count` of `states`, evenly spread from the first to the last."""
    if len(states) <= count:
        return list(states)
    return [states[round(i * (len(states) - 1) / (count - 1))] for i in range(count)] if count > 1 else states[:1]
