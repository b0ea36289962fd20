"""The C game interface of every game with a compiled core, at every player count, against its reference
model (`c_interface.walk_against_reference`): every node of seeded walks through the ops table."""

from __future__ import annotations

import pytest

from .c_interface import walk_against_reference
from .cases import COMPILED

NATIVE = [case for case in COMPILED
          if "native_search" in case.values[0].capabilities and "reference" in case.values[0].implementations]
#: Nodes walked per case: walks (seeds 0, 1, ...) until this many (at least one walk).
NODE_BUDGET = 300


@pytest.mark.parametrize("spec, implementation, num_players", NATIVE)
def test_the_c_game_interface_alone_agrees_with_the_reference(spec, implementation, num_players):
    c_game, ref_game = spec.new_game(num_players, "compiled"), spec.new_game(num_players, "reference")
    hidden = "hidden_information" in spec.capabilities
    nodes, seed = 0, 0
    while nodes < NODE_BUDGET:
        nodes += walk_against_reference(c_game, ref_game, [seed], hidden)
        seed += 1
    assert nodes >= NODE_BUDGET
