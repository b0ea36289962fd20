"""Kuhn poker (burano_ai/games/kuhn_poker/): game for game against pyspiel's `kuhn_poker`, its views."""

from __future__ import annotations

import pytest

from burano_ai.core.errors import PositionError
from burano_ai.games import get_spec
from tests.openspiel_lockstep import lockstep

pyspiel = pytest.importorskip("pyspiel")
SPEC = get_spec("kuhn-poker")


@pytest.mark.parametrize("players", range(2, 7))
def test_agrees_with_pyspiel(players):
    theirs = pyspiel.load_game("kuhn_poker", {"players": players})
    ours = SPEC.new_game(players)
    assert (ours.num_distinct_actions(), ours.max_chance_outcomes()) == \
        (theirs.num_distinct_actions(), theirs.max_chance_outcomes())
    assert SPEC.payoff_range(players) == (theirs.min_utility(), theirs.max_utility())
    counts = lockstep(ours, theirs, games=300, seed=players)
    assert counts["games"] == 300 and counts["decisions"] >= 300 * players


def test_a_hand_in_words():
    state = SPEC.new_game(2).new_initial_state()
    for text in ("deal K", "deal J", "pass", "bet", "bet"):
        state.play(text)
    assert state.is_terminal() and state.returns() == [2.0, -2.0]
    assert state.to_dict(1)["history"] == ["deal K", "deal J", "pass", "bet", "bet"]    # the showdown shows A's card


def test_a_view_hides_the_other_card_and_loads_into_a_consistent_world():
    state = SPEC.new_game(3).new_initial_state()
    for text in ("deal J", "deal K", "deal T", "bet"):
        state.play(text)
    view = state.to_dict(1)
    assert view["history"] == ["?", "deal K", "?", "bet"] and view["info"]["cards"] == ["?", "K", "?"]
    for seed in range(20):
        world = state.resample(1, seed)
        assert world.to_dict(1) == view and world.cards[1] == 3
    with pytest.raises(PositionError, match=r"position.history\[2\]: illegal move .deal K."):
        SPEC.load_position({**view, "history": ["?", "deal K", "deal K", "bet"]})
