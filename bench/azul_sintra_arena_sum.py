"""Sum `burano arena --out` results of one lineup played in several runs (seeds) into one win rate.

    PYTHONPATH=$PWD python bench/azul_sintra_arena_sum.py build/azul-arena/r*.json

Any game's runs sum the same way (Walking in Burano and Venice 2099 in docs/strength.md use it too).

For docs/strength.md's Azul: Stained Glass of Sintra section: the ISMCTS-at-1-s vs greedy runs were
played as 10-game arenas (5 duplicate deals x 2 seatings) with seeds 101, 102, ... so that a run cut
short by the clock still counts. Prints, per bot: games, wins (win share), the 95 % Wilson interval,
mean points, s/decision and iterations/s over all runs.
"""

from __future__ import annotations

import json
import math
import sys


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = share / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_points(entry: dict) -> float:
    """The entry's mean score, whatever the game calls its points (`mean_points`, `mean_VP`, ...)."""
    return next(v for k, v in entry.items() if k.startswith("mean_") and k not in ("mean_rank", "mean_margin"))


def main(paths: list[str]) -> None:
    totals: dict[str, dict[str, float]] = {}
    seeds = []
    for path in paths:
        data = json.load(open(path))
        seeds.append(data["config"]["seed"])
        for e in data["entries"]:
            t = totals.setdefault(e["spec"], dict(seats=0, share=0.0, points=0.0, decisions=0, think=0.0, iters=0))
            t["seats"] += e["seats_played"]
            t["share"] += e["win_share"]
            t["points"] += mean_points(e) * e["seats_played"]
            t["decisions"] += e["decisions"]
            t["think"] += e["think_seconds"]
            t["iters"] += e["iterations"]
    print(f"runs (seeds): {', '.join(map(str, sorted(seeds)))}")
    for spec, t in totals.items():
        lo, hi = wilson(t["share"], int(t["seats"]))
        rate = t["iters"] / t["think"] if t["think"] else 0.0
        print(f"{spec}: {int(t['seats'])} games, win share {t['share']:g} = {t['share'] / t['seats']:.3f} "
              f"(95% {lo:.3f}-{hi:.3f}), mean points {t['points'] / t['seats']:.1f}, "
              f"{t['think'] / max(1, t['decisions']):.3f} s/decision, {rate:,.0f} iterations/s")


if __name__ == "__main__":
    main(sys.argv[1:])
