"""Walking in Burano's OpenSpiel adapter (`python_walking_in_burano`): OpenSpiel's own checks and its bots
(ISMCTS: the game has hidden information, spec §14) through our bot registry. Skipped only when
`pyspiel` cannot be imported."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.bots.registry import make_bot   # noqa: E402
from burano_ai.core.errors import OptionError   # noqa: E402
from burano_ai.games import get_spec   # noqa: E402
from burano_ai.games.walking_in_burano import openspiel as adapter   # noqa: E402


def test_the_registered_game_type():
    game = pyspiel.load_game("python_walking_in_burano(players=3)")
    assert isinstance(game, adapter.WalkingInBuranoGame)
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 619 and game.max_chance_outcomes() == 72 and game.num_players() == 3
    with pytest.raises(OptionError, match="players must be 2, 3 or 4"):
        pyspiel.load_game("python_walking_in_burano(players=5)")
    with pytest.raises(OptionError, match="engine must be auto, core or reference"):
        pyspiel.load_game("python_walking_in_burano(engine=fast)")


@pytest.mark.parametrize("params", ["players=2", "players=3,public_returns=True", "players=4,engine=reference"])
def test_openspiel_random_simulation_test(params):
    """OpenSpiel's C++ random-simulation checks (legal actions, chance, clones, strings, returns)."""
    pyspiel.random_sim_test(pyspiel.load_game(f"python_walking_in_burano({params})"), num_sims=1, serialize=False,
                            verbose=False)


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


@pytest.mark.parametrize("bot", ["openspiel-ismcts:iterations=8", "openspiel-mcts:iterations=8"])
def test_openspiel_bots_play_a_whole_game_through_the_registry(bot):
    spec = get_spec("walking-in-burano")
    assert "openspiel" in spec.capabilities
    state = spec.new_game(2).new_initial_state()
    bots = [make_bot(bot, 1, game="walking-in-burano"), make_bot("random", 2, game="walking-in-burano")]
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
