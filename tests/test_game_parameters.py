"""A game made with parameters of its own is searched as that game, in this process and in workers.

Regression: the search rebuilt its root from JSON with ``type(state.game)(num_players)``, which drops
every other parameter of the Game: a Goofspiel game of 6 cards was searched as a 13-card game and
failed (``position.num_cards: 6 in the position, but the game has 13``), with one worker or several.
"""

from __future__ import annotations

import pickle

import pytest

from burano_ai import engine
from burano_ai.games import get_spec
from burano_ai.search import Limit
from burano_ai.search.parallel import SameGame, canonical_root, game_factory_for


@pytest.mark.parametrize("workers", [1, 2])
def test_a_goofspiel_game_of_six_cards_is_searched_as_itself(workers):
    game = get_spec("goofspiel").new_game(3, num_cards=6, points_order="descending")
    state = game.new_initial_state(1)
    result = engine.suggest(state, limit=Limit(iterations=150), seed=2, threads=1, workers=workers)
    assert result.action in state.legal_actions() and result.iterations == 150


def test_the_state_s_own_game_rebuilds_its_views():
    game = get_spec("goofspiel").new_game(2, num_cards=5)
    state = game.new_initial_state(0)
    state.apply_action(state.chance_outcomes()[0][0])      # the first prize: seat A bids
    factory = game_factory_for(state)
    assert isinstance(factory, SameGame) and factory(2) is game
    root = canonical_root(state, state.current_player())
    seat = state.current_player()
    assert root.game == game and root.to_json(seat) == state.to_json(seat)
    assert pickle.loads(pickle.dumps(factory))(2) == game        # workers get the same Game
    with pytest.raises(ValueError, match="not a 3-player game"):
        factory(3)
