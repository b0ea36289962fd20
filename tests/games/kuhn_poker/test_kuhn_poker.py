"""Kuhn poker (burano_ai/games/kuhn_poker/): game for game against pyspiel's `kuhn_poker`, its views."""

from __future__ import annotations

import pytest

from burano_ai.core.errors import PositionError
from burano_ai.games import get_spec
from tests.openspiel_lockstep import check_against_pyspiel

pytest.importorskip("pyspiel")
SPEC = get_spec("kuhn-poker")


@pytest.mark.parametrize("players", range(2, 7))
def test_agrees_with_pyspiel(players):
    counts = check_against_pyspiel(SPEC, "kuhn_poker", players, games=300, seed=players)
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


def test_the_search_maximises_chips_not_the_share_of_the_pot():
    """Holding the lowest card facing a bet, folding loses 1 chip and calling 2: both lose the pot (a
    win-share search is indifferent), so only a search of payoffs folds."""
    from burano_ai import engine
    from burano_ai.search import Limit
    state = SPEC.new_game(2).new_initial_state()
    for text in ("deal J", "deal K", "pass", "bet"):
        state.play(text)
    result = engine.suggest(state, limit=Limit(iterations=400), seed=1)
    fold, call = (next(c for c in result.candidates if c.move == m) for m in ("pass", "bet"))
    assert result.best.move == "pass" and fold.visits > 4 * call.visits
    assert (fold.expected_vp, call.expected_vp) == (-1.0, -2.0)     # chips
