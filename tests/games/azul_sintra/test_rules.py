"""Azul: Stained Glass of Sintra: the rulebook's worked examples T1..T22 (spec §10) and the §11.6 tests.

Each test names the spec row and the rulebook lines (RU:n) or decisions (AD-n) it checks. Positions
are built on the reference model (tests/games/azul_sintra/helpers.py) and played on every implementation: the
`load` fixture moves a position to the implementation under test through its JSON.
"""

from __future__ import annotations

import math
import random

import pytest

from .helpers import B, G, O, P, Y, absorb, balance, counts, lay, put, table
from burano_ai.core.errors import IllegalMoveError
from burano_ai.core.seats import CHANCE
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.data import FACTORIES, NUM_COLOURS, PIECES_PER_COLOUR
from burano_ai.games.azul_sintra.reference import Game as ReferenceGame
from burano_ai.games.azul_sintra.rules import BREAK, CENTRE, RESET, draft_action

IMPLEMENTATIONS = ["reference"]
try:
    from burano_ai.games.azul_sintra._core import Game as CompiledGame
    IMPLEMENTATIONS.append("compiled")
except ImportError:          # the compiled core is not built
    CompiledGame = None


@pytest.fixture(params=IMPLEMENTATIONS)
def load(request):
    """state (reference) -> the same position in the implementation under test."""
    def convert(state):
        if request.param == "reference":
            return state.clone()
        g = state.game
        return CompiledGame(g.num_players, g.side, g.first_player, g.data).state_from_json(state.to_json())
    return convert


def ref(n=2, side="A"):
    return ReferenceGame(n, side)


def targets(state, source, colour):
    return sorted(rules.decode_draft(a)[2] for a in state.legal_actions()
                  if a < rules.DRAFT_ACTIONS and rules.decode_draft(a)[:2] == (source, colour))


def board(state, seat):
    """(score, track, hits, glazier) of a seat, from the JSON (both implementations)."""
    d = state.to_dict()["seats"][seat]
    return d["score"], d["track"], d["hits"], d["glazier"] - 1


def column(state, seat, k):
    return state.to_dict()["seats"][seat]["columns"][k]


# --- T1, T2, T22: drafting --------------------------------------------------------------------

def test_T1_a_factory_draft_takes_the_colour_and_moves_the_rest_to_the_centre_RU108(load):
    s = table(ref())
    s.factories[0] = counts("POYB")
    balance(s)
    s = load(s)
    s.apply_action(draft_action(0, P, 0))                  # column 1 is S1a PPPOY
    d = s.to_dict()
    assert d["factories"][0] == "" and d["centre"] == "OYB"
    assert column(s, 0, 0)["pieces"] == "P"
    assert d["token"] == "centre" and board(s, 0)[1] == 0


def test_T2_the_first_centre_draft_takes_the_token_and_one_step_RU114(load):
    s = table(ref(), to_move=1)
    s.factories[0] = counts("PPPP")                        # the round goes on after the draft
    s.centre = counts("OOOY")
    s.boards[1].track = 2
    lay(s, 1, 4, "S2", "a")                                # OOOYB: 3 free orange cells
    balance(s)
    s = load(s)
    s.apply_action(draft_action(CENTRE, O, 4))
    d = s.to_dict()
    assert column(s, 1, 4)["pieces"] == "OOO" and d["token"] == "B" and board(s, 1)[1] == 3
    assert d["centre"] == "Y"


def test_T22_the_second_centre_draft_of_a_round_takes_no_token_and_no_step_RU104(load):
    s = table(ref())
    s.factories[0] = counts("PPPP")
    s.centre = counts("OY")
    s.token = 1                                            # seat B took it earlier this round
    balance(s)
    s = load(s)
    s.apply_action(draft_action(CENTRE, Y, 0))             # S1a has a free Y
    assert s.to_dict()["token"] == "B" and board(s, 0)[1] == 0


# --- T3, T14: where the pieces may go --------------------------------------------------------

def _t3_table():
    """T3: glazier at column 4 (index 3); A (column 2) left of it with free O; B under it = S7a with one
    O placed; C (column 6) = S2a empty; the other reachable strips take no orange."""
    s = table(ref(), to_move=1)
    s.factories[0] = counts("PPPP")
    s.centre = counts("OOOY")
    b = 1
    for col, name, face in ((0, "S5", "a"), (1, "S4", "b"), (2, "S6", "a"), (3, "S7", "a"), (4, "S1", "b"),
                            (5, "S2", "a"), (6, "S3", "a"), (7, "S8", "a")):
        lay(s, b, col, name, face)
    put(s, b, 3, "O")
    s.boards[b].glazier = 3
    balance(s)
    return s


