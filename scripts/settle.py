"""Do answers settle with time? Root visit shares at two budgets, side by side for several settings.

    python scripts/settle.py                          # bench positions, 10k and 100k iterations
    python scripts/settle.py --budgets 10000,100000 --settings "v0.1=0.7/-/0/visits" "default=0.7/1.4/20000/lcb"

For each fixed benchmark position (`bench/positions.py`) and each setting
(``name=exploration/root_exploration/root_ramp/final_selection``, ``-`` for "same as exploration"), one search per
budget with the same seed (so the small budget's iterations are the first ones of the large one) and
one thread (so the table is reproducible). It prints the suggested move, the five most visited root moves with their visit shares
and values, and the two numbers the issue asks about:

* ``alt+``: iterations between the two budgets that went to moves other than the most visited one —
  the alternatives are still being compared when this is well above zero;
* ``grew``: how many of the next four moves gained visits between the two budgets.

Everything is counted in iterations, so the table is the same on every machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import positions  # noqa: E402  (bench/positions.py)

from burano_ai import Game  # noqa: E402
from burano_ai.engine import suggest  # noqa: E402
from burano_ai.search import Limit, Params  # noqa: E402


def parse_setting(text: str) -> tuple[str, Params]:
    name, _, spec = text.partition("=")
    c, root_c, ramp, selection = spec.split("/")
    return name, Params(exploration=float(c), root_exploration=None if root_c == "-" else float(root_c),
                        root_ramp=int(ramp), final_selection=selection)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default="10000,100000", help="two iteration budgets, comma-separated")
    parser.add_argument("--settings", nargs="+", default=["v0.1=0.7/-/0/visits", "default=0.7/1.4/20000/lcb"])
    parser.add_argument("--positions", nargs="+", default=list(positions.POSITIONS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    small, large = (int(b) for b in args.budgets.split(","))
    settings = [parse_setting(s) for s in args.settings]
    print(f"| position | setting | move at {small:,} | move at {large:,} | top-5 shares at {small:,} | "
          f"top-5 shares at {large:,} | alt+ | grew |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.positions:
        state = positions.load(Game, name)
        for label, params in settings:
            results = [suggest(state, limit=Limit(iterations=b), params=params, seed=args.seed, threads=1)
                       for b in (small, large)]
            before = {c.action: c.visits for c in results[0].candidates}
            after = {c.action: c.visits for c in results[1].candidates}
            top = max(after, key=after.get)
            alternatives = sorted((a for a in after if a != top), key=lambda a: -after[a])[:4]
            extra = sum(after.values()) - after[top] - (sum(before.values()) - before.get(top, 0))
            grew = sum(after[a] > before.get(a, 0) for a in alternatives)

            def shares(result) -> str:
                n = result.iterations
                return " ".join(f"{c.visits / n:.2f}" for c in sorted(result.candidates, key=lambda c: -c.visits)[:5])

            print(f"| {name} | {label} | {results[0].move} | {results[1].move} | {shares(results[0])} | "
                  f"{shares(results[1])} | {extra:,} | {grew}/{len(alternatives)} |", flush=True)


if __name__ == "__main__":
    main()
