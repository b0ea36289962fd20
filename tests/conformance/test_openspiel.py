"""The OpenSpiel side of the conformance suite, over every game with the "openspiel" capability: its
adapter (`GameSpec.openspiel_game`) is the game in OpenSpiel's terms, passes OpenSpiel's own C++
random-simulation test, and OpenSpiel's bots play a whole game of it through our bot registry.
Skipped only when `pyspiel` cannot be imported."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.bots.registry import make_bot   # noqa: E402

from .cases import CASES   # noqa: E402

OPENSPIEL = [case for case in CASES if "openspiel" in case.values[0].capabilities]
#: OpenSpiel's random-simulation test runs the compiled game at every player count and the reference at the
#: smallest (a Python adapter over a Python model is slow, and the rest of the suite holds the two equal).
SIMULATED = [case for case in OPENSPIEL
             if case.values[1] == "compiled" or case.values[2] == case.values[0].min_players]


@pytest.mark.parametrize("spec, implementation, num_players", SIMULATED)
def test_the_adapter_passes_openspiel_s_random_simulation_test(spec, implementation, num_players):
    game = spec.openspiel_game(num_players, implementation)
    t = game.get_type()
    hidden = "hidden_information" in spec.capabilities
    info = pyspiel.GameType.Information
    assert t.information == (info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION)
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (t.min_num_players, t.max_num_players) == (spec.min_players, spec.max_players)
    assert game.num_players() == num_players
    assert game.num_distinct_actions() == spec.new_game(num_players, implementation).num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("spec", list({case.values[0].key: case.values[0] for case in OPENSPIEL}.values()),
                         ids=lambda spec: spec.key)
def test_the_adapter_refuses_bad_parameters_in_one_line(spec):
    from burano_ai.core.errors import OptionError
    name = spec.openspiel_game(spec.min_players).get_type().short_name
    assert pyspiel.load_game(f"{name}(players={spec.max_players})").num_players() == spec.max_players
    with pytest.raises(OptionError, match="players must be"):
        pyspiel.load_game(f"{name}(players={spec.max_players + 1})")
    with pytest.raises(OptionError, match="engine must be"):
        pyspiel.load_game(f"{name}(engine=fast)")


def _bots(spec):
    """OpenSpiel's MCTS for every game; its ISMCTS too where the game hides something (it refuses others)."""
    return ["openspiel-mcts:iterations=8"] + (["openspiel-ismcts:iterations=8"]
                                              if "hidden_information" in spec.capabilities else [])


@pytest.mark.parametrize("spec, bot", [pytest.param(case.values[0], bot, id=f"{case.values[0].key}-{bot.split(':')[0]}")
                                       for case in OPENSPIEL if case.values[1] == "compiled"
                                       and case.values[2] == case.values[0].min_players
                                       for bot in _bots(case.values[0])])
def test_openspiel_bots_play_a_whole_game_through_the_registry(spec, bot):
    state = spec.new_game(spec.min_players).new_initial_state(3)
    bots = [make_bot(bot, 1, game=spec.key)] + [make_bot("random", 2 + i, game=spec.key)
                                                for i in range(spec.min_players - 1)]
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.returns()) == spec.min_players
