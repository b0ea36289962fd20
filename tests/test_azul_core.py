"""The compiled Azul: Stained Glass of Sintra core against the reference model, in lockstep.

Seeded random games are played on both implementations at once: at every step the same current
player, legal actions, chance outcomes with their probabilities and kinds, move texts, Zobrist and
information-set keys (the compiled key kept incrementally, checked against its recomputation), JSON
and scores; at the end the same returns. Then the C interface on its own: playouts in C finish with
the game's invariants, and a playout from a copy never touches the original.
"""

from __future__ import annotations

import pickle
import random

import pytest

from burano_ai.games.azul_sintra.reference import Game as ReferenceGame

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
    game = core.Game(3, "B")
    state = game.new_initial_state()
    before = state.to_json()
    for seed in range(20):
        copy = state.clone()
        copy.playout(seed)
        assert copy.is_terminal() and abs(sum(copy.returns()) - 1.0) < 1e-12
        copy.check()
    assert state.to_json() == before
    steps, wins = core.playouts(state, 50, seed=7)
    assert steps > 50 * 300 and abs(sum(wins) - 50) < 1e-9


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
