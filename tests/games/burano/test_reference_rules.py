"""The rulebook's worked examples and the spec's rules decisions, on constructed positions."""

from __future__ import annotations

import random

from burano_ai.games.burano import actions as A
from burano_ai.games.burano import topology
from burano_ai.games.burano.data import buildings as B
from burano_ai.games.burano.data.colours import BLUE, GREEN, ORANGE, PINK, WHITE, YELLOW
from burano_ai.games.burano.data.roofs import FOUNTAINS, ISLAND_MAJORITY, ROOF_PAIRS
from burano_ai.games.burano.data.ships import IDENTICAL, PAIRS, TRIPLES, DIFFERENT
from burano_ai.games.burano.data.turn import EARNING, FISHING, LACE
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference.state import (
    EMPTY,
    FISH_SEND,
    GAME_OVER,
    LACE_PAY,
    LACE_PLACE,
    RECALL,
    ROOF_BONUS,
    TURN,
)

from positions import blank_turn, give_prep, map_colour, set_ring

TUNA, SQUID = 1, 2
R1, R2, R3, R4 = range(4)


def hole(name: str) -> int:
    return topology.parse_hole(name)


def resolve_chance(state, rng=None) -> None:
    rng = rng or random.Random(0)
    while state.is_chance_node():
        random_step(state, rng)


