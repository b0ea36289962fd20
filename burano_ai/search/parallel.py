"""Running a search: the honest root, one search in-process, or root-parallel worker processes.

The search never starts from the position it is given: it starts from the searching seat's
one-seat view (``state.to_json(seat)``) loaded back by the game (`canonical_root`). Loading a view fills
the hidden parts with a deterministic sample that depends on the view alone, so two positions the seat
cannot tell apart give the very same search, bit for bit.

With ``workers = W > 1``, W processes each run an independent search on that view with the seed
``worker_seed(seed, w)`` and their share of the iteration budget (`Limit.split`); the parent sums their
root statistics and their plan trees edge by edge. Worker processes rebuild the root from the view JSON
with ``game_factory(num_players).state_from_json(text)``, so the factory (a Game class is fine) and
`Params` callables must be picklable. The same seed, iteration budget and W give the same answer.

Every search, in-process or in a worker, is made by `ismcts.make_searcher` (`Params.tree`: the native
tree in C when it can run the search, else the Python tree).
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import threading
import time
import traceback
from typing import Any, Callable

from ..errors import OptionError
from .ismcts import make_searcher, native_tree_blocker, worker_seed
from .limits import Limit
from .params import Params
from .tree import merge_plans

GameFactory = Callable[[int], Any]
Progress = Callable[[int, "int | None"], None]


def default_game_factory() -> GameFactory:
    """The compiled `burano_ai.Game` (importing burano_ai fails loudly if it is not built)."""
    from .. import Game
    return Game


def game_factory_for(state, game_factory: GameFactory | None = None) -> GameFactory:
    """The factory that can rebuild `state` from JSON: the given one, else the state's own Game class."""
    if game_factory is not None:
        return game_factory
    game = getattr(state, "game", None)
    if game is not None and hasattr(game, "state_from_json"):
        return type(game)
    return default_game_factory()


def canonical_root(state, seat: int, game_factory: GameFactory | None = None):
    """The search root for `seat`: its one-seat view of `state`, loaded back (see the module doc)."""
    factory = game_factory_for(state, game_factory)
    return factory(state.num_players).state_from_json(state.to_json(seat))


def auto_start_method() -> str:
    """"fork" when it is safe and available (one thread, POSIX), else "spawn"."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def merge_summaries(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """Sum the summaries of independent searches (root statistics, plan trees, counts)."""
    root_stats: dict[int, tuple[float, float, float]] = {}
    for s in summaries:
        for action, values in s["root_stats"].items():
            old = root_stats.get(action, (0.0, 0.0, 0.0))
            root_stats[action] = tuple(a + b for a, b in zip(old, values))
    return {
        "iterations": sum(s["iterations"] for s in summaries),
        "elapsed": max((s["elapsed"] for s in summaries), default=0.0),
        "plan": merge_plans([s["plan"] for s in summaries]),
        "root_stats": root_stats,
        "nodes": sum(s["nodes"] for s in summaries),
    }


def run_search(root, seat: int, limit: Limit, params: Params, seed: int = 0, workers: int = 1,
               progress: Progress | None = None, game_factory: GameFactory | None = None) -> dict[str, Any]:
    """Search from `root` (already canonical: see `canonical_root`) and return the merged summary."""
    deadline = None if limit.seconds is None else time.time() + limit.seconds
    shares = limit.split(workers)
    if workers == 1:
        searcher = make_searcher(root, seat, params, worker_seed(seed, 0))
        searcher.run(shares[0], deadline, progress)
        return searcher.summary()
    if params.tree == "native":     # fail here, not in every worker
        blocker = native_tree_blocker(root, params)
        if blocker is not None:
            raise OptionError(f"tree='native' cannot run this search: {blocker}")
    factory = game_factory_for(root, game_factory)
    text = root.to_json()
    ctx = multiprocessing.get_context(params.start_method or auto_start_method())
    counters = ctx.Array("q", workers, lock=False)
    results = ctx.Queue()
    procs = []
    active = [w for w in range(workers) if shares[w] is None or shares[w] > 0]
    for w in active:
        args = (w, text, root.num_players, factory, seat, params, shares[w], deadline, worker_seed(seed, w),
                counters, results)
        proc = ctx.Process(target=_worker_main, args=args, name=f"burano-search-{w}", daemon=True)
        proc.start()
        procs.append(proc)
    summaries: dict[int, dict[str, Any]] = {}
    total = limit.iterations
    try:
        while len(summaries) < len(active):
            try:
                w, ok, payload = results.get(timeout=0.1)
            except queue_module.Empty:
                dead = [p for p in procs if p.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"search worker {dead[0].name} died with exit code {dead[0].exitcode}")
            else:
                if not ok:
                    raise RuntimeError(f"search worker {w} failed:\n{payload}")
                summaries[w] = payload
            if progress is not None:
                progress(sum(counters[w] for w in active), total)
    finally:
        for p in procs:
            if p.is_alive() and len(summaries) < len(active):
                p.terminate()
            p.join(timeout=5)
        results.close()
    return merge_summaries([summaries[w] for w in sorted(summaries)])


def _worker_main(index: int, text: str, num_players: int, factory: GameFactory, seat: int, params: Params,
                 iterations: int | None, deadline: float | None, seed: int, counters, results) -> None:
    """Body of one worker process: rebuild the root, search, send the summary back."""
    try:
        root = factory(num_players).state_from_json(text)
        searcher = make_searcher(root, seat, params, seed)

        def report(done: int, _total: int | None) -> None:
            counters[index] = done

        searcher.run(iterations, deadline, report)
        results.put((index, True, searcher.summary()))
    except BaseException:   # report every failure to the parent instead of dying silently
        results.put((index, False, traceback.format_exc()))
