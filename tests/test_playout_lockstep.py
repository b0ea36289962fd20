"""The playout's counted draw at a turn's main decision picks exactly what the written legal list would.

`choose_action_c` no longer writes the legal list at a PH_TURN decision: it counts the families (takes,
builds = colours x holes, roofs, privilege coin and cubes), draws the same `rng_below(n)` and finds the
k-th action by arithmetic, and the heuristic policy scores a family at a time. These tests run both
paths (`_core._choose_lockstep`) from the same seed at every turn decision of seeded games and check
the same action and the same RNG state after, and that the k-th counted action is the k-th legal
action for every k (an off-by-one in the arithmetic shifts an action and fails).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from burano_ai.games.burano import _core
from burano_ai.games.burano import actions as A
from burano_ai.random_play import random_step

PICK_SEEDS = 4   # draws per decision and policy


def _turn_decisions(num_players: int, seed: int, policy: str):
    """Yield every turn decision of a seeded game whose moves are the `policy` playout's own picks."""
    state = _core.Game(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            random_step(state, rng)
            continue
        if _core._turn_actions_counted(state):
            yield state
        (action, _), _ = _core._choose_lockstep(state, seed * 100_003 + step, policy)
        state.apply_action(action)
        step += 1


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("seed", range(6))
def test_counted_turn_actions_are_the_legal_list(policy, seed):
    decisions = 0
    for state in _turn_decisions(2 + seed % 3, seed, policy):
        assert _core._turn_actions_counted(state) == state.legal_actions()
        decisions += 1
    assert decisions > 50


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("seed", range(6))
def test_counted_pick_equals_listed_pick(policy, seed):
    families = Counter()
    for state in _turn_decisions(2 + seed % 3, seed, policy):
        for k in range(PICK_SEEDS):
            counted, listed = _core._choose_lockstep(state, seed * 7_919 + k, policy)
            assert counted == listed, state.to_json()
            families[A.family(counted[0])] += 1
    assert families["BUILD"] and families["TAKE"]


def test_every_family_occurs():
    """Across the seeded games every family of the turn decision is legal somewhere (the tests above
    are not vacuous): done, take, build, roof, the privilege coin and a privilege cube."""
    families = Counter()
    for seed in range(12):
        for state in _turn_decisions(2 + seed % 3, seed, "random"):
            for action in state.legal_actions():
                families[A.family(action)] += 1
    assert {"DONE", "TAKE", "BUILD", "ROOF", "PRIV_COIN", "PRIV_CUBE"} <= set(families), families


def test_lockstep_needs_a_decision():
    state = _core.Game(3).new_initial_state(1)
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError):
        _core._choose_lockstep(state, 1)
