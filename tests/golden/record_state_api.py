"""Record (or check) the golden digest of every compiled State's Python face, per game and player count.

Run from the repository root: ``python tests/golden/record_state_api.py`` writes ``state_api.json``;
tests/test_golden.py checks it. It pins down what the compiled cores answer through their Python API —
legal actions, chance outcomes, keys, information keys, resamples, priors, decision modes, turn ids,
positions, text, scores, returns, playouts, clones and pickles — on seeded random games (members
only some cores had before, `chance_outcome_actions` and `sample_chance`, are left out), so that moving
that API into one base class (`core._game.NativeState`) provably changes nothing. Re-record only with a
change that alters behaviour on purpose, and say why in its message.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GAMES_PER_COUNT = 1


def _feed(h, *values) -> None:
    h.update(repr(values).encode())
    h.update(b"\n")


def state_api_digest(spec, num_players: int) -> str:
    """The digest of everything the compiled State answers over GAMES_PER_COUNT seeded random games."""
    from burano_ai.core.seats import CHANCE
    game = spec.new_game(num_players, "compiled")
    h = hashlib.sha256()
    for seed in range(GAMES_PER_COUNT):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        ply = 0
        while True:
            player = state.current_player()
            _feed(h, ply, player, state.is_terminal(), state.is_chance_node(), state.key(), state.full_key(),
                  [state.information_state_key(p) for p in range(num_players)], state.decision_mode(),
                  state.turn_id(), state.phase_name(), state.chance_kind_name(), state.to_json(), str(state))
            _feed(h, [state.to_json(p) for p in range(num_players)], state.scores(), state.returns(),
                  state.winners(), [state.finishing_key(p) for p in range(num_players)])
            if ply % 7 == 0:
                for p in range(num_players):
                    _feed(h, "resample", p, state.resample(p, seed * 1000 + ply).full_key())
                _feed(h, "playout", state.clone().playout(seed + ply), state.clone().playout(seed + ply, "heuristic"))
                copy = state.clone()
                _feed(h, "clone", copy.key() == state.key(), pickle.loads(pickle.dumps(state)).to_json())
                state.check()
            if state.is_terminal():
                break
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                _feed(h, "chance", outcomes)
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                _feed(h, "legal", legal, [state.action_to_string(a) for a in legal],
                      [state.legal_actions(p) for p in range(num_players)], state.prior(player, legal))
                action = rng.choice(legal)
                assert state.string_to_action(state.action_to_string(action)) == action
            state.apply_action(action)
            ply += 1
    return h.hexdigest()[:32]


def record() -> dict:
    from burano_ai.games import all_specs
    out = {}
    for spec in all_specs():
        if "native_search" not in spec.capabilities:
            continue
        for n in range(spec.min_players, spec.max_players + 1):
            out[f"{spec.key}/{n}p"] = state_api_digest(spec, n)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    result = record()
    (HERE / "state_api.json").write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(json.dumps(result, indent=1))
