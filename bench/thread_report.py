"""Threads sharing one native tree: speed-up of T threads over one, and whether their answers agree.

Run: python bench/thread_report.py [--rounds 5] [--seconds 1.0] [--threads 2] [--positions a,b] [--forced]
     python bench/thread_report.py --agreement [--iterations 20000] [--seeds 5]

Speed (the default): on the fixed positions of bench/positions.py, one search with one thread and one
with `--threads` T threads, each on a fresh `NativeSearcher` with the same seed and the same iteration
budget (calibrated so that one thread takes about `--seconds`), alternating which goes first round
after round, so that machine noise falls on both alike. Prints per position the median iterations/s of
each, the median T/1 ratio with its range over the rounds, and the CPU time per iteration of each
(process time: equal CPU per iteration with a ratio below T means the cores were not free — another
job held one — rather than that the threads got in each other's way), and on Linux how busy the
machine's CPUs were during the run besides this process. The T-thread search is `run(threads=T)` as
`suggest` runs it: threads only where iterations are long enough (`MIN_SHARED_ITERATION_US`); the column
"threads used" says how many it ran. `--forced` adds T threads that always share the tree
(`min_iteration_us=0`, the behaviour before issue 21).

Agreement (`--agreement`): the best move of `suggest` at the same iteration budget with one thread,
with T threads on one tree, and with T root-parallel worker processes, for several seeds on a few
positions; prints how often each mode's move is the one-thread searches' most frequent move, and how
often two seeds of a mode agree with each other. Root-parallel workers split the budget into
separate trees, each of which can lock onto a different first move, and the merge picks by summed
visits; one shared tree should not have that coin flip.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from burano_ai import Game  # noqa: E402
from burano_ai.engine import suggest  # noqa: E402
from burano_ai.search import Limit, Params  # noqa: E402
from burano_ai.search._native import MIN_SHARED_ITERATION_US, NativeSearcher  # noqa: E402
from burano_ai.search.parallel import canonical_root  # noqa: E402

from positions import POSITIONS, load  # noqa: E402

SEED = 1
#: Positions of the agreement experiment: the bench positions where a search has a real choice to make.
AGREEMENT_POSITIONS = ("2p-season-start", "2p-mid-season", "4p-season-start", "4p-mid-season")


def _root(name: str):
    state = load(Game, name)
    seat = state.current_player()
    return canonical_root(state, seat), seat


def _timed(root, seat, iterations: int, threads: int, min_iteration_us: float | None = None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, threads the search used) of one search;
    `min_iteration_us` as `NativeSearcher.run` takes it (None: its default; 0: always share the tree)."""
    searcher = NativeSearcher(root, seat, Params(tree="native"), SEED)
    wall, cpu = time.perf_counter(), time.process_time()
    searcher.run(iterations=iterations, threads=threads, min_iteration_us=min_iteration_us)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert searcher.iterations == iterations
    return wall, cpu, searcher.threads_used


