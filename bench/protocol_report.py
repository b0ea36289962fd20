"""Numbers of `burano engine` (issue 13), printed as a table for docs/benchmarks.md.

    python bench/protocol_report.py [--queries 100] [--terminations 100] [--threads 1]

1. Per-query overhead: parse the line, check the query, load the one-seat view and set up the search
   root (`protocol.parse_line` + `check_id` + `parse_query` + `ismcts.make_searcher`), no search;
   median and p99 over many repetitions in this process.
2. A session of N queries with ``maxTime`` 0.1 s each over the pipes of one engine process: the wall
   time from the first query sent to the last final report, against N x 0.1 s.
3. Terminate latency: a search runs (its first partial report has arrived); the time from writing the
   `terminate` line to reading the query's final report, over N searches: median, p99, max.

Times are wall-clock on whatever the machine is doing; bench/test_bench_protocol.py runs the same
measurements under pytest-benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VIEW = REPO / "tests" / "golden" / "positions" / "summer-3p-view.json"
EXAMPLE = Path(str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json")))


def query_line(qid, path: Path = VIEW, **fields) -> bytes:
    return (json.dumps({"id": qid, "position": json.loads(path.read_text()), **fields}) + "\n").encode()


def overhead_once(raw: bytes) -> None:
    """Everything `burano engine` does to a query before its first iteration."""
    from burano_ai.protocol import check_id, parse_line, parse_query
    from burano_ai.search.ismcts import make_searcher, worker_seed
    from burano_ai.search.params import Params
    data = parse_line(raw)
    check_id(data)
    job = parse_query(data, 1)
    make_searcher(job.state, job.seat, Params(), worker_seed(job.seed, 0))


def overhead(repeats: int = 300, path: Path = VIEW) -> list[float]:
    raw = query_line("q", path, maxIterations=100)
    overhead_once(raw)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        overhead_once(raw)
        times.append(time.perf_counter() - t)
    return times


class Pipe:
    """One `python -m cli engine` process; `final(id)` reads lines until that query's final line."""

    def __init__(self, threads: int = 1) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", "engine", "--threads", str(threads)], cwd=REPO,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.out = self.proc.stdout

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def line(self) -> dict:
        raw = self.out.readline()
        if not raw:
            raise RuntimeError("the engine ended")
        return json.loads(raw)

    def final(self, qid) -> dict:
        while True:
            line = self.line()
            if line.get("id") == qid and ("error" in line or line.get("isDuringSearch") is False):
                if "error" in line:
                    raise RuntimeError(line["error"])
                return line

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def session(queries: int = 100, seconds: float = 0.1, threads: int = 1) -> tuple[float, float]:
    """(wall time of `queries` searches of `seconds` each through one engine, queries x seconds)."""
    engine = Pipe(threads)
    try:
        engine.send(query_line("warm-up", maxIterations=10))
        engine.final("warm-up")
        lines = b"".join(query_line(i, maxTime=seconds) for i in range(queries))
        start = time.perf_counter()
        engine.send(lines)
        for i in range(queries):
            engine.final(i)
        return time.perf_counter() - start, queries * seconds
    finally:
        engine.close()


def terminate_latencies(count: int = 100, threads: int = 1, path: Path = EXAMPLE) -> list[float]:
    """Seconds from writing `terminate` to reading the final report, for `count` running searches."""
    engine = Pipe(threads)
    out = []
    try:
        for i in range(count):
            engine.send(query_line(i, path, maxTime=600, reportDuringSearchEvery=0.05))
            while True:                               # the search is under way once it reports
                line = engine.line()
                if line.get("id") == i and line.get("isDuringSearch"):
                    break
            start = time.perf_counter()
            engine.send((json.dumps({"id": f"t{i}", "action": "terminate", "terminateId": i}) + "\n").encode())
            final = engine.final(i)
            out.append(time.perf_counter() - start)
            assert final["terminated"]
        return out
    finally:
        engine.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--terminations", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    view = overhead()
    full = overhead(path=EXAMPLE)
    print("| measurement | median | p99 |\n|---|---|---|")
    print(f"| per-query overhead, one-seat view (3 players) | {statistics.median(view) * 1e3:.2f} ms "
          f"| {percentile(view, 99) * 1e3:.2f} ms |")
    print(f"| per-query overhead, one-seat view (4 players, the built-in example) | {statistics.median(full) * 1e3:.2f} ms "
          f"| {percentile(full, 99) * 1e3:.2f} ms |")
    wall, ideal = session(args.queries, 0.1, args.threads)
    print(f"| session of {args.queries} queries x 0.1 s, one engine | {wall:.2f} s vs {ideal:.2f} s "
          f"| {100 * (wall / ideal - 1):+.1f} % |")
    lat = terminate_latencies(args.terminations, args.threads)
    print(f"| terminate -> final report, {args.terminations} searches ({args.threads} thread(s)) "
          f"| {statistics.median(lat) * 1e3:.1f} ms | p99 {percentile(lat, 99) * 1e3:.1f} ms, "
          f"max {max(lat) * 1e3:.1f} ms |")


if __name__ == "__main__":
    main()
