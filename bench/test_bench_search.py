"""Benchmarks of the ISMCTS searcher (pytest-benchmark): iterations per second on fixed positions.

Not part of the default test run; run with ``python -m pytest bench/test_bench_search.py``.
Positions: 2 and 4 players at a season start (spring round 1), mid-season (summer round 2) and the
last round (winter round 3), each reached by a seeded random game (the same position on every
implementation). Each benchmark runs on every Game that is available — the reference model, and the
compiled core (`burano_ai.Game`, or `burano_ai._core.Game` before it is exported) with its native C
playout — so one run gives the ratio. Each records ``iterations_per_second`` and the search's
signature (best move, its visits, tree nodes) in ``extra_info``: for a fixed implementation, seed and
budget the signature must not change under a refactor.
"""

from __future__ import annotations

import functools
import random

import pytest

from burano_ai.playout import random_step
from burano_ai.reference import Game as ReferenceGame
from burano_ai.search import Limit, Params
from burano_ai.search.ismcts import Searcher, worker_seed
from burano_ai.search.parallel import canonical_root


def _core_game():
    try:
        from burano_ai import Game   # type: ignore[attr-defined]
        return Game
    except ImportError:
        pass
    try:
        from burano_ai._core import Game   # type: ignore[import-not-found]
        return Game
    except ImportError:
        return None


GAMES = {"reference": ReferenceGame}
if _core_game() is not None:
    GAMES["core"] = _core_game()

TURN = 2
#: Iterations per measured search: enough to matter, few enough for the slow reference model.
ITERATIONS = {"reference": 30, "core": 1000}
POSITIONS = {"season-start": (0, 1), "mid-season": (1, 2), "last-round": (3, 3)}


def _position(num_players: int, season: int, round_: int, seed: int = 17):
    state = ReferenceGame(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    while not (state.current_player() >= 0 and state.phase == TURN and state.season == season
               and state.round == round_ and getattr(state, "moves", 0) == 0):
        random_step(state, rng)
        assert not state.is_terminal()
    return state


@functools.lru_cache(maxsize=None)
def _root(impl: str, num_players: int, where: str):
    state = _position(num_players, *POSITIONS[where])
    seat = state.current_player()
    return canonical_root(state, seat, GAMES[impl]), seat


def _record(benchmark, impl: str, iterations: int, searcher: Searcher | None = None) -> None:
    info = {"implementation": impl, "iterations": iterations,
            "iterations_per_second": round(iterations / benchmark.stats.stats.mean, 1)}
    if searcher is not None:
        action, best = max(searcher.root.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))
        info["signature"] = f"{searcher.root_state.action_to_string(action)}:{best.visits}:{searcher.root.count()}"
    benchmark.extra_info.update(info)


@pytest.mark.parametrize("impl", list(GAMES))
@pytest.mark.parametrize("where", list(POSITIONS))
@pytest.mark.parametrize("num_players", [2, 4])
def test_bench_search_iterations(benchmark, impl, num_players, where):
    """Full iterations: resample, tree, playout to the end of the game (the default playout)."""
    root, seat = _root(impl, num_players, where)
    iterations = ITERATIONS[impl]
    searchers = []

    def search():
        searcher = Searcher(root, seat, Params(), worker_seed(1, 0))
        searcher.run(iterations=iterations)
        searchers.append(searcher)

    benchmark.pedantic(search, rounds=3, iterations=1)
    _record(benchmark, impl, iterations, searchers[-1])


@pytest.mark.parametrize("impl", list(GAMES))
@pytest.mark.parametrize("num_players", [2, 4])
def test_bench_search_to_turn_horizon(benchmark, impl, num_players):
    """Iterations cut at the end of the seat's turn (the cheap evaluation used by the puzzles)."""
    root, seat = _root(impl, num_players, "mid-season")
    iterations = ITERATIONS[impl] * 10
    searchers = []

    def search():
        searcher = Searcher(root, seat, Params(horizon_turns=1), worker_seed(1, 0))
        searcher.run(iterations=iterations)
        searchers.append(searcher)

    benchmark.pedantic(search, rounds=3, iterations=1)
    _record(benchmark, impl, iterations, searchers[-1])


@pytest.mark.parametrize("impl", list(GAMES))
def test_bench_resample(benchmark, impl):
    """The one copy per iteration: `resample` of a 4-player mid-season position."""
    root, seat = _root(impl, 4, "mid-season")
    benchmark(root.resample, seat, 12345)


@pytest.mark.parametrize("impl", list(GAMES))
def test_bench_two_workers(benchmark, impl):
    """Root-parallel search over 2 processes, process start included (compare with the one-worker runs)."""
    from burano_ai.engine import suggest
    root, seat = _root(impl, 2, "mid-season")
    limit = Limit(iterations=ITERATIONS[impl] * 4)
    benchmark.pedantic(lambda: suggest(root, limit=limit, seed=1, workers=2), rounds=2, iterations=1)
    _record(benchmark, impl, limit.iterations)
