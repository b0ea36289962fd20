"""Do the answers of `burano suggest` as a person runs it — no budget, so it searches until its answer
settles — agree over seeds, and is every split that remains reported as a tie? (issue 33, the must-show
"a split that remains must be reported as a tie")

Run: python bench/default_agreement.py --game venice-2099 [--positions 40] [--first-game 1] [--seeds 5]
         [--screen 10000] [--suggest-args "..."]

Positions: those of bench/seed_agreement.py (decisions with three or more legal moves along seeded random
games from `--first-game` on, at the game's default player count). Each is written to a position file and
`python cli.py suggest FILE --seed S --json` is run for seeds 1..N, as a person runs it: without `--time`
or `--iterations` it searches with two trees until the same best move has been clear of the others for a
second (then checks two runner-ups on their own) or for 10 s (README, "Without `--time`..."). Its answers
depend on the machine's speed, not only on the seed: the script prints each answer's iterations.

`--screen K` (default 10,000; 0: none) first searches each position as bench/tie_calibration.py does (K
iterations, 2 trees, 2 runner-ups checked, the same seeds) and runs the default `suggest` only where those
seeds split: the positions bench/tie_calibration.py counts. `--suggest-args` adds options to every
`suggest` (e.g. "--iterations 2000" for a quick run; the default is none).

Per position: the screen's moves by seed, the default's moves, and for a split whether it is reported as a
tie (every seed's answer names each other seed's move tied, `seed_agreement.agreement`); then each answer's
iterations and how many settled. The last line counts the splits and those reported as a tie.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from burano_ai.games import get_spec  # noqa: E402
from burano_ai.search import Params  # noqa: E402

from seed_agreement import agreement, position_options, positions  # noqa: E402
from tie_calibration import answers  # noqa: E402

CLI = Path(__file__).resolve().parent.parent / "cli.py"


def default_answer(path: str, seed: int, extra: list[str]) -> SimpleNamespace:
    """`burano suggest FILE --seed SEED --json` (+ `extra`) run as a program: its move, the moves it names
    tied, its iterations and whether it settled (its note)."""
    run = subprocess.run([sys.executable, str(CLI), "suggest", path, "--seed", str(seed), "--json", *extra],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"suggest {path} --seed {seed} failed ({run.returncode}): "
                         f"{(run.stderr.strip().splitlines() or ['no output'])[-1]}")
    data = json.loads(run.stdout)
    return SimpleNamespace(move=data["move"], tied=[SimpleNamespace(move=m) for m in data.get("tied", [])],
                           iterations=data["iterations"],
                           settled=any(n.startswith("settled after") for n in data.get("notes", [])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    position_options(parser)
    parser.add_argument("--screen", type=int, default=10_000, metavar="K",
                        help="iterations of the screening search (0: run the default suggest everywhere)")
    parser.add_argument("--suggest-args", default="", help="options added to every `suggest` (default: none)")
    args = parser.parse_args()
    if args.seeds < 2 or args.positions < 1 or args.screen < 0:
        raise SystemExit("--seeds must be 2 or more, --positions 1 or more, --screen 0 or more")
    spec = get_spec(args.game)
    params = Params(**spec.search_defaults)
    extra = shlex.split(args.suggest_args)
    screen = SimpleNamespace(iterations=args.screen, seeds=args.seeds, trees=2, check=2)
    start = time.perf_counter()
    looked = splits = reported = screened = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, state) in enumerate(positions(spec, args.positions, args.every, args.first_game)):
            before = ""
            if args.screen:
                moves, _ = agreement(answers(state, params, screen))
                if len(set(moves)) == 1:
                    continue
                screened += 1
                before = f"{dict(collections.Counter(moves))} -> "
            looked += 1
            path = os.path.join(tmp, f"p{index}.json")
            with open(path, "w") as f:
                json.dump(state.to_dict(), f)
            results = [default_answer(path, seed, extra) for seed in range(1, args.seeds + 1)]
            moves, tied = agreement(results)
            split = len(set(moves)) > 1
            splits += split
            reported += split and tied
            its = [r.iterations for r in results]
            print(f"{name}: {before}{dict(collections.Counter(moves))}"
                  + (f" (reported as a tie: {'yes' if tied else 'no'})" if split else "")
                  + f"; {min(its):,}-{max(its):,} iterations, {sum(r.settled for r in results)} of "
                  f"{len(results)} settled, ties of {'/'.join(str(len(r.tied)) for r in results)} moves",
                  flush=True)
    where = (f"{screened} split at {args.screen} iterations" if args.screen else f"{looked} positions")
    print(f"{args.game} {spec.default_players}p, {args.positions} positions from game {args.first_game}, "
          f"{where}; the default suggest{f' {args.suggest_args}' if extra else ''}, seeds 1-{args.seeds}: "
          f"{splits} split, {reported} reported as a tie ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
