"""Two builds of the compiled core side by side: the hot paths timed in alternating processes, as ratios.

A refactor of the core must not cost speed. This script times the same work on two source trees that
each have their compiled extensions built in place (e.g. the pre-change commit in a git worktree with
its own editable install, and the current tree), alternating OLD and NEW processes round after round
so that machine noise falls on both alike, and prints medians and NEW/OLD time ratios (below 1: NEW
is faster).

    git worktree add --detach ../old <commit>          # then build it: pip install -e ../old ...
    python bench/compare_builds.py ../old . --rounds 7

The work: `burano_ai.playouts` of whole random (3 and 4 players) and heuristic (4) games in C, whole
random games through the Python API (`random_play.play_randomly`: `legal_actions` + `apply_action` per
step, the path that the checked `apply_action` slows), clone, key, full key, legal actions, clone + apply, and native search iterations
(mid-game, in the pyramid phase, and at `burano bench`'s three 4-player positions with the default
parameters), on fixed seeded positions; `--playouts` times only random and heuristic playouts at 2, 3 and
4 players. It uses only API that both
sides have, so it can compare any two commits since the native tree exists.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time


def _position(num_players: int, seed: int, steps: int):
    """The state after `steps` seeded random decisions and chance outcomes from a seeded deal."""
    import burano_ai

    state = burano_ai.Game(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def _per_call(fn, calls: int) -> float:
    """CPU seconds per call of `fn` (best of 3 batches).

    CPU time of this process, not wall time: the work is single-threaded, and on a shared machine the
    time other processes hold the CPU would otherwise land on whichever side ran then.
    """
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best


def measure_playouts() -> dict[str, float]:
    """Random and heuristic playouts from the start at 2, 3 and 4 players, in microseconds per game."""
    import burano_ai

    out: dict[str, float] = {}
    for players, seed in ((2, 5), (3, 7), (4, 11)):
        start = _position(players, seed, 0)
        for policy in ("random", "heuristic"):
            out[f"{policy} playouts {players}p (us/game)"] = (
                _per_call(lambda: burano_ai.playouts(start, 1000, 1, policy), 1) / 1000 * 1e6)
    return out


def measure() -> dict[str, float]:
    """One process's timings in microseconds per operation."""
    import burano_ai
    from burano_ai.search.ismcts import make_searcher
    from burano_ai.search.params import Params

    out: dict[str, float] = {}
    start = _position(3, 7, 0)
    out["playouts 3p (us/game)"] = _per_call(lambda: burano_ai.playouts(start, 2000, 1), 2) / 2000 * 1e6
    start4 = _position(4, 11, 0)
    out["playouts 4p (us/game)"] = _per_call(lambda: burano_ai.playouts(start4, 1000, 1), 2) / 1000 * 1e6
    out["heuristic playouts 4p (us/game)"] = (_per_call(lambda: burano_ai.playouts(start4, 1000, 2, "heuristic"), 1)
                                              / 1000 * 1e6)
    from burano_ai.random_play import play_randomly

    def python_games(count: int = 20) -> None:
        for seed in range(count):
            play_randomly(start.clone(), random.Random(seed))

    out["random game 3p, Python API (us/game)"] = _per_call(python_games, 1) / 20 * 1e6
    mid = _position(3, 5, 300)
    while mid.is_chance_node():
        mid.apply_action(mid.chance_outcomes()[0][0])
    legal = mid.legal_actions()
    out["clone (us)"] = _per_call(mid.clone, 200_000) * 1e6
    out["key (us)"] = _per_call(mid.key, 200_000) * 1e6
    out["full_key (us)"] = _per_call(mid.full_key, 100_000) * 1e6
    out["legal_actions (us)"] = _per_call(mid.legal_actions, 100_000) * 1e6
    action = legal[len(legal) // 2]
    out["clone+apply (us)"] = _per_call(lambda: mid.clone().apply_action(action), 100_000) * 1e6
    seat = mid.current_player()
    root = mid.resample(seat, 3)

    def search() -> None:
        make_searcher(root, seat, Params(tree="native"), 1).run(iterations=3000)

    out["native search (us/iteration)"] = _per_call(search, 1) / 3000 * 1e6
    # The pyramid phase: the searching seat's secret cubes are tree decisions with the prior's bias,
    # the other seats' are sampled from the prior (the C game interface's `prior` and `turn_id`).
    pyramid = _position(4, 7, 24)
    pyramid_seat = pyramid.current_player()
    pyramid_root = pyramid.resample(pyramid_seat, 5)

    def pyramid_search() -> None:
        make_searcher(pyramid_root, pyramid_seat, Params(tree="native"), 1).run(iterations=2000)

    out["native search, pyramids (us/iteration)"] = _per_call(pyramid_search, 1) / 2000 * 1e6
    # `burano bench`'s positions (seed 2026: the first real decision at 0 %, 50 %, 90 % of a seeded
    # random game; rebuilt here from API both sides have), 4 players, the default Params (heuristic playouts).
    for name, position in _bench_positions(4).items():
        bench_seat = position.current_player()
        bench_root = position.resample(bench_seat, BENCH_SEED)

        def bench_search(root=bench_root, seat=bench_seat) -> None:
            make_searcher(root, seat, Params(), BENCH_SEED).run(iterations=1500)

        out[f"search 4p bench {name} (us/iteration)"] = _per_call(bench_search, 1) / 1500 * 1e6
    return out


BENCH_SEED = 2026
BENCH_POSITIONS = {"start": 0.0, "middle": 0.5, "late": 0.9}   # burano_ai.bench.POSITIONS


def _bench_positions(num_players: int) -> dict:
    """burano_ai.bench.bench_positions for Burano, with only the API both builds have."""
    import burano_ai
    from burano_ai.random_play import random_step

    state = burano_ai.Game(num_players).new_initial_state(BENCH_SEED)
    rng = random.Random(BENCH_SEED)
    trail = [state.clone()]
    while not state.is_terminal():
        random_step(state, rng)
        trail.append(state.clone())
    choices = [i for i, s in enumerate(trail)
               if not s.is_terminal() and not s.is_chance_node() and len(s.legal_actions()) > 1]
    found = {}
    for name, fraction in BENCH_POSITIONS.items():
        index = int(fraction * (len(trail) - 1))
        found[name] = trail[next((i for i in choices if i >= index), choices[-1])]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="source tree of the OLD build (extensions built in place)")
    parser.add_argument("new", help="source tree of the NEW build")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--playouts", action="store_true",
                        help="only the playouts, random and heuristic, at 2, 3 and 4 players")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure_playouts() if args.playouts else measure()))
        return
    results: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(args.rounds):
        for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
            tree = os.path.abspath(getattr(args, side))
            env = dict(os.environ, PYTHONPATH=tree)
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), tree, tree, "--measure"]
                                  + (["--playouts"] if args.playouts else []),
                                  cwd="/", env=env, capture_output=True, text=True, check=True)
            results[side].append(json.loads(proc.stdout))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    # Load from other processes only ever adds time, so on a busy machine the minimum is the steadier
    # estimate; the median is the usual one.
    print(f"{'median of ' + str(args.rounds) + ' rounds':38} {'OLD':>10} {'NEW':>10} {'NEW/OLD':>8} {'min ratio':>9}")
    for name in results["old"][0]:
        old = statistics.median(m[name] for m in results["old"])
        new = statistics.median(m[name] for m in results["new"])
        low = min(m[name] for m in results["new"]) / min(m[name] for m in results["old"])
        print(f"{name:38} {old:10.3f} {new:10.3f} {new / old:8.3f} {low:9.3f}")


if __name__ == "__main__":
    main()