def test_T3_only_strips_at_or_right_of_the_glazier_with_a_free_cell_are_legal_RU144_150(load):
    s = load(_t3_table())
    assert targets(s, CENTRE, O) == [3, 5]                 # A (column 2) is left of the glazier
    b_state = s.clone()
    b_state.apply_action(draft_action(CENTRE, O, 3))       # B: 1 placed, 2 broken + the token = 3 steps
    assert board(b_state, 1)[1:] == (3, 0, 3)
    assert b_state.to_dict()["seats"][1]["score"] == 0
    c_state = s.clone()
    c_state.apply_action(draft_action(CENTRE, O, 5))       # C: the glazier moves, 3 placed, the token's step
    assert board(c_state, 1)[1:] == (1, 0, 5)
    assert column(c_state, 1, 5)["pieces"] == "OOO"


def test_T14_break_all_is_illegal_while_a_candidate_exists_AD12_RU130(load):
    s = _t3_table()
    s.boards[1].glazier = 5
    put(s, 1, 5, "OO")                                     # S2a with one free O cell left
    balance(s)
    s = load(s)
    assert targets(s, CENTRE, O) == [5]                    # no BREAK: one piece must be placed
    s.apply_action(draft_action(CENTRE, O, 5))
    assert column(s, 1, 5)["pieces"] == "OOO" and board(s, 1)[1] == 3    # 2 broken + the token


def test_T14_with_no_reachable_accepting_cell_everything_breaks_and_the_glazier_stays_AD12(load):
    s = _t3_table()
    s.boards[1].glazier = 6                                # S3a YYYBG, S8a YYGGB: no orange
    balance(s)
    s = load(s)
    assert targets(s, CENTRE, O) == [BREAK]
    s.apply_action(draft_action(CENTRE, O, BREAK))
    assert board(s, 1)[1:] == (4, 0, 6) and s.to_dict()["tower"]["O"] == 3


# --- T4, T5, T13, T15: completing a strip ----------------------------------------------------------

def _t4_table():
    s = table(ref(), indicator="POYBGP", round_=2)         # round III's colour is yellow
    s.factories[0] = counts("YPPP")
    lay(s, 0, 4, "S6", "a")                                # PPYYO
    put(s, 0, 4, "PPYO")
    s.boards[0].glazier = 4
    s.boards[0].top[5] = B                                 # windows 6 and 8 occupied, 7 empty
    s.boards[0].top[7] = G
    balance(s)
    return s


def test_T4_the_round_bonus_counts_the_round_colour_on_the_completed_strip_RU156(load):
    s = load(_t4_table())
    s.apply_action(draft_action(0, Y, 4))
    assert s.to_dict()["phase"] == "keep" and board(s, 0)[0] == 2
    assert s.current_player() == 0 and s.legal_actions() == [rules.KEEP0 + c for c in (P, O, Y)]


def test_T5_keeping_a_piece_flips_the_strip_and_scores_the_windows_to_the_right_RU162_182(load):
    s = load(_t4_table())
    tower = sum(s.to_dict()["tower"].values())
    s.apply_action(draft_action(0, Y, 4))
    s.apply_action(rules.KEEP0 + P)
    col = column(s, 0, 4)
    assert col["window"] == ["P", None] and col["face"] == "b" and col["pieces"] == ""
    assert board(s, 0) == (7, 0, 0, 4)                     # +2 bonus, +5 = 2 + 2 + 1 [RU:182]
    assert sum(s.to_dict()["tower"].values()) == tower + 4
    assert s.current_player() == 1


