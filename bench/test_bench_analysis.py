"""`burano analyse`: time per decision at the default budget (10,000 iterations, one thread).

    python -m pytest bench/test_bench_analysis.py --benchmark-only    # one decision, in process
    python bench/test_bench_analysis.py                              # whole games, per-decision statistics

The games are arena games (`run_arena(..., records=DIR)`) of `ismcts:iterations=300` against `greedy`, so the
positions are those of real play rather than of random moves.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import pytest

from burano_ai.analysis import analyse, decision_points
from burano_ai.arena import ArenaConfig, run_arena
from burano_ai.record import GameRecord
from burano_ai.search import Limit
from burano_ai.search.limits import DEFAULT_SUGGEST_ITERATIONS

BOTS = ("ismcts:iterations=300", "greedy")


def arena_record(players: int, seed: int = 1) -> GameRecord:
    """The first game of a small arena (the ismcts bot in seat A)."""
    with tempfile.TemporaryDirectory() as tmp:
        result = run_arena(ArenaConfig(bots=BOTS, players=players, games=1, seed=seed, bootstrap=0), records=tmp)
        return GameRecord.load(Path(tmp) / result.games[0]["record"])


@pytest.fixture(scope="module")
def record2() -> GameRecord:
    return arena_record(2)


def test_analyse_one_midgame_decision(benchmark, record2):
    points, _ = decision_points(record2, 0)
    ply = points[len(points) // 2][0]
    # A record of that one decision: it starts at the position before it.
    record = GameRecord.new(2, start=record2.replay(ply).to_dict())
    record.steps = [record2.steps[ply]]
    result = benchmark.pedantic(analyse, args=(record, "A"), kwargs={"seed": 1}, rounds=5, iterations=1)
    assert len(result.decisions) == 1 and result.decisions[0].visits == DEFAULT_SUGGEST_ITERATIONS


def report(players: int, seed: int = 1) -> None:
    record = arena_record(players, seed)
    t = time.perf_counter()
    result = analyse(record, "A", Limit(iterations=DEFAULT_SUGGEST_ITERATIONS), seed=1)
    wall = time.perf_counter() - t
    times = sorted(d.time for d in result.decisions)
    second = [d.time for d in result.decisions if d.method in ("restricted", "after")]
    methods = {m: sum(1 for d in result.decisions if d.method == m) for m in sorted({d.method for d in result.decisions})}
    print(f"{players} players, seat A ({record.seats[0].player}), {len(record.steps)} steps: "
          f"{len(times)} decisions, {len(result.forced)} forced, {wall:.1f} s in all")
    print(f"  per decision: mean {statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, "
          f"90th percentile {times[int(0.9 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s")
    print(f"  methods {methods}; with a second search: mean {statistics.mean(second) if second else 0:.3f} s")


if __name__ == "__main__":
    for n in [int(a) for a in sys.argv[1:]] or [2, 4]:
        report(n)
