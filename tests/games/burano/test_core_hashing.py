"""Zobrist keys, information-state keys, resampling, clones and playouts of the compiled core."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import burano_ai
from burano_ai.games.burano import _core
from burano_ai.games.burano import actions as A
from burano_ai.core.errors import OptionError
from burano_ai.games.burano.reference import Game as RefGame
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference.state import ST_PYRAMID

from positions import random_game_states


def random_states(num_players: int, seed: int, every: int = 1):
    """`positions.random_game_states` of the compiled core."""
    return random_game_states(num_players, seed, every, _core.Game)


@pytest.mark.parametrize("seed", range(100))
def test_incremental_key_equals_full_key(seed):
    n = (2, 3, 4)[seed % 3]
    for state in random_states(n, seed):
        assert state.key() == state.full_key()
    state.check()


def test_keys_differ_along_a_game():
    keys = [s.key() for s in random_states(4, 1)]
    # Every action changes the position (at least the phase machine or a counter), so no key repeats.
    assert len(set(keys)) == len(keys)


def find_state(predicate, seeds=range(200), num_players=4):
    for seed in seeds:
        for state in random_states(num_players, seed):
            if predicate(state):
                return state.clone()
    pytest.skip("no state with the wanted property in the sampled games")


def test_commuting_privilege_coin_and_take_give_equal_keys():
    def ok(s):
        legal = s.legal_actions()
        return A.PRIV_COIN in legal and any(A.TAKE <= a < A.BUILD for a in legal)
    state = find_state(ok)
    take = next(a for a in state.legal_actions() if A.TAKE <= a < A.BUILD)
    first = state.clone()
    first.apply_action(A.PRIV_COIN)
    first.apply_action(take)
    second = state.clone()
    second.apply_action(take)
    second.apply_action(A.PRIV_COIN)
    assert first.to_dict() == second.to_dict()
    assert first.key() == second.key() == first.full_key()
    assert first.key() != state.key()


def test_two_takes_in_either_order_give_equal_keys():
    def ok(s):
        if s.is_chance_node() or s.is_terminal():
            return False
        takes = [a for a in s.legal_actions() if A.TAKE <= a < A.BUILD]
        if len(takes) < 2:
            return False
        t = s.clone()
        t.apply_action(takes[0])
        return takes[1] in t.legal_actions()
    state = find_state(ok)
    takes = [a for a in state.legal_actions() if A.TAKE <= a < A.BUILD][:2]
    one, two = state.clone(), state.clone()
    one.apply_action(takes[0])
    one.apply_action(takes[1])
    two.apply_action(takes[1])
    two.apply_action(takes[0])
    assert one.to_dict() == two.to_dict()
    assert one.key() == two.key()


def test_clone_is_independent():
    game = _core.Game(4)
    state = game.new_initial_state(7)
    rng = random.Random(7)
    for _ in range(300):
        random_step(state, rng)
    before_key, before_dict = state.key(), state.to_dict()
    for make in (lambda s: s.clone(), copy.copy, copy.deepcopy):
        twin = make(state)
        assert twin.key() == before_key and twin.to_dict() == before_dict
        for _ in range(50):
            if twin.is_terminal():
                break
            random_step(twin, rng)
        assert twin.key() != before_key
        assert state.key() == before_key and state.to_dict() == before_dict


def test_pickle_round_trip():
    state = _core.Game(3).new_initial_state(2)
    rng = random.Random(2)
    for _ in range(200):
        random_step(state, rng)
    back = pickle.loads(pickle.dumps(state))
    assert back.key() == state.key() and back.to_dict() == state.to_dict()
    assert back.legal_actions() == state.legal_actions()


def test_check_detects_a_corrupted_state():
    state = _core.Game(4).new_initial_state(1)
    state.check()
    cls, game, raw = state.__reduce__()[1]
    raw = bytearray(raw)
    # The fountain cube: level 1 of the centre hole (byte 1 + hole id in the struct); change its colour.
    raw[1 + 20] = (raw[1 + 20] + 1) % 6
    bad = state.__reduce__()[0](cls, game, bytes(raw))
    with pytest.raises(AssertionError):
        bad.check()


# --- information sets and resampling


def hidden_fields(state, seat):
    """What `seat` cannot see: other seats' blind cards, and (while building) other seats' pyramids."""
    d = state.to_dict()
    out = []
    for p, entry in enumerate(d["seats"]):
        if p != seat:
            out.append(entry["hand"]["blind"])
            if state.stage == ST_PYRAMID:
                out.append((entry["pyramid"], entry["reserve"]))
    return out


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_resample_keeps_the_information_state(num_players):
    changed = 0
    checked = 0
    for seed in range(6):
        for state in random_states(num_players, seed, every=7):
            for seat in range(num_players):
                view_key = state.information_state_key(seat)
                view = state.to_dict(seat)
                for k in range(3):
                    sample = state.resample(seat, seed * 1000 + k)
                    assert sample.information_state_key(seat) == view_key
                    assert sample.to_dict(seat) == view
                    assert sample.key() == sample.full_key()
                    sample.check()
                    checked += 1
                    if hidden_fields(sample, seat) != hidden_fields(state, seat):
                        changed += 1
                        assert sample.key() != state.key()
    assert checked > 1000
    assert changed > checked // 10     # resampling really moves hidden cards and cubes


def test_resample_is_deterministic_and_leaves_the_original():
    state = find_state(lambda s: sum(sum(e["hand"]["blind"].values()) for e in s.to_dict()["seats"]) >= 3)
    key = state.key()
    a, b = state.resample(0, 99), state.resample(0, 99)
    assert a.key() == b.key() and a.to_dict() == b.to_dict()
    assert state.key() == key


@pytest.mark.parametrize("num_players", (2, 4))
def test_resample_depends_only_on_the_information_state(num_players):
    """Two states that `seat` cannot tell apart give the same sample for the same seed."""
    checked = 0
    for state in random_states(num_players, 21, every=11):
        for seat in range(num_players):
            twin = state.resample(seat, 12345)          # same information set, other hidden truth
            assert twin.information_state_key(seat) == state.information_state_key(seat)
            for seed in (1, 2):
                assert twin.resample(seat, seed).key() == state.resample(seat, seed).key()
                checked += 1
    assert checked > 100


def test_resample_during_pyramid_construction_redeals_placed_cubes():
    state = find_state(lambda s: s.stage == ST_PYRAMID and s.actor == 2
                       and s.to_dict()["seats"][1]["pyramid"].count(None) < 14)
    view1 = state.information_state_key(1)
    seen = {tuple(state.resample(2, k).to_dict()["seats"][1]["pyramid"]) for k in range(30)}
    assert len(seen) > 1
    for k in range(30):
        sample = state.resample(2, k)
        assert sample.information_state_key(2) == state.information_state_key(2)
        # Seat 1 knows its own pyramid: resampling for seat 2 must keep seat 1's cube totals.
        pyr = sample.to_dict()["seats"][1]
        ref = state.to_dict()["seats"][1]
        count = lambda e: sorted([c for c in e["pyramid"] if c] + [c for c, n in e["reserve"].items()
                                                                    for _ in range(n)])
        assert count(pyr) == count(ref)
    assert state.information_state_key(1) == view1


def test_information_state_key_matches_the_seat_view():
    """States whose one-seat views are equal have equal keys; the views of different seats differ."""
    for seed in range(3):
        for state in random_states(4, seed, every=25):
            for seat in range(4):
                loaded = state.game.state_from_json(state.to_json(seat))
                assert loaded.to_dict(seat) == state.to_dict(seat)
                assert loaded.information_state_key(seat) == state.information_state_key(seat)
            keys = {state.information_state_key(seat) for seat in range(4)}
            assert len(keys) == 4


def test_information_state_key_agrees_with_reference_resampling():
    for state in random_states(3, 11, every=40):
        ref = RefGame(3).state_from_position(state.to_position())
        for seat in range(3):
            sample = _core.State.from_position(ref.resample(seat, 5), state.game)
            assert sample.information_state_key(seat) == state.information_state_key(seat)


def test_bad_seat_raises():
    state = _core.Game(2).new_initial_state(0)
    with pytest.raises(OptionError):
        state.information_state_key(2)
    with pytest.raises(OptionError):
        state.resample(-1, 0)


# --- playouts


@pytest.mark.parametrize("policy", _core.POLICIES)
@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_playout_terminates_and_is_deterministic(policy, num_players):
    state = _core.Game(num_players).new_initial_state(4)
    key = state.key()
    first = _core.playout(state, 17, policy)
    assert state.key() == key                       # the module function plays a copy
    assert _core.playout(state, 17, policy) == first
    played = state.clone()
    assert played.playout(17, policy) == first      # the method plays in place
    assert played.is_terminal() and played.scores() == first
    assert played.key() == played.full_key()
    played.check()
    results = {tuple(_core.playout(state, seed, policy)) for seed in range(10)}
    assert len(results) > 1


def test_playout_from_a_midgame_chance_node():
    state = find_state(lambda s: s.is_chance_node() and s.stage != 0)
    scores = state.clone().playout(3, "heuristic")
    assert len(scores) == state.num_players


def test_playouts_count_games():
    state = _core.Game(4).new_initial_state(0)
    steps, wins = burano_ai.playouts(state, 20, seed=1)
    assert steps > 20 * 100
    assert sum(wins) == pytest.approx(20)


def test_unknown_policy_raises():
    state = _core.Game(2).new_initial_state(0)
    with pytest.raises(OptionError):
        _core.playout(state, 0, "greedy")


def test_reference_and_core_playouts_agree_on_winners_format():
    ref = RefGame(2).new_initial_state(0)
    core = _core.Game(2).new_initial_state(0)
    assert core.returns() == ref.returns() == [0.0, 0.0]
