"""Azul: Stained Glass of Sintra's OpenSpiel adapter (`python_azul_sintra`): OpenSpiel's own checks and
its bots through our bot registry. Skipped only when `pyspiel` cannot be imported."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.bots.registry import make_bot   # noqa: E402
from burano_ai.core.errors import OptionError   # noqa: E402
from burano_ai.games import get_spec   # noqa: E402
from burano_ai.games.azul_sintra import openspiel as adapter   # noqa: E402


def test_the_registered_game_type():
    game = pyspiel.load_game("python_azul_sintra(players=3,side=B)")
    assert isinstance(game, adapter.AzulSintraGame)
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 456 and game.max_chance_outcomes() == 8 and game.num_players() == 3
    with pytest.raises(OptionError, match="players must be 2, 3 or 4"):
        pyspiel.load_game("python_azul_sintra(players=5)")
    with pytest.raises(OptionError, match="side must be A or B"):
        pyspiel.load_game("python_azul_sintra(side=C)")


@pytest.mark.parametrize("params", ["players=2", "players=3,side=B", "players=4,engine=reference"])
def test_openspiel_random_simulation_test(params):
    """OpenSpiel's C++ random-simulation checks (legal actions, chance, clones, strings, returns)."""
    pyspiel.random_sim_test(pyspiel.load_game(f"python_azul_sintra({params})"), num_sims=1, serialize=False,
                            verbose=False)


@pytest.mark.parametrize("bot", ["openspiel-mcts:iterations=20"])
def test_openspiel_bots_play_a_whole_game_through_the_registry(bot):
    """OpenSpiel's MCTS (the game is perfect-information with chance: spec §11.1; OpenSpiel's ISMCTS
    asserts an imperfect-information game and refuses it)."""
    spec = get_spec("azul-sintra")
    assert "openspiel" in spec.capabilities
    state = spec.new_game(2).new_initial_state()
    bots = [make_bot(bot, 1, game="azul-sintra"), make_bot("random", 2, game="azul-sintra")]
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
