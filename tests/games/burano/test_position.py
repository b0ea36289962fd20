"""Tests of the position record (burano_ai.games.burano.position), the deal (burano_ai.games.burano.deal) and views (burano_ai.games.burano.views).

The Position is the layer both rules implementations stand on: the reference State is a Position with
rules, and the compiled core converts to and from one without touching the reference model.
"""

from __future__ import annotations

import random

import pytest

from burano_ai import Game as CoreGame
from burano_ai.games.burano.deal import deal
from burano_ai.games.burano.enums import Phase, Stage
from burano_ai.core.errors import OptionError
from burano_ai.games.burano.notation import position_to_dict
from burano_ai.games.burano.position import COMPONENTS, Position, workshop_layout
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game as RefGame
from burano_ai.games.burano.views import resample_hidden


@pytest.mark.parametrize("num_players", (2, 3, 4))
@pytest.mark.parametrize("seed", (0, 1, 99))
def test_deal_is_the_start_of_both_implementations(num_players, seed):
    pos = deal(num_players, seed)
    pos.check()
    assert pos.component_counts() == COMPONENTS
    assert (pos.stage, pos.phase, pos.actor, pos.picks_left) == (Stage.SETUP, Phase.ROOF_PICK, 0, 3)
    want = position_to_dict(pos)
    assert RefGame(num_players).new_initial_state(seed).to_dict() == want
    core = CoreGame(num_players).new_initial_state(seed)
    assert core.to_dict() == want
    assert position_to_dict(core.to_position()) == want


def test_deal_differs_by_seed_and_is_repeatable():
    assert position_to_dict(deal(4, 1)) == position_to_dict(deal(4, 1))
    assert position_to_dict(deal(4, 1)) != position_to_dict(deal(4, 2))


@pytest.mark.parametrize("bad", (1, 5, True, "4", None))
def test_workshop_layout_refuses_bad_player_counts(bad):
    with pytest.raises(OptionError, match="num_players"):
        workshop_layout(bad)


def test_check_names_a_broken_invariant():
    pos = deal(3, 4)
    pos.players[1].reserve[0] += 30          # cubes out of thin air: the derived supply goes negative
    with pytest.raises(AssertionError, match="negative supply"):
        pos.check()


def test_clone_and_to_position_are_independent_copies():
    state = RefGame(3).new_initial_state(2)
    plain = state.to_position()
    assert type(plain) is Position and position_to_dict(plain) == state.to_dict()
    twin = plain.clone()
    twin.players[0].coins += 7
    twin.cubes[0][5] = 2
    assert plain.players[0].coins == state.players[0].coins
    assert plain.cubes[0][5] == state.cubes[0][5]


def test_a_core_state_rebuilt_from_its_position_is_the_same_state():
    game = CoreGame(4)
    state = game.new_initial_state(8)
    rng = random.Random(8)
    for _ in range(300):
        if state.is_terminal():
            break
        random_step(state, rng)
    back = game.state_from_position(state.to_position())
    assert back.key() == state.key() and back.to_dict() == state.to_dict()
    assert back.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("seed", range(3))
def test_resample_hidden_keeps_the_seat_view_and_the_type(seed):
    state = RefGame(4).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(400):
        if state.is_terminal():
            break
        random_step(state, rng)
    for seat in range(4):
        sample = resample_hidden(state, seat, seed + 11)
        assert type(sample) is type(state)
        assert sample.to_dict(seat) == state.to_dict(seat)
        sample.check()
