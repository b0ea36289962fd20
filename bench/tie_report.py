"""Do `suggest`'s answers agree over seeds, once ties are said? (issue 21: honest ties)

Run: python bench/tie_report.py [--iterations 10000] [--seeds 5] [--threads 1] [--positions readme,2p-mid-season]

On the README's example (`burano suggest` with no file: the game's built-in example position) and the
fixed positions of bench/positions.py, `suggest` at the same budget with seeds 1..N; per position it
prints the answers, how many were tied (`SearchResult.tied`) and the tie lists' sizes, and over every
pair of seeds: how many gave the same move, how many gave different moves with one naming the other's
move as tied (an honest disagreement), and how many gave different moves with neither tied to the other
(a contradiction: two confident answers that disagree — what the tie rule must not let through).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from burano_ai import Game  # noqa: E402
from burano_ai.engine import load_position, suggest  # noqa: E402
from burano_ai.games import get_spec  # noqa: E402
from burano_ai.search import Limit  # noqa: E402
from burano_ai.search.result import TIE_MARGIN, TIE_Z  # noqa: E402

from positions import POSITIONS, load  # noqa: E402

README = "readme"


def _state(name: str):
    if name == README:
        return load_position(get_spec("burano").example_position())[0]
    return load(Game, name)


def report(names: list[str], iterations: int, seeds: int, threads: int) -> None:
    print(f"suggest at {iterations:,} iterations, {threads} thread(s), seeds 1..{seeds}; tied = within "
          f"{TIE_MARGIN:g} or {TIE_Z:g} standard errors of the suggestion")
    print()
    print("| position | answers (count) | tied answers | tie list sizes | pairs: same move | pairs: differ, "
          "tied | pairs: contradict | seconds |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    totals = collections.Counter()
    for name in names:
        state = _state(name)
        start = time.perf_counter()
        rows = []
        for seed in range(1, seeds + 1):
            result = suggest(state, limit=Limit(iterations=iterations), seed=seed, threads=threads)
            rows.append((result.move, {c.move for c in result.tied}))
        pairs = list(itertools.combinations(rows, 2))
        same = sum(a == b for (a, _), (b, _) in pairs)
        honest = sum(a != b and (b in ta or a in tb) for (a, ta), (b, tb) in pairs)
        contradict = len(pairs) - same - honest
        totals.update(pairs=len(pairs), same=same, honest=honest, contradict=contradict)
        answers = ", ".join(f"{m} {c}" for m, c in collections.Counter(m for m, _ in rows).most_common())
        print(f"| {name} | {answers} | {sum(bool(t) for _, t in rows)}/{seeds} | "
              f"{', '.join(str(len(t)) for _, t in sorted(rows, key=lambda r: len(r[1])))} | {same}/{len(pairs)} | "
              f"{honest} | {contradict} | {time.perf_counter() - start:.0f} |", flush=True)
    print()
    print(f"all positions: {totals['same']}/{totals['pairs']} pairs of seeds agree, {totals['honest']} differ "
          f"with a tie said, {totals['contradict']} contradict")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="1: reproducible (the default here)")
    parser.add_argument("--positions", default=None, help=f"comma-separated: {README} and names from bench/positions.py")
    args = parser.parse_args()
    names = args.positions.split(",") if args.positions else [README, *POSITIONS]
    report(names, args.iterations, args.seeds, args.threads)


if __name__ == "__main__":
    main()
