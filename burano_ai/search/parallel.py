"""Running a search: the honest root, one search in-process (one thread, or several threads on one
shared tree), or root-parallel worker processes.

The search never starts from the position it is given: it starts from the searching seat's
one-seat view (``state.to_json(seat)``) loaded back by the game (`canonical_root`). Loading a view fills
the hidden parts with a deterministic sample that depends on the view alone, so two positions the seat
cannot tell apart give the very same search, bit for bit.

With ``threads = T > 1`` (and one worker), T threads of this process iterate on one shared native tree
(`burano_ai.search._native`: virtual loss, one tree lock): one coherent tree, T times the iterations
per second on T free cores, but not bit-reproducible (which statistics an iteration sees depends on
the threads' timing). The Python tree runs one thread: asked for more, it runs one and says so in the
summary's notes. Deterministic modes are one thread, or root-parallel workers.

With ``trees = K > 1``, K independent trees run in this process, a thread each (the native tree releases the
GIL while it iterates), with the seeds ``worker_seed(seed, k)`` and their share of the iteration budget:
the root-parallel search of the workers below without processes, so it can stream reports and be stopped.
The merged summary also says which move each tree would have chosen on its own (``tree_moves``): when
they differ, no tree's answer is settled (`search.result`: the moves are reported tied). One tree that
starved a move whose value shows only deeper cannot hide it when another tree found it (issue 33).

With ``workers = W > 1``, W processes each run an independent search on that view with the seed
``worker_seed(seed, w)`` and their share of the iteration budget (`Limit.split`); the parent sums their
root statistics and their plan trees edge by edge. Worker processes rebuild the root from the view JSON
with ``game_factory(num_players).state_from_json(text)``, so the factory (a Game class is fine) and
`Params` callables must be picklable. The same seed, iteration budget and W give the same answer.

Every search, in-process or in a worker, is made by `ismcts.make_searcher` (`Params.tree`: the native
tree in C when it can run the search, else the Python tree), and runs at least one iteration even
when its time budget is already spent: an answer always rests on some search.

Workers never outlive the search. While workers run, a SIGTERM or SIGHUP to the parent (when it is
the default action and the search runs in the main thread) terminates them and exits with
128 + the signal number; a Python handler installed by the caller still runs after the workers are
stopped, and an ignored signal stays ignored (`nohup`). If the parent dies without cleaning up (SIGKILL),
each worker follows it: on Linux the kernel sends it SIGTERM (`prctl(PR_SET_PDEATHSIG)`), and
everywhere a watchdog thread in the worker ends it when the parent's end of its pipe closes
(`core.workers`, shared with the analysis and arena pools).
"""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.connection
import os
import queue as queue_module
import signal
import threading
import time
import traceback
from typing import Any, Callable

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.core.errors import OptionError, PositionError
from burano_ai.core.workers import follow_parent, workers_stop_on_signals
from burano_ai.search.ismcts import Searcher, make_searcher, native_tree_blocker, worker_seed
from burano_ai.search.limits import Limit
from burano_ai.search.params import Params
from burano_ai.search.result import summary_choice
from burano_ai.search.tree import merge_plans

GameFactory = Callable[[int], Any]
Progress = Callable[[int, "int | None"], None]


def default_game_factory() -> GameFactory:
    """The default game's compiled Game class, from the registry (`burano_ai.games`)."""
    from burano_ai.games import DEFAULT_GAME, get_spec
    return get_spec(DEFAULT_GAME).game_class()


class SameGame:
    """A `GameFactory` that always gives one Game: how a State's own Game, with every parameter it was
    made with (Goofspiel's card count and prize order, Burano's workshop layout), rebuilds the views of
    that State in this process and in worker processes (it pickles when the Game does)."""

    def __init__(self, game) -> None:
        self.game = game

    def __call__(self, num_players: int):
        if num_players != self.game.num_players:
            raise ValueError(f"this factory makes {self.game!r}, not a {num_players}-player game")
        return self.game


