"""The OpenSpiel adapter (burano_ai.games.burano.openspiel): OpenSpiel's own checks and bots on `python_burano`.

Skipped only when `pyspiel` (the open_spiel package) cannot be imported.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts   # noqa: E402

from burano_ai.games.burano import openspiel as adapter  # noqa: E402
from burano_ai.arena import ArenaConfig, run_arena   # noqa: E402
from burano_ai.bots.openspiel_bots import NativeRolloutEvaluator   # noqa: E402


def test_registered_game_type_and_parameters():
    game = pyspiel.load_game("python_burano(players=3)")
    assert isinstance(game, adapter.BuranoGame)
    t = game.get_type()
    assert t.short_name == "python_burano"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert t.provides_observation_string and t.provides_information_state_string
    assert t.provides_observation_tensor and t.provides_information_state_tensor
    assert game.observation_tensor_shape() == game.information_state_tensor_shape() == [3240]
    assert game.num_players() == 3 and game.utility_sum() == 1.0
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == adapter.DEAL_OUTCOMES
    fixed = pyspiel.load_game("python_burano(players=2,seed=7)").new_initial_state()
    assert fixed.current_player() == 0 and fixed.burano_state.to_json() == \
        adapter.rules_game_class()(2).new_initial_state(7).to_json()


@pytest.mark.parametrize("bad, fragment", [("python_burano(players=5)", "players must be 2, 3 or 4"),
                                           ("python_burano(engine=gpu)", "engine must be auto, core or reference")])
def test_bad_parameters(bad, fragment):
    from burano_ai.core.errors import OptionError
    with pytest.raises(OptionError, match=fragment):
        pyspiel.load_game(bad)


@pytest.mark.parametrize("params, sims", [("players=2", 2), ("players=4,seed=3", 1)])
def test_openspiel_random_simulation_test(params, sims):
    """OpenSpiel's C++ random-simulation checks (legal actions, chance, clones, strings, tensors, returns)."""
    game = pyspiel.load_game(f"python_burano({params})")
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_random_playthrough_through_the_pyspiel_api():
    game = pyspiel.load_game("python_burano(players=2)")
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        p = state.current_player()
        key = state.information_state_string(p)
        for u in (0.1, 0.7):
            sample = state.resample_from_infostate(p, lambda u=u: u)
            assert sample.information_state_string(p) == key
            assert sample.legal_actions() == state.legal_actions()
        assert state.observation_string(p).startswith("{")
        clone = state.clone()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        assert clone.history() == state.history()[:-1]
    assert sum(state.returns()) == pytest.approx(1.0)
    assert len(state.history()) <= game.max_game_length()


def test_openspiel_ismcts_bot_completes_a_two_player_game():
    """OpenSpiel's ISMCTSBot plays both seats of a whole game through the pyspiel API (tiny budget)."""
    game = pyspiel.load_game("python_burano(players=2)")
    rng = np.random.RandomState(1)
    bots = [ismcts.ISMCTSBot(game, NativeRolloutEvaluator(1, np.random.RandomState(p)), 0.7, 5,
                             random_state=np.random.RandomState(10 + p)) for p in range(2)]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
            decisions += 1
    returns = state.returns()
    assert decisions > 100
    assert sum(returns) == pytest.approx(1.0) and all(r in (0.0, 0.5, 1.0) for r in returns)


def test_openspiel_ismcts_with_its_own_random_rollouts():
    game = pyspiel.load_game("python_burano(players=2,seed=5)")
    state = game.new_initial_state()
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 0.7, 3,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()


def test_openspiel_bots_in_the_arena_are_reproducible():
    config = ArenaConfig(bots=("openspiel-ismcts:iterations=4", "openspiel-mcts:iterations=4"), players=2,
                         games=2, seed=3, bootstrap=0)
    a, b = run_arena(config), run_arena(config)
    assert [g["scores"] for g in a.games] == [g["scores"] for g in b.games]
    assert all(e["iterations"] > 0 for e in a.entries)


def test_timed_ismcts_bot_stops_on_time():
    from burano_ai.bots import make_bot
    game = pyspiel.load_game("python_burano(players=2,seed=5)")
    view = game.new_initial_state().burano_state
    bot = make_bot("openspiel-ismcts:time=0.05", 0)
    import time
    t0 = time.perf_counter()
    assert bot.step(view) in view.legal_actions()
    assert time.perf_counter() - t0 < 1.0 and bot.iterations >= 1


def test_wrap_checks_the_player_count():
    from burano_ai.core.errors import OptionError
    game = adapter.game_for(2)
    with pytest.raises(OptionError, match="3-player"):
        game.wrap(adapter.rules_game_class()(3).new_initial_state(0))
