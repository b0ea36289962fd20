"""Walking in Burano's rules: every test case of spec §16 as a named test, on the reference model.

Card ids are the placeholder deck PD-1's (spec §2.4); `tests/games/walking_in_burano/helpers.py` builds the positions.
"""

from __future__ import annotations

import random

import pytest

from burano_ai.core.errors import IllegalMoveError
from burano_ai.core.seats import CHANCE
from burano_ai.games.walking_in_burano import rules, scoring
from burano_ai.games.walking_in_burano.data import (
    BOY, FLORIST, GIRL, MAN, MAYOR, POLICE, SANTA, SEAMSTRESS, SHOPOWNER, WOMAN,
)
from burano_ai.games.walking_in_burano.position import EMPTY
from burano_ai.games.walking_in_burano.rules import (
    ACQUIRE_NONE, CHARACTER0, END_BUILD, PHASE_ACQUIRE, PHASE_BUILD, PHASE_OVER, PHASE_REFILL, PHASE_RETURN,
    PHASE_VISIT, RETURN0, TARGET_LEFT, TARGET_RIGHT, acquire_action, place_action,
)

from .helpers import S, building, dealt, game, random_step, remove, set_hand, set_street

E = EMPTY


def texts(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


# --- 16.1 Setup and acquire ------------------------------------------------------------------------

@pytest.mark.parametrize("players, columns, deck", [(2, 3, 21), (3, 4, 20), (4, 5, 19)])
def test_16_1_setup_deals_the_market_and_the_stacks(players, columns, deck):
    state = game(players).new_initial_state()
    deals = 0
    while state.chance_kind == rules.CHANCE_DRAW and state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        deals += 1
    assert deals == 3 * columns
    assert state.current_player() == CHANCE and state.chance_kind == rules.CHANCE_FIRST
    assert [p for _, p in state.chance_outcomes()] == [1 / players] * players
    for level in (1, 2, 3):
        assert state.deck_size(level) == deck
    assert sum(c >= 0 for row in state.market for c in row) == 3 * columns
    stacks = {2: [2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1], 3: [2] * 11, 4: [3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2]}[players]
    assert state.stacks == stacks
    for s in state.seats:
        assert (s.coins, s.tokens, s.free_scaffolds(), s.hand, s.street) == (4, 4, 2, [], [])


def test_16_2_a_full_column_offers_five_takes_with_their_coins():
    state = dealt(2)
    before = state.seats[0].coins
    takes = [a for a in state.legal_actions() if a // 6 == 0]
    assert [state.action_to_string(a) for a in takes] == [
        "take 1 L1", "take 1 L1-L2", "take 1 L1-L3", "take 1 L2-L3", "take 1 L3"]
    assert acquire_action(0, 2, 2) not in state.legal_actions()            # [L2] alone: RU:92
    for text, coins in (("take 1 L1", 2), ("take 1 L3", 2), ("take 1 L1-L2", 1), ("take 1 L2-L3", 1),
                        ("take 1 L1-L3", 0)):
        s = state.clone()
        s.play(text)
        assert s.seats[0].coins == before + coins and len(s.seats[0].hand) == 3 - coins


def test_16_2_after_the_l1_card_is_taken_the_l2_card_is_at_an_end():
    state = dealt(2)
    state.play("take 1 L1")
    state.play("end")
    assert [t for t in texts(state) if t.startswith("take 1")] == ["take 1 L2", "take 1 L2-L3", "take 1 L3"]


def test_16_2_a_gap_column_and_a_full_four_player_market():
    state = dealt(2)
    state.market[1][0] = EMPTY
    assert [t for t in texts(state) if t.startswith("take 1")] == ["take 1 L1", "take 1 L1-L3", "take 1 L3"]
    two = state.clone()
    card_l1, card_l3 = state.market[0][0], state.market[2][0]
    two.play("take 1 L1-L3")
    assert two.seats[0].hand == sorted([card_l1, card_l3]) and two.seats[0].coins == 5
    assert len(dealt(4).legal_actions()) == 25


def test_16_3_an_empty_market_offers_only_take_none():
    state = dealt(2)
    for row in state.market:
        row[:] = [EMPTY] * len(row)
    assert state.legal_actions() == [ACQUIRE_NONE]
    state.play("take none")
    assert state.seats[0].coins == 4 and state.seats[0].hand == [] and state.phase == PHASE_BUILD


# --- 16.2 Build --------------------------------------------------------------------------------------

def test_16_4_costs_1_then_2_then_2():
    state = building(dealt(2), coins=4, hand=[0, 4, 8])
    state.play("place 0 right")
    assert state.seats[0].coins == 3
    state.play("place 4 right")
    assert state.seats[0].coins == 1
    assert state.legal_actions() == [END_BUILD]                              # a 3rd costs 2
    state = building(dealt(2), coins=5, hand=[0, 4, 8])
    for text in ("place 0 right", "place 4 right", "place 8 right"):
        state.play(text)
    assert state.seats[0].coins == 0 and state.phase != PHASE_BUILD         # END_BUILD applied after the 3rd
    literal = building(dealt(2, literal_cost=True), coins=5, hand=[0, 4, 8])
    literal.play("place 0 right")
    literal.play("place 4 right")
    assert literal.seats[0].coins == 1 and literal.legal_actions() == [END_BUILD]   # WD-4 option: 1/3/3


def test_16_5_support_and_scaffolds():
    state = dealt(2)
    set_street(state, 0, [(0, EMPTY, EMPTY)])
    building(state, coins=6, hand=[48, 24])
    assert place_action(48, 0) in state.legal_actions()
    state.play("place 48 h1")
    assert state.seats[0].street[0].floors == [0, S, 48] and state.seats[0].free_scaffolds() == 1
    state.play("place 24 h1")
    assert state.seats[0].street[0].floors == [0, 24, 48] and state.seats[0].free_scaffolds() == 2
    assert state.seats[0].coins == 3 and state.seats[0].street[0].pending
    state.play("end")
    assert state.phase == PHASE_VISIT and state.current_player() == 0
    state.play("visit mayor")
    assert state.seats[0].street[0].character == MAYOR


def test_16_6_a_roof_alone_needs_both_scaffolds_and_finishes_nothing():
    state = building(dealt(2), coins=4, hand=[48])
    assert [a for a in state.legal_actions() if a != END_BUILD] == [place_action(48, TARGET_RIGHT)]
    state.play("place 48 right")
    assert state.seats[0].street[0].floors == [S, S, 48] and not state.seats[0].street[0].pending
    state.play("end")
    assert state.phase == PHASE_ACQUIRE and state.to_move == 1              # no character
    other = dealt(2)
    set_street(other, 0, [(0, S, 49)])
    building(other, coins=4, hand=[48])
    assert other.legal_actions() == [END_BUILD]                              # 1 free scaffold: illegal


def test_16_7_five_houses_close_both_ends():
    state = dealt(2)
    set_street(state, 0, [(c, EMPTY, EMPTY) for c in (0, 5, 10, 15, 16)])
    building(state, coins=4, hand=[1, 2])
    assert not any(rules.decode_place(a)[1] in (TARGET_LEFT, TARGET_RIGHT)
                   for a in state.legal_actions() if a != END_BUILD)


def test_16_8_soft_rules_cost_one_token_per_card():
    state = dealt(2)
    set_street(state, 0, [(0, 24, 48)], [MAYOR])
    building(state, coins=6, hand=[4, 25, 53])
    state.play("place 4 right")                                              # green next to pink
    assert state.seats[0].tokens == 4
    state.play("place 25 h2")                                                # rules 1 and 2: one token
    assert state.seats[0].tokens == 3
    state.play("place 53 h2")                                                # rule 1
    assert state.seats[0].tokens == 2
    broke = dealt(2)
    set_street(broke, 0, [(0, 24, 48)], [MAYOR])
    building(broke, coins=6, hand=[4, 25, 53])
    broke.play("place 4 right")
    broke.seats[0].tokens = 0
    assert place_action(25, 1) not in broke.legal_actions()
    with pytest.raises(IllegalMoveError, match="illegal move 'place 25 h2'"):
        broke.play("place 25 h2")


def test_16_9_replacing_a_scaffold_with_another_colour_costs_a_token():
    state = dealt(2)
    set_street(state, 0, [(S, 24, EMPTY)])                                   # a pink M1 on a scaffold
    building(state, coins=4, hand=[4])                                       # green G1
    state.play("place 4 h1")
    assert state.seats[0].street[0].floors == [4, 24, EMPTY] and state.seats[0].tokens == 3


# --- 16.3 Visits, limits -------------------------------------------------------------------------------

def test_16_10_two_finished_houses_two_visits_left_first_no_repeated_inhabitant():
    state = dealt(2)
    set_street(state, 0, [(0, 24, EMPTY), (5, 29, EMPTY)])
    building(state, coins=6, hand=[48, 53])
    state.play("place 53 h2")
    state.play("place 48 h1")
    state.play("end")
    assert state.pending_house() == 0
    state.play("visit mayor")
    assert CHARACTER0 + MAYOR not in state.legal_actions() and state.pending_house() == 1
    assert CHARACTER0 + POLICE in state.legal_actions()
    tourists = dealt(2)
    set_street(tourists, 0, [(0, 24, EMPTY), (5, 29, EMPTY)])
    building(tourists, coins=6, hand=[48, 53])
    for text in ("place 53 h2", "place 48 h1", "end", "visit girl"):
        tourists.play(text)
    assert CHARACTER0 + GIRL in tourists.legal_actions()


def test_16_11_no_legal_character_no_character_ever():
    state = dealt(2)
    set_street(state, 0, [(0, 24, EMPTY)])
    building(state, coins=4, hand=[48])
    state.stacks = [0] * 11          # every stack empty (the position is otherwise legal)
    state.play("place 48 h1")
    state.play("end")
    assert state.phase == PHASE_ACQUIRE and state.to_move == 1
    assert state.seats[0].street[0].character == -1 and not state.seats[0].street[0].pending


def test_16_12_returns_in_canonical_order_under_their_decks():
    state = building(dealt(2), coins=4, hand=[3, 10, 30, 40, 50])
    state.play("end")
    assert state.phase == PHASE_RETURN
    assert state.legal_actions() == [RETURN0 + c for c in (3, 10, 30, 40)]
    state.play("return 40")
    assert state.legal_actions() == [RETURN0 + 50]
    state.play("return 50")
    assert state.under[1][-1] == [40, 0, 0] and state.under[2][-1] == [50, 0, 0]    # [card, owner, round]
    assert state.seats[0].hand == [3, 10, 30] and state.phase == PHASE_ACQUIRE


def test_16_13_returned_cards_are_drawn_after_the_shuffled_part_first_returned_first():
    state = dealt(2)
    set_hand(state, 0, [2, 3, 5, 6, 7])
    state.seats[0].coins = 0
    state.phase, state.to_move, state.first_player = PHASE_BUILD, 0, 0
    state.play("end")
    state.play("return 2")
    state.play("return 6")
    assert [e[0] for e in state.under[0]] == [2, 6]
    rng = random.Random(5)
    surfaced = []
    while not state.is_terminal():
        if state.is_chance_node() and state.phase != rules.PHASE_FIRST and state.refill_cursor()[0] == 1:
            outcomes = dict(state.chance_outcomes())
            if state.shuffled(1):
                assert 2 not in outcomes and 6 not in outcomes
            else:
                assert list(outcomes.values()) == [1.0]
                surfaced += [c for c in outcomes if c in (2, 6)]
        random_step(state, rng)
    assert surfaced == [2, 6]


def test_16_14_coins_above_six_go_back_at_the_end_of_the_turn():
    state = building(dealt(2), coins=8, hand=[])
    state.play("end")
    assert state.seats[0].coins == 6


# --- 16.4 Refill and end -----------------------------------------------------------------------------

def _end_round(state):
    """Play out the round with `end` turns taking the leftmost card (for refill tests)."""
    while state.phase not in (PHASE_REFILL, PHASE_OVER) and not state.is_chance_node():
        if state.phase == PHASE_ACQUIRE:
            state.apply_action(state.legal_actions()[0])
        elif state.phase == PHASE_BUILD:
            state.play("end")
        else:
            state.apply_action(state.legal_actions()[-1])


def test_16_15_four_player_rows_slide_left_then_fill_in_order():
    state = dealt(4)
    remove(state, [1, 2, 3])
    state.market[0] = [EMPTY, 1, EMPTY, 2, 3]
    state.to_move = 3                                                        # the last turn of the round
    state.first_player = 0
    state.play("take 5 L3")
    state.play("end")
    assert state.phase == PHASE_REFILL and state.market[0] == [1, 2, 3, EMPTY, EMPTY]
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    second = state.chance_outcomes()[0][0]
    state.apply_action(second)
    assert state.market[0] == [1, 2, 3, first, second]


@pytest.mark.parametrize("row, after_discard", [
    ([1, EMPTY, 2], [1]), ([EMPTY, EMPTY, EMPTY], []), ([3, 5, EMPTY], [3]),
])
def test_16_16_two_players_discard_the_rightmost_card_of_each_row(row, after_discard):
    state = dealt(2)
    remove(state, [1, 2, 3, 5])
    state.market[0][:3] = row
    state.to_move, state.first_player = 1, 0
    state.play("take 1 L3")
    state.play("end")
    assert state.phase == PHASE_REFILL
    assert state.market[0][:len(after_discard)] == after_discard
    if row != [EMPTY] * 3:
        assert state.discard[0] == [c for c in row if c >= 0][-1]
    for _ in range(3 - len(after_discard)):
        assert state.refill_cursor()[0] == 1
        state.apply_action(state.chance_outcomes()[0][0])
    assert all(c >= 0 for c in state.market[0][:3])


def test_16_17_a_short_deck_leaves_a_gap_and_makes_the_next_round_the_last():
    state = dealt(2)
    keep = state.shuffled(2)[:1]
    set_hand(state, 1, [c for c in state.shuffled(2) if c not in keep][:3])
    # the rest of the L2 deck goes to the discard pile (out of the game)
    state.discard = [c for c in state.shuffled(2) if c not in keep]
    state.discard.append(state.market[1][1])                                 # out of the game, not back in the deck
    state.market[1][1] = EMPTY
    state.to_move, state.first_player = 1, 0
    state.check()
    state.play("take 1 L1")
    state.play("end")
    state.play("return " + str(state.seats[1].hand[0]))                     # the L1 card, not an L2 one
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.market[1][2] == EMPTY and state.market[1][1] == keep[0]       # [y, -, x] -> [y] -> [y, d1, -]
    assert state.deck_size(2) == 0 and state.last_round and state.round == 1
    _end_round(state)
    assert state.phase == PHASE_OVER and state.is_terminal()


def test_16_18_a_deck_that_fills_its_row_exactly_and_runs_out_sets_the_flag():
    state = dealt(2)
    left = state.shuffled(3)
    state.discard = left[2:]                                                 # 2 L3 cards left in the deck
    state.discard.append(state.market[2][2])
    state.market[2][2] = EMPTY                                               # [x, y, -] -> [x] -> [x, d1, d2]
    state.to_move, state.first_player = 1, 0
    state.check()
    state.play("take 1 L1-L2")
    state.play("end")
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert all(c >= 0 for c in state.market[2][:3]) and state.deck_size(3) == 0 and state.last_round


def test_16_19_five_houses_end_the_game_at_the_end_of_the_round_without_a_refill():
    state = dealt(3)
    set_street(state, 1, [(0, 24, 48), (5, 29, 53), (10, 34, 58), (15, 39, 63), (16, 40, EMPTY)])
    building(state, p=1, coins=4, hand=[64])
    state.first_player = 0
    state.play("place 64 h5")
    state.play("end")
    state.play("visit woman")
    assert state.phase == PHASE_ACQUIRE and state.to_move == 2              # the 3rd seat still plays
    state.apply_action(state.legal_actions()[0])
    state.play("end")
    while state.phase == PHASE_RETURN:
        state.apply_action(state.legal_actions()[0])
    assert state.phase == PHASE_OVER and state.round == 0


def test_16_20_the_round_30_guard_ends_the_game():
    state = dealt(2)
    state.round = 29
    state.to_move, state.first_player = 1, 0
    state.play(texts(state)[0])
    state.play("end")
    while state.phase == PHASE_RETURN:
        state.apply_action(state.legal_actions()[0])
    assert state.phase == PHASE_OVER


# --- 16.5 Scoring ------------------------------------------------------------------------------------

EXAMPLE_1 = ([(0, 24, 48), (5, 29, 53), (11, 34, 58), (12, 36, 60), (18, 43, 67)],
             [POLICE, GIRL, MAN, BOY, SHOPOWNER])
EXAMPLE_2 = ([(3, 27, 48), (4, 25, 53), (15, 36, 56), (16, 41, 65), (23, 44, 68)],
             [MAYOR, SANTA, SEAMSTRESS, FLORIST, WOMAN])


def test_16_5_worked_example_1_and_2_score_68_and_55():
    state = dealt(2)
    set_street(state, 0, *EXAMPLE_1)
    b1 = scoring.breakdown(state, 0)
    seat = state.seats[0]
    assert [scoring.character_vp(state.data, seat, j, k) for j, k in enumerate(EXAMPLE_1[1])] == [9, 11, 9, 10, 9]
    assert scoring.closed_windows(state.data, seat) == 5 and scoring.cats(state.data, seat) == 4
    other = dealt(2)
    set_street(other, 1, *EXAMPLE_2)
    other.seats[1].tokens = 1
    seat2 = other.seats[1]
    assert [scoring.character_vp(other.data, seat2, j, k) for j, k in enumerate(EXAMPLE_2[1])] == [12, 15, 12, 9, 4]
    assert scoring.closed_windows(other.data, seat2) == 6 and scoring.cats(other.data, seat2) == 5
    # the two streets share cards 48 (both examples use it): score them on one position each, D from both
    assert b1["characters"] == 48 and b1["shops"] == 8 and b1["tokens"] == 12
    b2 = scoring.breakdown(other, 1)
    assert b2["characters"] == 52 and b2["shops"] == 6 and b2["tokens"] == 3
    # §11.1 D with X = (5, 6): only player 2 loses 6
    total1 = b1["characters"] + b1["shops"] + b1["tokens"]
    total2 = b2["characters"] + b2["shops"] + b2["tokens"] - 6
    assert (total1, total2) == (68, 55)


def _street_with(state, houses):
    set_street(state, 0, houses)
    return state.seats[0]


@pytest.mark.parametrize("houses, vp", [((0, 1, 2, 3, 4), 15), ((0, 1), 5), ((0, 2), 9), ((1, 3), 9), ((), 0)])
def test_16_21_police(houses, vp):
    state = dealt(2)
    lantern = [24, 28, 32, 36, 40]            # M1 cards: a lantern each
    plain = [25, 29, 33, 37, 41]              # M2 cards: none
    l1 = [0, 5, 10, 15, 16]
    street = [(l1[j], lantern[j] if j in houses else plain[j], EMPTY) for j in range(5)]
    assert scoring.police_vp(state.data, _street_with(state, street)) == vp


@pytest.mark.parametrize("cards, vp", [((), 0), ((0,), 2), ((0, 4), 5), ((0, 4, 8), 9), ((0, 4, 8, 12), 15),
                                       ((0, 4, 8, 12, 16), 15)])
def test_16_22_shop_owner(cards, vp):
    state = dealt(2)
    street = [(c, EMPTY, EMPTY) for c in cards] or [(2, EMPTY, EMPTY)]
    assert scoring.shopowner_vp(state.data, _street_with(state, street)) == vp


@pytest.mark.parametrize("street, vp", [
    ([(3, E, E), (11, E, E), (19, E, E), (7, E, E)], 4),                      # a:3 b:1
    ([(3, E, E), (11, E, E), (7, E, E), (15, E, E)], 8),                      # a:2 b:2
    ([(3, 28, E), (11, 36, E), (19, E, E)], 0),                               # a:5
    ([(3, 28, 56), (11, 36, E), (7, E, E), (15, E, E), (23, E, E)], 12),      # a:5 b:3
])
def test_16_23_seamstress(street, vp):
    state = dealt(2)
    assert scoring.seamstress_vp(state.data, _street_with(state, street)) == vp


def test_16_24_florist_with_two_houses_takes_both_and_an_empty_slot_counts_zero():
    state = dealt(2)
    seat = _street_with(state, [(0, 25, EMPTY), (2, EMPTY, EMPTY)])          # L2 flowers 4 + nothing
    assert scoring.window_vp(state.data, seat, "flowers") == 4
    seat = _street_with(state, [(0, EMPTY, EMPTY), (2, EMPTY, EMPTY)])       # L1 flowers 1 + 1
    assert scoring.window_vp(state.data, seat, "flowers") == 2


def test_16_25_closed_windows():
    state = dealt(3)
    set_street(state, 0, [(0, 25, EMPTY), (1, 33, EMPTY)])
    set_street(state, 1, [(4, 29, EMPTY), (5, 37, EMPTY)])
    set_street(state, 2, [(8, 34, EMPTY), (9, 38, EMPTY)])
    assert [scoring.closed_windows(state.data, s) for s in state.seats] == [4, 4, 2]
    assert [scoring.breakdown(state, p)["windows"] for p in range(3)] == [-4, -4, 0]
    calm = dealt(2)
    assert [scoring.breakdown(calm, p)["windows"] for p in range(2)] == [0, 0]
    beginner = dealt(2, no_window_penalty=True)
    set_street(beginner, 0, [(0, 25, EMPTY)])
    assert scoring.breakdown(beginner, 0)["windows"] == 0


def test_16_26_ties_coins_then_cats_then_a_shared_win():
    state = dealt(2)
    state.phase, state.to_move = PHASE_OVER, -1
    state.seats[0].coins = state.seats[1].coins = 3
    assert scoring.totals(state) == [12, 12] and state.returns() == [0.5, 0.5]     # WD-24
    state.seats[0].coins = 4
    assert state.returns() == [1.0, 0.0]                                          # more coins
    state.seats[0].coins = 3
    set_street(state, 0, [(1, EMPTY, EMPTY)])                                     # 2 VP shop, a cat
    set_street(state, 1, [(13, EMPTY, EMPTY)])                                    # 2 VP shop, a cat
    assert scoring.totals(state) == [14, 14] and state.returns() == [0.5, 0.5]
    set_street(state, 0, [(1, 27, EMPTY)])                                        # one more cat, no VP
    assert scoring.totals(state) == [14, 14] and state.returns() == [1.0, 0.0]    # more cats
    state.seats[1].coins = 4
    assert state.returns() == [0.0, 1.0]                                          # coins before cats


def test_16_27_an_unfinished_house_counts_for_shops_inhabitants_windows_and_cats():
    state = dealt(2)
    set_street(state, 0, [(0, 24, 48), (1, 25, EMPTY)], [MAYOR, None])
    b = scoring.breakdown(state, 0)
    assert b["shops"] == 3 + 2 and b["characters"] == 3 + 1                   # mayor reads both L1 cards
    assert scoring.closed_windows(state.data, state.seats[0]) == 2 and scoring.cats(state.data, state.seats[0]) == 2


def test_a_character_that_no_seat_may_take_is_not_offered():
    state = dealt(2, fewer_characters=True)
    assert state.stacks[SHOPOWNER] == state.stacks[FLORIST] == 0 and state.stacks[WOMAN] == 2