def test_T13_a_second_completion_fills_the_bottom_cell_and_removes_the_strip_RU170(load):
    s = table(ref(), indicator="POYBGP")
    s.factories[0] = counts("BPPP")
    s.factories[1] = counts("OOOO")
    s.factories[2] = counts("GGGG")
    lay(s, 0, 3, "S4", "a")                                # BBBGP
    put(s, 0, 3, "BBGP")
    s.boards[0].top[3] = O
    s.boards[0].glazier = 3
    balance(s)
    s = load(s)
    s.apply_action(draft_action(0, B, 3))
    s.apply_action(rules.KEEP0 + G)
    col = column(s, 0, 3)
    assert col["window"] == ["O", "G"]
    assert board(s, 0) == (1 + 2, 0, 0, 3)                 # bonus 1 (a pink piece, round I), window 4 alone = 2
    s.apply_action(draft_action(1, O, 1))                  # B drafts; A again:
    assert board(s, 0)[3] == 3 and targets(s, 2, G) == [4, 7]   # the glazier stays above the empty column


def test_T15_pieces_go_on_jokers_and_keep_their_colour_RU132(load):
    s = table(ref(), indicator="GPOYBG")                   # round I's colour is green
    s.factories[0] = counts("GGPP")
    lay(s, 0, 2, "S8", "b")                                # P O B J J
    put(s, 0, 2, "POB")
    s.boards[0].glazier = 2
    balance(s)
    s = load(s)
    assert 2 in targets(s, 0, G)
    s.apply_action(draft_action(0, G, 2))
    assert board(s, 0)[0] == 2                             # two green pieces on the jokers: bonus 2
    assert rules.KEEP0 + G in s.legal_actions()


# --- T10: the -18 step -----------------------------------------------------------------------------

def test_T10_reaching_the_bottom_loses_18_and_restarts_at_the_top_AD8_RU218(load):
    s = table(ref())
    s.factories[0] = counts("GGGP")
    lay(s, 0, 7, "S2", "a")                                # OOOYB: no green
    s.boards[0].glazier = 7
    s.boards[0].track = 6
    balance(s)
    s = load(s)
    s.apply_action(draft_action(0, G, BREAK))
    assert board(s, 0)[:3] == (-18, 1, 1)


# --- T11, T12: reset ---------------------------------------------------------------------------

def test_T11_no_reset_above_the_leftmost_present_strip_RU190(load):
    s = table(ref())
    s.factories[0] = counts("PPPP")
    balance(s)
    assert RESET not in load(s).legal_actions()


def test_T12_reset_returns_to_the_leftmost_present_strip_never_to_an_empty_column_AD11_RU188(load):
    s = table(ref())
    s.factories[0] = counts("PPPP")
    for k in (0, 1):
        s.boards[0].top[k], s.boards[0].bottom[k] = O, Y
    s.boards[0].glazier = 5
    balance(s)
    a = load(s)
    assert RESET in a.legal_actions()
    a.apply_action(RESET)
    assert board(a, 0)[3] == 2
    s.boards[0].glazier = 1                                # above the empty column 2
    balance(s)
    assert RESET not in load(s).legal_actions()


# --- T16..T18: end of a round, refill ----------------------------------------------------------

def test_T16_the_last_piece_ends_the_round_and_the_indicator_piece_goes_to_the_tower_AD9(load):
    s = table(ref(), indicator="POYBGP")
    s.factories[2] = counts("Y")
    balance(s)
    s = load(s)
    tower_p = s.to_dict()["tower"]["P"]
    s.apply_action(draft_action(2, Y, 0))
    d = s.to_dict()
    assert d["phase"] == "refill" and d["round"] == 2 and d["tower"]["P"] == tower_p + 1
    assert s.current_player() == CHANCE


def test_AD10_an_unclaimed_token_leaves_the_previous_starter_to_start_again(load):
    """Nobody drafted from the centre this round (every draft took a one-colour factory): the token is
    still in the centre at the round's end, and the seat that put it there starts the next round."""
    for starter in (0, 1):
        s = table(ref(), indicator="POYBGP", to_move=0)
        s.starter = starter
        s.factories[2] = counts("Y")
        balance(s)
        s = load(s)
        assert s.to_dict()["token"] == "centre"
        s.apply_action(draft_action(2, Y, 0))
        assert s.to_dict()["starter"] == "AB"[starter]
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        assert s.current_player() == starter and s.to_dict()["round"] == 2


def test_T16_after_round_6_the_game_is_over_with_no_refill(load):
    s = table(ref(), indicator="POYBGP", round_=5)
    s.factories[2] = counts("Y")
    balance(s)
    s = load(s)
    s.apply_action(draft_action(2, Y, 0))
    assert s.is_terminal() and s.to_dict()["factories"] == [""] * 5 and s.chance_outcomes() == []


