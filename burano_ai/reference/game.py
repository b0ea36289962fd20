"""The reference Game: configuration, metadata and the seeded setup (rules spec §3)."""

from __future__ import annotations

import random

from .. import actions as A
from .. import topology
from ..data import buildings as B
from ..data.colours import MAX_PLAYERS, MIN_PLAYERS, NUM_COLOURS, SEAT_LETTERS
from ..data.fish import CARDS_PER_SPECIES, FISH_DISPLAY_SIZE, NUM_SPECIES
from ..data.ring import NUM_PIECES, START_PRIVILEGE, START_RING_WORKERS, HOUSES_PER_PIECE, NUM_HOUSES
from ..data.route import DOCKS_PER_COLOUR, DOCKS_PER_ISLAND, NUM_ISLANDS, SEAT_ISLAND, SHIPS_PER_PORT_AT_SETUP
from ..data.ships import NUM_SHIPS
from ..data.turn import START_COINS, START_RESERVE_PER_COLOUR
from ..errors import OptionError
from .state import State


class Game:
    """Rules and metadata of one Burano configuration.

    Args:
        num_players: 2, 3 or 4.
        workshop_layout: 4 rows of 7 squares (see `burano_ai.data.workshops`); default by player count.
    """

    def __init__(self, num_players: int = 4, workshop_layout: list[str] | tuple[str, ...] | None = None) -> None:
        if not isinstance(num_players, int) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise OptionError(f"num_players must be 2, 3 or 4, not {num_players!r}")
        self.num_players = num_players
        if workshop_layout is None:
            self.layout = topology.default_workshop_layout(num_players)
        else:
            self.layout = topology.build_workshop_layout(tuple(workshop_layout))

    def __repr__(self) -> str:
        return f"Game(num_players={self.num_players})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.num_players == self.num_players and other.layout == self.layout

    def __hash__(self) -> int:
        return hash((self.num_players, self.layout.rows))

    # Metadata (OpenSpiel names).
    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return A.NUM_MARKER_MAPPINGS

    def new_initial_state(self, seed: int = 0) -> State:
        """Set up a new game from a seed (§3 steps 1-9); the first decision is seat A's roof pick."""
        rng = random.Random(seed)
        state = State(self)
        docks = [c for c in range(NUM_COLOURS) for _ in range(DOCKS_PER_COLOUR)]
        rng.shuffle(docks)
        state.docks = [sorted(docks[i * DOCKS_PER_ISLAND:(i + 1) * DOCKS_PER_ISLAND]) for i in range(NUM_ISLANDS)]
        ships = list(range(NUM_SHIPS))
        rng.shuffle(ships)
        state.ports = [sorted(ships[:SHIPS_PER_PORT_AT_SETUP]), sorted(ships[SHIPS_PER_PORT_AT_SETUP:])]
        state.cubes[0][topology.FOUNTAIN_HOLE] = rng.randrange(NUM_COLOURS)   # all colours equally many
        state.markers = list(A.MARKER_MAPPINGS[rng.randrange(A.NUM_MARKER_MAPPINGS)])
        buildings = list(range(B.NUM_BUILDINGS))
        rng.shuffle(buildings)
        state.building_display = sorted(buildings[:B.BUILDING_DISPLAY_SIZE])
        fish = [s for s in range(NUM_SPECIES) for _ in range(CARDS_PER_SPECIES)]
        rng.shuffle(fish)
        for s in fish[:FISH_DISPLAY_SIZE]:
            state.fish_display[s] += 1
        for seat in range(self.num_players):
            pl = state.players[seat]
            pieces = list(range(NUM_PIECES))
            rng.shuffle(pieces)
            pl.ring_pieces = pieces
            # The arrows start on the piece lying on the seat's own quarter, so sector 1 follows it.
            pl.ring_offset = ((seat + 1) * HOUSES_PER_PIECE) % NUM_HOUSES
            pl.ring_workers = START_RING_WORKERS
            island = SEAT_ISLAND[SEAT_LETTERS[seat]]
            state.island_workers[island][seat] = 1
            pl.boat = topology.ISLAND_NODE[island]
            pl.privilege = START_PRIVILEGE
            pl.reserve = [START_RESERVE_PER_COLOUR] * NUM_COLOURS
            pl.coins = START_COINS
        state._next_setup_player()
        return state

    def state_from_json(self, text: str) -> State:
        """Load a position (full, or one seat's view) written by `State.to_json` or by hand."""
        from ..notation import state_from_json
        return state_from_json(text, game=self)
