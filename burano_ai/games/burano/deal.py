"""The seeded setup (rules spec §3 steps 1-9): a new game's first `Position` from a seed.

Every shuffle of the setup draws from one `random.Random(seed)` in a fixed order, so a seed names a
deal: both rules implementations start from `deal(num_players, seed)`. The position it returns waits
for seat A's first roof pick (§3.10).
"""

from __future__ import annotations

import random

from burano_ai.core.seeds import check_seed
from burano_ai.games.burano import actions
from burano_ai.games.burano import topology
from burano_ai.games.burano.data import buildings
from burano_ai.games.burano.data.colours import NUM_COLOURS, SEAT_LETTERS
from burano_ai.games.burano.data.fish import CARDS_PER_SPECIES, FISH_DISPLAY_SIZE, NUM_SPECIES
from burano_ai.games.burano.data.ring import (
    HOUSES_PER_PIECE,
    NUM_HOUSES,
    NUM_PIECES,
    START_PRIVILEGE,
    START_RING_WORKERS,
)
from burano_ai.games.burano.data.roofs import ROOF_SLOTS
from burano_ai.games.burano.data.route import (
    DOCKS_PER_COLOUR,
    DOCKS_PER_ISLAND,
    NUM_ISLANDS,
    SEAT_ISLAND,
    SHIPS_PER_PORT_AT_SETUP,
)
from burano_ai.games.burano.data.ships import NUM_SHIPS
from burano_ai.games.burano.data.turn import START_COINS, START_RESERVE_PER_COLOUR
from burano_ai.games.burano.enums import Phase, Stage
from burano_ai.games.burano.position import Position, workshop_layout
from burano_ai.games.burano.topology import WorkshopLayout


def deal(num_players: int, seed: int = 0, layout: WorkshopLayout | None = None) -> Position:
    """Set up a new game of `num_players` from `seed` (§3); the first decision is seat A's roof pick.

    Args:
        num_players: 2, 3 or 4.
        seed: the seed of every setup shuffle.
        layout: the workshop layout; default: the player count's (`position.workshop_layout`).

    Raises:
        OptionError: `num_players` is not 2, 3 or 4. TypeError: `seed` is not an int (None included).
    """
    if layout is None:
        layout = workshop_layout(num_players)
    rng = random.Random(check_seed(seed))   # None would deal from the OS's entropy: no seeded API allows it
    pos = Position(num_players, layout)
    docks = [c for c in range(NUM_COLOURS) for _ in range(DOCKS_PER_COLOUR)]
    rng.shuffle(docks)
    pos.docks = [sorted(docks[i * DOCKS_PER_ISLAND:(i + 1) * DOCKS_PER_ISLAND]) for i in range(NUM_ISLANDS)]
    ships = list(range(NUM_SHIPS))
    rng.shuffle(ships)
    pos.ports = [sorted(ships[:SHIPS_PER_PORT_AT_SETUP]), sorted(ships[SHIPS_PER_PORT_AT_SETUP:])]
    pos.cubes[0][topology.FOUNTAIN_HOLE] = rng.randrange(NUM_COLOURS)   # all colours equally many
    pos.markers = list(actions.MARKER_MAPPINGS[rng.randrange(actions.NUM_MARKER_MAPPINGS)])
    building_cards = list(range(buildings.NUM_BUILDINGS))
    rng.shuffle(building_cards)
    pos.building_display = sorted(building_cards[:buildings.BUILDING_DISPLAY_SIZE])
    fish = [s for s in range(NUM_SPECIES) for _ in range(CARDS_PER_SPECIES)]
    rng.shuffle(fish)
    for s in fish[:FISH_DISPLAY_SIZE]:
        pos.fish_display[s] += 1
    for seat in range(num_players):
        pl = pos.players[seat]
        pieces = list(range(NUM_PIECES))
        rng.shuffle(pieces)
        pl.ring_pieces = pieces
        # The arrows start on the piece lying on the seat's own quarter, so sector 1 follows it.
        pl.ring_offset = ((seat + 1) * HOUSES_PER_PIECE) % NUM_HOUSES
        pl.ring_workers = START_RING_WORKERS
        island = SEAT_ISLAND[SEAT_LETTERS[seat]]
        pos.island_workers[island][seat] = 1
        pl.boat = topology.ISLAND_NODE[island]
        pl.privilege = START_PRIVILEGE
        pl.reserve = [START_RESERVE_PER_COLOUR] * NUM_COLOURS
        pl.coins = START_COINS
    # §3.10: clockwise from seat A, each seat picks the kinds of its 3 roof tiles (every stack is full).
    pos.stage = Stage.SETUP
    pos.phase = Phase.ROOF_PICK
    pos.order_index = 0
    pos.actor = 0
    pos.picks_left = ROOF_SLOTS
    pos.kinds_picked = []
    return pos
