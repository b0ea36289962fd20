"""How far apart do independent searches value the same moves, and how wide must a game's tie margin be
for its splits to be reported as ties? (issue 33: "a split that remains must be reported as a tie")

Run: python bench/tie_calibration.py --game venice-2099 [--positions 40] [--iterations 10000] [--trees 2]
         [--check 2] [--seeds 5] [--first-game 1] [--margins 0.05,0.06,...]

Positions: those of bench/seed_agreement.py (decisions with three or more legal moves along seeded random
games from game `--first-game` on, at the game's default player count). At each, the game's default search
at the same iteration budget with seeds 1..N, searched as `burano suggest` does by default: `--trees`
independent trees (a move another tree chose is tied) and then `--check` runner-ups searched on their own
(`engine.check_runner_ups`). Two measurements:

- **Spread.** For every move with at least LCB_MIN_SHARE of the top visits in every seed's answer: the
  standard deviation of its value over the seeds (the between-seed spread) against the mean of the
  standard errors each answer gives it (`Candidate.stderr`). Their ratio, pooled as
  sqrt(mean sd² / mean se²), says whether the standard errors understate the spread on average.
- **The tie margin.** For each of `--margins` (`Params.tie_margin`; `search.result.tied_candidates`): of
  the positions where the seeds split, how many are reported as a tie (every seed's answer names each
  other seed's move tied, as bench/seed_agreement.py counts), and over every answer how many have a tie and
  how many moves a tie names (the cost: moves a person is told are as good as each other). The last line
  names the smallest margin that reports every split.

Each margin re-reads the same answers: nothing is searched twice. docs/strength.md ("A tie margin per
game") has the runs that set each game's `tie_margin`.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from burano_ai.games import get_spec  # noqa: E402
from burano_ai.search import Params  # noqa: E402
from burano_ai.search.result import LCB_MIN_SHARE  # noqa: E402

from seed_agreement import agreement, checked, position_options, positions, searches  # noqa: E402

MARGINS = "0.05,0.06,0.07,0.08,0.09,0.1,0.12,0.15"


def spread(results: list) -> list[tuple[float, float]]:
    """(between-seed standard deviation of the value, mean standard error) of every move with at least
    LCB_MIN_SHARE of the top visits in every seed's answer."""
    floors = [LCB_MIN_SHARE * max(c.visits for c in r.candidates) for r in results]
    out = []
    for action in {c.action for c in results[0].candidates}:
        found = [next((c for c in r.candidates if c.action == action), None) for r in results]
        if any(c is None or c.visits < floor for c, floor in zip(found, floors)):
            continue
        out.append((statistics.stdev(c.value for c in found), statistics.fmean(c.stderr for c in found)))
    return out


def reported(results: list, margin: float) -> tuple[bool, list[int]]:
    """Whether every answer names every other seed's move tied with this margin (`seed_agreement.agreement`
    on the answers as they would stand with `Params.tie_margin` = margin), and each answer's tie size (0:
    settled)."""
    at = [dataclasses.replace(r, tie_margin=margin) for r in results]
    return agreement(at)[1], [len(r.tied) for r in at]


def answers(state, params: Params, args) -> list:
    """The seeds' answers, searched as `burano suggest` does (trees, then the runner-up check)."""
    results = searches(state, params, args.iterations, args.seeds, args.trees)
    return checked(state, results, params, args.check, args.trees) if args.check else results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    position_options(parser)
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--trees", type=int, default=2,
                        help="independent trees a search (the iterations shared), as `burano suggest` searches")
    parser.add_argument("--check", type=int, default=2, metavar="K",
                        help="runner-ups each answer then searches on their own, as `burano suggest` does")
    parser.add_argument("--margins", default=MARGINS)
    args = parser.parse_args()
    spec = get_spec(args.game)
    margins = [float(m) for m in args.margins.split(",")]
    params = Params(**spec.search_defaults)
    start = time.perf_counter()
    all_results = [answers(state, params, args)
                   for _, state in positions(spec, args.positions, args.every, args.first_game)]
    pairs = [p for results in all_results for p in spread(results)]
    ratio = (math.sqrt(statistics.fmean(sd * sd for sd, _ in pairs) / statistics.fmean(se * se for _, se in pairs))
             if pairs else float("nan"))
    splits = [r for r in all_results if len({x.action for x in r}) > 1]
    print(f"{args.game} {spec.default_players}p, {len(all_results)} positions from game {args.first_game}, "
          f"{args.iterations} iterations, {args.trees} tree(s), {args.check} runner-ups checked, seeds "
          f"1-{args.seeds}: {len(splits)} split; {len(pairs)} moves above the visit floor in every seed: "
          f"between-seed sd / standard error = {ratio:.2f} (pooled); today's margin "
          f"{params.tie_margin:g}")
    print("| tie margin | splits reported as a tie | answers with a tie | moves a tie names (mean) |")
    print("|---:|---:|---:|---:|")
    enough = None
    for margin in margins:
        named = answered = 0
        tie_sizes: list[int] = []
        for results in all_results:
            ok, lengths = reported(results, margin)
            named += ok and len({x.action for x in results}) > 1
            tie_sizes += [n for n in lengths if n]
            answered += len(lengths)
        if enough is None and named == len(splits):
            enough = margin
        mean = statistics.fmean(tie_sizes) if tie_sizes else 0.0
        print(f"| {margin:g} | {named}/{len(splits)} | {len(tie_sizes)}/{answered} | {mean:.1f} |")
    print(f"smallest margin reporting every split: {'none of these' if enough is None else f'{enough:g}'} "
          f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
