"""Venice 2099: whole random games per second, compiled core vs the reference model, 2-5 players.

    PYTHONPATH=$PWD python bench/venice_2099_speed.py

Prints, per player count: the reference model (Python, checked `apply_action`, outcomes drawn with
`random.choices`), the compiled core's C playouts (`_core.playouts`, uniform random, no Python), their
ratio, and the compiled core driven through the same Python loop as the reference. One run on a shared
machine moves a lot: run it twice and report both (docs/benchmarks.md).
"""

from __future__ import annotations

import random
import time

from burano_ai.games.venice_2099 import _core
from burano_ai.games.venice_2099.reference import Game as ReferenceGame


def python_loop_games_per_second(game, games: int) -> float:
    """Seeded random games played through the Python State API."""
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def c_playouts_per_second(num_players: int, games: int) -> float:
    state = _core.Game(num_players).new_initial_state()
    start = time.perf_counter()
    _core.playouts(state, games, seed=1)
    return games / (time.perf_counter() - start)


def main() -> None:
    for n in (2, 3, 4, 5):
        reference = python_loop_games_per_second(ReferenceGame(n), 10)
        compiled = c_playouts_per_second(n, 5000)
        through_python = python_loop_games_per_second(_core.Game(n), 50)
        print(f"{n} players: reference {reference:.1f} games/s, compiled C playouts {compiled:.0f} games/s "
              f"(x{compiled / reference:.0f}), compiled through the Python API {through_python:.0f} games/s "
              f"(x{through_python / reference:.0f})")


if __name__ == "__main__":
    main()
