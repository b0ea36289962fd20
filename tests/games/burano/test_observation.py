"""Tests of burano_ai.games.burano.observation: the one-seat observation tensor and its pyspiel path.

The tensor must tile its layout, stay in range, be the same for the core and the reference, hold the
seats relative to the observer, ignore what the seat cannot see (resampled hidden parts) and change with
anything it can see (no two different views share a tensor).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from burano_ai import Game
from burano_ai.games.burano import actions as A
from burano_ai.games.burano import observation as O
from burano_ai.games.burano.data.colours import CUBES_PER_COLOUR, PINK
from burano_ai.games.burano.data.fish import TOTAL_FISH_CARDS
from burano_ai.games.burano.data.roofs import NUM_ROOF_KINDS, TILES_PER_KIND
from burano_ai.games.burano.data.turn import EARNING
from burano_ai.games.burano.notation import position_to_dict
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game as ReferenceGame

from positions import blank_turn, give_prep, map_colour, play_random, random_game_states, rounds_state

SIZES = {2: 2988, 3: 3240, 4: 3492}
#: Segments holding exactly one 1 in every position (per seat block for the `seat` ones).
ONE_HOT = ("observer", "stage", "phase", "season", "round", "first_player", "moves", "chance")
ONE_HOT_PER_SEAT = ("ring_offset", "boat")


def segment(tensor: np.ndarray, num_players: int, name: str) -> np.ndarray:
    seg = next(s for s in O.layout(num_players) if s.name == name)
    return tensor[seg.offset:seg.offset + seg.size].reshape(seg.shape)


# --- layout


@pytest.mark.parametrize("n", [2, 3, 4])
def test_segments_tile_the_tensor_exactly(n):
    segs = O.layout(n)
    assert O.shape(n) == (SIZES[n],)
    offset = 0
    for seg in segs:
        assert seg.offset == offset and seg.size == int(np.prod(seg.shape)) > 0 and seg.meaning
        offset += seg.size
    assert offset == SIZES[n]
    names = [seg.name for seg in segs]
    assert len(set(names)) == len(names)
    assert sum(name.startswith(f"seat{n - 1}.") for name in names) == sum(name.startswith("seat0.") for name in names)


def test_bad_player_count_and_full_positions_are_refused():
    with pytest.raises(ValueError, match="num_players"):
        O.shape(5)
    state = Game(2).new_initial_state(0)
    with pytest.raises(ValueError, match="one-seat view"):
        O.encode_view(state.to_dict())


# --- values over random games


@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2), (4, 3)])
def test_values_are_in_range_and_derived_counts_match_the_state(n, seed):
    count = 0
    for state in random_game_states(n, seed, 5, Game):
        for seat in range(n):
            t = O.encode(state, seat)
            count += 1
            assert t.dtype == np.float32 and t.shape == O.shape(n) and np.isfinite(t).all()
            assert t.min() >= 0.0
            for seg in O.layout(n):
                part = segment(t, n, seg.name)
                bound = 3.0 if seg.name.endswith((".coins", ".vp")) else 1.0 + 1e-6
                assert part.max() <= bound, (seg.name, part.max())
            for name in ONE_HOT:
                assert segment(t, n, name).sum() == 1.0, name
            for k in range(n):
                for name in ONE_HOT_PER_SEAT:
                    assert segment(t, n, f"seat{k}.{name}").sum() == 1.0, name
            supply = segment(t, n, "supply") * CUBES_PER_COLOUR
            assert np.allclose(supply, state.supply(), atol=1e-4)
            assert segment(t, n, "fish_deck")[0] * TOTAL_FISH_CARDS == pytest.approx(sum(state.fish_deck()))
            assert segment(t, n, "building_deck")[0] * 16 == pytest.approx(len(state.building_deck()))
            stacks = segment(t, n, "roof_stacks") * TILES_PER_KIND
            assert np.allclose(stacks, [sum(state.roof_stack(k)) for k in range(NUM_ROOF_KINDS)], atol=1e-4)
    assert count > 100


# --- honesty


@pytest.mark.parametrize("n, seed", [(2, 11), (3, 12), (4, 13)])
def test_resampled_hidden_parts_leave_the_tensor_unchanged(n, seed):
    """Opponents' blind cards, deck order and secret pyramids may differ; the tensor may not."""
    checked = changed = 0
    for state in random_game_states(n, seed, 3, Game):
        for seat in range(n):
            t = O.encode(state, seat)
            for k in range(2):
                other = state.resample(seat, 1000 * seed + 7 * k + seat)
                assert np.array_equal(O.encode(other, seat), t)
                checked += 1
                changed += other.to_json() != state.to_json()
    assert checked > 300 and changed > 50   # the resamples really did hide something


def test_resample_invariance_on_reference_states_in_the_pyramid_stage():
    """The reference model too, where opponents' half-built pyramids are secret."""
    from burano_ai.games.burano.reference.state import ST_PYRAMID
    state = ReferenceGame(3).new_initial_state(4)
    rng = random.Random(4)
    play_random(state, rng, until=lambda s: s.stage == ST_PYRAMID and s.season == 1)
    seen = 0
    while state.stage == ST_PYRAMID:
        for seat in range(3):
            t = O.encode(state, seat)
            assert segment(t, 3, "seat1.pyramid_hidden")[0] == 1.0
            assert segment(t, 3, "seat0.pyramid_hidden")[0] == 0.0
            for k in range(3):
                assert np.array_equal(O.encode(state.resample(seat, k), seat), t)
            seen += 1
        random_step(state, rng)
    assert seen >= 3


