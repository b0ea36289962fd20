"""Venice 2099: search iterations per second at a mid-game position, 1 and 2 threads.

    PYTHONPATH=$PWD python bench/venice_2099_search.py [--iterations 20000] [--runs 2]

The position: a seeded random 3-player game (seed 1) at the move step of turn 13 of 36 (a third in),
written as the active seat's view; then `burano suggest FILE --iterations N --seed 1 --threads T` (the
heuristic playouts, the default) for T = 1 and 2, each `--runs` times; prints the iterations/s that
`suggest` reports and the machine's load average before each run (a shared machine moves a lot).
With `--cpu`, also the iterations per CPU second of one native search thread in-process, with the
game's search prior (prior_bias 1) and without it (0), alternating: the prior's cost, a figure the load
does not move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from burano_ai.games import get_spec

ROOT = Path(__file__).resolve().parent.parent


def midgame_position(seed: int = 1, turn: int = 12) -> dict:
    """The active seat's view at the move step of turn `turn + 1` of a seeded random 3-player game."""
    state = get_spec("venice-2099").new_game(3).new_initial_state()
    rng = random.Random(seed)
    while not (state.phase == 2 and state.turn() == turn):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.to_dict(state.current_player())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true", help="also iterations per CPU second, with and without the prior")
    args = parser.parse_args()
    position = midgame_position()
    if args.cpu:
        cpu_rates(position, args.iterations, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mid.json"
        path.write_text(json.dumps(position))
        print(f"position: turn {position['turn'] + 1}, {position['to_move']} to move")
        for threads in (1, 2):
            for _ in range(args.runs):
                load = os.getloadavg()[0]
                out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "suggest", str(path), "--iterations",
                                      str(args.iterations), "--seed", "1", "--threads", str(threads)],
                                     capture_output=True, text=True, check=True, timeout=600).stdout
                rate = re.search(r"iterations in ([\d.]+) s \((\d+)/s\)", out)
                print(f"threads {threads}: {rate.group(2)} iterations/s ({rate.group(1)} s), load {load:.1f}")


def cpu_rates(position: dict, iterations: int, runs: int) -> None:
    """Iterations per CPU second of one native search thread, with and without the prior, alternating."""
    from burano_ai.search import Params, make_searcher
    state, _ = get_spec("venice-2099").load_position(position)
    for run in range(runs):
        for bias in (1.0, 0.0):
            searcher = make_searcher(state, state.current_player(), Params(prior_bias=bias), seed=run)
            start = time.process_time()
            searcher.run(iterations=iterations)
            spent = time.process_time() - start
            print(f"cpu, 1 thread, prior_bias {bias:g}: {iterations / spent:.0f} iterations per CPU second "
                  f"({type(searcher).__name__})")


if __name__ == "__main__":
    main()
