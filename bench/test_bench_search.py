"""Benchmarks of the ISMCTS searcher (pytest-benchmark): iterations per second on fixed positions.

Not part of the default test run; run with ``python -m pytest bench/test_bench_search.py``.
Positions: 2 and 4 players at a season start (spring round 1), mid-season (summer round 2) and the
last round (winter round 3), each reached by a seeded random game (the same position on every
implementation). Each benchmark runs on every implementation that is available — the Python tree on
the reference model ("reference"), the Python tree on the compiled core (`burano_ai.Game`, or
`burano_ai.games.burano._core.Game` before it is exported) with its native C playout ("core"), and the native tree
(`burano_ai.search._native.NativeSearcher`, the whole iteration in C) on the core ("core-native") — so one
run gives the ratios. Full iterations are measured with both playout policies (`Params.playout_policy`:
uniform random, and the heuristic default; the reference model has only the uniform one), next to
bare C playouts from the root as the ceiling of any tree ("playouts-only"). Each records
``iterations_per_second`` and the search's signature (best move, its visits, tree nodes) in
``extra_info``: for a fixed implementation, seed and budget the signature must not change under a
refactor.

Side by side per position::

    python -m pytest bench/test_bench_search.py -k iterations \
        --benchmark-group-by=param:num_players,param:where,param:playout

One shared native tree on 1 and 2 threads (`bench/thread_report.py` alternates them and prints ratios)::

    python -m pytest bench/test_bench_search.py -k threads --benchmark-group-by=param:num_players,param:where
"""

from __future__ import annotations

import functools
import random

import pytest

from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game as ReferenceGame
from burano_ai.search import Limit, Params
from burano_ai.search.evaluators import HorizonEstimate
from burano_ai.search.ismcts import make_searcher, worker_seed
from burano_ai.search.parallel import canonical_root


def _core_game():
    try:
        from burano_ai import Game   # type: ignore[attr-defined]
        return Game
    except ImportError:
        pass
    try:
        from burano_ai.games.burano._core import Game  # type: ignore[import-not-found]
        return Game
    except ImportError:
        return None


def _has_native_tree() -> bool:
    try:
        from burano_ai.search import _native  # noqa: F401  type: ignore[attr-defined]
        return True
    except ImportError:
        return False


#: implementation -> (Game, Params.tree).
IMPLEMENTATIONS = {"reference": (ReferenceGame, "python")}
if _core_game() is not None:
    IMPLEMENTATIONS["core"] = (_core_game(), "python")
    if _has_native_tree():
        IMPLEMENTATIONS["core-native"] = (_core_game(), "native")
#: The implementations that can cut iterations at a horizon (the Python tree).
HORIZON_IMPLEMENTATIONS = [impl for impl, (_game, tree) in IMPLEMENTATIONS.items() if tree == "python"]

TURN = 2
#: Iterations per measured search: enough to matter, few enough for the slow reference model.
ITERATIONS = {"reference": 30, "core": 1000, "core-native": 1000}
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
    return canonical_root(state, seat, IMPLEMENTATIONS[impl][0]), seat


def _params(impl: str, **changes) -> Params:
    return Params(tree=IMPLEMENTATIONS[impl][1], **changes)


def _record(benchmark, impl: str, iterations: int, searcher=None) -> None:
    info = {"implementation": impl, "iterations": iterations}
    if benchmark.stats is not None:   # None under --benchmark-disable (a smoke run of bench/)
        info["iterations_per_second"] = round(iterations / benchmark.stats.stats.mean, 1)
    if searcher is not None:
        summary = searcher.summary()
        action, (visits, *_rest) = max(summary["plan"].items(), key=lambda kv: (kv[1][0], -kv[0]))
        info["signature"] = f"{searcher.root_state.action_to_string(action)}:{visits}:{summary['nodes']}"
    benchmark.extra_info.update(info)