def _refill_table(n, bag: str):
    s = table(ref(n), indicator="POYBGP", round_=1)
    s.phase, s.to_move = rules.PHASE_REFILL, -1
    have = [PIECES_PER_COLOUR - (c in (O, Y, B, G, P)) for c in range(NUM_COLOURS)]   # the indicator
    return s, have


def test_T17_an_empty_bag_is_refilled_from_the_tower_and_filling_goes_on_RU198(load):
    s, _ = _refill_table(2, "")
    s.bag = [0] * NUM_COLOURS
    have = s.piece_counts()
    s.bag = counts("POY")
    s.tower = [PIECES_PER_COLOUR - have[c] - s.bag[c] for c in range(NUM_COLOURS)]
    s.check()
    s = load(s)
    for _ in range(3):
        s.apply_action(s.chance_outcomes()[0][0])
    d = s.to_dict()
    assert sum(d["tower"].values()) == 0 and sum(d["bag"].values()) == 100 - 5 - 3
    assert s.is_chance_node() and d["factories"][0] == "POY"


def test_T18_a_short_supply_fills_the_factories_in_order_and_the_round_starts_RU200_AD15(load):
    s, _ = _refill_table(3, "")
    s.tower = [0] * NUM_COLOURS
    s.bag = [0] * NUM_COLOURS
    supply = counts("PPOOYY")
    have = s.piece_counts()
    absorb(s, [PIECES_PER_COLOUR - have[c] - supply[c] for c in range(NUM_COLOURS)])
    s.bag = [0] * NUM_COLOURS
    s.tower = supply                                        # the bag is poured from the tower first
    s.bag[P], s.tower[P] = 1, 1
    s.check()
    s = load(s)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    d = s.to_dict()
    assert [len(f) for f in d["factories"]] == [4, 2, 0, 0, 0, 0, 0]
    assert d["phase"] == "draft" and s.current_player() == 0


# --- T19, T20 and §11.6: setup ---------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_T19_setup_leaves_94_minus_4F_in_the_bag_and_one_repeated_round_colour_RU61(load, n):
    for seed in range(4):
        s = load(ref(n).new_initial_state())
        rng = random.Random(seed)
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        d = s.to_dict()
        assert sum(d["bag"].values()) == 94 - 4 * FACTORIES[n]
        assert sorted(set(d["indicator"])) == sorted("POYBG") and len(d["indicator"]) == 6
        assert all(len(f) == 4 for f in d["factories"]) and d["to_move"] == "A"
        assert all(seat["glazier"] == 1 for seat in d["seats"])


def test_T20_and_AD18_setup_probabilities_strips_uniform_faces_half_joker_face_down(load):
    s = load(ref(2).new_initial_state())
    seen_joker = 0
    rng = random.Random(4)
    while s.is_chance_node():
        kind = s.chance_kind
        outcomes = s.chance_outcomes()
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        if kind == rules.CHANCE_STRIP:
            assert len({p for _, p in outcomes}) == 1
        elif kind == rules.CHANCE_FACE:
            d = s.to_dict()
            col = next((c for seat in d["seats"] for c in seat["columns"] if c["face"] is None))
            if col["strip"] == 8:
                assert outcomes == [(0, 1.0)]              # the joker face (S8 b) is never up at start
                seen_joker += 1
            else:
                assert outcomes == [(0, 0.5), (1, 0.5)]
        elif kind == rules.CHANCE_INDICATOR and s.to_dict()["indicator"][1:].count(None) == 0:
            assert outcomes == [(c, 19 / 95) for c in range(5)]          # round I from the bag of 95
        else:
            bag = s.to_dict()["bag"]
            if kind == rules.CHANCE_DRAW:
                total = sum(bag.values())
                assert outcomes == [(c, v / total) for c, v in enumerate(bag.values()) if v]
        s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    assert seen_joker == 2


# --- T6..T9, T21: the end of the game ------------------------------------------------------------

def test_T6_T7_leftover_pieces_over_all_strips_and_the_track_value_RU212_RU215():
    s = table(ref())
    s.factories[0] = counts("G")
    put(s, 0, 0, "PPPO")
    put(s, 0, 1, "OO")
    put(s, 0, 2, "Y")
    s.boards[0].track = 5
    balance(s)
    breakdown = s.final_breakdown(0)
    assert breakdown["leftover"] == 2 and breakdown["broken glass"] == -8


