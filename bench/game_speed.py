"""Whole random games per second of one game, compiled core vs the reference model.

    PYTHONPATH=$PWD python bench/game_speed.py --game azul-sintra

Prints, per player count: the reference model (Python, checked `apply_action`, outcomes drawn with
`random.choices`) with its decisions a game, the compiled core's C playouts (`_core.playouts`, uniform
random, no Python), their ratio, and the compiled core driven through the same Python loop as the
reference. One run on a shared
machine moves a lot: run it twice and report both (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import random
import time

from burano_ai.games import game_keys, get_spec

#: Games per measurement (reference, C playouts, compiled through Python): sized so each takes seconds.
GAMES = {"azul-sintra": (20, 2000, 100), "walking-in-burano": (20, 2000, 100), "venice-2099": (10, 5000, 50)}
DEFAULT_GAMES = (20, 2000, 100)


def python_loop_games_per_second(game, games: int) -> tuple[float, float]:
    """(games/s, decisions a game) of seeded random games played through the Python State API."""
    start = time.perf_counter()
    decisions = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return games / (time.perf_counter() - start), decisions / games


def c_playouts_per_second(spec, num_players: int, games: int) -> float:
    """Uniform random playouts in C (`core._game.playouts`) from the initial state."""
    from burano_ai.core._game import playouts
    state = spec.new_game(num_players).new_initial_state()
    start = time.perf_counter()
    playouts(state, games, seed=1)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True, choices=game_keys())
    args = parser.parse_args()
    spec = get_spec(args.game)
    reference_games, c_games, python_games = GAMES.get(args.game, DEFAULT_GAMES)
    for n in range(spec.min_players, spec.max_players + 1):
        reference, decisions = python_loop_games_per_second(spec.new_game(n, "reference"), reference_games)
        compiled = c_playouts_per_second(spec, n, c_games)
        through_python, _ = python_loop_games_per_second(spec.new_game(n), python_games)
        print(f"{n} players ({decisions:.0f} decisions a game): reference {reference:.1f} games/s, compiled C playouts {compiled:.0f} games/s "
              f"(x{compiled / reference:.0f}), compiled through the Python API {through_python:.0f} games/s "
              f"(x{through_python / reference:.0f})")


if __name__ == "__main__":
    main()
