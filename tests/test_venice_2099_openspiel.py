"""Venice 2099's OpenSpiel adapter (`python_venice_2099`): OpenSpiel's own checks, the resampler, and
OpenSpiel's ISMCTS through our bot registry. Skipped only when `pyspiel` cannot be imported."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.bots.registry import make_bot   # noqa: E402
from burano_ai.core.errors import OptionError   # noqa: E402
from burano_ai.games import get_spec   # noqa: E402
from burano_ai.games.venice_2099 import openspiel as adapter   # noqa: E402


def test_the_registered_game_type():
    game = pyspiel.load_game("python_venice_2099(players=5)")
    assert isinstance(game, adapter.Venice2099Game)
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 689 and game.max_chance_outcomes() == 49 and game.num_players() == 5
    with pytest.raises(OptionError, match="players must be 2-5"):
        pyspiel.load_game("python_venice_2099(players=6)")
    with pytest.raises(OptionError, match="engine must be"):
        pyspiel.load_game("python_venice_2099(engine=fast)")


@pytest.mark.parametrize("params", ["players=2", "players=3", "players=5", "players=4,engine=reference"])
def test_openspiel_random_simulation_test(params):
    """OpenSpiel's C++ random-simulation checks (legal actions, chance, clones, strings, returns)."""
    pyspiel.random_sim_test(pyspiel.load_game(f"python_venice_2099({params})"), num_sims=2, serialize=False,
                            verbose=False)


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


def test_openspiel_ismcts_plays_a_whole_game_through_the_registry():
    spec = get_spec("venice-2099")
    assert "openspiel" in spec.capabilities
    state = spec.new_game(3).new_initial_state()
    bots = [make_bot("openspiel-ismcts:iterations=20", 1, game="venice-2099"),
            make_bot("random", 2, game="venice-2099"), make_bot("random", 3, game="venice-2099")]
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)