@pytest.mark.parametrize("playout", ["random", "heuristic"])
@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("where", list(POSITIONS))
@pytest.mark.parametrize("num_players", [2, 4])
def test_bench_search_iterations(benchmark, impl, num_players, where, playout):
    """Full iterations: resample, tree, playout to the end of the game with the `playout` policy."""
    if impl == "reference" and playout == "heuristic":
        pytest.skip("the reference model has only uniform random playouts")
    root, seat = _root(impl, num_players, where)
    iterations = ITERATIONS[impl]
    searchers = []

    def search():
        searcher = make_searcher(root, seat, _params(impl, playout_policy=playout), worker_seed(1, 0))
        searcher.run(iterations=iterations)
        searchers.append(searcher)

    benchmark.pedantic(search, rounds=3, iterations=1)
    _record(benchmark, impl, iterations, searchers[-1])


@pytest.mark.skipif("core" not in IMPLEMENTATIONS, reason="the compiled core is not built")
@pytest.mark.parametrize("playout", ["random", "heuristic"])
@pytest.mark.parametrize("where", list(POSITIONS))
@pytest.mark.parametrize("num_players", [2, 4])
def test_bench_search_iterations_playouts_only(benchmark, num_players, where, playout):
    """The ceiling of any tree: the same number of C playouts from the root, without search."""
    from burano_ai.games.burano import _core
    root, _seat = _root("core", num_players, where)
    iterations = ITERATIONS["core"]
    benchmark.pedantic(_core.playouts, args=(root, iterations, 1, playout), rounds=3, iterations=1)
    _record(benchmark, "playouts-only", iterations)


@pytest.mark.parametrize("impl", HORIZON_IMPLEMENTATIONS)
@pytest.mark.parametrize("num_players", [2, 4])
def test_bench_search_to_turn_horizon(benchmark, impl, num_players):
    """Iterations cut at the end of the seat's turn (the cheap evaluation used by the puzzles)."""
    root, seat = _root(impl, num_players, "mid-season")
    iterations = ITERATIONS[impl] * 10
    searchers = []

    def search():
        searcher = make_searcher(root, seat, _params(impl, evaluator=HorizonEstimate(1)), worker_seed(1, 0))
        searcher.run(iterations=iterations)
        searchers.append(searcher)

    benchmark.pedantic(search, rounds=3, iterations=1)
    _record(benchmark, impl, iterations, searchers[-1])


@pytest.mark.parametrize("impl", HORIZON_IMPLEMENTATIONS)   # one per Game
def test_bench_resample(benchmark, impl):
    """The one copy per iteration: `resample` of a 4-player mid-season position."""
    root, seat = _root(impl, 4, "mid-season")
    benchmark(root.resample, seat, 12345)


@pytest.mark.skipif("core-native" not in IMPLEMENTATIONS, reason="the native tree is not built")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("where", list(POSITIONS))
@pytest.mark.parametrize("num_players", [2, 4])
def test_bench_search_threads(benchmark, num_players, where, threads):
    """Threads sharing one native tree (heuristic playout): group by position to see 1 and 2 side by side.
    Two threads are not reproducible, so only the one-thread run records a signature."""
    root, seat = _root("core-native", num_players, where)
    iterations = ITERATIONS["core-native"] * 5
    searchers = []

    def search():
        searcher = make_searcher(root, seat, _params("core-native"), worker_seed(1, 0))
        searcher.run(iterations=iterations, threads=threads)
        searchers.append(searcher)

    benchmark.pedantic(search, rounds=3, iterations=1)
    _record(benchmark, f"core-native-{threads}-threads", iterations, searchers[-1] if threads == 1 else None)


@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
def test_bench_two_workers(benchmark, impl):
    """Root-parallel search over 2 processes, process start included (compare with the one-worker runs)."""
    from burano_ai.engine import suggest
    root, seat = _root(impl, 2, "mid-season")
    limit = Limit(iterations=ITERATIONS[impl] * 4)
    params = _params(impl)
    benchmark.pedantic(lambda: suggest(root, limit=limit, seed=1, workers=2, params=params), rounds=2, iterations=1)
    _record(benchmark, impl, limit.iterations)
