"""Venice 2099's rules on the reference model: the spec's test cases T1..T14 (../shared/rules/venice-2099.md §8),
the resampler (§10.3), the rule flags (§10.10), move texts, and random-game invariants for 2-5 players."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from .helpers import build, card, d, sq

from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.core.seats import CHANCE, TERMINAL
from burano_ai.games import get_spec
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import COLOUR_LETTERS, NUM_COLOURS, VALUE_TEXTS
from burano_ai.games.venice_2099.position import position_from_json, position_to_json
from burano_ai.games.venice_2099.reference import Game
from burano_ai.games.venice_2099.rules import (
    DECLINE_RESCUE, LOST, PASS_BUY, PASS_MOVE, PHASE_BUY, PHASE_CARD, PHASE_MOVE, PHASE_RESCUE, PLATFORM, PLAY0,
    RESCUE0,
)


def texts(state) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


# --- T1, T1b: buying (§5.3) ------------------------------------------------------------------------

def test_T1_buy_prices_follow_each_squares_pile_and_the_payment_goes_on_it():
    s = build(4, {"a1": "P4", "c1": "B5", "e1": "K6"}, {0: ["a1", "c1", "e1"], 1: ["h8"]}, phase="buy",
              coins_on={"c1": 1, "e1": 3})
    assert [s.price(x) for x in s.figures[0]] == [1, 2, 4]
    assert texts(s) == ["buy a1", "buy c1", "buy e1", "no buy"]
    coins, supply = s.coins[0], s.supply[0]
    s.play("buy e1")
    assert s.coins_on[sq(s, "e1")] == 7 and s.coins[0] == coins - 4
    assert s.tokens[0][COLOUR_LETTERS.index("K")] == 1 and s.supply[0] == supply - 1
    assert s.phase == PHASE_CARD
    s.check()


def test_T1b_four_purchases_on_one_square_cost_1_2_4_8():
    s = build(3, {"d4": "G5"}, {0: ["d4"], 1: ["a1"], 2: ["h8"]}, phase="buy", coins={0: 20})
    prices, piles = [], []
    for _ in range(4):
        s.phase = PHASE_BUY
        prices.append(s.price(sq(s, "d4")))
        s.play("buy d4")
        piles.append(s.coins_on[sq(s, "d4")])
    assert prices == [1, 2, 4, 8] and piles == [1, 3, 7, 15]


def test_buying_needs_the_coins_and_the_supply_and_never_on_a_platform():
    s = build(3, {"a1": "G5", "c1": "==", "e1": "K6"}, {0: ["a1", "c1", "e1"]}, phase="buy",
              coins_on={"e1": 7}, coins={0: 5})
    s.supply[COLOUR_LETTERS.index("G")] = 0
    s.tokens[1][COLOUR_LETTERS.index("G")] = 10
    s.check()
    assert texts(s) == ["no buy"]          # green is sold out [VD-8], black costs 8 > 5, c1 is a platform


# --- T2: the lowest card (§5.4) ---------------------------------------------------------------------

@pytest.mark.parametrize("hand, legal", [
    (["G3", "R3", "K5", "PX"], ["play G3", "play R3"]),
    (["R8", "RX"], ["play R8"]),
    (["BX"], ["play BX"]),
])
def test_T2_only_the_lowest_cards_are_playable(hand, legal):
    s = build(4, {}, {0: ["a1"]}, phase="card", check=False)
    s.hands[0] = sorted(card(t) for t in hand)
    assert texts(s) == legal


# --- T3, T3b, T5, T5b: sinking and the rescue (§5.5, §5.6) --------------------------------------------

def test_T3_a_sinking_district_takes_its_coins_and_a_figure_without_gondola():
    s = build(4, {"b2": "G3"}, {0: ["a1"], 1: ["b2", "h8"]}, hands={0: ["G3"]}, phase="card",
              coins_on={"b2": 3}, gondolas={1: 0})
    sunk = s.coins_sunk
    s.play("play G3")
    b2 = sq(s, "b2")
    assert s.water[b2] and s.coins_on[b2] == 0 and s.coins_sunk == sunk + 3
    assert s.figures[1][0] == LOST
    assert s.current_player() == 1 and s.phase == PHASE_MOVE      # no decision for blue: B's own turn
    s.check()


def test_T3b_the_owner_decides_the_rescue_out_of_turn_and_may_decline():
    s = build(4, {"b2": "G3"}, {0: ["a1"], 1: ["a8"], 2: ["b2", "h8"]}, hands={0: ["G3"]}, phase="card",
              gondolas={2: 1})
    s.play("play G3")
    assert s.phase == PHASE_RESCUE and s.current_player() == 2 and s.active() == 0
    free = [x for x in range(64) if s.is_land(x) and x not in s.occupant()]
    assert s.legal_actions() == [RESCUE0 + x for x in free] + [DECLINE_RESCUE]
    s.check()
    s.play("no rescue")
    assert s.figures[2][0] == LOST and s.gondolas[2] == 1
    assert s.current_player() == 1 and s.phase == PHASE_MOVE
    s.check()


def test_T5_a_rescue_puts_the_figure_on_any_free_district():
    s = build(3, {"b2": "B5", "g7": "TX"}, {0: ["a1"], 1: ["b2"]}, hands={0: ["B5"]}, phase="card")
    s.play("play B5")
    assert s.current_player() == 1
    s.play("rescue g7")
    assert s.figures[1][0] == sq(s, "g7") and s.gondolas[1] == 1
    assert s.current_player() == 1 and s.phase == PHASE_MOVE   # B's own turn follows
    s.check()


@pytest.mark.parametrize("to_platform", [False, True])
def test_T5b_no_rescue_to_a_platform_unless_the_flag_says_so(to_platform):
    s = build(3, {"b2": "B5", "h8": "=="}, {0: ["a1"], 1: ["b2", "h8"]}, hands={0: ["B5"]}, phase="card",
              options={"rescue_to_platform": to_platform}, check=False)
    platforms = [x for x in range(64) if s.tiles[x] == PLATFORM and x != sq(s, "h8")]
    for x in range(64):
        if s.tiles[x] != PLATFORM and x not in (sq(s, "a1"), sq(s, "b2")):
            s.water[x] = True
    s.play("play B5")
    if to_platform:
        assert s.current_player() == 1
        assert s.legal_actions() == [RESCUE0 + x for x in platforms] + [DECLINE_RESCUE]
    else:
        assert s.figures[1][0] == LOST and s.gondolas[1] == 2     # removed; the card is kept
        assert s.phase == PHASE_MOVE and s.current_player() == 1


def test_the_active_players_own_figure_can_drown_and_be_rescued():
    s = build(3, {"b2": "K3"}, {0: ["b2", "c3"]}, hands={0: ["K3"]}, phase="card")
    s.play("play K3")
    assert s.phase == PHASE_RESCUE and s.current_player() == 0
    s.play("rescue a1")
    assert s.current_player() == 1


# --- T4: the gondola move (§5.2, VD-4) ---------------------------------------------------------------

def test_T4_a_gondola_reaches_a_district_cut_off_by_water_and_replaces_the_normal_move():
    ring = ["e5", "e6", "e7", "f5", "f7", "g5", "g6", "g7"]
    cells = {"f6": "TX", "a1": "K2"}
    cells.update({x: f"{'KPGRB'[i % 5]}{'345678'[i // 5]}" for i, x in enumerate(ring)})
    played = [cells[x] for x in ring]                       # 8 cards: the ring around f6 is water
    s = build(4, cells, {0: ["a1"], 1: ["h1"], 2: ["h8"], 3: ["a8"]}, played=played, phase="move",
              coins_on={"f6": 1})
    assert s.active() == 0
    f6 = sq(s, "f6")
    assert not any(a - rules.MOVE0 - 64 * 0 == f6 for a in s.normal_moves())
    s.play("gondola a1-f6")
    assert s.figures[0][0] == f6 and s.gondolas[0] == 1 and s.phase == PHASE_BUY
    assert all(not rules.MOVE0 <= a < PASS_MOVE + 1 for a in s.legal_actions())
    assert texts(s) == ["buy f6", "no buy"]
    coins = s.coins[0]
    s.play("buy f6")
    assert s.coins[0] == coins - 2 and s.tokens[0][COLOUR_LETTERS.index("T")] == 1
    s.check()


def test_with_gondola_as_an_extra_move_a_turn_holds_both_moves():
    s = build(3, {}, {0: ["a1"], 1: ["h8"], 2: ["h1"]}, options={"gondola_move_is_step1": False})
    s.play("gondola a1-d4")
    assert s.phase == PHASE_MOVE and not s.gondola_moves() and s.normal_moves()
    s.check()
    s.play("d4-d5")
    assert s.phase == PHASE_BUY and s.gondolas[0] == 1


# --- T6: normal moves (§5.1, VD-2, VD-3) -------------------------------------------------------------

def test_T6_the_22_destinations_of_the_rebuilt_picture():
    # (r, c) -> square: row r + 1, column letter c. Figure on black 2 at (3,3) = d4; water at (3,5) = f4;
    # another figure at (1,1) = b2; a platform at (5,3) = d6.
    s = build(3, {"d4": "K2", "f4": "G5", "d6": "=="}, {0: ["a8"], 1: ["d4"], 2: ["b2"]}, played=["G5"])
    # platforms elsewhere change nothing: a platform neither blocks nor ends a line (RB:96-97)
    assert s.active() == 1
    want = {(3, 4), (3, 2), (3, 1), (3, 0), (2, 3), (1, 3), (0, 3), (4, 3), (5, 3), (6, 3), (7, 3), (2, 2),
            (2, 4), (1, 5), (0, 6), (4, 2), (5, 1), (6, 0), (4, 4), (5, 5), (6, 6), (7, 7)}
    got = set()
    for a in s.normal_moves():
        f, x = divmod(a - rules.MOVE0, 64)
        if f == 0:
            got.add(divmod(x, 8))
    assert got == want, (sorted(got - want), sorted(want - got))
    assert len(want) == 22


def test_orthogonal_moves_only_with_move_dirs_4_and_no_squeeze_with_the_flag():
    s = build(3, {}, {0: ["d4"], 1: ["c3"], 2: ["e5"]}, options={"move_dirs": 4})
    dests = {rules.square_name(a - rules.MOVE0, 8) for a in s.normal_moves()}
    assert "e4" in dests and "c5" not in dests and "e5" not in dests
    # d4 to c5 squeezes between c4 and d5; block both with figures
    for squeeze, allowed in ((True, True), (False, False)):
        s = build(3, {}, {0: ["d4"], 1: ["c4"], 2: ["d5"]}, options={"diagonal_squeeze": squeeze})
        dests = {rules.square_name(a - rules.MOVE0, 8) for a in s.normal_moves()}
        assert ("c5" in dests) == allowed


# --- T7: a player without figures (§5.7) -------------------------------------------------------------

def test_T7_a_seat_without_figures_only_plays_its_cards_and_still_scores():
    s = build(3, {"b2": "K3"}, {0: ["b2"], 1: ["h8"], 2: ["h1"]}, hands={0: ["K3"]}, phase="card",
              gondolas={0: 0})
    s.tokens[0][1] = 2
    s.supply[1] -= 2
    s.play("play K3")
    assert s.alive_figures(0) == []
    rng = random.Random(3)
    while not s.is_terminal():
        if s.current_player() == 0:
            assert s.phase == PHASE_CARD
        s.apply_action(rng.choice(s.legal_actions()))
    b = s.final_breakdown(0)
    assert b["figures"] == 0 and b["X districts"] == 0
    assert sum(b.values()) == b["treasures"] + s.coins[0] and b["treasures"] > 0


# --- T8, T14: setups (§3) ----------------------------------------------------------------------------

def _set_up(n: int, seed: int = 1):
    s = Game(n).new_initial_state()
    rng = random.Random(seed)
    while s.is_chance_node():
        outs = s.chance_outcomes()
        s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
    return s


@pytest.mark.parametrize("n, cards, coins, figures, aside", [(2, 10, 11, 3, 5), (3, 12, 13, 4, 6),
                                                             (4, 9, 10, 3, 6), (5, 7, 8, 3, 7)])
def test_T8_setup_numbers(n, cards, coins, figures, aside):
    s = _set_up(n)
    assert [len(h) for h in s.hands] == [cards] * n and s.coins == [coins] * n
    assert [len(f) for f in s.figures] == [figures] * n and len(s.set_aside()) == aside
    assert s.gondolas == [2] * n and s.current_player() == 0


def test_T14_two_player_setup_and_the_removed_colour():
    s = _set_up(2, seed=5)
    c = s.removed_colour
    tiles = [t for t in s.tiles if t != PLATFORM]
    assert len(s.tiles) == 36 and len(tiles) == 30 and s.tiles.count(PLATFORM) == 6
    assert {rules.district_colour(t) for t in tiles} == set(range(6)) - {c}
    assert {VALUE_TEXTS[rules.district_vi(t)] for t in tiles} == set("23456X")
    assert len(s.deck()) == 25 and s.supply[c] == 0
    rng = random.Random(2)
    while not s.is_terminal():
        if s.phase == PHASE_BUY:
            for f in s.buys():
                assert rules.district_colour(s.tiles[s.figures[s.active()][f]]) != c
        s.apply_action(rng.choice(s.legal_actions()))
    assert all(t[c] == 0 for t in s.tokens)


def test_chance_nodes_and_probabilities_follow_10_2():
    for n, count in ((2, 57), (3, 100), (4, 100), (5, 99)):
        s = Game(n).new_initial_state()
        nodes = 0
        rng = random.Random(n)
        while s.is_chance_node():
            outs = s.chance_outcomes()
            assert abs(sum(p for _, p in outs) - 1) < 1e-12 and len(outs) <= rules.MAX_CHANCE_OUTCOMES
            s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
            nodes += 1
        assert nodes == count
    s = Game(3).new_initial_state()
    outs = dict(s.chance_outcomes())
    assert outs[PLATFORM] == pytest.approx(16 / 64) and outs[0] == pytest.approx(1 / 64)


# --- T9, T10, T11, T13: scoring (§7) ------------------------------------------------------------------

def _end_state(n: int, survivors: list[str], figures: dict[int, list[str]], tokens: dict[int, dict[str, int]]):
    """A finished game whose unsunk districts are the 2s and `survivors`."""
    s = build(n, {}, figures, check=False)
    for x in range(s.n * s.n):
        t = s.tiles[x]
        if t != PLATFORM and VALUE_TEXTS[rules.district_vi(t)] != "2" and rules.district_text(t) not in survivors:
            s.water[x] = True
    for p, tk in tokens.items():
        for letter, count in tk.items():
            s.tokens[p][COLOUR_LETTERS.index(letter)] = count
    s.phase = rules.PHASE_OVER
    return s


def test_T9_token_values_from_the_set_aside_cards():
    s = _end_state(4, ["K3", "K4", "K5", "P3", "P4", "G3"], {}, {0: {c: 1 for c in COLOUR_LETTERS}})
    k = s.surviving()
    assert dict(zip(COLOUR_LETTERS, k)) == {"K": 4, "P": 3, "G": 2, "T": 1, "R": 1, "B": 1}
    b = s.final_breakdown(0)
    assert b["treasures"] == 1 + 2 + 3 + 6 + 6 + 6


def test_T10_an_x_figure_scores_twice_its_colours_numbers():
    s = _end_state(3, ["G5", "GX"], {0: ["a1"], 1: ["a2"]}, {2: {"G": 1}})
    gx, g5 = s.tiles.index(d("GX")), s.tiles.index(d("G5"))
    s.figures[0][0], s.figures[1][0] = gx, g5
    assert s.final_breakdown(0)["X districts"] == 2 * (2 + 5) and s.final_breakdown(0)["figures"] == 0
    assert s.final_breakdown(1)["figures"] == 5
    assert s.final_breakdown(2)["treasures"] == 2


def test_T11_a_tie_on_points_goes_to_more_figures_on_the_board_platforms_included():
    s = _end_state(2, [], {0: ["a1"], 1: ["a2"]}, {})
    platform = s.tiles.index(PLATFORM)
    two = [x for x in range(36) if s.is_land(x)]
    s.figures[0] = [two[0], platform, LOST]
    s.figures[1] = [two[1], LOST, LOST]
    s.coins = [5, 5]
    assert s.scores()[0] == s.scores()[1]
    assert s.winners() == [0] and s.returns() == [1.0, 0.0]
    s.figures[0][1] = LOST
    assert s.returns() == [0.5, 0.5]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_T13_the_final_board_is_the_2s_plus_the_set_aside_cards(n):
    for seed in range(3):
        s = _set_up(n, seed)
        aside = {rules.card_district(k, s.options) for k in s.set_aside()}
        rng = random.Random(seed)
        turns = 0
        while not s.is_terminal():
            if s.phase == PHASE_CARD:
                turns += 1
            s.apply_action(rng.choice(s.legal_actions()))
        land = {s.tiles[x] for x in range(s.n * s.n) if s.is_land(x)}
        twos = {t for t in rules.districts_in_play(n, s.removed_colour) if rules.district_vi(t) == 0}
        assert land == twos | aside
        assert sum(s.surviving()) == {2: 10, 3: 12, 4: 12, 5: 13}[n]
        assert turns == n * s.cards_each


# --- T12 and the step order (§4) ----------------------------------------------------------------------

def test_T12_after_buying_no_move_is_legal():
    s = build(3, {"d4": "G5"}, {0: ["d4"]}, phase="buy")
    s.play("buy d4")
    assert s.phase == PHASE_CARD
    assert all(a >= PLAY0 for a in s.legal_actions())
    with pytest.raises(IllegalMoveError):
        s.play("d4-d5")


# --- placement (§3.1 step 7, VD-6, VD-7) --------------------------------------------------------------

def test_placement_is_round_robin_on_different_values_and_platforms_are_free():
    s = _set_up(3)
    assert s.phase == rules.PHASE_PLACE
    first = s.legal_actions()
    x = next(a for a in first if s.tiles[a] != PLATFORM)
    value = rules.district_vi(s.tiles[x])
    s.apply_action(x)
    assert s.current_player() == 1
    s.apply_action(next(a for a in s.legal_actions() if s.tiles[a] == PLATFORM))
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 0
    for a in s.legal_actions():
        assert s.tiles[a] == PLATFORM or rules.district_vi(s.tiles[a]) != value
    assert any(s.tiles[a] == PLATFORM for a in s.legal_actions())


def test_placement_seat_by_seat_with_the_flag():
    s = Game(3, {"placement_round_robin": False}).new_initial_state()
    rng = random.Random(0)
    while s.is_chance_node():
        outs = s.chance_outcomes()
        s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
    order = []
    while s.phase == rules.PHASE_PLACE:
        order.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert order == [0] * 4 + [1] * 4 + [2] * 4


# --- the resampler (§10.3) ----------------------------------------------------------------------------

def _late_two_player_state(seed: int = 4):
    rng = random.Random(seed)
    s = _set_up(2, seed)
    while len(s.played) < 17:
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_resample_keeps_the_view_and_draws_every_consistent_deal_equally_often():
    s = _late_two_player_state()
    seat = s.current_player()
    other = 1 - seat
    view, key = s.to_json(seat), s.information_state_key(seat)
    bound = s.bound(other)
    unseen = [k for k in s.deck() if k not in s.hands[seat] and k not in {c for _, c in s.played}]
    eligible = [k for k in unseen if rules.card_vi(k, s.options) >= bound]
    h = len(s.hands[other])
    deals = {tuple(sorted(c)) for c in itertools.combinations(eligible, h)}
    counts: Counter = Counter()
    draws = 200 * len(deals)
    for i in range(draws):
        r = s.resample(seat, i)
        assert r.to_json(seat) == view and r.information_state_key(seat) == key
        r.check()
        counts[tuple(r.hands[other])] += 1
    assert set(counts) == deals and len(deals) > 1
    assert max(counts.values()) < 1.5 * min(counts.values())      # seeded: a fixed, repeatable draw


def test_resample_never_gives_a_seat_a_card_below_its_last_play():
    for n in (3, 5):
        rng = random.Random(n)
        s = _set_up(n, n)
        while len(s.played) < 2 * n + 1:
            s.apply_action(rng.choice(s.legal_actions()))
        for seed in range(30):
            r = s.resample(0, seed)
            r.check()
            for p in range(1, n):
                assert all(rules.card_vi(k, s.options) >= s.bound(p) for k in r.hands[p])
                assert len(r.hands[p]) == len(s.hands[p])


# --- options and move texts ---------------------------------------------------------------------------

@pytest.mark.parametrize("options, named", [({"move_dirs": 6}, "move_dirs"), ({"colour": 1}, "colour"),
                                             ({"treasure_supply": -1}, "treasure_supply"),
                                             ({"forecast_values": "2-9"}, "forecast_values"),
                                             ({"rescue_to_platform": 1}, "rescue_to_platform")])
def test_a_wrong_option_is_one_line_naming_it(options, named):
    with pytest.raises(OptionError, match=named):
        get_spec("venice-2099").new_game(3, "reference", **options)


def test_move_texts_go_both_ways_and_bad_texts_name_the_problem():
    s = build(3, {"d4": "G5"}, {0: ["d4"], 1: ["a1"], 2: ["h8"]})
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action("pass") == PASS_MOVE
    for bad, why in (("z9-a1", "expected"), ("a1-b2", "no figure"), ("play K2", "no forecast card"),
                     ("jump", "expected")):
        with pytest.raises(IllegalMoveError, match=why):
            s.play(bad)
    s.play("d4-d3")
    assert s.string_to_action("pass") == PASS_BUY


# --- the flags on whole games, and the invariants ----------------------------------------------------

FLAG_SETS = [None, {"forecast_values": "2-8"}, {"move_dirs": 4, "diagonal_squeeze": False},
             {"gondola_move_is_step1": False, "rescue_to_platform": True},
             {"treasure_supply": 0, "placement_round_robin": False}, {"auto_apply_forced": True}]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("flags", FLAG_SETS, ids=lambda f: "default" if not f else "+".join(f))
def test_random_games_keep_every_invariant(n, flags):
    game = Game(n, flags)
    for seed in range(2 if flags else 5):
        rng = random.Random(seed)
        s = game.new_initial_state()
        decisions = 0
        while True:
            s.check()
            if s.is_terminal():
                assert s.current_player() == TERMINAL and s.legal_actions() == []
                break
            if s.is_chance_node():
                assert s.current_player() == CHANCE and s.legal_actions() == []
                outs = s.chance_outcomes()
                a = rng.choices([a for a, _ in outs], [p for _, p in outs])[0]
            else:
                legal = s.legal_actions()
                assert legal, f"no legal move {s.where()}"
                if game.options.auto_apply_forced:
                    assert len(legal) > 1
                a = rng.choice(legal)
                decisions += 1
            if decisions % 9 == 0:
                for view in [None] + list(range(n)):
                    back, _ = position_from_json(s.to_json(view))
                    assert position_to_json(back, None if view is None else view) == s.to_json(view)
                r = s.resample(max(s.current_player(), 0), seed)
                seat = max(s.current_player(), 0)
                assert r.to_json(seat) == s.to_json(seat)
                assert r.information_state_key(seat) == s.information_state_key(seat)
            before = s.key()
            c = s.clone()
            s.apply_action(a)
            assert c.key() == before
            tokens = [sum(t[c_] for t in s.tokens) for c_ in range(NUM_COLOURS)]
            if game.options.treasure_supply:
                assert all(tokens[c_] + s.supply[c_] in (0, 10) for c_ in range(NUM_COLOURS))
            assert min(s.coins) >= 0 and min(s.coins_on) >= 0
        assert len(s.played) == n * s.cards_each
        assert abs(sum(s.returns()) - 1) < 1e-12
