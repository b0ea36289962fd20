"""Search iterations per second of one game at its fixed mid-game position, 1 and 2 threads.

    PYTHONPATH=$PWD python bench/game_search.py --game azul-sintra [--iterations 20000] [--runs 2] [--cpu]

The position (`POSITIONS`): a seeded random game (seed 1) played to a fixed point a few rounds in, written
as the view of the seat to move (another seat's hidden cards stay hidden: the search resamples them) —
Azul: 2 players, the first decision of round 3's draft (15 legal moves); Walking in Burano: 2 players, the
first acquire decision of round 4; Venice 2099: 3 players, the move step of turn 13 of 36 (a third in).
Then `burano suggest FILE --iterations N --seed 1 --threads T` (the heuristic playouts, the default) for
T = 1 and 2, each `--runs` times; prints the iterations/s that `suggest` reports and the machine's load
average before each run (a shared machine moves a lot).

`--cpu` adds, for one thread, iterations per second of the process's own CPU time (in-process, the
native searcher), with the game's prior (prior_bias 1: Azul's default; Venice 2099's is 0, its
`search_defaults`) and without it (0), alternating:
a figure a loaded machine does not move, and the prior's cost.
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
from typing import Callable, NamedTuple

from burano_ai.games import get_spec

ROOT = Path(__file__).resolve().parent.parent


class Position(NamedTuple):
    players: int
    reached: Callable      # state -> whether the random game has reached the position
    where: Callable        # the position's view -> where it is, for the report


POSITIONS = {
    "azul-sintra": Position(2, lambda s: s.phase == 2 and s.round == 2 and not s.is_chance_node(),
                            lambda v: f"round {v['round']}"),
    "walking-in-burano": Position(2, lambda s: s.phase == 2 and s.round == 3 and not s.is_chance_node(),
                                  lambda v: f"round {v['round']}"),
    "venice-2099": Position(3, lambda s: s.phase == 2 and s.turn() == 12, lambda v: f"turn {v['turn'] + 1}"),
}


def midgame_position(game: str, seed: int = 1) -> dict:
    """The seat to move's view at `game`'s fixed point (`POSITIONS`) of a seeded random game."""
    position = POSITIONS[game]
    state = get_spec(game).new_game(position.players).new_initial_state()
    rng = random.Random(seed)
    while not position.reached(state):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.to_dict(state.current_player())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True, choices=sorted(POSITIONS))
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true", help="also iterations per CPU second, 1 thread, in-process")
    args = parser.parse_args()
    position = midgame_position(args.game)
    if args.cpu:
        cpu_rates(args.game, position, args.iterations, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mid.json"
        path.write_text(json.dumps(position))
        legal = len(get_spec(args.game).load_position(position)[0].legal_actions())
        print(f"position: {POSITIONS[args.game].where(position)}, {position['to_move']} to move, {legal} legal moves")
        for threads in (1, 2):
            for _ in range(args.runs):
                load = os.getloadavg()[0]
                out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "suggest", str(path), "--iterations",
                                      str(args.iterations), "--seed", "1", "--threads", str(threads)],
                                     capture_output=True, text=True, check=True, timeout=600).stdout
                rate = re.search(r"iterations in ([\d.]+) s \((\d+)/s\)", out)
                print(f"threads {threads}: {rate.group(2)} iterations/s ({rate.group(1)} s), load {load:.1f}")


def cpu_rates(game: str, position: dict, iterations: int, runs: int) -> None:
    """Iterations per CPU second of one native search thread, with and without the prior, alternating."""
    from burano_ai.search import Params, make_searcher
    state, _ = get_spec(game).load_position(position)
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
