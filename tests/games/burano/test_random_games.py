"""Random-simulation invariants over many seeded games (the OpenSpiel-style generic test).

At every step: components conserved (120 cubes, 48 fish cards, 48 roof tiles, 16 building cards,
13 worker tokens per seat), coins never negative, legal actions empty only at the end, chance
probabilities sum to 1. At sampled steps: clones are independent, JSON round trips exactly, and
`resample(seat)` keeps the seat's information-state key and changes only what the seat cannot see.
"""

from __future__ import annotations

import json
import random

import pytest

from burano_ai.games.burano import actions as A
from burano_ai.games.burano.data.ring import MARKER_TOKENS
from burano_ai.random_play import random_step
from implementations import IMPLEMENTATIONS

GAMES_PER_COUNT = 100          # 300 games in all, over 2, 3 and 4 players


def _hidden_free(d: dict, seat: int) -> dict:
    """A full position dict with what `seat` cannot see blanked out."""
    d = json.loads(json.dumps(d))
    for p, entry in enumerate(d["seats"]):
        if p != seat:
            entry["hand"]["blind"] = None
            if d["stage"] == "pyramid":
                entry["pyramid"] = entry["reserve"] = None
    return d


def _check_step(state, game, rng: random.Random, step: int) -> None:
    n = state.num_players
    counts = state.component_counts()
    assert counts == {"cubes": 120, "fish": 48, "buildings": 16, "roofs": 48}, counts
    for p in range(n):
        pl_workers = state.players[p].ring_workers + state.workers_off_ring(p)
        assert pl_workers + MARKER_TOKENS == 13
        assert state.players[p].coins >= 0
    if state.is_terminal():
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        return
    if state.is_chance_node():
        total = sum(p for _, p in state.chance_outcomes())
        assert abs(total - 1.0) < 1e-9 and state.legal_actions() == []
    else:
        assert state.legal_actions(), f"no legal action at step {step}"
    if step % 23 == 0:
        text = state.to_json()
        assert game.state_from_json(text).to_json() == text
        copy = state.clone()
        before = state.to_json()
        random_step(copy, rng)
        assert state.to_json() == before, "clone is not independent"
        seat = rng.randrange(n)
        key = state.information_state_key(seat)
        sample = state.resample(seat, rng.randrange(1 << 30))
        assert sample.information_state_key(seat) == key
        assert _hidden_free(sample.to_dict(), seat) == _hidden_free(state.to_dict(), seat)
        sample.check()


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_keep_every_invariant(impl, num_players):
    game = IMPLEMENTATIONS[impl](num_players)
    rounds_seen = []
    swaps = 0
    for seed in range(GAMES_PER_COUNT):
        rng = random.Random(seed * 7919 + num_players)
        state = game.new_initial_state(seed)
        step = 0
        turns = set()
        while not state.is_terminal():
            _check_step(state, game, rng, step)
            if state.current_player() >= 0 and state.phase == 2:   # a turn decision
                turns.add((state.season, state.round))
            swaps += A.family(random_step(state, rng)) == "SWAP_WITH"
            step += 1
        _check_step(state, game, rng, step)
        rounds_seen.append(len(turns))
        assert sum(state.returns()) == pytest.approx(1.0)
    assert set(rounds_seen) == {14}
    assert swaps > 0, "no privilege dock swap in the random games: the swap phase went untested"


def test_resample_changes_hidden_things_sometimes():
    game = IMPLEMENTATIONS["reference"](4)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    changed = 0
    for step in range(3000):
        if state.is_terminal():
            break
        if step % 50 == 0 and any(sum(pl.hand_blind) for pl in state.players[1:]):
            if state.resample(0, step).to_json() != state.to_json():
                changed += 1
        random_step(state, rng)
    assert changed > 0
