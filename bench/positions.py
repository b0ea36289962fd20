"""Fixed benchmark positions: 2 and 4 players at a season start, mid-season and the last round.

Each is reached by seeded uniform-random play from a seeded setup, so the positions are the same on
every machine and for every implementation (they are built with the reference model and loaded into
the implementation under test through the position JSON).
"""

from __future__ import annotations

import random
from functools import lru_cache

from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game as ReferenceGame
from burano_ai.games.burano.reference.state import ST_ROUNDS, TURN

SEED = 2026
#: name -> (players, season, round): the first TURN decision of that season and round.
POSITIONS = {
    "2p-season-start": (2, 1, 1),
    "2p-mid-season": (2, 1, 3),
    "2p-last-round": (2, 3, 3),
    "4p-season-start": (4, 1, 1),
    "4p-mid-season": (4, 1, 3),
    "4p-last-round": (4, 3, 3),
}


@lru_cache(maxsize=None)
def position_json(name: str) -> str:
    """The full-position JSON of a named benchmark position."""
    players, season, rnd = POSITIONS[name]
    state = ReferenceGame(players).new_initial_state(SEED)
    rng = random.Random(SEED)
    while not (state.stage == ST_ROUNDS and state.phase == TURN and state.season == season and state.round == rnd):
        random_step(state, rng)
    return state.to_json()


def load(game_class, name: str):
    """The named position as a state of `game_class` (reference or compiled)."""
    players = POSITIONS[name][0]
    return game_class(players).state_from_json(position_json(name))
