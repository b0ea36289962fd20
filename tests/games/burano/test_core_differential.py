"""Differential tests: the compiled core (burano_ai.games.burano._core) against the reference model, move for move.

Each game is played in lockstep by both models: at every step the same action, sampled with
`random.Random(seed)` from the reference's legal actions or chance outcomes, is applied to both, and
everything observable must agree: current player, legal action lists, chance outcomes with their
probabilities, action texts, scores, and at random steps the full position dict and one seat's view.
"""

from __future__ import annotations

import random

import pytest

from burano_ai.games.burano import _core
from burano_ai.core.errors import IllegalMoveError
from burano_ai.games.burano.reference import Game as RefGame

PLAYER_COUNTS = (2, 3, 4)
FAST_SEEDS = range(60)            # 180 games, always run
SLOW_SEEDS = range(60, 180)       # 360 more games


PLAYER_FIELDS = ("ring_pieces", "ring_offset", "ring_workers", "pyramid", "reserve", "prep", "coins", "vp",
                 "privilege", "roof_slots", "buildings", "hand_known", "hand_blind", "sold", "boat")


def assert_same_fields(core, ref, where: str) -> None:
    """The core's read-only attributes and derived counts equal the reference's fields."""
    for name in ("phase", "stage", "season", "round", "actor", "first_player", "moves", "order_index",
                 "markers", "workshop", "num_players"):
        assert getattr(core, name) == getattr(ref, name), f"{where}: {name}"
    assert core.layout == ref.layout
    for p, (cp, rp) in enumerate(zip(core.players, ref.players)):
        for name in PLAYER_FIELDS:
            assert getattr(cp, name) == getattr(rp, name), f"{where}: seat {p} {name}"
        assert core.pyramid_count(p) == ref.pyramid_count(p), where
        assert core.workers_off_ring(p) == ref.workers_off_ring(p), where
    assert core.supply() == ref.supply(), where
    assert core.fish_deck() == ref.fish_deck(), where
    assert core.building_deck() == ref.building_deck(), where
    for kind in range(4):
        assert core.roof_stack(kind) == ref.roof_stack(kind), where
    assert core.component_counts() == ref.component_counts(), where


def play_lockstep(num_players: int, seed: int, dict_rate: float = 0.03) -> int:
    """Play one seeded random game in both models, asserting agreement at every step; return its length."""
    ref_game, core_game = RefGame(num_players), _core.Game(num_players)
    ref = ref_game.new_initial_state(seed)
    core = core_game.new_initial_state(seed)
    rng = random.Random(seed * 10 + num_players)
    assert core.to_dict() == ref.to_dict()
    step = 0
    while True:
        where = f"{num_players}p seed {seed} step {step}"
        assert core.current_player() == ref.current_player(), where
        assert core.is_chance_node() == ref.is_chance_node(), where
        assert core.is_terminal() == ref.is_terminal(), where
        assert core.scores() == ref.scores(), where
        if rng.random() < dict_rate:
            assert core.to_dict() == ref.to_dict(), where
            seat = rng.randrange(num_players)
            assert core.to_dict(seat) == ref.to_dict(seat), where
            assert_same_fields(core, ref, where)
            core.check()
        if ref.is_terminal():
            break
        if ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            assert core.chance_outcomes() == outcomes, where
            assert core.legal_actions() == [], where
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = ref.legal_actions()
            assert core.legal_actions() == legal, where
            assert core.chance_outcomes() == [], where
            action = rng.choice(legal)
        text = ref.action_to_string(action)
        assert core.action_to_string(action) == text, where
        assert core.string_to_action(text) == action, where
        ref.apply_action(action)
        if rng.random() < 0.1:
            assert core.play(text) == action, where
        else:
            core.apply_action(action)
        step += 1
    assert core.winners() == ref.winners()
    assert core.returns() == ref.returns()
    assert core.to_dict() == ref.to_dict()
    assert core.legal_actions() == [] and core.chance_outcomes() == []
    return step


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_lockstep_random_game(num_players, seed):
    assert play_lockstep(num_players, seed) > 100


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_lockstep_random_game_bulk(num_players, seed):
    assert play_lockstep(num_players, seed) > 100


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_setup_matches_reference(num_players):
    for seed in range(20):
        ref = RefGame(num_players).new_initial_state(seed)
        core = _core.Game(num_players).new_initial_state(seed)
        assert core.to_dict() == ref.to_dict()
        assert core.to_json() == ref.to_json()


def test_position_round_trip_is_exact():
    """from_position(to_position(x)) keeps every field, including the key; so does the reference's copy."""
    game = _core.Game(3)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        back = _core.State.from_position(state.to_position(), game)
        assert back.key() == state.key()
        ref = RefGame(3).state_from_position(state.to_position())
        assert _core.State.from_position(ref, game).key() == state.key()
        assert back.to_dict() == state.to_dict()
        back.check()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_custom_workshop_layout_matches_reference():
    rows = ("P  P  P  P$ W  W  W",
            "Y  Y  Y  G  G  G  W$",
            "Y$ .  B  B  G$ O  O",
            ".  .  B  B$ O$ O  .")
    ref_game, core_game = RefGame(4, rows), _core.Game(4, rows)
    assert core_game.layout == ref_game.layout
    for seed in range(3):
        ref, core = ref_game.new_initial_state(seed), core_game.new_initial_state(seed)
        rng = random.Random(seed)
        while not ref.is_terminal():
            if ref.is_chance_node():
                outcomes = ref.chance_outcomes()
                assert core.chance_outcomes() == outcomes
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                assert core.legal_actions() == ref.legal_actions()
                action = rng.choice(ref.legal_actions())
            ref.apply_action(action)
            core.apply_action(action)
        assert core.scores() == ref.scores()


def test_game_metadata_matches_reference():
    for n in PLAYER_COUNTS:
        ref, core = RefGame(n), _core.Game(n)
        assert core.num_distinct_actions() == ref.num_distinct_actions()
        assert core.max_chance_outcomes() == ref.max_chance_outcomes()
        assert repr(core) == repr(ref)
        assert core == _core.Game(n) and hash(core) == hash(_core.Game(n))
        assert core != _core.Game(2 if n != 2 else 3)


def test_bad_player_count_raises_like_reference():
    with pytest.raises(ValueError):
        _core.Game(5)
    with pytest.raises(ValueError):
        _core.Game(1)


def test_play_rejects_illegal_and_unparsable_moves():
    state = _core.Game(4).new_initial_state(0)
    ref = RefGame(4).new_initial_state(0)
    for text in ("take top", "fly away", "fish: tuna"):
        with pytest.raises(IllegalMoveError) as core_err:
            state.play(text)
        with pytest.raises(IllegalMoveError) as ref_err:
            ref.play(text)
        assert str(core_err.value) == str(ref_err.value)
    with pytest.raises(IllegalMoveError):
        state.apply_action(-1)
    with pytest.raises(IllegalMoveError):
        state.apply_action(10 ** 6)


def test_state_from_json_matches_reference():
    ref = RefGame(4).new_initial_state(3)
    core_game = _core.Game(4)
    core = core_game.state_from_json(ref.to_json())
    assert core.to_dict() == ref.to_dict()
    assert core.legal_actions() == ref.legal_actions()