def test_T8_side_A_ornaments_AD6_RU235():
    s = table(ref(side="A"))
    s.factories[0] = counts("G")
    b = s.boards[0]
    for k in range(4):
        b.top[k], b.bottom[k] = P, O
    b.top[4] = Y
    b.top[6], b.top[7] = B, G
    balance(s)
    assert s.side_score(0) == 10 + 10 + 0 + 3


def test_T9_side_B_complete_windows_times_the_best_colour_RU239():
    s = table(ref(side="B"))
    s.factories[0] = counts("G")
    b = s.boards[0]
    for k, (t, bt) in enumerate([(O, O), (O, O), (O, P), (Y, B)]):
        b.top[k], b.bottom[k] = t, bt
    b.top[4] = G
    balance(s)
    assert s.side_score(0) == 4 * 5


def test_the_end_of_the_game_adds_the_final_scoring(load):
    s = table(ref(side="A"), round_=5)
    s.factories[0] = counts("Y")
    put(s, 0, 1, "OO")
    put(s, 0, 3, "B")
    s.boards[0].track = 2
    s.boards[0].top[6] = P
    s.boards[0].top[7] = G
    balance(s)
    s = load(s)
    s.apply_action(draft_action(0, Y, 0))                  # 4 pieces on strips: +1; track -2; ornament 2 cells: +3
    assert s.is_terminal() and s.scores()[0] == 1 - 2 + 3


def test_T21_the_tie_break_is_the_points_lost_to_the_track_AD14_RU243(load):
    s = table(ref(), round_=5)
    s.factories[0] = counts("Y")
    s.boards[0].score, s.boards[0].hits, s.boards[0].track = 12, 1, 0     # X: lost 18
    s.boards[1].score, s.boards[1].hits, s.boards[1].track = 26, 0, 7     # Y: ends on -14 -> 12, lost 14
    put(s, 0, 6, "")
    balance(s)
    s = load(s)
    s.apply_action(draft_action(0, Y, BREAK) if targets(s, 0, Y) == [BREAK] else s.legal_actions()[0])
    assert s.is_terminal()
    scores = s.scores()
    assert scores[0] == scores[1], scores
    assert s.returns() == [0.0, 1.0]


# --- refusals and texts ------------------------------------------------------------------------

def test_move_texts_round_trip_and_an_illegal_move_changes_nothing(load):
    s = load(_t3_table())
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.action_to_string(draft_action(CENTRE, O, 5)) == "C O>6"
    assert s.action_to_string(draft_action(0, P, BREAK)) == "F1 P>x"
    before = s.to_json()
    with pytest.raises(IllegalMoveError, match="illegal move 'C O>2'"):
        s.play("C O>2")
    with pytest.raises(IllegalMoveError, match="invalid move"):
        s.play("F1 Q>2")
    assert s.to_json() == before
    s.play("c o>4")
    assert s.to_json() != before


# --- §11.3, §11.6: random games keep every invariant ----------------------------------------------

@pytest.mark.parametrize("n, side", [(2, "A"), (3, "B"), (4, "A"), (4, "B")])
def test_random_games_keep_every_invariant_at_every_ply(load, n, side):
    """Every component conserved, no negative counts, legal actions empty only at the end (§11.3)."""
    for seed in range(3):
        rng = random.Random(seed)
        s = load(ref(n, side).new_initial_state())
        keeps = decisions = 0
        resets = [0] * n
        drafts = [0] * n
        while not s.is_terminal():
            if s.is_chance_node():
                assert s.legal_actions() == []
                outcomes = s.chance_outcomes()
                a = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = s.legal_actions()
                assert legal and s.chance_outcomes() == []
                a = rng.choice(legal)
                keeps += a >= rules.KEEP0
                decisions += 1
                resets[s.current_player()] += a == RESET
                drafts[s.current_player()] += a < rules.DRAFT_ACTIONS
            s.apply_action(a)
            s.check()
            d = s.to_dict()
            assert sum(d["bag"].values()) >= 0
        assert keeps <= 16 * n and decisions <= s.game.max_game_length()     # §11.5
        assert all(r <= d for r, d in zip(resets, drafts))                      # §5.4
        assert s.legal_actions() == [] and math.isclose(sum(s.returns()), 1.0)