@pytest.mark.parametrize("n, seed", [(2, 21), (4, 22)])
def test_different_views_give_different_tensors(n, seed):
    """Nothing a seat can see is lost: over many positions and seats, equal tensors mean equal views."""
    views: dict[bytes, str] = {}
    for state in random_game_states(n, seed, 1, Game):
        for seat in range(n):
            view = state.to_json(seat)
            key = O.encode(state, seat).tobytes()
            assert views.setdefault(key, view) == view
    assert len(views) > 500


def test_visible_changes_change_the_tensor():
    s = blank_turn(num_players=3)
    before = O.encode(s, 0)
    s.players[1].coins += 1
    after = O.encode(s, 0)
    diff = np.flatnonzero(after != before)
    coins = next(seg for seg in O.layout(3) if seg.name == "seat1.coins")
    assert list(diff) == [coins.offset]

    # a placed cube: the actor builds a pink cube next to the fountain
    map_colour(s, PINK, EARNING)
    give_prep(s, 0, PINK)
    before = O.encode(s, 2)
    build = next(a for a in s.legal_actions() if A.family(a) == "BUILD" and (a - A.BUILD) // 41 == PINK)
    s.apply_action(build)
    after = O.encode(s, 2)
    cubes_before, cubes_after = segment(before, 3, "cubes"), segment(after, 3, "cubes")
    assert cubes_after[0, :, PINK].sum() == cubes_before[0, :, PINK].sum() + 1
    assert segment(after, 3, "seat1.prep")[PINK] == segment(before, 3, "seat1.prep")[PINK] - 1 / 3


def test_own_blind_cards_are_seen_and_others_only_counted():
    s = blank_turn(num_players=2)
    s.players[0].hand_blind[3] = 2
    s.players[1].hand_blind[5] = 1
    mine, theirs = O.encode(s, 0), O.encode(s, 1)
    assert segment(mine, 2, "seat0.hand_blind")[3] == pytest.approx(2 / 6)
    assert segment(mine, 2, "seat1.hand_blind").sum() == 0
    assert segment(mine, 2, "seat1.hand_blind_count")[0] == pytest.approx(0.1)
    assert segment(theirs, 2, "seat0.hand_blind")[5] == pytest.approx(1 / 6)
    assert segment(theirs, 2, "seat1.hand_blind_count")[0] == pytest.approx(0.2)


# --- seats relative to the observer


def test_seats_are_written_relative_to_the_observer():
    s = blank_turn(num_players=4, actor=2)
    for p, pl in enumerate(s.players):
        pl.coins = 3 * p + 1
    for seat in range(4):
        t = O.encode(s, seat)
        assert segment(t, 4, "observer")[seat] == 1
        assert segment(t, 4, "actor")[(2 - seat) % 4] == 1
        for k in range(4):
            coins = segment(t, 4, f"seat{k}.coins")[0] * O.COINS_SCALE
            assert coins == pytest.approx(3 * ((seat + k) % 4) + 1)


def test_one_network_sees_the_same_board_from_each_seat():
    """Everything but the seat blocks and relative one-hots is shared by all seats."""
    s = rounds_state(3, seed=5)
    t0, t1 = O.encode(s, 0), O.encode(s, 1)
    for name in ("cubes", "roof_field", "markers", "docks", "ports", "fish_display", "workshop_layout"):
        assert np.array_equal(segment(t0, 3, name), segment(t1, 3, name))
    assert np.array_equal(segment(t0, 3, "seat1.ring_pieces"), segment(t1, 3, "seat0.ring_pieces"))
    assert np.array_equal(segment(t0, 3, "workshop_workers")[:, 1], segment(t1, 3, "workshop_workers")[:, 0])


# --- both implementations


@pytest.mark.parametrize("n, seed", [(2, 31), (3, 32), (4, 33)])
def test_reference_and_core_states_give_the_same_tensor(n, seed):
    ref = ReferenceGame(n).new_initial_state(seed)
    rng = random.Random(seed)
    ply = 0
    while not ref.is_terminal() and ply < 240:
        if ply % 12 == 0:
            core = Game(n).state_from_json(ref.to_json())
            for seat in range(n):
                assert np.array_equal(O.encode(ref, seat), O.encode(core, seat))
                assert np.array_equal(O.encode(ref, seat), O.encode_view(position_to_dict(ref, seat)))
        random_step(ref, rng)
        ply += 1


# --- pyspiel


def test_pyspiel_tensors_equal_encode():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    import burano_ai.games.burano.openspiel  # noqa: F401  (registers python_burano)
    game = pyspiel.load_game("python_burano(players=3)")
    assert game.observation_tensor_shape() == [SIZES[3]]
    assert game.information_state_tensor_shape() == [SIZES[3]]
    state = game.new_initial_state()
    assert not any(state.observation_tensor(0)) and not any(state.information_state_tensor(2))
    observer = make_observation(game)
    assert set(observer.dict) == {seg.name for seg in O.layout(3)}
    rng = np.random.RandomState(0)
    for ply in range(150):
        if state.is_terminal():
            break
        if ply % 10 == 0:
            inner = state.burano_state
            for p in range(3):
                expected = O.encode(inner, p) if inner is not None else np.zeros(SIZES[3], np.float32)
                assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), expected)
                assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), expected)
                observer.set_from(state, p)
                assert np.array_equal(observer.tensor, expected)
                if inner is not None:
                    coins = observer.dict["seat0.coins"]
                    assert coins[0] == pytest.approx(inner.players[p].coins / O.COINS_SCALE)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_docs_list_every_segment():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[3] / "docs" / "observation.md").read_text()
    for seg in O.layout(2):
        assert f"`{seg.name.split('.', 1)[-1]}`" in doc, seg.name
    for n, size in SIZES.items():
        assert f"| {n} | {size} |" in doc
