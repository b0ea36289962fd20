"""Walking in Burano's greedy bot (`greedy.py`): legal, deterministic given its seed, the same on both
implementations, and its estimate prefers what a player would: finishing a house, a placement that
costs no token, the final score at the end."""

from __future__ import annotations

import random

import pytest

from burano_ai.games.walking_in_burano import greedy
from burano_ai.games.walking_in_burano.data import BOY, MAYOR
from burano_ai.games.walking_in_burano.greedy import Estimate, choose_greedy, turns_to_come, value
from burano_ai.games.walking_in_burano.position import EMPTY
from burano_ai.games.walking_in_burano.rules import CHARACTER0, END_BUILD, place_action
from .helpers import SPEC, building, dealt, random_step, set_street


def _greedy_game(implementation: str, seed: int) -> list[int]:
    """A 2-player game of greedy against greedy (each on its seat's view); the moves, chance included."""
    game = SPEC.new_game(2, implementation)
    state = game.new_initial_state(seed)
    chance = random.Random(seed)
    moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            moves.append(random_step(state, chance))
            continue
        p = state.current_player()
        view = SPEC.load_position(state.to_dict(p), game.__class__)[0]
        action = choose_greedy(view, p, state.legal_actions(), random.Random(seed * 1000 + len(moves)), {})
        state.apply_action(action)           # refuses an illegal move
        moves.append(action)
    return moves


@pytest.mark.parametrize("seed", [3, 11])
def test_greedy_plays_legal_moves_the_same_for_the_same_seed_on_both_implementations(seed):
    compiled = _greedy_game("compiled", seed)
    assert compiled == _greedy_game("compiled", seed)
    assert compiled == _greedy_game("reference", seed)


def test_greedy_finishes_a_house_rather_than_start_one():
    # house 0 = pink L1 0 + pink M1 24; hand: pink R1 48 (finishes it), blue G3 10 and blue R3 58 (new
    # houses, clean); 1 coin: one placement only.
    for seed in range(10):
        state = dealt(2)
        set_street(state, 0, [(0, 24, EMPTY)])
        building(state, coins=1, hand=[10, 48, 58])
        legal = state.legal_actions()
        assert {place_action(48, 0), place_action(10, 6), place_action(58, 6)} <= set(legal)
        assert choose_greedy(state.clone(), 0, legal, random.Random(seed), {}) == place_action(48, 0)


def test_greedy_never_pays_a_token_for_a_placement_it_can_make_cleanly():
    # green (5) then pink (0); pink M4 27 on the pink house or as a new left house is clean, on the green
    # house or as a new right house (next to the pink one) costs a token (§6.3)
    for seed in range(5):
        state = dealt(2)
        set_street(state, 0, [(5, EMPTY, EMPTY), (0, EMPTY, EMPTY)])
        building(state, coins=3, hand=[27])
        legal = state.legal_actions()
        assert {place_action(27, 0), place_action(27, 6)} <= set(legal)
        action = choose_greedy(state.clone(), 0, legal, random.Random(seed), {})
        assert action in (place_action(27, 1), place_action(27, 5), END_BUILD)


def test_a_finished_house_waiting_for_its_character_is_worth_its_best_character():
    # pink {0, 24, 48}: Boy 2 + 2 x (2 curtains + 1 lantern + 1 chimney) = 10 is its best character
    state = dealt(2)
    set_street(state, 0, [(0, 24, EMPTY)])
    building(state, coins=1, hand=[48])
    before = value(state.to_position(), 0)
    state.play("place 48 h1")
    assert state.seats[0].street[0].pending
    after = state.to_position()
    est = Estimate(after, 0)
    street = tuple(tuple(h.floors) + (h.character, h.pending) for h in after.seats[0].street)
    assert est.houses(after, after.seats[0], street) == 10
    assert value(after, 0) > before
    state.play("end")
    assert choose_greedy(state.clone(), 0, state.legal_actions(), random.Random(0), {}) == CHARACTER0 + BOY


def test_at_the_end_the_estimate_is_the_final_score_plus_the_coin_tie_break():
    state = dealt(2)
    set_street(state, 0, [(0, 24, 48), (5, EMPTY, EMPTY)], [MAYOR, None])
    state.last_round = True
    pos = state.to_position()
    assert turns_to_come(pos) == 0
    coins = min(pos.seats[0].coins, 6)
    assert value(pos, 0) == pytest.approx(state.scores()[0] + 0.01 * coins)


def test_turns_to_come_shrink_as_the_decks_run_down():
    state = dealt(2)
    early = turns_to_come(state.to_position())
    rng = random.Random(5)
    while state.round < 6 and not state.is_terminal():
        random_step(state, rng)
    assert 0 < turns_to_come(state.to_position()) < early


def test_the_weights_are_options_of_the_bot():
    declared = SPEC.bots()["greedy"].options
    assert declared == {"coin_weight": greedy.COIN_WEIGHT, "hand_weight": greedy.HAND_WEIGHT,
                        "progress_weight": greedy.PROGRESS_WEIGHT}
    state = dealt(2)
    set_street(state, 0, [(0, 24, EMPTY)])
    building(state, coins=4, hand=[48])
    pos = state.to_position()
    assert value(pos, 0, coin_weight=2.0) > value(pos, 0)
