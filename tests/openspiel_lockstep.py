"""Game-for-game agreement with pyspiel: play random games in our State and in pyspiel's in lockstep.

At every state both must agree on whose turn it is, the legal actions (or the chance outcomes and their
probabilities) and, at the end, the returns in chips. Used by the tests of games written after an
OpenSpiel game (tests/games/kuhn_poker/, tests/games/leduc_poker/).
"""

from __future__ import annotations

import random


def lockstep(ours, theirs, games: int, seed: int) -> dict[str, int]:
    """Play `games` random games of our Game `ours` and pyspiel's `theirs` side by side; assert they agree.

    Returns: {"games", "states", "chance", "decisions"} counted over the games.
    """
    rng = random.Random(seed)
    counts = {"games": 0, "states": 0, "chance": 0, "decisions": 0}
    for _ in range(games):
        state, other = ours.new_initial_state(), theirs.new_initial_state()
        while True:
            counts["states"] += 1
            assert state.is_terminal() == other.is_terminal(), (state, other)
            if state.is_terminal():
                assert state.returns() == other.returns(), (state, other)
                break
            assert state.current_player() == other.current_player(), (state, other)
            if state.is_chance_node():
                counts["chance"] += 1
                outcomes = state.chance_outcomes()
                assert [(a, round(p, 12)) for a, p in outcomes] == \
                    [(a, round(p, 12)) for a, p in other.chance_outcomes()], (state, other)
                action = rng.choice([a for a, _ in outcomes])
            else:
                counts["decisions"] += 1
                assert state.legal_actions() == other.legal_actions(), (state, other)
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            other.apply_action(action)
        counts["games"] += 1
    return counts


def check_against_pyspiel(spec, name: str, players: int, games: int, seed: int) -> dict[str, int]:
    """Our `spec`'s game of `players` against pyspiel's game `name`: the same counts and payoff range, then
    `lockstep` over `games` random games."""
    import pyspiel
    theirs = pyspiel.load_game(name, {"players": players})
    ours = spec.new_game(players)
    assert (ours.num_distinct_actions(), ours.max_chance_outcomes()) == \
        (theirs.num_distinct_actions(), theirs.max_chance_outcomes())
    assert spec.payoff_range(players) == (theirs.min_utility(), theirs.max_utility())
    return lockstep(ours, theirs, games, seed)
