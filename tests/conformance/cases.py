"""The cases every registered game must pass: (game key, implementation, player count).

Every game in `burano_ai.games` is found here by registering: nothing in the suite names a game.
Each implementation is tested at its smallest and largest player count (and the default one).
"""

from __future__ import annotations

import random

import pytest

from burano_ai.games import all_specs


def _cases():
    out = []
    for spec in all_specs():
        counts = sorted({spec.min_players, spec.default_players, spec.max_players})
        for implementation in spec.implementations:
            for n in counts:
                out.append(pytest.param(spec, implementation, n, id=f"{spec.key}-{implementation}-{n}p"))
    return out


CASES = _cases()
#: Only the compiled implementations (the searches run on them).
COMPILED = [c for c in CASES if c.values[1] == "compiled"]


def random_step(state, rng: random.Random) -> int:
    """Apply one random legal action or chance outcome (by its probability); return it."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def random_states(game, seed: int, every: int = 1):
    """The states of one seeded random game, every `every`-th ply and the last (as clones)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            yield state.clone()
        random_step(state, rng)
        ply += 1
    yield state.clone()


def states_of_games(game, seed: int, every: int, at_least: int = 8):
    """`random_states` of the games seeded `seed`, `seed + 1`, ... until at least `at_least` states: a
    short game (a Kuhn poker hand is 4-5 plies) gives a check something to check."""
    count = 0
    while count < at_least:
        for state in random_states(game, seed, every):
            count += 1
            yield state
        seed += 1