def game_factory_for(state, game_factory: GameFactory | None = None) -> GameFactory:
    """The factory that can rebuild `state` from JSON: the given one, else the state's own Game."""
    if game_factory is not None:
        return game_factory
    game = getattr(state, "game", None)
    if game is not None and hasattr(game, "state_from_json"):
        return SameGame(game)
    return default_game_factory()


def canonical_root(state, seat: int, game_factory: GameFactory | None = None):
    """The search root for `seat`: its one-seat view of `state`, loaded back (see the module doc)."""
    factory = game_factory_for(state, game_factory)
    return factory(state.num_players).state_from_json(state.to_json(seat))


def usable_cores() -> int:
    """CPU cores this process may run on (its affinity mask where the platform has one), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # no sched_getaffinity (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def default_threads(root, params: Params, workers: int = 1) -> int:
    """Threads for a search that did not ask: the strongest coherent search, i.e. every usable core on
    one shared tree when the native tree runs this search and no worker processes are asked for, else 1."""
    if workers > 1 or params.tree == "python" or native_tree_blocker(root, params) is not None:
        return 1
    return usable_cores()


def auto_start_method() -> str:
    """"fork" when it is safe and available (one thread, POSIX), else "spawn"."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def merge_summaries(summaries: list[dict[str, Any]], selection: str = "lcb") -> dict[str, Any]:
    """Sum the summaries of independent searches (root statistics, plan trees, counts); ``tree_moves``
    lists the move each search would have chosen on its own (`result.summary_choice` by `selection`)."""
    root_stats: dict[int, tuple[float, ...]] = {}
    for s in summaries:
        for action, values in s["root_stats"].items():
            old = root_stats.get(action, (0.0,) * len(values))
            root_stats[action] = tuple(a + b for a, b in zip(old, values))
    seat_shares: dict[int, tuple[float, ...]] = {}
    for s in summaries:
        for action, values in s.get("seat_shares", {}).items():
            old = seat_shares.get(action, (0.0,) * len(values))
            seat_shares[action] = tuple(x + y for x, y in zip(old, values))
    return {
        "iterations": sum(s["iterations"] for s in summaries),
        "elapsed": max((s["elapsed"] for s in summaries), default=0.0),
        "plan": merge_plans([s["plan"] for s in summaries]),
        "root_stats": root_stats,
        "seat_shares": seat_shares,
        "nodes": sum(s["nodes"] for s in summaries),
        "tree_moves": [summary_choice(s, selection) for s in summaries],
    }


#: While a search can be stopped (`run_search(stop=...)`), how often the running search looks at the stop
#: event, in seconds: between two looks the threads finish at most the iterations in flight.
STOP_CHECK_SECONDS = 0.005
#: Plan-tree nodes of a summary handed to `on_summary` while the search runs, and of the summary of a
#: search that `stop` ended (a finished search exports the default 20,000): enough for the candidates'
#: plans, and a few ms instead of tens to export, so that a stopped search answers at once.
PARTIAL_PLAN_NODES = 2000


class _Stopped(Exception):
    """Raised by the progress hook to end `searcher.run` early (the tree stays consistent)."""


