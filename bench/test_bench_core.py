"""Compiled core vs reference model, side by side on fixed positions (pytest-benchmark).

Run: python -m pytest bench/test_bench_core.py --benchmark-columns=mean,ops,rounds --benchmark-group-by=group
Each group holds the core and the reference on the same position, so ratios come from one run.
"""

from __future__ import annotations

import random

import pytest

from burano_ai.games.burano._core import Game as CoreGame
from burano_ai.games.burano._core import playout
from burano_ai.core.errors import IllegalMoveError
from burano_ai.random_play import play_randomly
from burano_ai.games.burano.reference import Game as ReferenceGame

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


@pytest.mark.parametrize("impl", sorted(IMPLS) + ["core-python-api"])
@pytest.mark.parametrize("players", [2, 4])
def test_random_game(benchmark, impl, players):
    """A complete uniformly random game from the setup: C playout vs Python loops over the State API.

    "core-python-api" plays the compiled core through `legal_actions` + the checked `apply_action`
    (`random_play.play_randomly`, as the reference does): its ratio to "core" is the price of the
    Python API, and comparing it across builds (bench/compare_builds.py, "random game 3p, Python
    API") gives the price of the legality check (issue 10: at most 5 %).
    """
    benchmark.group = f"random game {players}p"
    start = (CoreGame if impl == "core-python-api" else IMPLS[impl])(players).new_initial_state(7)
    seeds = iter(range(10**9))
    if impl == "core":
        benchmark(lambda: playout(start.clone(), next(seeds), "random"))
    else:
        benchmark.pedantic(lambda: _random_playout(start.clone(), next(seeds)),
                           rounds=10 if impl == "reference" else 50)


@pytest.mark.parametrize("name", NAMES)
def test_refused_apply_action_core(benchmark, name):
    """The check alone: an illegal id refused (a move generation, a membership test, the error text)."""
    benchmark.group = f"apply_action {name}"
    state = load(CoreGame, name)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in legal)

    def refused():
        try:
            state.apply_action(illegal)
        except IllegalMoveError:
            pass

    benchmark(refused)
