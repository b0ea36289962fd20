"""Search measurements that are not pytest-benchmark timings: worker speed-up and memory.

Run: python bench/search_report.py [--iterations 20000] [--memory-iterations 100000] [--tree auto|python|native]

Prints a markdown table (for docs/benchmarks.md) measured in one run on the fixed 4-player
mid-season position of bench/positions.py:
- iterations/s of one search process and of two root-parallel workers at the same total budget
  (wall clock, including starting the workers), and their ratio;
- resident memory added by a search of `--memory-iterations` iterations (ru_maxrss of a fresh
  child process before and after the search, so other work does not blur it).
`--tree` picks the implementation (`Params.tree`; "auto" = the native tree on the core).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from burano_ai import Game  # noqa: E402
from burano_ai.search import Limit, Params  # noqa: E402
from burano_ai.search.ismcts import make_searcher  # noqa: E402
from burano_ai.search.parallel import canonical_root, run_search  # noqa: E402

from positions import load  # noqa: E402

POSITION = "4p-mid-season"


def _timed_search(workers: int, iterations: int, params: Params, seed: int = 1) -> tuple[float, int]:
    state = load(Game, POSITION)
    seat = state.current_player()
    root = canonical_root(state, seat)
    start = time.perf_counter()
    summary = run_search(root, seat, Limit(iterations=iterations), params, seed=seed, workers=workers)
    return time.perf_counter() - start, summary["iterations"]


def _memory_child(iterations: int, params: Params, out) -> None:
    state = load(Game, POSITION)
    seat = state.current_player()
    root = canonical_root(state, seat)
    searcher = make_searcher(root, seat, params, 1)
    searcher.run(10)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    searcher.run(iterations)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out.send(((after - before) * 1024, searcher.summary().get("nodes", 0), getattr(searcher, "memory_bytes", None)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--memory-iterations", type=int, default=100000)
    parser.add_argument("--tree", default="auto", choices=("auto", "python", "native"))
    args = parser.parse_args()
    params = Params(tree=args.tree)
    one_time, one_iters = _timed_search(1, args.iterations, params)
    two_time, two_iters = _timed_search(2, args.iterations, params)
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_memory_child, args=(args.memory_iterations, params, send))
    proc.start()
    grown, nodes, allocated = recv.recv()
    proc.join()
    print(f"position {POSITION}, {args.iterations} iterations per search, Params(tree={args.tree!r})")
    print()
    print("| measurement | value |")
    print("|---|---|")
    print(f"| 1 worker: iterations/s | {one_iters / one_time:,.0f} ({one_time:.2f} s) |")
    print(f"| 2 workers: iterations/s | {two_iters / two_time:,.0f} ({two_time:.2f} s) |")
    print(f"| speed-up of 2 workers over 1 | {one_time / two_time:.2f}x |")
    print(f"| memory added by {args.memory_iterations:,} iterations | {grown / 2**20:,.0f} MiB "
          f"({nodes:,} nodes, {grown / max(nodes, 1):,.0f} B/node) |")
    if allocated is not None:
        print(f"| native tree arrays allocated | {allocated / 2**20:,.1f} MiB ({allocated / max(nodes, 1):,.0f} B/node) |")


if __name__ == "__main__":
    main()
