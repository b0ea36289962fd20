"""Azul: Stained Glass of Sintra's doubling ladder from arena results: one row per step, a PNG of the curve.

    PYTHONPATH=$PWD python bench/azul_sintra_ladder.py build/h3/ladder/*.json --plot docs/ladder-azul-sintra.png

For docs/strength.md's Azul section. Each step (2n vs n iterations per decision, 2 players) was played as
20-game arenas (10 duplicate deals x 2 seatings) with seeds 301, 302, ..., the rounds interleaved over the
steps so that a run cut short by the clock leaves every step with games:

    burano arena --game azul-sintra --bots 'ismcts:iterations=2N,threads=1;ismcts:iterations=N,threads=1' \\
        -n 2 -g 20 -s SEED --workers 2 --out lN-2N-sSEED.json

This script groups the files by lineup and prints, per step, the doubled bot's games, win share (a shared
win counts 1/2 to each seat), its 95 % Wilson interval over games (approximate: the two games of a deal
are paired) and whether the step scores >= 55 % (the issue's target), then draws the curve with
`scripts/ladder.py`'s plot.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))

from azul_sintra_arena_sum import wilson   # noqa: E402
from ladder import TARGET, plot   # noqa: E402

_ITERATIONS = re.compile(r"iterations=(\d+)")


def steps_of(paths: list[str]) -> list[dict]:
    """One dict per lineup (low, high iterations): games, share, score, ci95, seeds, iterations, seconds."""
    steps: dict[tuple[int, int], dict] = {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        entries = data["entries"]
        budgets = [int(_ITERATIONS.search(e["spec"]).group(1)) for e in entries]
        low, high = sorted(budgets)
        top = entries[budgets.index(high)]
        step = steps.setdefault((low, high), dict(low=low, high=high, games=0, share=0.0, seeds=[], seconds=0.0))
        step["games"] += top["seats_played"]
        step["share"] += top["win_share"]
        step["seeds"].append(data["config"]["seed"])
        step["seconds"] += sum(g["seconds"] for g in data["games"])
    out = []
    for key in sorted(steps):
        step = steps[key]
        step["score"] = step["share"] / step["games"]
        step["ci95"] = list(wilson(step["share"], step["games"]))
        step["target_met"] = step["score"] >= TARGET
        out.append(step)
    return out


def markdown(steps: list[dict]) -> str:
    lines = [f"| step | iterations | vs | games | doubled bot's score | 95% CI | >= {TARGET:.0%} | seeds |",
             "|---:|---:|---:|---:|---:|---|---|---|"]
    for i, s in enumerate(steps, 1):
        lo, hi = s["ci95"]
        verdict = "yes (CI)" if lo >= TARGET else "yes" if s["target_met"] else "no"
        seeds = ", ".join(map(str, sorted(s["seeds"])))
        lines.append(f"| {i} | {s['high']} | {s['low']} | {s['games']} | {s['score']:.3f} | {lo:.3f}-{hi:.3f} | "
                     f"{verdict} | {seeds} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="arena results JSON files (burano arena --out)")
    parser.add_argument("--plot", type=Path, default=None, help="write the curve here (PNG)")
    args = parser.parse_args(argv)
    steps = steps_of(args.results)
    print(markdown(steps))
    games = sorted({s["games"] for s in steps})
    per_step = f"{games[0]}" if len(games) == 1 else f"{games[0]}-{games[-1]}"
    print(f"\n{sum(s['target_met'] for s in steps)} of {len(steps)} steps score >= {TARGET:.0%} "
          f"({per_step} games a step)")
    if args.plot is not None:
        plot(steps, "ismcts:threads=1", args.plot,
             title=f"Azul: Stained Glass of Sintra, skill ladder, 2 players, {per_step} games per step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
