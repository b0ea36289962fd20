"""Benchmarks of `burano engine` (issue 13) under pytest-benchmark; bench/protocol_report.py prints the
same measurements as a table (docs/benchmarks.md).

    python -m pytest bench/test_bench_protocol.py

- `test_query_overhead`: parse + check + load a one-seat view + set up the search root, no search
  (target: 2 ms or less).
- `test_session_of_short_searches`: 100 queries of maxTime 0.1 s through one engine process over its
  pipes; `extra_info` holds the wall time against 100 x 0.1 s (target: within 5 %).
- `test_terminate_latency`: from writing `terminate` to reading the final report, over 100 running
  searches; `extra_info` holds median, p99 and max (target: p99 50 ms or less).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import protocol_report as report  # noqa: E402


@pytest.mark.parametrize("where", ["view-3p", "view-4p"])
def test_query_overhead(benchmark, where):
    path = report.VIEW if where == "view-3p" else report.EXAMPLE
    raw = report.query_line("q", path, maxIterations=100)
    report.overhead_once(raw)
    benchmark(report.overhead_once, raw)


def test_session_of_short_searches(benchmark):
    wall, ideal = benchmark.pedantic(report.session, args=(100, 0.1, 1), rounds=1, iterations=1)
    benchmark.extra_info.update(wall_seconds=round(wall, 3), ideal_seconds=ideal,
                                overhead_percent=round(100 * (wall / ideal - 1), 2))


def test_terminate_latency(benchmark):
    latencies = benchmark.pedantic(report.terminate_latencies, args=(100, 1), rounds=1, iterations=1)
    benchmark.extra_info.update(median_ms=round(statistics.median(latencies) * 1e3, 2),
                                p99_ms=round(report.percentile(latencies, 99) * 1e3, 2),
                                max_ms=round(max(latencies) * 1e3, 2))