def _run_at_least_once(searcher, iterations: int | None, deadline: float | None,
                       progress: Progress | None, threads: int = 1, stop: threading.Event | None = None,
                       on_summary: Callable[[dict[str, Any]], None] | None = None,
                       report_every: float | None = None) -> bool:
    """`searcher.run(iterations, deadline, progress)`, but with one iteration first whatever the deadline.

    Iteration seeds follow the searcher's iteration count, so one iteration then the rest is the same
    search as all at once: an iteration budget stays reproducible (with one thread). `threads` > 1
    (a native searcher only) runs the rest on that many threads.

    With `stop` (a `threading.Event`) the search looks at it every `STOP_CHECK_SECONDS` and ends once it
    is set. With `on_summary` the search pauses every `report_every` seconds (its threads finish their
    iterations in flight), hands `searcher.summary()` to it and goes on: running in chunks is the same
    search, since an iteration's seed is its index. Returns True when `stop` ended the search.
    """
    run = searcher.run if threads == 1 else functools.partial(searcher.run, threads=threads)
    if stop is None and on_summary is None:
        if deadline is None:
            run(iterations, None, progress)
            return False
        searcher.run(1, None)
        rest = None if iterations is None else iterations - 1
        if rest is None or rest > 0:
            run(rest, deadline, progress)
        elif progress is not None:
            progress(searcher.iterations, iterations)
        return False
    target = None if iterations is None else searcher.iterations + iterations

    def check(done: int, _total: int | None) -> None:
        if progress is not None:
            progress(done, iterations)
        if stop is not None and stop.is_set():
            raise _Stopped

    searcher.run(1, None)       # an answer always rests on some search, even when stopped at once
    next_report = None if on_summary is None else time.time() + report_every
    stopped = False
    while True:
        remaining = None if target is None else target - searcher.iterations
        if remaining is not None and remaining <= 0:
            break
        if deadline is not None and time.time() >= deadline:
            break
        if stop is not None and stop.is_set():
            stopped = True
            break
        ends = [t for t in (deadline, next_report) if t is not None]
        try:
            run(remaining, min(ends) if ends else None, check, progress_every=STOP_CHECK_SECONDS)
        except _Stopped:
            stopped = True
            break
        if next_report is not None and time.time() >= next_report:
            finished = ((target is not None and searcher.iterations >= target)
                        or (deadline is not None and time.time() >= deadline))
            if not finished:
                on_summary(searcher.summary(PARTIAL_PLAN_NODES))
            next_report = time.time() + report_every
    if progress is not None:
        progress(searcher.iterations, iterations)
    return stopped


