"""Benchmarks of the compiled RNG (pytest-benchmark).

Not part of the default test run (testpaths = ["tests"]); run with
``python -m pytest bench/``.
"""

from burano_ai._rng import Random


def test_bench_below(benchmark):
    r = Random(1)
    benchmark(r.below, 37)


def test_bench_next_u64(benchmark):
    r = Random(1)
    benchmark(r.next_u64)
