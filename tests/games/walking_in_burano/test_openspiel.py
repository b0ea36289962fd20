"""Walking in Burano's OpenSpiel adapter (`python_walking_in_burano`): public returns and its resampler (the
type, OpenSpiel's random-simulation test and its bots, ISMCTS among them, at every player count are
tests/conformance/test_openspiel.py's). Skipped only when `pyspiel` cannot be imported."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.games.walking_in_burano import openspiel  # noqa: E402,F401  (registers python_walking_in_burano)


def test_openspiel_random_simulation_test_with_public_returns():
    """OpenSpiel's C++ random-simulation checks with public_returns (the conformance suite runs the default)."""
    pyspiel.random_sim_test(pyspiel.load_game("python_walking_in_burano(players=3,public_returns=True)"), num_sims=1,
                            serialize=False, verbose=False)


def test_resample_from_infostate_keeps_the_seat_s_information():
    game = pyspiel.load_game("python_walking_in_burano(players=2)")
    rng = random.Random(4)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            p = state.current_player()
            out = state.resample_from_infostate(p, rng.random)
            assert out.information_state_string(p) == state.information_state_string(p)
            assert out.observation_string(p) == state.observation_string(p)
            assert out.legal_actions() == state.legal_actions()
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100
