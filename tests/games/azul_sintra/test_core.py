"""The compiled Azul: Stained Glass of Sintra core against the reference model, in lockstep.

Seeded random games are played on both implementations at once: at every step the same current
player, legal actions, chance outcomes with their probabilities and kinds, move texts, Zobrist and
information-set keys (the compiled key kept incrementally, checked against its recomputation), JSON
and scores; at the end the same returns. Then the C interface on its own: playouts in C finish with
the game's invariants, and a playout from a copy never touches the original.
"""

from __future__ import annotations

import math
import pickle
import random

import pytest

from burano_ai.games.azul_sintra.reference import Game as ReferenceGame
from conformance.c_interface import check_playouts, mean_playout_score

core = pytest.importorskip("burano_ai.games.azul_sintra._core")

GAMES_PER_CASE = 8


@pytest.mark.parametrize("n, side", [(2, "A"), (2, "B"), (3, "A"), (3, "B"), (4, "A"), (4, "B")])
def test_the_core_plays_every_step_as_the_reference_does(n, side):
    ref_game, c_game = ReferenceGame(n, side), core.Game(n, side)
    for seed in range(GAMES_PER_CASE):
        rng = random.Random(1000 * n + seed)
        r, c = ref_game.new_initial_state(seed), c_game.new_initial_state(seed)
        steps = 0
        while True:
            assert c.current_player() == r.current_player(), steps
            assert c.legal_actions() == r.legal_actions(), steps
            assert c.chance_outcomes() == r.chance_outcomes(), steps
            assert c.key() == r.key() == c.full_key(), steps
            assert c.turn_id() == r.turn_id()
            if steps % 11 == 0:
                assert c.to_json() == r.to_json()
                assert c.information_state_key(1) == r.information_state_key(1)
                assert c.estimated_scores() == r.estimated_scores()
            if r.is_terminal():
                break
            if r.is_chance_node():
                assert c.chance_kind == r.chance_kind
                outcomes = r.chance_outcomes()
                a = rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                a = rng.choice(r.legal_actions())
            assert c.action_to_string(a) == r.action_to_string(a)
            r.apply_action(a)
            c.apply_action(a)
            assert c.scores() == r.scores()
            steps += 1
        assert c.to_json() == r.to_json()
        assert c.returns() == r.returns()
        assert [c.finishing_key(p) for p in range(n)] == [r.finishing_key(p) for p in range(n)]
        c.check()


def test_playouts_in_c_end_the_game_with_its_invariants_and_leave_the_original_alone():
    check_playouts(core.Game(3, "B").new_initial_state(), range(20), games=50, min_steps=300)