def run_search(root, seat: int, limit: Limit, params: Params, seed: int = 0, workers: int = 1,
               progress: Progress | None = None, game_factory: GameFactory | None = None,
               threads: int = 1, root_actions=None, stop: threading.Event | None = None,
               on_summary: Callable[[dict[str, Any]], None] | None = None,
               report_every: float | None = None, trees: int = 1) -> dict[str, Any]:
    """Search from `root` (already canonical: see `canonical_root`) and return the merged summary.

    Every search (each worker's) runs at least one iteration, even when `limit.seconds` is spent first.
    The summary also says how many `threads` shared the tree (1 when the Python tree ran: see the
    module docstring), `stopped`: True when `stop` ended it, and holds `notes` for the user.

    `root_actions` restricts the root moves (action ids; see `ismcts.Searcher`). `stop` (a
    `threading.Event`) ends the search within `STOP_CHECK_SECONDS` plus the iterations in flight;
    `on_summary(summary)` receives the summary so far every `report_every` seconds (see
    `_run_at_least_once`). Worker processes (`workers` > 1) take neither: an OptionError. `trees` > 1 runs
    that many independent trees in threads of this process (see the module docstring); it takes both.

    Raises:
        PositionError: `seat` is not to move at `root`, or has no legal move there.
        OptionError: `params.tree` is "native" and the native tree cannot run this search, or both
            `threads` and `workers` are above 1, or `trees` above 1 with either.
        RuntimeError: a worker failed (the message says how); the other workers are stopped.
    """
    if threads > 1 and workers > 1:
        raise OptionError(f"threads={threads} shares one tree and workers={workers} runs separate trees: "
                          "choose one of them")
    if trees > 1 and (threads > 1 or workers > 1):
        raise OptionError(f"trees={trees} runs independent trees on a thread each: not with threads={threads} "
                          f"or workers={workers}")
    if workers > 1 and (stop is not None or on_summary is not None):
        raise OptionError(f"workers={workers}: searches in worker processes cannot be stopped early or report "
                          "while they run; use threads")
    if on_summary is not None and not (isinstance(report_every, (int, float)) and report_every > 0):
        raise OptionError(f"report_every must be a positive number of seconds, not {report_every!r}")
    if root.is_terminal() or root.current_player() != seat:
        raise PositionError(f"seat {SEAT_LETTERS[seat]} is not to move at the search root")
    if not root.legal_actions():
        raise PositionError(f"seat {SEAT_LETTERS[seat]} is to move but has no legal move: "
                            "the position cannot arise in a game")
    deadline = None if limit.seconds is None else time.time() + limit.seconds
    if trees > 1:
        return _run_trees(root, seat, params, seed, trees, limit.split(trees), deadline, progress, root_actions,
                          stop, on_summary, report_every)
    shares = limit.split(workers)
    if workers == 1:
        searcher = make_searcher(root, seat, params, worker_seed(seed, 0), root_actions=root_actions)
        notes = []
        if threads > 1 and isinstance(searcher, Searcher):
            why = "tree='python'" if params.tree == "python" else native_tree_blocker(root, params)
            notes.append(f"ran 1 thread, not {threads}: only the native tree is shared by threads ({why})")
            threads = 1
        stopped = _run_at_least_once(searcher, shares[0], deadline, progress, threads, stop=stop,
                                     on_summary=None if on_summary is None else (
                                         lambda summary: on_summary({**summary, "threads": threads, "notes": notes})),
                                     report_every=report_every)
        if threads > 1 and searcher.threads_used == 1:     # a native searcher that stayed on one thread
            from burano_ai.search import _native

            floor, took, share = _native.MIN_SHARED_ITERATION_US, searcher.iteration_cpu_us, searcher.probe_cpu_share
            if 0 < took < floor:      # not when the probe merely used up a small budget
                notes.append(f"ran 1 thread, not {threads}: an iteration took {took:.0f} µs, too short to share "
                             f"the tree (threads help from {floor:g} µs)")
            elif 0 < share < _native.MIN_PROBE_CPU_SHARE:
                notes.append(f"ran 1 thread, not {threads}: other work held the cores (the search got {share:.0%} "
                             f"of one while it timed its first iterations)")
        if stopped:
            return {**searcher.summary(PARTIAL_PLAN_NODES), "threads": threads, "notes": notes, "stopped": True}
        return {**searcher.summary(), "threads": threads, "notes": notes}
    if params.tree == "native":     # fail here, not in every worker
        blocker = native_tree_blocker(root, params)
        if blocker is not None:
            raise OptionError(f"tree='native' cannot run this search: {blocker}")
    factory = game_factory_for(root, game_factory)
    text = root.to_json()
    ctx = multiprocessing.get_context(params.start_method or auto_start_method())
    counters = ctx.Array("q", workers, lock=False)
    results = ctx.Queue()
    procs: list = []
    active = [w for w in range(workers) if shares[w] is None or shares[w] > 0]
    summaries: dict[int, dict[str, Any]] = {}
    total = limit.iterations
    try:
        signums = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
        with workers_stop_on_signals(functools.partial(_terminate_alive, procs), signums):
            for w in active:
                args = (w, text, root.num_players, factory, seat, params, shares[w], deadline,
                        worker_seed(seed, w), counters, results, root_actions)
                proc = ctx.Process(target=_worker_main, args=args, name=f"burano-search-{w}", daemon=True)
                proc.start()
                procs.append(proc)
            while len(summaries) < len(active):
                try:
                    w, ok, payload = results.get(timeout=0.1)
                except queue_module.Empty:
                    dead = [p for p in procs if p.exitcode not in (None, 0)]
                    if dead:
                        raise RuntimeError(f"search worker {dead[0].name} died with exit code {dead[0].exitcode}")
                else:
                    if not ok:
                        error = RuntimeError(f"search worker {w} failed: {payload.strip().splitlines()[-1]}")
                        error.add_note(f"traceback in worker {w}:\n{payload}")
                        raise error
                    summaries[w] = payload
                if progress is not None:
                    progress(sum(counters[w] for w in active), total)
    finally:
        _stop(procs, all_done=len(summaries) == len(active))
        results.close()
    merged = merge_summaries([summaries[w] for w in sorted(summaries)], params.final_selection)
    return {**merged, "threads": 1, "notes": []}


