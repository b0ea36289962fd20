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
from burano_ai.games.burano.enums import Phase
from burano_ai.random_play import random_step

PICK_SEEDS = 4   # draws per decision and policy


def _decisions(num_players: int, seed: int, policy: str):
    """Yield every decision of a seeded game whose moves are the `policy` playout's own picks."""
    state = _core.Game(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            random_step(state, rng)
            continue
        yield state
        (action, _), _ = _core._choose_lockstep(state, seed * 100_003 + step, policy)
        state.apply_action(action)
        step += 1


def _turn_decisions(num_players: int, seed: int, policy: str):
    """Yield every turn decision (the counted families) of `_decisions`' game."""
    return (state for state in _decisions(num_players, seed, policy) if _core._turn_actions_counted(state))


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


# Decisions the playout draws from without scoring the written list: the colour choices by counting
# (choose_colour_c), the dock swaps with `go` legal by the score bound (choose_swap_c).
SHORTCUT_PHASES = (Phase.PYRAMID, Phase.REPLENISH, Phase.FISH_SWAP)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("seed", range(6))
def test_colour_and_swap_picks_equal_listed_pick(policy, seed):
    """The pyramid's and the replenishment's counted colour draw, and the dock swap's bounded scoring,
    pick what the listed path picks, with the same RNG draws."""
    phases = Counter()
    for state in _decisions(2 + seed % 3, seed, policy):
        if state.phase not in SHORTCUT_PHASES:
            continue
        phases[Phase(state.phase)] += 1
        for k in range(PICK_SEEDS * 4):
            counted, listed = _core._choose_lockstep(state, seed * 7_919 + k, policy)
            assert counted == listed, state.to_json()
    assert phases[Phase.PYRAMID] > 20, phases


def test_shortcut_decisions_occur():
    """The seeded games of the test above reach replenishment decisions and dock-swap decisions with
    and without `go` (a swap then scored in full): every shortcut is exercised."""
    kinds = Counter()
    for seed in range(6):
        for policy in ("random", "heuristic"):
            for state in _decisions(2 + seed % 3, seed, policy):
                if state.phase == Phase.FISH_SWAP:
                    kinds["go" if A.family(state.legal_actions()[0]) == "GO" else "no go"] += 1
                elif state.phase == Phase.REPLENISH and len(state.legal_actions()) > 1:
                    kinds["replenish"] += 1
    assert kinds["go"] and kinds["no go"] and kinds["replenish"], kinds


def test_swap_gain_equals_copied_docks():
    """swap_gain reads the trip's island after a swap without copying the docks: the same matches as
    making the swap on a copy of every dock, for every legal swap of every dock-swap decision."""
    swaps = 0
    for seed in range(30):
        for state in _decisions(2 + seed % 3, seed, "random"):
            for gain, copied in _core._swap_gains(state):
                assert gain == copied, state.to_json()
                swaps += 1
    assert swaps > 100


def test_lockstep_needs_a_decision():
    state = _core.Game(3).new_initial_state(1)
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError):
        _core._choose_lockstep(state, 1)
