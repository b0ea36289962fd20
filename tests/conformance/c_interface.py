"""The C game interface (a compiled core's ops table) walked through its function pointers only, held
against the reference model node by node: what the native search sees is what the rules say.

`_ops_check` is the game-agnostic walker compiled beside Goofspiel's core (it knows no game: it reads
the ops table of any NativeState). Per-game tests call `walk_against_reference` for the option sets the
conformance suite's default games do not reach (another board side, another deck).
"""

from __future__ import annotations

import pytest

from burano_ai.core._game import playouts
from burano_ai.core.seats import TERMINAL
from burano_ai.games.goofspiel import _ops_check

#: `_ops_check` reads at most this many prior values.
PRIOR_READ = 64


def compiled_world(ref, loaded, seat: int, seed: int):
    """The key of the world the ops' resample must draw: the compiled State's own resample."""
    return loaded.resample(seat, seed).key()


def reference_world(ref, loaded, seat: int, seed: int):
    """For a game whose compiled resample draws the reference's world draw for draw: the reference's."""
    return ref.resample(seat, seed).key()


def walk_against_reference(c_game, ref_game, seeds, hidden: bool, world=compiled_world, resample_every: int = 5) -> int:
    """Walk the ops of `c_game`'s initial state with each seed (chance drawn by the ops' own
    `sample_chance`), replay every step on `ref_game`'s, and check every node; the nodes checked.

    `hidden`: the game has hidden information (the ops resample; else `resample_key` is None); at every
    `resample_every`-th decision node the ops' resample of each seat must draw `world(...)`'s key.
    """
    n = c_game.num_players
    start = c_game.new_initial_state()
    ops = _ops_check.describe(start)
    assert (ops["num_actions"], ops["num_players"]) == (start.native_num_actions, n)
    assert ops["min_players"] <= n <= ops["max_players"]
    if not hidden:
        assert _ops_check.resample_key(start, 0, 1) is None          # perfect information: no resample
    checked = 0
    for seed in seeds:
        nodes, actions = _ops_check.walk(start, seed)
        assert start.to_json() == c_game.new_initial_state().to_json()       # the walk used a copy
        ref = ref_game.new_initial_state()
        for i, node in enumerate(nodes):
            assert node["player"] == ref.current_player()
            assert node["legal"] == ref.legal_actions()
            assert node["chance"] == ref.chance_outcomes()
            assert node["chance_kind"] == ref.chance_kind
            assert node["decision_mode"] == ref.decision_mode() and node["turn_id"] == ref.turn_id()
            legal = ref.legal_actions()
            prior = ref.prior(ref.current_player(), legal) if legal else None
            if prior is None or len(legal) > PRIOR_READ:
                assert node["prior"] is None
            else:
                assert node["prior"] == pytest.approx([prior[a] for a in legal], rel=1e-12)
            # a reference without Zobrist keys (Burano's) is keyed by the compiled state loaded from it (at
            # every 7th node: loading a position is the slow part)
            keyed = ref if hasattr(ref, "key") else c_game.state_from_json(ref.to_json()) if i % 7 == 0 else None
            if keyed is not None:
                assert node["key"] == keyed.key()
                assert node["info_keys"] == [keyed.information_state_key(s) for s in range(n)]
            assert node["scores"] == ref.scores()
            keys = [ref.finishing_key(p) for p in range(n)]
            k = keys.count(max(keys))
            assert node["shares"] == [1.0 / k if key == max(keys) else 0.0 for key in keys]
            checked += 1
            if ref.is_terminal():
                assert node["shares"] == ref.returns() and i == len(nodes) - 1
                break
            if ref.is_chance_node():
                assert actions[i] in [a for a, _ in ref.chance_outcomes()]
            elif hidden and i % resample_every == 0:
                # the ops' resample, from a loaded position (whether the compiled world is the reference's,
                # draw for draw, is the game's own business: its tests pass `reference_world`)
                for seat in range(n):
                    loaded = c_game.state_from_json(ref.to_json())
                    assert _ops_check.resample_key(loaded, seat, seed + i) == world(ref, loaded, seat, seed + i)
            ref.apply_action(actions[i])
        assert nodes[-1]["player"] == TERMINAL
        status, scores, shares, key = _ops_check.playout(start, seed)
        assert status >= 0 and sum(shares) == pytest.approx(1.0)
        final = start.clone()
        assert final.playout(seed) == scores and final.key() == key and final.returns() == shares
    return checked


def check_playouts(state, seeds, policies=(None,), *, games: int, min_steps: int) -> list:
    """C playouts from `state`, one a seed and policy (None: the default policy), end the game with its
    invariants and returns summing to 1, and leave `state` alone; `playouts` plays `games` games of more
    than `min_steps` steps each on average and hands out `games` wins in all. Returns the finished games."""
    before = state.to_json()
    finished = []
    for seed in seeds:
        for policy in policies:
            copy = state.clone()
            copy.playout(seed) if policy is None else copy.playout(seed, policy)
            assert copy.is_terminal() and abs(sum(copy.returns()) - 1.0) < 1e-12
            copy.check()
            finished.append(copy)
    assert state.to_json() == before
    steps, wins = playouts(state, games, seed=7)
    assert steps > games * min_steps and abs(sum(wins) - games) < 1e-9
    return finished


def mean_playout_score(state, seeds, policy: str, check: bool = False) -> float:
    """A seat's mean final score over C playouts of `policy` from `state`, one a seed (each finished game's
    invariants checked when `check`)."""
    total = 0.0
    for seed in seeds:
        copy = state.clone()
        copy.playout(seed, policy)
        if check:
            copy.check()
        total += sum(copy.scores())
    return total / (len(seeds) * state.num_players)
