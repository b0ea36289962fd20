"""Venice 2099: whole random games per second of the reference model, per player count.

    PYTHONPATH=$PWD python bench/venice_2099_reference.py [SECONDS]

Plays seeded random games through the Python State API (checked `apply_action`, chance outcomes drawn
with `random.choices`) for SECONDS (default 8) per player count and prints games/s and decisions a
game. The compiled core's comparison is the core's benchmark (branch v2099-core). One run on a shared
machine moves a lot: run it twice and report both (docs/venice-2099.md).
"""

from __future__ import annotations

import random
import sys
import time

from burano_ai.games.venice_2099.reference import Game


def games_per_second(n: int, seconds: float) -> tuple[float, float]:
    """(games/s, decisions a game) of seeded random games for `seconds`."""
    game = Game(n)
    start = time.perf_counter()
    games = decisions = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1
    return games / (time.perf_counter() - start), decisions / games


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 8.0
    for n in (2, 3, 4, 5):
        rate, decisions = games_per_second(n, seconds)
        print(f"{n} players: reference {rate:.1f} games/s, {decisions:.0f} decisions a game")


if __name__ == "__main__":
    main()
