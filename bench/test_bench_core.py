"""Compiled core vs reference model, side by side on fixed positions (pytest-benchmark).

Run: python -m pytest bench/test_bench_core.py --benchmark-columns=mean,ops,rounds --benchmark-group-by=group
Each group holds the core and the reference on the same position, so ratios come from one run.
"""

from __future__ import annotations

import random

import pytest

from burano_ai._core import Game as CoreGame
from burano_ai._core import playout
from burano_ai.random_play import play_randomly
from burano_ai.reference import Game as ReferenceGame

from positions import POSITIONS, load

IMPLS = {"core": CoreGame, "reference": ReferenceGame}
NAMES = sorted(POSITIONS)


def _random_playout(state, seed: int) -> None:
    play_randomly(state, random.Random(seed))


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("name", NAMES)
def test_clone(benchmark, impl, name):
    benchmark.group = f"clone {name}"
    state = load(IMPLS[impl], name)
    benchmark(state.clone)


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("name", NAMES)
def test_legal_actions(benchmark, impl, name):
    benchmark.group = f"legal_actions {name}"
    state = load(IMPLS[impl], name)
    assert benchmark(state.legal_actions)


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("name", NAMES)
def test_apply_action(benchmark, impl, name):
    benchmark.group = f"apply_action {name}"
    state = load(IMPLS[impl], name)
    take = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("take"))
    benchmark.pedantic(lambda s: s.apply_action(take), setup=lambda: ((state.clone(),), {}),
                       rounds=300 if impl == "reference" else 3000)


@pytest.mark.parametrize("name", NAMES)
def test_full_key_core(benchmark, name):
    benchmark.group = f"full key {name}"
    state = load(CoreGame, name)
    benchmark(state.full_key)


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("name", NAMES)
def test_information_state_key(benchmark, impl, name):
    benchmark.group = f"information_state_key {name}"
    state = load(IMPLS[impl], name)
    benchmark(state.information_state_key, 0)


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("name", NAMES)
def test_resample(benchmark, impl, name):
    benchmark.group = f"resample {name}"
    state = load(IMPLS[impl], name)
    seeds = iter(range(10**9))
    benchmark(lambda: state.resample(1, next(seeds)))


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("players", [2, 4])
def test_random_game(benchmark, impl, players):
    """A complete uniformly random game from the setup: C playout vs Python loop over the reference."""
    benchmark.group = f"random game {players}p"
    start = IMPLS[impl](players).new_initial_state(7)
    seeds = iter(range(10**9))
    if impl == "core":
        benchmark(lambda: playout(start.clone(), next(seeds), "random"))
    else:
        benchmark.pedantic(lambda: _random_playout(start.clone(), next(seeds)), rounds=10)
