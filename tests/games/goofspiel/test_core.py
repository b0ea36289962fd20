"""The compiled Goofspiel core against the reference model, in lockstep, and its C game interface.

Every node of many seeded random games is compared field for field (legal actions, chance outcomes
and probabilities, keys, information-set keys, views, resamples, turn ids, priors, returns); the C
game interface (`GOOFSPIEL_OPS`) is walked through its function pointers only (the `_ops_check`
helper, as the native search calls it) and held against the reference; playouts run in C.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from burano_ai.core._game import NativeState, playouts
from burano_ai.core.errors import OptionError
from burano_ai.games.goofspiel import _core, _ops_check, reference, rules

CONFIGS = [(2, 13, "random"), (2, 4, "descending"), (3, 7, "random"), (3, 16, "ascending"),
           (4, 9, "random"), (5, 16, "random"), (5, 5, "descending"), (2, 2, "random")]


def same_node(ref: reference.State, core: _core.State) -> None:
    """Assert that the two states agree on everything the State API shows."""
    n = ref.num_players
    assert core.to_dict() == ref.to_dict()
    assert core.key() == core.full_key() == ref.key()
    assert core.current_player() == ref.current_player()
    assert core.is_terminal() == ref.is_terminal() and core.is_chance_node() == ref.is_chance_node()
    assert core.legal_actions() == ref.legal_actions()
    assert core.chance_outcomes() == ref.chance_outcomes()
    assert core.scores() == ref.scores() and core.returns() == ref.returns()
    assert core.estimated_scores() == pytest.approx(ref.estimated_scores())
    assert core.decision_mode() == ref.decision_mode() and core.turn_id() == ref.turn_id()
    legal = ref.legal_actions()
    p_ref, p_core = ref.prior(ref.current_player(), legal), core.prior(core.current_player(), legal)
    assert (p_ref is None) == (p_core is None)
    if p_ref is not None:
        assert p_core == pytest.approx(p_ref, rel=1e-12)
    for seat in range(n):
        assert core.information_state_key(seat) == ref.information_state_key(seat)
        assert core.to_dict(seat) == ref.to_dict(seat)
        assert core.finishing_key(seat) == ref.finishing_key(seat)
    core.check()


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}p-{c[1]}-{c[2]}")
def test_the_core_plays_in_lockstep_with_the_reference(config):
    ref_game, core_game = reference.Game(*config), _core.Game(*config)
    for seed in range(25):
        rng = random.Random(seed)
        ref, core = ref_game.new_initial_state(), core_game.new_initial_state()
        while True:
            same_node(ref, core)
            if ref.is_terminal():
                break
            for seat in range(config[0]):       # the same sample for the same seed
                r, c = ref.resample(seat, seed * 31 + seat), core.resample(seat, seed * 31 + seat)
                assert r.key() == c.key() and r.to_dict() == c.to_dict()
            options = ref.chance_outcome_actions() or ref.legal_actions()
            a = rng.choice(options)
            ref.apply_action(a)
            core.apply_action(a)


def test_positions_load_into_both_implementations_alike():
    for config in CONFIGS:
        ref_game, core_game = reference.Game(*config), _core.Game(*config)
        rng = random.Random(sum(config[:2]))
        ref = ref_game.new_initial_state()
        while not ref.is_terminal():
            for seat in (None, *range(config[0])):
                text = ref.to_json(seat)
                a, b = ref_game.state_from_json(text), core_game.state_from_json(text)
                same_node(a, b)
                assert b.to_json(seat) == text
            ref.apply_action(rng.choice(ref.chance_outcome_actions() or ref.legal_actions()))


def test_the_compiled_state_is_a_native_state_with_the_goofspiel_ops():
    state = _core.Game(4, 9).new_initial_state()
    assert isinstance(state, NativeState)
    assert state.abi_version == 4 and state.native_num_actions == rules.MAX_CARDS
    ops = _ops_check.describe(state)
    assert ops["min_players"] == rules.MIN_PLAYERS and ops["max_players"] == rules.MAX_PLAYERS
    assert ops["num_players"] == 4 and ops["max_legal"] == rules.MAX_CARDS
    assert ops["state_size"] > 0
    with pytest.raises(ValueError):
        _ops_check.describe(NativeState())


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}p-{c[1]}-{c[2]}")
def test_the_c_game_interface_agrees_with_the_reference(config):
    """A walk through the function pointers only, replayed on the reference node by node, for every deck and
    prize order (the conformance suite walks the default game), resampling the reference's world at every
    decision."""
    from conformance.c_interface import reference_world, walk_against_reference
    walk_against_reference(_core.Game(*config), reference.Game(*config), range(20), hidden=True,
                           world=reference_world, resample_every=1)


@pytest.mark.parametrize("policy", [0, 1], ids=["random", "heuristic"])
def test_playouts_through_the_ops_reach_the_end(policy):
    for config in CONFIGS:
        game = _core.Game(*config)
        state = game.new_initial_state()
        for seed in range(30):
            status, scores, shares, key = _ops_check.playout(state, seed, policy)
            assert status == (config[1] - 1) * (config[0] + (config[2] == "random"))    # actions applied
            assert sum(shares) == pytest.approx(1.0)
            assert sum(scores) <= config[1] * (config[1] + 1) // 2
            final = state.clone()
            assert final.playout(seed, ("random", "heuristic")[policy]) == scores
            assert final.is_terminal() and final.key() == key and final.returns() == shares
            final.check()


def test_playouts_are_seeded_and_the_heuristic_bids_near_the_prize():
    state = _core.Game(2, 13, "descending").new_initial_state()
    assert playouts(state, 200, seed=5) == playouts(state, 200, seed=5)
    steps, wins = playouts(state, 500, seed=1, policy="heuristic")
    assert steps == 500 * 12 * 2 and sum(wins) == pytest.approx(500)
    # B's last decision: prize 16, B holds 1 and 16, A bid 1. Bidding 16 wins (16 to 1 after the
    # last round); bidding 1 ties both rounds (a shared win). So B's share = (1 + P(bid 16)) / 2.
    text = json.dumps({
        "format": "goofspiel-position/1", "view": None, "players": 2, "num_cards": 16,
        "points_order": "random", "round": 14, "phase": "bid", "prize": 16, "prizes_left": [1],
        "seats": [{"hand": [1, 16], "bid": 1, "won": [], "points": 0},
                  {"hand": [1, 16], "bid": None, "won": [], "points": 0}]})
    last = _core.Game(2, 16).state_from_json(text)
    count = 4000
    for policy, expected in (("heuristic", 16 / 17), ("random", 0.5)):
        _, wins = playouts(last, count, seed=9, policy=policy)
        assert 2 * wins[1] / count - 1 == pytest.approx(expected, abs=0.03)
    with pytest.raises(OptionError):
        playouts(state, -1)
    with pytest.raises(OptionError):
        state.playout(0, "greedy")


def test_states_pickle_and_copy():
    state = _core.Game(3, 6).new_initial_state()
    state.play("prize 2")
    state.play("bid 5")
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and again.key() == state.key()
    again.play("bid 1")
    again.check()
    assert state.bids == [5, 0, 0]
    assert _ops_check.describe(again)["num_players"] == 3