def build_for(state, colour: int, action: int) -> None:
    """Give the actor a cube of `colour`, map it to `action` and build it next to the fountain."""
    map_colour(state, colour, action)
    give_prep(state, state.actor, colour)
    builds = [a for a in state.legal_actions() if A.family(a) == "BUILD" and (a - A.BUILD) // 41 == colour]
    state.apply_action(builds[0])


# --- turn costs (§4.2)

def test_turn_cost_one_minus_three_minus_three_is_minus_five():
    s = blank_turn()
    coins = s.players[0].coins
    for _ in range(3):
        take = next(a for a in s.legal_actions() if A.family(a) == "TAKE")
        s.apply_action(take)
    assert s.players[0].coins - coins == 1 - 3 - 3 == -5


def test_cannot_pay_a_move_without_coins():
    s = blank_turn()
    s.players[0].coins = 2
    s.play("take top")          # +1 -> 3
    s.play("take m1")           # -3 -> 0
    assert s.players[0].coins == 0
    assert not any(A.family(a) in ("TAKE", "BUILD", "ROOF") for a in s.legal_actions())


def test_no_move_turn_gains_one_coin():
    s = blank_turn()
    s.play("done")
    assert s.players[0].coins == 11 and s.actor == 1


# --- fishing (§5.1)

def _fishing_setup(docks):
    s = blank_turn()
    set_ring(s, 0, (R1, R2, R3, R4), arrows_on_house=0, workers=10)   # arrows on r1: pink, yellow, blue
    assert sorted(s.arrows(0)) == sorted([YELLOW, BLUE, PINK])
    s.players[0].boat = topology.ISLAND_NODE[0]                        # I1, next to I2
    s.docks[1] = sorted(docks)                                         # I2
    build_for(s, GREEN, FISHING)
    return s


def test_fishing_two_matches_gives_two_cards_and_sends_one_worker():
    s = _fishing_setup([PINK, YELLOW, WHITE])
    assert s.matches(0, 1) == 2
    s.play("sail I2")
    for _ in range(2):
        s.apply_action(A.DRAW_DECK)
        resolve_chance(s)
    resolve_chance(s)
    pl = s.players[0]
    assert sum(pl.hand_blind) == 2
    assert s.island_workers[1][0] == 1 and pl.ring_workers == 9
    assert s.phase == TURN


def test_fishing_three_matches_sends_two_and_bumps_every_other_player():
    s = _fishing_setup([PINK, YELLOW, BLUE])
    s.island_workers[1][1] = 2
    s.island_workers[1][2] = 1
    s.players[1].ring_workers = 8
    s.players[2].ring_workers = 9
    coins_b, coins_c = s.players[1].coins, s.players[2].coins
    s.play("sail I2")
    for _ in range(3):
        s.apply_action(A.DRAW_DECK)
        resolve_chance(s)
    resolve_chance(s)
    assert s.phase == FISH_SEND
    s.play("send 2")
    assert s.island_workers[1] == [2, 1, 0, 0]
    assert s.players[0].ring_workers == 8
    assert s.players[1].ring_workers == 9 and s.players[1].coins == coins_b + 2
    assert s.players[2].ring_workers == 10 and s.players[2].coins == coins_c + 2


def test_cannot_sail_to_an_island_without_a_match():
    s = _fishing_setup([GREEN, ORANGE, WHITE])
    assert A.parse_action("sail I2") not in s.legal_actions()


def test_long_voyage_reaches_two_steps_without_turning_back():
    s = _fishing_setup([PINK, YELLOW, WHITE])
    s.players[0].buildings.append(10)   # long voyage
    assert B.BUILDING_CARDS[10][1] == B.LONG_VOYAGE
    s.docks[2] = sorted([PINK, GREEN, GREEN])   # I3, two steps from I1
    legal = {s.action_to_string(a) for a in s.legal_actions()}
    assert "sail I3" in legal and "sail I2" in legal
    assert "sail I1" not in legal


def test_triples_ship_three_tuna_three_squid_is_24_vp():
    s = blank_turn()
    s.players[0].boat = topology.ISLAND_NODE[0]          # I1, next to PortL
    s.ports = [[TRIPLES], [DIFFERENT, IDENTICAL, PAIRS]]
    s.players[0].hand_known[TUNA] = 3
    s.players[0].hand_known[SQUID] = 3
    build_for(s, GREEN, FISHING)
    vp = s.players[0].vp
    s.play("sail PortL")
    s.play("sell triples tuna,squid")
    assert s.players[0].vp - vp == 24
    assert TRIPLES in s.ports[1] and s.ports[0] == []
    assert s.players[0].sold[TUNA] == 3 and sum(s.players[0].hand_known) == 0


def test_two_triples_must_be_different_species():
    s = blank_turn()
    s.players[0].boat = topology.ISLAND_NODE[0]
    s.ports = [[TRIPLES], [DIFFERENT, IDENTICAL, PAIRS]]
    s.players[0].hand_known[TUNA] = 6
    build_for(s, GREEN, FISHING)
    s.play("sail PortL")
    sells = [s.action_to_string(a) for a in s.legal_actions() if A.family(a) == "SELL"]
    assert sells == ["sell triples tuna"]


# --- lace (§5.2, §8.2)

def test_lace_pink_orange_pink_places_two_workers_by_adjacency():
    s = blank_turn()
    set_ring(s, 0, (R3, R1, R2, R4), arrows_on_house=1, workers=10)   # r3 -> r1: pink, orange, pink
    assert s.arrows(0) == [PINK, ORANGE, PINK]
    build_for(s, GREEN, LACE)
    assert s.phase == LACE_PLACE
    s.play("lace r0c0")
    legal = [s.action_to_string(a) for a in s.legal_actions()]
    assert legal == ["done", "lace r0c1"]            # only the adjacent pink square
    s.play("lace r0c1")
    assert s.legal_actions() == [A.DONE]            # orange is not adjacent to the player's workers
    s.play("done")
    assert s.workshop_workers(0) == [0, 1] and s.players[0].ring_workers == 8


def test_lace_privilege_lifts_adjacency_and_bumps():
    s = blank_turn()
    set_ring(s, 0, (R3, R1, R2, R4), arrows_on_house=1, workers=10)
    s.workshop[topology.parse_square("r2c5")] = 1
    s.players[1].ring_workers = 9
    s.players[0].privilege = 1
    build_for(s, GREEN, LACE)
    s.play("lace r0c0")
    s.play("lace r2c5 +privilege")
    assert s.workshop[topology.parse_square("r2c5")] == 0
    assert s.players[1].ring_workers == 10 and s.players[1].coins == 12
    assert s.players[0].privilege == 0


def _end_season(s):
    """Make the current turn the last of the season and end it."""
    s.round = 4
    s.actor = (s.first_player - 1) % s.num_players
    s.moves = 1
    s.play("done")


def test_lace_scoring_union_of_four_paid_with_four_cubes_is_12_vp():
    s = blank_turn()
    squares = [topology.parse_square(x) for x in ("r2c5", "r2c6", "r3c4", "r3c5")]  # orange, one union
    for sq in squares:
        s.workshop[sq] = 0
    s.players[0].ring_workers = 6
    s.players[0].pyramid = [ORANGE] * 4 + [PINK] * 5 + [EMPTY] * 5
    vp = s.players[0].vp
    _end_season(s)
    for _ in range(4):
        assert s.phase == LACE_PAY
        s.play("pay pyramid")
    assert s.players[0].vp - vp == 12
    assert s.players[0].pyramid.count(ORANGE) == 0


def test_lace_scoring_three_paid_with_a_union_of_two_is_7_vp():
    s = blank_turn()
    for name in ("r0c0", "r0c1", "r0c3"):
        s.workshop[topology.parse_square(name)] = 1
    s.players[1].ring_workers = 7
    s.players[1].pyramid = [PINK] * 3 + [BLUE] * 6 + [EMPTY] * 5
    vp = s.players[1].vp
    _end_season(s)
    for _ in range(3):
        assert s.phase == LACE_PAY and s.actor == 1
        s.play("pay pyramid")
    assert s.players[1].vp - vp == 7


def test_lace_discount_pays_one_worker_without_a_cube():
    s = blank_turn()
    s.workshop[topology.parse_square("r0c0")] = 0
    s.players[0].ring_workers = 9
    s.players[0].pyramid = [BLUE] * 9 + [EMPTY] * 5
    s.players[0].buildings.append(13)   # lace discount
    vp = s.players[0].vp
    _end_season(s)
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["pay discount", "pay none"]
    s.play("pay discount")
    assert s.players[0].vp - vp == 2


# --- earning (§5.3)

def test_earning_six_visible_coins_and_one_recall_is_7_coins():
    s = blank_turn()
    set_ring(s, 0, (R1, R2, R3, R4), arrows_on_house=11, workers=2)   # covers houses 2, 3: two coins
    s.island_workers[0][0] = 8
    assert s.visible_symbols(0, 0) == 6
    coins = s.players[0].coins
    build_for(s, GREEN, EARNING)
    assert s.phase == RECALL
    s.play("recall I1")
    s.play("done")
    assert s.players[0].coins - coins == 1 + 7      # +1 for the turn's first move, then 6 + 1
    assert s.players[0].ring_workers == 3


# --- clean-up island majority (§8.1)

def test_island_majorities_12_8_4_vp_with_four_players():
    s = blank_turn()
    for i in range(3):
        s.island_workers[i] = [2, 0, 0, 0]
    for i in (3, 4):
        s.island_workers[i] = [0, 1, 0, 0]
    s.island_workers[5] = [0, 0, 1, 0]
    s.players[0].ring_workers, s.players[1].ring_workers, s.players[2].ring_workers = 4, 8, 9
    vp = s.scores()
    _end_season(s)
    assert [a - b for a, b in zip(s.scores(), vp)] == [12, 8, 4, 0]


def test_tied_island_majority_splits_rounded_down_unless_island_ties():
    s = blank_turn(num_players=3)
    s.island_workers[0] = [1, 1, 1]
    for pl in s.players:
        pl.ring_workers = 9
    vp = s.scores()
    _end_season(s)
    assert [a - b for a, b in zip(s.scores(), vp)] == [1, 1, 1]    # 3 VP shared by 3
    s = blank_turn(num_players=3)
    s.island_workers[0] = [1, 1, 0]
    s.players[1].buildings.append(12)   # island ties
    s.players[0].ring_workers = s.players[1].ring_workers = 9
    vp = s.scores()
    _end_season(s)
    assert [a - b for a, b in zip(s.scores(), vp)] == [0, 3, 0]


# --- roofs (§7)

def _roof_setup(kind, pair=(BLUE, PINK)):
    s = blank_turn()
    s.cubes[0][hole("c3")] = pair[0]
    s.cubes[0][hole("e3")] = pair[1]
    s.players[0].roof_slots = [(kind, ROOF_PAIRS.index(pair)), None, None]
    return s


def test_fountains_roof_with_three_visible_fountains_is_5_vp():
    s = _roof_setup(FOUNTAINS)
    set_ring(s, 0, (R1, R2, R3, R4), arrows_on_house=10, workers=1)  # covers house 1, a fountain
    s.island_workers[0][0] = 9
    assert s.visible_symbols(0, 1) == 3
    vp, priv = s.players[0].vp, s.players[0].privilege
    s.play("roof 1 c3-e3")
    assert s.phase == ROOF_BONUS
    s.play("bonus privilege")
    assert s.players[0].vp - vp == 5 and s.players[0].privilege - priv == 2
    assert s.roof_field[0][hole("c3")] == BLUE and s.roof_field[0][hole("e3")] == PINK


def test_roof_orientation_must_match_colours():
    s = _roof_setup(FOUNTAINS)
    legal = [s.action_to_string(a) for a in s.legal_actions() if A.family(a) == "ROOF"]
    assert legal == ["roof 1 c3-e3"]


def test_tied_island_does_not_count_for_the_island_majority_roof():
    s = _roof_setup(ISLAND_MAJORITY)
    s.island_workers[0] = [1, 1, 0, 0]      # tie
    s.island_workers[1] = [2, 0, 0, 0]      # majority
    s.players[0].ring_workers, s.players[1].ring_workers = 7, 9
    vp = s.players[0].vp
    s.play("roof 1 c3-e3")
    s.play("bonus privilege")
    assert s.players[0].vp - vp == 2


def test_island_ties_card_taken_with_the_roof_counts_for_it():
    s = _roof_setup(ISLAND_MAJORITY)
    s.island_workers[0] = [1, 1, 0, 0]
    s.island_workers[1] = [2, 0, 0, 0]
    s.players[0].ring_workers, s.players[1].ring_workers = 7, 9
    s.building_display = sorted(set(s.building_display[:3]) | {12})
    vp = s.players[0].vp
    s.play("roof 1 c3-e3")
    s.play("bonus island-ties")                  # [RD-15]
    resolve_chance(s)
    assert s.players[0].vp - vp == 5


def test_level_two_build_on_matching_field_gains_privilege():
    s = _roof_setup(FOUNTAINS)
    s.play("roof 1 c3-e3")
    s.play("bonus privilege")
    priv = s.players[0].privilege
    map_colour(s, PINK, EARNING)
    give_prep(s, 0, PINK)
    s.play("build pink@e3")
    assert s.top_level(hole("e3")) == 2 and s.players[0].privilege == priv + 1


def test_roofs_of_one_level_may_not_share_a_midpoint():
    s = _roof_setup(FOUNTAINS)
    s.play("roof 1 c3-e3")
    s.play("bonus privilege")
    s.cubes[0][hole("d2")] = BLUE
    s.cubes[0][hole("d4")] = PINK
    s.players[0].roof_slots[1] = (FOUNTAINS, ROOF_PAIRS.index((BLUE, PINK)))
    assert not [a for a in s.legal_actions() if A.family(a) == "ROOF"]


# --- privilege (§4.3)

def test_privilege_cube_goes_into_a_pyramid_with_fewer_than_14_cubes():
    s = blank_turn()
    s.players[0].privilege = 1
    assert not [a for a in s.legal_actions() if A.family(a) == "PRIV_CUBE"]   # full pyramid
    s.play("take top")
    legal = [s.action_to_string(a) for a in s.legal_actions() if A.family(a) == "PRIV_CUBE"]
    assert "privilege cube pink@top" in legal and all(t.endswith("@top") for t in legal)
    s.play("privilege cube pink@top")
    assert s.players[0].pyramid[13] == PINK and s.players[0].privilege == 0


# --- end of the game (§10)

def test_final_seven_coins_is_one_vp_and_ties_break_on_prep_then_coins():
    s = blank_turn()
    s.season, s.round = 3, 3
    for p, pl in enumerate(s.players):
        pl.vp = 10
        pl.coins = 4
    s.players[0].coins, s.players[0].privilege = 6, 1     # 7 coins after conversion
    s.players[1].coins = 5                              # 1 VP as well
    s.players[1].prep[BLUE] = 1                          # wins the tie on prep cubes
    s.actor = 3
    s.moves = 1
    s.play("done")
    assert s.phase == GAME_OVER and s.is_terminal()
    assert s.scores()[:2] == [11, 11]
    assert s.winners() == [1]
    assert s.returns() == [0.0, 1.0, 0.0, 0.0]
    assert s.legal_actions() == []


def test_a_full_game_lasts_fourteen_rounds():
    from burano_ai.games.burano.reference import Game
    s = Game(3).new_initial_state(5)
    seen = set()
    rng = random.Random(5)
    while not s.is_terminal():
        if s.phase == TURN:
            seen.add((s.season, s.round))
        random_step(s, rng)
    assert len(seen) == 14