def _cpu_ticks() -> tuple[int, int] | None:
    """(busy, all) clock ticks of every CPU of the machine since boot (Linux /proc/stat), or None."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]     # idle + iowait
    return sum(fields) - idle, sum(fields)


def speed(names: list[str], rounds: int, seconds: float, threads: int, forced: bool) -> None:
    ticks, cpu_start, wall_start = _cpu_ticks(), time.process_time(), time.perf_counter()
    modes = [("1", 1, None), (f"{threads}", threads, None)] + ([(f"{threads} forced", threads, 0.0)] if forced else [])
    print(f"{rounds} alternating rounds per position, seed {SEED}, the default Params (heuristic playout), "
          f"1 vs {threads} threads (the default: threads only where iterations are long enough, "
          f"MIN_SHARED_ITERATION_US = {MIN_SHARED_ITERATION_US:g})" + (
              f", and {threads} threads forced to share the tree (min_iteration_us=0)" if forced else ""))
    print()
    head = " | ".join(f"{label} threads, it/s | ratio {label} / 1 (median) | range" for label, *_ in modes[1:])
    print(f"| position | iterations | 1 thread, it/s | {head} | threads used | CPU µs/it, 1 |")
    print("|---|---:|---:|" + "---:|---:|---|" * (len(modes) - 1) + "---|---:|")
    all_ratios: dict[str, list[float]] = collections.defaultdict(list)
    for name in names:
        root, seat = _root(name)
        probe, _cpu, _used = _timed(root, seat, 2000, 1)
        iterations = max(2000, int(2000 * seconds / probe))
        runs: dict[str, list[tuple[float, float, int]]] = {label: [] for label, *_ in modes}
        for r in range(rounds):
            order = modes if r % 2 == 0 else modes[::-1]
            for label, t, floor in order:
                runs[label].append(_timed(root, seat, iterations, t, floor))
        cells = []
        for label, *_ in modes[1:]:
            ratios = [one[0] / many[0] for one, many in zip(runs["1"], runs[label])]
            all_ratios[label] += ratios
            rate = statistics.median(iterations / wall for wall, _cpu, _used in runs[label])
            cells.append(f"{rate:,.0f} | {statistics.median(ratios):.2f}× | {min(ratios):.2f}–{max(ratios):.2f}×")
        used = collections.Counter(u for _w, _c, u in runs[f"{threads}"])
        cpu1 = statistics.median(c for _wall, c, _u in runs["1"]) / iterations * 1e6
        rate1 = statistics.median(iterations / wall for wall, _cpu, _used in runs["1"])
        print(f"| {name} | {iterations:,} | {rate1:,.0f} | {' | '.join(cells)} | "
              f"{', '.join(f'{u} ({n}×)' for u, n in sorted(used.items()))} | {cpu1:.1f} |")
    print()
    for label, ratios in all_ratios.items():
        print(f"{label} threads / 1, all rounds: median {statistics.median(ratios):.2f}×, geometric mean "
              f"{statistics.geometric_mean(ratios):.2f}×, range {min(ratios):.2f}–{max(ratios):.2f}×")
    after = _cpu_ticks()
    if ticks is not None and after is not None:
        busy, total = after[0] - ticks[0], after[1] - ticks[1]
        cpus = os.cpu_count() or 1
        own = (time.process_time() - cpu_start) / (time.perf_counter() - wall_start) / cpus
        print(f"machine during the run: {busy / total:.0%} of its {cpus} CPUs busy, this process "
              f"{own:.0%}: other work held {max(0.0, busy / total - own):.0%}")


def agreement(names: list[str], iterations: int, seeds: int, threads: int) -> None:
    modes = {"1 thread": dict(threads=1), f"{threads} threads, one tree": dict(threads=threads),
             f"{threads} workers, a tree each": dict(workers=threads)}
    print(f"best move of suggest at {iterations:,} iterations, seeds 0..{seeds - 1}")
    print()
    print("| position | mode | best moves (count) | = one-thread majority | two seeds agree |")
    print("|---|---|---|---:|---:|")
    totals: dict[str, list[float]] = collections.defaultdict(list)
    for name in names:
        root, _seat = _root(name)
        moves = {mode: [suggest(root, limit=Limit(iterations=iterations), seed=s, **kw).move for s in range(seeds)]
                 for mode, kw in modes.items()}
        majority = collections.Counter(moves["1 thread"]).most_common(1)[0][0]
        for mode, got in moves.items():
            hits = sum(m == majority for m in got) / len(got)
            pairs = list(itertools.combinations(got, 2))
            agree = sum(a == b for a, b in pairs) / len(pairs)
            totals[mode] += [hits, agree]
            counted = ", ".join(f"{m} ({c})" for m, c in collections.Counter(got).most_common())
            print(f"| {name} | {mode} | {counted} | {hits:.0%} | {agree:.0%} |")
    print()
    for mode, values in totals.items():
        print(f"{mode}: = majority {statistics.mean(values[0::2]):.0%}, two seeds agree {statistics.mean(values[1::2]):.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a one-thread search")
    parser.add_argument("--positions", default=None, help="comma-separated names from bench/positions.py")
    parser.add_argument("--forced", action="store_true",
                        help="also time T threads that always share the tree (no fallback to one thread)")
    parser.add_argument("--agreement", action="store_true", help="compare the answers instead of the speed")
    parser.add_argument("--iterations", type=int, default=20000, help="budget of each --agreement search")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per mode and position for --agreement")
    args = parser.parse_args()
    if args.agreement:
        names = args.positions.split(",") if args.positions else list(AGREEMENT_POSITIONS)
        agreement(names, args.iterations, args.seeds, args.threads)
    else:
        names = args.positions.split(",") if args.positions else list(POSITIONS)
        speed(names, args.rounds, args.seconds, args.threads, args.forced)


if __name__ == "__main__":
    main()
