"""Venice 2099's OpenSpiel adapter (`python_venice_2099`): its resampler (the type, OpenSpiel's random-simulation
test and its bots at every player count are tests/conformance/test_openspiel.py's). Skipped only when `pyspiel`
cannot be imported."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.games.venice_2099 import openspiel  # noqa: E402,F401  (registers python_venice_2099)


def test_resample_from_infostate_keeps_the_seat_s_information_state():
    game = pyspiel.load_game("python_venice_2099(players=3)")
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node() or len(state.history()) < 130:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    hands = set()
    for i in range(20):
        world = state.resample_from_infostate(seat, random.Random(i).random)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        hands.add(str(world.inner.hands))
    assert len(hands) > 1          # the other hands are redrawn