def test_a_state_pickles_and_a_json_round_trip_keeps_the_key():
    game = core.Game(2)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(150):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[rng.randrange(len(state.chance_outcomes()))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and again.key() == state.key()
    loaded = game.state_from_json(state.to_json())
    assert loaded.key() == state.key() and loaded.legal_actions() == state.legal_actions()


def test_custom_data_reaches_the_core(tmp_path):
    from burano_ai.games.azul_sintra.data import default_data
    d = default_data().to_dict()
    d["window_values"]["value"] = [9, 9, 9, 9, 9, 9, 9, 9]
    d["placeholder"] = False
    r, c = ReferenceGame(2, data=d), core.Game(2, data=d)
    rng = random.Random(5)
    rs, cs = r.new_initial_state(), c.new_initial_state()
    while not rs.is_terminal():
        if rs.is_chance_node():
            a = rng.choice([x for x, _ in rs.chance_outcomes()])
        else:
            a = rng.choice(rs.legal_actions())
        rs.apply_action(a)
        cs.apply_action(a)
    assert cs.to_json() == rs.to_json() and '"data": {' in rs.to_json()
    assert c.state_from_json(rs.to_json()).key() == cs.key()


def test_the_c_game_interface_alone_agrees_with_the_reference_on_side_b():
    """The conformance suite walks the ops of side A at every player count (tests/conformance/c_interface.py);
    side B's walls and scoring here."""
    from conformance.c_interface import walk_against_reference
    assert walk_against_reference(core.Game(3, "B"), ReferenceGame(3, "B"), range(4), hidden=False) > 4


def test_sample_chance_draws_pieces_with_the_bag_s_frequencies():
    """At a refill the C sampler draws colour c with probability bag[c] / total (§11.2, §11.6)."""
    state = core.Game(2).new_initial_state()
    while state.chance_kind != 3:                                      # up to the first factory draw
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(0)
    state.apply_action(0)                                              # a bag no longer uniform
    probs = dict(state.chance_outcomes())
    trials = 6000
    counts = {c: 0 for c in probs}
    for seed in range(trials):
        counts[state.sample_chance(seed)] += 1
    for c, p in probs.items():
        assert abs(counts[c] / trials - p) < 5 * (p * (1 - p) / trials) ** 0.5, (c, counts, probs)
    setup = core.Game(2).new_initial_state()
    offered = {a for a, _ in setup.chance_outcomes()}
    assert {setup.sample_chance(seed) for seed in range(200)} == offered


def test_the_heuristic_playout_places_rather_than_breaks_and_stays_legal():
    """policy "heuristic" (the search's default): seeded, ends every game with its invariants, and plays
    far better than uniform random (mean score over the same 100 seeds)."""
    from burano_ai.games.goofspiel import _ops_check
    state = core.Game(2, "B").new_initial_state()
    means = {policy: mean_playout_score(state, range(100), policy, check=True) for policy in ("random", "heuristic")}
    assert means["heuristic"] > means["random"] + 30, means
    again = state.clone()
    assert again.playout(5, "heuristic") == state.clone().playout(5, "heuristic")
    status, scores, shares, key = _ops_check.playout(state, 5, 1)
    assert status >= 0 and scores == again.scores() and key == again.key()
    with pytest.raises(Exception, match="unknown playout policy"):
        state.clone().playout(1, "smart")


def test_the_prior_is_the_softmax_of_the_move_preference_in_c_and_in_python():
    """`State.prior` (C `prior_c` and `heuristic.prior`) agree at every draft of seeded games, sum to 1,
    rank a placing draft above a break-all of the same pieces, and say nothing in the keep phase or
    for a seat not to move."""
    from burano_ai.games.azul_sintra import heuristic
    ref_game, c_game = ReferenceGame(3, "A"), core.Game(3, "A")
    seen = keeps = 0
    for seed in range(3):
        rng = random.Random(seed)
        r, c = ref_game.new_initial_state(), c_game.new_initial_state()
        while not r.is_terminal():
            if r.is_chance_node():
                a = rng.choice([x for x, _ in r.chance_outcomes()])
            else:
                legal = r.legal_actions()
                p, q = r.prior(r.to_move, legal), c.prior(c.to_move, legal)
                if r.phase_name() == "keep":
                    assert p is None and q is None
                    keeps += 1
                else:
                    assert q == pytest.approx(p, rel=1e-12) and sum(p.values()) == pytest.approx(1.0)
                    values = {a: heuristic.draft_value(r, a) for a in legal}
                    best = max(values, key=values.get)
                    assert max(p, key=p.get) == best or values[max(p, key=p.get)] == values[best]
                    assert r.prior((r.to_move + 1) % 3, legal) is None
                    assert c.prior((r.to_move + 1) % 3, legal) is None
                    seen += 1
                a = rng.choice(legal)
            r.apply_action(a)
            c.apply_action(a)
    assert seen > 100 and keeps > 0


# ------------------------------------------------------------------------------------------------
# AD-21: a round that starts with an empty table ends at once


def empty_table_position(round_: int, indicator_to_tower: bool) -> dict:
    """A 3-player draft of round `round_` + 1 (0-based) with one pink piece left on F1, seat C to move, bag
    and tower empty: every other piece lies on the palace boards (window tops and strips, none complete)
    or is an indicator piece. Seat C can place the pink on strips 4-6, so its last draft empties the
    table with nothing for the refill (the position AD-21 is about; reachable only at 3-4 players,
    docs/rules-decisions-azul-sintra.md)."""
    from .helpers import P, absorb, table
    from burano_ai.games import get_spec
    from burano_ai.games.azul_sintra.data import NUM_COLOURS, PIECES_PER_COLOUR
    game = get_spec("azul-sintra").new_game(3, "reference", indicator_to_tower=indicator_to_tower)
    state = table(game, indicator="PPOYBG", round_=round_, to_move=2)
    state.factories[0][P] = 1
    state.bag = [0] * NUM_COLOURS
    have = state.piece_counts()
    absorb(state, [PIECES_PER_COLOUR - have[c] for c in range(NUM_COLOURS)])
    state.check()
    assert sum(state.tower) == 0
    return state.to_dict()


@pytest.mark.parametrize("round_", [3, 4])
def test_a_round_that_starts_with_an_empty_table_ends_at_once_in_both_models(round_):
    """AD-21 with the used indicator piece leaving the game (AD-9 option off): the last draft of round 4 (or
    5) empties the table, the refill finds bag and tower empty, and every round left starts and ends at once
    (its indicator piece out too) until the game's end: final scoring once, no turn taken in the empty
    rounds. The reference and the core agree on every move and every state after it."""
    from burano_ai.games import get_spec
    spec = get_spec("azul-sintra")
    d = empty_table_position(round_, indicator_to_tower=False)
    legal = None
    for action_index in range(3):
        r, c = spec.load_position(d, ReferenceGame)[0], spec.load_position(d, core.Game)[0]
        assert r.legal_actions() == c.legal_actions()
        legal = r.legal_actions()
        assert [r.action_to_string(a) for a in legal] == ["F1 P>4", "F1 P>5", "F1 P>6"]
        before = [r.boards[p].score for p in range(3)]
        r.apply_action(legal[action_index])
        c.apply_action(legal[action_index])
        assert c.to_json() == r.to_json() and c.key() == r.key() == c.full_key()
        assert r.is_terminal() and c.is_terminal() and r.legal_actions() == c.legal_actions() == []
        after = r.to_dict()
        assert after["phase"] == "over" and after["round"] == 6 and after["turn"] == d["turn"] + 1
        assert not any(after["factories"]) and not any(after["bag"].values()) and not any(after["tower"].values())
        r.check()
        c.check()          # 20 of each colour: all six indicator pieces out of the game
        assert r.scores() == c.scores() == [before[p] + sum(r.final_breakdown(p).values()) for p in range(3)]
        assert r.returns() == c.returns()


def test_with_the_indicator_to_the_tower_the_table_is_never_empty_at_a_refill():
    """AD-9 (default): the same last draft sends round 4's indicator piece to the tower, the refill pours it
    into the bag and draws it (one outcome), and round 5 starts with that piece alone on F1: the empty
    round of AD-21 cannot happen with the option on. Both models agree."""
    from burano_ai.games import get_spec
    spec = get_spec("azul-sintra")
    d = empty_table_position(3, indicator_to_tower=True)
    r, c = spec.load_position(d, ReferenceGame)[0], spec.load_position(d, core.Game)[0]
    action = r.legal_actions()[0]
    for s in (r, c):
        s.apply_action(action)
    assert r.is_chance_node() and c.is_chance_node()
    assert r.chance_outcomes() == c.chance_outcomes() == [(r.indicator[3], 1.0)]
    for s in (r, c):
        s.apply_action(r.indicator[3])
    assert c.to_json() == r.to_json()
    after = r.to_dict()
    assert after["phase"] == "draft" and after["round"] == 5 and after["factories"][0] == "Y"
    assert not any(after["factories"][1:]) and r.legal_actions() == c.legal_actions() != []
