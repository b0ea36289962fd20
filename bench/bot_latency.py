"""How long a bot with a time budget takes per decision in `burano play` (issue 12: within T + 0.2 s).

Run: python bench/bot_latency.py [--time 2.0] [--players 4] [--decisions 30] [--seed 1] [--spec SPEC]

Plays games as `burano play` does -- a `GameSession` with one `ismcts:time=T` seat (B) and random bots
in the other seats, the person's seat A played at random -- and times each of the search bot's
decisions end to end around `session.bot_move()` (the view, loading it back, the search, building the
result), which is what a person waits for behind the spinner. Forced moves (one legal move) are not
searched and not counted. Prints the count, median, 95th percentile and maximum, the largest overshoot
past T and the CPU time of the slowest decision (CPU time near T with a longer wall time means the
process waited for a core), and the machine's load average, since another job on the cores shows as
overshoot.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from burano_ai import Game
from burano_ai.session import GameSession


def measure(seconds: float, players: int, decisions: int, seed: int, spec: str | None
            ) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds of this process) of each searched decision."""
    spec = spec or f"ismcts:time={seconds:g}"
    times: list[tuple[float, float]] = []
    game_seed = seed
    while len(times) < decisions:
        seats = ["human", spec] + ["random"] * (players - 2)
        session = GameSession(players, game_seed, seats, game_factory=Game)
        rng = random.Random(game_seed)
        while not session.is_over() and len(times) < decisions:
            p = session.to_move()
            if p == 0:
                session.play(0, rng.choice(session.legal_moves(0)))
                continue
            searched = p == 1 and len(session.state.legal_actions()) > 1
            start, cpu = time.perf_counter(), time.process_time()
            session.bot_move()
            if searched:
                times.append((time.perf_counter() - start, time.process_time() - cpu))
        game_seed += 1
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=2.0, help="the bot's budget T in seconds")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--decisions", type=int, default=30, help="searched decisions to time")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spec", default=None, help="bot spec (default ismcts:time=T)")
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    pairs = sorted(measure(args.time, args.players, args.decisions, args.seed, args.spec))
    times = [wall for wall, _ in pairs]
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(f"bot {args.spec or f'ismcts:time={args.time:g}'}, {args.players} players, {len(times)} searched decisions")
    print(f"  median {statistics.median(times):.3f} s  p95 {p95:.3f} s  max {times[-1]:.3f} s  "
          f"largest overshoot {times[-1] - args.time:+.3f} s (bound +0.2 s); "
          f"the slowest decision used {pairs[-1][1]:.3f} s of CPU")
    print(f"  load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