def _run_trees(root, seat: int, params: Params, seed: int, trees: int, shares: list, deadline: float | None,
               progress: Progress | None, root_actions, stop: threading.Event | None,
               on_summary: Callable[[dict[str, Any]], None] | None, report_every: float | None) -> dict[str, Any]:
    """`trees` independent searches on threads of this process (`run_search`, trees > 1).

    Each tree runs `_run_at_least_once` on its own thread with its own seed and share of the budget; the
    calling thread watches `stop`, reports progress, and every `report_every` seconds hands `on_summary` the
    merge of the trees' latest summaries (each taken by its tree between two chunks of its iterations).
    With an iteration budget the result does not depend on the threads' timing: each tree is the same
    search as on its own.
    """
    searchers = [make_searcher(root, seat, params, worker_seed(seed, k), root_actions=root_actions)
                 for k in range(trees)]
    latest: list[dict[str, Any] | None] = [None] * trees
    failures: list[BaseException] = []
    halt = threading.Event()        # the caller's stop, or a tree that failed

    def work(k: int) -> None:
        def keep(summary: dict[str, Any]) -> None:
            latest[k] = summary
        try:
            _run_at_least_once(searchers[k], shares[k], deadline, None, 1, stop=halt,
                               on_summary=None if on_summary is None else keep, report_every=report_every)
        except BaseException as exc:        # re-raised in the calling thread
            failures.append(exc)
            halt.set()

    runners = [threading.Thread(target=work, args=(k,), name=f"burano-tree-{k}", daemon=True)
               for k in range(trees) if shares[k] is None or shares[k] > 0]
    for t in runners:
        t.start()
    next_report = None if on_summary is None else time.time() + report_every
    try:
        while any(t.is_alive() for t in runners):
            time.sleep(STOP_CHECK_SECONDS)
            if stop is not None and stop.is_set():
                halt.set()
            if progress is not None:
                progress(sum(s.iterations for s in searchers), None if shares[0] is None else sum(shares))
            if next_report is not None and time.time() >= next_report:
                ready = [s for s in latest if s is not None]
                if ready and not halt.is_set():
                    on_summary({**merge_summaries(ready, params.final_selection), "threads": 1, "notes": []})
                next_report = time.time() + report_every
    finally:       # normally every tree is done here; after an error in on_summary or progress they stop
        halt.set()
        for t in runners:
            t.join()
    if failures:
        raise failures[0]
    stopped = stop is not None and stop.is_set()
    used = [s for s, share in zip(searchers, shares) if share is None or share > 0]
    summaries = [s.summary(PARTIAL_PLAN_NODES) if stopped else s.summary() for s in used]
    out = {**merge_summaries(summaries, params.final_selection), "threads": 1, "notes": []}
    return {**out, "stopped": True} if stopped else out


def _stop(procs: list, all_done: bool) -> None:
    """Wait for the workers; terminate (then kill) any still running when the search did not finish."""
    for p in procs:
        if p.is_alive() and not all_done:
            p.terminate()
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():
            p.kill()
            p.join(timeout=5)


# ------------------------------------------------------------------------------------------------
# Worker processes


def _terminate_alive(procs: list) -> None:
    for p in procs:
        if p.is_alive():
            p.terminate()


def _worker_main(index: int, text: str, num_players: int, factory: GameFactory, seat: int, params: Params,
                 iterations: int | None, deadline: float | None, seed: int, counters, results,
                 root_actions=None) -> None:
    """Body of one worker process: follow the parent, rebuild the root, search, send the summary back."""
    try:
        follow_parent(ignore_sigint=False)
        root = factory(num_players).state_from_json(text)
        searcher = make_searcher(root, seat, params, seed, root_actions=root_actions)

        def report(done: int, _total: int | None) -> None:
            counters[index] = done

        _run_at_least_once(searcher, iterations, deadline, report)
        results.put((index, True, searcher.summary()))
    except BaseException:   # report every failure to the parent instead of dying silently
        results.put((index, False, traceback.format_exc()))
