"""Frozen search versions (burano_ai.bots.presets, ``ismcts:preset=...``): what v0.1 pins, that it plays
the search it names, overrides, and bad names."""

from __future__ import annotations

import random

import pytest

from burano_ai import Game
from burano_ai.bots import PRESETS, get_preset, make_bot
from burano_ai.core.errors import OptionError
from burano_ai.search.evaluators import sample_chance_cumulative
from burano_ai.search.params import Params

#: The v0.1 search spelled out in spec keys (what `ismcts` meant when v0.1 was frozen).
V0_1_KEYS = "c=0.7,root_c=0.7,final=visits,win_weight=0.7,margin=10,pyramid_bias=1,playout=heuristic"


def decisions(players: int, seed: int, count: int) -> list:
    """`count` decisions with several legal moves from one seeded random game."""
    state = Game(players).new_initial_state(seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            state.apply_action(sample_chance_cumulative(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 2 and rng.random() < 0.1:
            found.append(state.clone())
        state.apply_action(rng.choice(legal))
    return found


def test_v0_1_pins_the_search_of_release_0_1():
    preset = get_preset("v0.1")
    assert dict(preset.params) == dict(exploration=0.7, root_exploration=None, root_ramp=0, win_weight=0.7, margin_scale=10.0,
                                       pyramid_bias=1.0, playout_policy="heuristic", final_selection="visits")
    assert make_bot("ismcts:preset=v0.1", 0).params == Params(**preset.params)
    assert all(p.pins and p.name == name for name, p in PRESETS.items())


@pytest.mark.parametrize("players", [2, 3])
def test_v0_1_makes_the_decisions_of_the_v0_1_search(players):
    for i, state in enumerate(decisions(players, 11 + players, 4)):
        frozen = make_bot("ismcts:preset=v0.1,iterations=300", 100 + i)
        spelled = make_bot(f"ismcts:iterations=300,{V0_1_KEYS}", 100 + i)
        assert frozen.step(state.clone()) == spelled.step(state.clone())


def test_spec_keys_override_the_preset():
    bot = make_bot("ismcts:preset=v0.1,c=1.5,playout=random", 0)
    assert bot.params.exploration == 1.5 and bot.params.playout_policy == "random"
    assert bot.params.win_weight == 0.7


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(OptionError) as info:
        make_bot("ismcts:preset=v9", 0)
    message = str(info.value)
    assert "preset" in message and "'v9'" in message and "v0.1" in message and "\n" not in message
    with pytest.raises(OptionError, match="known presets: v0.1"):
        get_preset("v9")
