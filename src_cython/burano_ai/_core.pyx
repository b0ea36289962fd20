"""The compiled rules core: Burano positions as C structs, with move generation, chance, keys and playouts.

It is a port of the reference model (`burano_ai.reference`) and agrees with it move for move: the same
sorted legal action ids, the same chance outcomes and probabilities, the same scores and winners
(tests/test_core_differential.py plays them in lockstep). `Game` and `State` have the reference's API;
the hot path (`legal_actions_c`, `apply_action_c`, chance sampling, `rollout_c`, `resample_c`) is
`nogil` C on a fixed-size `StateC` (see `_core.pxd`), so `clone()` is one struct copy.

Setup, JSON and rendering are not hot: `Game.new_initial_state(seed)` builds the C state from the
dealt `burano_ai.position.Position` (`burano_ai.deal`, `State.from_position`), and `to_dict`/`to_json`
write one back (`State.to_position`) for `burano_ai.notation`. The core never imports the reference
model: that is the oracle the tests hold it against.

Every rules number comes from `burano_ai.data`, `burano_ai.topology` and `burano_ai.actions`, copied
into C tables once at import (the workshop layout at `Game` construction).

Zobrist keys: each hashed field ("cell") has a 64-bit seed from a fixed-seed SplitMix64 table; a cell
holding value v contributes mix64(seed + v * golden) to the key. Every change goes through a setter
that updates the key, so `State.key()` is incremental; `State.full_key()` recomputes it, and debug
builds (BURANO_DEBUG=1) check the two after every `apply_action`.
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from burano_ai._build cimport BURANO_DEBUG_BUILD
from burano_ai._rng cimport Rng, rng_seed, rng_next, rng_below

import json

from burano_ai import actions as _A
from burano_ai import topology as _topo
from burano_ai.data import buildings as _B
from burano_ai.data import colours as _colours
from burano_ai.data import fish as _fish
from burano_ai.data import island as _island
from burano_ai.data import ring as _ring
from burano_ai.data import roofs as _roofs
from burano_ai.data import route as _route
from burano_ai.data import ships as _ships
from burano_ai.data import turn as _turn
from burano_ai.data import workshops as _workshops
from burano_ai import enums as _enums
from burano_ai.deal import deal as _deal
from burano_ai.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.notation import position_from_json as _position_from_json
from burano_ai.notation import position_to_dict as _position_to_dict
from burano_ai.position import Position as _Position
from burano_ai.position import workshop_layout as _workshop_layout

cdef extern from *:
    """
    #define BURANO_CTZ(x) __builtin_ctz(x)
    #define BURANO_POPCOUNT(x) __builtin_popcount(x)
    """
    int BURANO_CTZ(uint32_t x) noexcept nogil
    int BURANO_POPCOUNT(uint32_t x) noexcept nogil


# ================================================================================================
# Tables: rules data copied from the Python modules once at import
# ================================================================================================

# Action families, in id order (actions._FAMILIES).
cdef enum:
    F_DONE, F_TAKE, F_BUILD, F_ROOF, F_PRIV_COIN, F_PRIV_CUBE, F_PYRAMID, F_SWAP, F_SAIL, F_DRAW_DECK,
    F_DRAW_DISPLAY, F_SEND, F_SELL, F_LACE, F_LACE_PRIV, F_RECALL_ISLAND, F_RECALL_SQUARE,
    F_BONUS_PRIVILEGE, F_BONUS_DISPLAY, F_BONUS_DECK, F_PAY, F_REPLENISH, F_PRIV_RESERVE,
    F_ROOF_DISCARD, F_ROOF_KIND, F_CH_FISH, F_CH_BUILDING, F_CH_ROOF, F_CH_MARKERS, NUM_FAMILIES

_FAMILY_NAMES = ("DONE", "TAKE", "BUILD", "ROOF", "PRIV_COIN", "PRIV_CUBE", "PYRAMID", "SWAP", "SAIL",
                 "DRAW_DECK", "DRAW_DISPLAY", "SEND", "SELL", "LACE", "LACE_PRIV", "RECALL_ISLAND",
                 "RECALL_SQUARE", "BONUS_PRIVILEGE", "BONUS_DISPLAY", "BONUS_DECK", "PAY", "REPLENISH",
                 "PRIV_RESERVE", "ROOF_DISCARD", "ROOF_KIND", "CH_FISH", "CH_BUILDING", "CH_ROOF", "CH_MARKERS")

# Building card families (data.buildings), ring symbols and pay options.
cdef enum:
    BF_ROOF_BONUS, BF_ROOF_WILDCARD, BF_SOLD_FISH, BF_LACE_COLOURS, BF_LONG_VOYAGE, BF_LACE_BUMPING,
    BF_ISLAND_TIES, BF_LACE_DISCOUNT, BF_COLLECTOR, BF_MONUMENT, NUM_CARD_FAMILIES
cdef enum:
    SYM_COIN = 0
    SYM_FOUNTAIN = 1
cdef enum:
    PAY_PYRAMID, PAY_PRIVILEGE, PAY_DISCOUNT, PAY_NONE
cdef enum:
    ACT_FISHING, ACT_LACE, ACT_EARNING
cdef enum:
    KIND_ISLAND_MAJORITY, KIND_WORKSHOP_MAJORITY, KIND_FOUNTAINS, KIND_FLAT
cdef enum:
    SHIP_DIFFERENT, SHIP_IDENTICAL, SHIP_PAIRS, SHIP_TRIPLES
cdef enum:
    MAX_UNION = 32


cdef struct TablesC:
    # Actions.
    int offset[NUM_FAMILIES]                    # first id of each family
    int num_actions
    int8_t action_family[MAX_ACTIONS]           # family of each action id
    int16_t action_index[MAX_ACTIONS]           # index within the family
    # Island.
    int8_t fountain_hole
    int8_t hole_nbr[NUM_HOLES][MAX_HOLE_NEIGHBOURS]   # diagonal neighbours
    int8_t hole_nbr_n[NUM_HOLES]
    int8_t line_a[NUM_ROOF_LINES]               # roof line: hole a < hole b, midpoint cell
    int8_t line_b[NUM_ROOF_LINES]
    int8_t line_mid[NUM_ROOF_LINES]
    # Route.
    int8_t dest[NUM_ROUTE_NODES][2][MAX_ROUTE_DESTS]  # sail destinations [node][long voyage], sorted
    int8_t dest_n[NUM_ROUTE_NODES][2]
    int8_t node_island[NUM_ROUTE_NODES]
    int8_t node_port[NUM_ROUTE_NODES]
    int8_t island_pair[NUM_ISLAND_PAIRS][2]
    # Ring pieces.
    int8_t piece_colour[NUM_PIECES][3]
    int8_t piece_symbol[NUM_PIECES][3]
    # Sales: ship, counts per species, VP; plus the species mask and the count each needs.
    int8_t sale_ship[NUM_SALES]
    int8_t sale_counts[NUM_SALES][NUM_SPECIES]
    int16_t sale_vp[NUM_SALES]
    uint8_t sale_mask[NUM_SALES]
    int8_t sale_need[NUM_SALES]
    # Markers.
    int8_t marker_map[NUM_MARKER_MAPPINGS][NUM_COLOURS]
    # Buildings.
    int8_t card_family[NUM_BUILDINGS]
    uint8_t card_arg_mask[NUM_BUILDINGS]        # colours (roof/lace cards) or species (sold fish)
    uint16_t family_cards[NUM_CARD_FAMILIES]    # card ids of each family
    # Roofs.
    int8_t roof_pair[NUM_ROOF_PAIRS][2]
    int majority_roof_vp[4]
    int fountain_roof_vp[5]
    int flat_roof_vp
    int roof_privilege_bonus
    int roof_bonus_vp_per_field
    # Pyramid.
    int8_t middle_support[4][4]
    # Turn and scoring numbers.
    int max_moves
    int move_costs[4]
    int no_move_coins
    int season_rounds[4]
    int num_seasons
    int prep_slots
    int leftover_cube_coins
    int bump_coins
    int recall_coins
    int coins_per_vp
    int lace_paid_vp
    int union_bonus[MAX_UNION]
    int num_union_bonus
    int island_majority_vp[MAX_PLAYERS + 1]
    int empty_draw_vp
    int hand_card_vp
    int fish_display_size
    int building_display_size
    int cubes_per_colour
    int cards_per_species
    int sold_fish_vp_per_card
    int lace_colours_vp_per_worker
    int lace_discount_end_vp
    int collector_vp_per_card
    int monument_vp

cdef TablesC T

# Action offsets as plain C ints for the hot path.
cdef int A_DONE, A_TAKE, A_BUILD, A_ROOF, A_PRIV_COIN, A_PRIV_CUBE, A_PYRAMID, A_SWAP, A_SAIL
cdef int A_DRAW_DECK, A_DRAW_DISPLAY, A_SEND, A_SELL, A_LACE, A_LACE_PRIV, A_RECALL_ISLAND
cdef int A_RECALL_SQUARE, A_BONUS_PRIVILEGE, A_BONUS_DISPLAY, A_BONUS_DECK, A_PAY, A_REPLENISH
cdef int A_PRIV_RESERVE, A_ROOF_DISCARD, A_ROOF_KIND, A_CH_FISH, A_CH_BUILDING, A_CH_ROOF, A_CH_MARKERS
cdef int NUM_ACTIONS


def _require(bint ok, str what):
    if not ok:
        raise ImportError(f"burano_ai._core was compiled for other rules data: {what}")


def _init_tables():
    """Copy every rules number from the Python modules into the C tables (run once at import)."""
    global A_DONE, A_TAKE, A_BUILD, A_ROOF, A_PRIV_COIN, A_PRIV_CUBE, A_PYRAMID, A_SWAP, A_SAIL
    global A_DRAW_DECK, A_DRAW_DISPLAY, A_SEND, A_SELL, A_LACE, A_LACE_PRIV, A_RECALL_ISLAND
    global A_RECALL_SQUARE, A_BONUS_PRIVILEGE, A_BONUS_DISPLAY, A_BONUS_DECK, A_PAY, A_REPLENISH
    global A_PRIV_RESERVE, A_ROOF_DISCARD, A_ROOF_KIND, A_CH_FISH, A_CH_BUILDING, A_CH_ROOF, A_CH_MARKERS
    global NUM_ACTIONS
    cdef int i, j, f, a, k
    # Compile-time sizes must match the data.
    _require(_colours.NUM_COLOURS == NUM_COLOURS, "NUM_COLOURS")
    _require(_topo.NUM_HOLES == NUM_HOLES, "NUM_HOLES")
    _require(_island.MAX_LEVEL == NUM_LEVELS and _island.MAX_ROOF_LEVEL == NUM_ROOF_LEVELS, "levels")
    _require(_island.SIZE * _island.SIZE == NUM_LATTICE_CELLS, "island size")
    _require(_topo.NUM_ROOF_LINES == NUM_ROOF_LINES, "NUM_ROOF_LINES")
    _require(_roofs.NUM_ROOF_KINDS == NUM_ROOF_KINDS and _roofs.TILES_PER_KIND == NUM_ROOF_PAIRS, "roof tiles")
    _require(_roofs.TOTAL_ROOF_TILES <= MAX_ROOFS and _roofs.ROOF_SLOTS == NUM_ROOF_SLOTS, "roof slots")
    _require(_route.NUM_ISLANDS == NUM_ISLANDS and _route.DOCKS_PER_ISLAND == DOCKS_PER_ISLAND, "islands")
    _require(_route.NUM_PORTS == NUM_PORTS and _ships.NUM_SHIPS == NUM_SHIPS, "ports/ships")
    _require(_topo.NUM_ROUTE_NODES == NUM_ROUTE_NODES, "route")
    _require(_fish.NUM_SPECIES == NUM_SPECIES and _B.NUM_BUILDINGS == NUM_BUILDINGS, "fish/buildings")
    _require(_workshops.NUM_SQUARES == NUM_SQUARES, "workshop squares")
    _require(_colours.MAX_PLAYERS == MAX_PLAYERS and _turn.PYRAMID_SIZE == PYRAMID_SIZE, "players/pyramid")
    _require(_ring.NUM_PIECES == NUM_PIECES and _ring.NUM_HOUSES == NUM_HOUSES
             and _ring.HOUSES_PER_PIECE == 3, "ring")
    _require(_A.NUM_SALES == NUM_SALES and _A.NUM_MARKER_MAPPINGS == NUM_MARKER_MAPPINGS, "sales/markers")
    _require(len(_A.ISLAND_PAIRS) == NUM_ISLAND_PAIRS and _A.NUM_ACTIONS <= MAX_ACTIONS, "actions")
    _require(tuple(n for n, _ in _A._FAMILIES) == _FAMILY_NAMES, "action families")
    _require(len(_turn.MOVE_COSTS) == _turn.MAX_MOVES <= 4 and len(_turn.SEASON_ROUNDS) <= 4, "turn")
    _require(len(_B.BUILDING_CARDS) == NUM_BUILDINGS, "building cards")
    _require((_B.ROOF_BONUS, _B.ROOF_WILDCARD, _B.SOLD_FISH, _B.LACE_COLOURS, _B.LONG_VOYAGE, _B.LACE_BUMPING,
              _B.ISLAND_TIES, _B.LACE_DISCOUNT, _B.COLLECTOR, _B.MONUMENT) == tuple(range(NUM_CARD_FAMILIES)),
             "building families")
    _require((_ring.COIN, _ring.FOUNTAIN) == (SYM_COIN, SYM_FOUNTAIN), "ring symbols")
    _require(_A.PAY_OPTIONS == ("pyramid", "privilege", "discount", "none"), "pay options")
    _require((_turn.FISHING, _turn.LACE, _turn.EARNING) == (ACT_FISHING, ACT_LACE, ACT_EARNING), "actions")
    _require((_roofs.ISLAND_MAJORITY, _roofs.WORKSHOP_MAJORITY, _roofs.FOUNTAINS, _roofs.FLAT)
             == (KIND_ISLAND_MAJORITY, KIND_WORKSHOP_MAJORITY, KIND_FOUNTAINS, KIND_FLAT), "roof kinds")
    _require(len(_roofs.MAJORITY_ROOF_VP) == 4 and len(_roofs.FOUNTAIN_ROOF_VP) == 5, "roof VP tables")
    _require(len(_turn.UNION_BONUS) <= MAX_UNION, "union bonus")
    _require(_ring.ARROW_SECTORS == (10, 11, 12), "arrow sectors")
    _require(_A.TOP == 13 and len(_A.MIDDLE_SUPPORT) == 4, "pyramid shape")
    P, S, K = _enums.Phase, _enums.Stage, _enums.ChanceKind
    _require((P.ROOF_PICK, P.PYRAMID, P.TURN, P.FISH_SAIL, P.FISH_DRAW, P.FISH_SEND, P.PORT_TRADE,
              P.LACE_PLACE, P.RECALL, P.ROOF_BONUS, P.LACE_PAY, P.REPLENISH, P.PRIV_RESERVE, P.ROOF_DISCARD,
              P.CHANCE_NODE, P.GAME_OVER)
             == (PH_ROOF_PICK, PH_PYRAMID, PH_TURN, PH_FISH_SAIL, PH_FISH_DRAW, PH_FISH_SEND, PH_PORT_TRADE,
                 PH_LACE_PLACE, PH_RECALL, PH_ROOF_BONUS, PH_LACE_PAY, PH_REPLENISH, PH_PRIV_RESERVE,
                 PH_ROOF_DISCARD, PH_CHANCE_NODE, PH_GAME_OVER), "phases")
    _require(tuple(K) == tuple(range(7)) and K.ROOF_TILE == CK_ROOF_TILE and K.MARKERS == CK_MARKERS,
             "chance kinds")
    _require(tuple(S) == tuple(range(7)) and S.PYRAMID == ST_PYRAMID and S.END == ST_END, "stages")
    _require(_enums.CHANCE == CHANCE_PLAYER and _enums.TERMINAL == TERMINAL_PLAYER and _enums.EMPTY == EMPTY
             and _enums.NO_PLAYER == EMPTY, "sentinels")

    # Actions.
    NUM_ACTIONS = _A.NUM_ACTIONS
    T.num_actions = NUM_ACTIONS
    for f, name in enumerate(_FAMILY_NAMES):
        T.offset[f] = _A.OFFSET[name]
        for i in range(_A.SIZE[name]):
            T.action_family[T.offset[f] + i] = f
            T.action_index[T.offset[f] + i] = i
    (A_DONE, A_TAKE, A_BUILD, A_ROOF, A_PRIV_COIN, A_PRIV_CUBE, A_PYRAMID, A_SWAP, A_SAIL, A_DRAW_DECK,
     A_DRAW_DISPLAY, A_SEND, A_SELL, A_LACE, A_LACE_PRIV, A_RECALL_ISLAND, A_RECALL_SQUARE,
     A_BONUS_PRIVILEGE, A_BONUS_DISPLAY, A_BONUS_DECK, A_PAY, A_REPLENISH, A_PRIV_RESERVE, A_ROOF_DISCARD,
     A_ROOF_KIND, A_CH_FISH, A_CH_BUILDING, A_CH_ROOF, A_CH_MARKERS) = [T.offset[f] for f in range(NUM_FAMILIES)]
    # Island.
    T.fountain_hole = _topo.FOUNTAIN_HOLE
    for i in range(NUM_HOLES):
        nbrs = _topo.HOLE_NEIGHBOURS[i]
        _require(len(nbrs) <= MAX_HOLE_NEIGHBOURS, "hole neighbours")
        T.hole_nbr_n[i] = len(nbrs)
        for j, h in enumerate(nbrs):
            T.hole_nbr[i][j] = h
    for i, (ha, hb, mid) in enumerate(_topo.ROOF_LINES):
        T.line_a[i], T.line_b[i], T.line_mid[i] = ha, hb, mid
    # Route.
    for i in range(NUM_ROUTE_NODES):
        for k in range(2):
            dests = set(_topo.ROUTE_STEP1[i])
            if k:
                dests.update(_topo.ROUTE_STEP2[i])
            dests = sorted(dests)
            _require(len(dests) <= MAX_ROUTE_DESTS, "route destinations")
            T.dest_n[i][k] = len(dests)
            for j, d in enumerate(dests):
                T.dest[i][k][j] = d
        T.node_island[i] = _topo.NODE_ISLAND[i]
        T.node_port[i] = _topo.NODE_PORT[i]
    for i, (ia, ib) in enumerate(_A.ISLAND_PAIRS):
        T.island_pair[i][0], T.island_pair[i][1] = ia, ib
    # Ring.
    for i, piece in enumerate(_ring.RING_PIECES):
        for j, (colour, symbol) in enumerate(piece):
            T.piece_colour[i][j], T.piece_symbol[i][j] = colour, symbol
    # Sales.
    for i, (ship, counts, vp) in enumerate(_A.SALES):
        T.sale_ship[i] = ship
        T.sale_vp[i] = vp
        T.sale_mask[i] = 0
        need = max(counts)
        for j in range(NUM_SPECIES):
            T.sale_counts[i][j] = counts[j]
            if counts[j]:
                _require(counts[j] == need, "sale rows need equal counts per species")
                T.sale_mask[i] |= 1 << j
        T.sale_need[i] = need
    # Markers.
    for i, mapping in enumerate(_A.MARKER_MAPPINGS):
        for j in range(NUM_COLOURS):
            T.marker_map[i][j] = mapping[j]
    # Buildings.
    for f in range(NUM_CARD_FAMILIES):
        T.family_cards[f] = 0
    for i, (_, fam, arg) in enumerate(_B.BUILDING_CARDS):
        T.card_family[i] = fam
        T.family_cards[fam] |= 1 << i
        T.card_arg_mask[i] = 0
        for x in arg:
            T.card_arg_mask[i] |= 1 << x
    T.roof_bonus_vp_per_field = _B.ROOF_BONUS_VP_PER_FIELD
    T.sold_fish_vp_per_card = _B.SOLD_FISH_VP_PER_CARD
    T.lace_colours_vp_per_worker = _B.LACE_COLOURS_VP_PER_WORKER
    T.lace_discount_end_vp = _B.LACE_DISCOUNT_END_VP
    T.collector_vp_per_card = _B.COLLECTOR_VP_PER_CARD
    T.monument_vp = _B.MONUMENT_VP
    T.building_display_size = _B.BUILDING_DISPLAY_SIZE
    # Roofs.
    for i, (fa, fb) in enumerate(_roofs.ROOF_PAIRS):
        T.roof_pair[i][0], T.roof_pair[i][1] = fa, fb
    for i in range(4):
        T.majority_roof_vp[i] = _roofs.MAJORITY_ROOF_VP[i]
    for i in range(5):
        T.fountain_roof_vp[i] = _roofs.FOUNTAIN_ROOF_VP[i]
    T.flat_roof_vp = _roofs.FLAT_ROOF_VP
    T.roof_privilege_bonus = _roofs.ROOF_PRIVILEGE_BONUS
    # Pyramid.
    for i in range(4):
        for j in range(4):
            T.middle_support[i][j] = _A.MIDDLE_SUPPORT[i][j]
    # Turn and scoring.
    T.max_moves = _turn.MAX_MOVES
    for i in range(T.max_moves):
        T.move_costs[i] = _turn.MOVE_COSTS[i]
    T.no_move_coins = _turn.NO_MOVE_COINS
    T.num_seasons = len(_turn.SEASON_ROUNDS)
    for i in range(T.num_seasons):
        T.season_rounds[i] = _turn.SEASON_ROUNDS[i]
    T.prep_slots = _turn.PREP_SLOTS
    T.leftover_cube_coins = _turn.LEFTOVER_CUBE_COINS
    T.bump_coins = _turn.BUMP_COINS
    T.recall_coins = _turn.RECALL_COINS
    T.coins_per_vp = _turn.COINS_PER_VP
    T.lace_paid_vp = _turn.LACE_PAID_VP
    T.num_union_bonus = len(_turn.UNION_BONUS)
    for i in range(MAX_UNION):
        T.union_bonus[i] = _turn.UNION_BONUS[min(i, T.num_union_bonus - 1)]
    for i in range(MAX_PLAYERS + 1):
        T.island_majority_vp[i] = _turn.ISLAND_MAJORITY_VP.get(i, 0)
    T.empty_draw_vp = _fish.EMPTY_DRAW_VP
    T.hand_card_vp = _fish.HAND_CARD_VP
    T.fish_display_size = _fish.FISH_DISPLAY_SIZE
    T.cards_per_species = _fish.CARDS_PER_SPECIES
    T.cubes_per_colour = _colours.CUBES_PER_COLOUR


_init_tables()


# ================================================================================================
# Zobrist keys
# ================================================================================================

# Cells: every hashed field of StateC.  A player's fields are ZP_* offsets inside that player's block.
cdef enum:
    CX_SEASON, CX_ROUND, CX_FIRST_PLAYER, CX_STAGE, CX_PHASE, CX_ACTOR, CX_ORDER_INDEX, CX_MOVES,
    CX_CHANCE, CX_FISH_ISLAND, CX_FISH_MATCHES, CX_DRAWS_LEFT, CX_PENDING_ROOF, CX_PAY_QUEUE, CX_PAID,
    CX_DISCOUNT_USED, CX_SHORTFALL, CX_PICKS_LEFT, CX_KINDS_PICKED, CX_PYRAMID_TARGET, CX_LACE_ALLOW,
    CX_SIZE = CX_LACE_ALLOW + NUM_COLOURS

cdef enum:
    ZP_PIECES = 0
    ZP_OFFSET = 1
    ZP_RING = 2
    ZP_PYRAMID = 3
    ZP_RESERVE = ZP_PYRAMID + PYRAMID_SIZE
    ZP_PREP = ZP_RESERVE + NUM_COLOURS
    ZP_COINS = ZP_PREP + NUM_COLOURS
    ZP_VP = ZP_COINS + 1
    ZP_PRIVILEGE = ZP_VP + 1
    ZP_SLOTS = ZP_PRIVILEGE + 1
    ZP_BUILDINGS = ZP_SLOTS + NUM_ROOF_SLOTS
    ZP_KNOWN = ZP_BUILDINGS + 1
    ZP_BLIND = ZP_KNOWN + NUM_SPECIES
    ZP_SOLD = ZP_BLIND + NUM_SPECIES
    ZP_BOAT = ZP_SOLD + NUM_SPECIES
    # Only in information-state keys: what other seats see instead of hidden fields.
    ZP_BLIND_COUNT = ZP_BOAT + 1
    ZP_CUBES = ZP_BLIND_COUNT + 1            # per colour: pyramid + reserve while pyramids are hidden
    ZP_PLACED = ZP_CUBES + NUM_COLOURS
    ZP_SIZE = ZP_PLACED + 1

cdef enum:
    ZC_CUBE = 0                                             # + level * NUM_HOLES + hole
    ZC_ROOF = ZC_CUBE + NUM_LEVELS * NUM_HOLES              # + level * NUM_ROOF_LINES + line: the tile there
    ZC_REMOVED = ZC_ROOF + NUM_ROOF_LEVELS * NUM_ROOF_LINES  # + kind: mask of removed pairs
    ZC_DOCK = ZC_REMOVED + NUM_ROOF_KINDS                   # + island: packed sorted colours
    ZC_PORTS = ZC_DOCK + NUM_ISLANDS
    ZC_MARKERS = ZC_PORTS + 1
    ZC_FISH_DISPLAY = ZC_MARKERS + 1                        # + species
    ZC_BUILDING_DISPLAY = ZC_FISH_DISPLAY + NUM_SPECIES
    ZC_ISLAND_WORKERS = ZC_BUILDING_DISPLAY + 1             # + island * MAX_PLAYERS + seat
    ZC_WORKSHOP = ZC_ISLAND_WORKERS + NUM_ISLANDS * MAX_PLAYERS  # + square
    ZC_CTX = ZC_WORKSHOP + NUM_SQUARES                      # + CX_*
    ZC_PLAYER = ZC_CTX + CX_SIZE                            # + seat * ZP_SIZE + ZP_*
    ZC_VIEW = ZC_PLAYER + MAX_PLAYERS * ZP_SIZE             # information-state keys: the viewing seat
    Z_CELLS = ZC_VIEW + 1

cdef uint64_t ZOBRIST[Z_CELLS]
# Fixed seed of the Zobrist table: changing it changes every key (and any stored key).
ZOBRIST_SEED = 0xB0A0_5EED_2024_0001


cdef void _init_zobrist(uint64_t seed) noexcept nogil:
    cdef Rng rng
    cdef int i
    rng_seed(&rng, seed)
    for i in range(Z_CELLS):
        ZOBRIST[i] = rng_next(&rng)


_init_zobrist(ZOBRIST_SEED)


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t zk(int cell, int64_t value) noexcept nogil:
    """Key contribution of `cell` holding `value`."""
    return mix64(ZOBRIST[cell] + <uint64_t>value * 0x9E3779B97F4A7C15ULL)


cdef inline int pcell(int p, int field) noexcept nogil:
    return ZC_PLAYER + p * ZP_SIZE + field


cdef inline void rekey(StateC* s, int cell, int64_t old, int64_t new) noexcept nogil:
    if old != new:
        s.key ^= zk(cell, old) ^ zk(cell, new)


cdef inline void put8(StateC* s, int cell, int8_t* slot, int value) noexcept nogil:
    rekey(s, cell, slot[0], value)
    slot[0] = <int8_t>value


cdef inline void put32(StateC* s, int cell, int32_t* slot, int value) noexcept nogil:
    rekey(s, cell, slot[0], value)
    slot[0] = value


# Packed values of composite cells.

cdef inline int dock_value(const StateC* s, int island) noexcept nogil:
    return (s.docks[island][0] * NUM_COLOURS + s.docks[island][1]) * NUM_COLOURS + s.docks[island][2]


cdef inline int ports_value(const StateC* s) noexcept nogil:
    return s.ports[0] | (s.ports[1] << NUM_SHIPS)


cdef inline int markers_value(const StateC* s) noexcept nogil:
    cdef int c, v = 0
    for c in range(NUM_COLOURS):
        v = v * 3 + s.markers[c]
    return v


cdef inline int chance_value(int kind, int arg) noexcept nogil:
    # The roof kind matters only while a roof tile is being drawn (to_dict shows it only then).
    return kind * 8 + (arg if kind == CK_ROOF_TILE else 0)


cdef inline int roof_cell_value(const RoofC* r) noexcept nogil:
    return 1 + ((r.kind * NUM_ROOF_PAIRS + r.pair) * 2 + r.flipped)


cdef inline int pending_value(const StateC* s) noexcept nogil:
    if s.pending_roof < 0:
        return -1
    return s.roofs[s.pending_roof].level * NUM_ROOF_LINES + s.roofs[s.pending_roof].line


cdef inline int removed_mask(const StateC* s, int kind) noexcept nogil:
    cdef int i, m = 0
    for i in range(s.num_removed):
        if s.removed[i] // NUM_ROOF_PAIRS == kind:
            m |= 1 << (s.removed[i] % NUM_ROOF_PAIRS)
    return m


cdef inline int kinds_mask(const StateC* s) noexcept nogil:
    cdef int i, m = 0
    for i in range(s.num_kinds_picked):
        m |= 1 << s.kinds_picked[i]
    return m


cdef uint64_t full_key_c(const GameC* g, const StateC* s) noexcept nogil:
    """The key recomputed from every hashed field (the incremental key must equal it)."""
    cdef uint64_t k = 0
    cdef int lv, h, i, p, j, n = s.num_players
    cdef const PlayerC* pl
    for lv in range(NUM_LEVELS):
        for h in range(NUM_HOLES):
            k ^= zk(ZC_CUBE + lv * NUM_HOLES + h, s.cubes[lv][h])
    cdef int roof_value[NUM_ROOF_LEVELS][NUM_ROOF_LINES]
    memset(roof_value, 0, sizeof(roof_value))
    for i in range(s.num_roofs):
        roof_value[s.roofs[i].level - 1][s.roofs[i].line] = roof_cell_value(&s.roofs[i])
    for lv in range(NUM_ROOF_LEVELS):
        for i in range(NUM_ROOF_LINES):
            k ^= zk(ZC_ROOF + lv * NUM_ROOF_LINES + i, roof_value[lv][i])
    for i in range(NUM_ROOF_KINDS):
        k ^= zk(ZC_REMOVED + i, removed_mask(s, i))
    for i in range(NUM_ISLANDS):
        k ^= zk(ZC_DOCK + i, dock_value(s, i))
    k ^= zk(ZC_PORTS, ports_value(s))
    k ^= zk(ZC_MARKERS, markers_value(s))
    for i in range(NUM_SPECIES):
        k ^= zk(ZC_FISH_DISPLAY + i, s.fish_display[i])
    k ^= zk(ZC_BUILDING_DISPLAY, s.building_display)
    for i in range(NUM_ISLANDS):
        for p in range(MAX_PLAYERS):
            k ^= zk(ZC_ISLAND_WORKERS + i * MAX_PLAYERS + p, s.island_workers[i][p])
    for i in range(NUM_SQUARES):
        k ^= zk(ZC_WORKSHOP + i, s.workshop[i])
    # Context.
    k ^= zk(ZC_CTX + CX_SEASON, s.season)
    k ^= zk(ZC_CTX + CX_ROUND, s.round)
    k ^= zk(ZC_CTX + CX_FIRST_PLAYER, s.first_player)
    k ^= zk(ZC_CTX + CX_STAGE, s.stage)
    k ^= zk(ZC_CTX + CX_PHASE, s.phase)
    k ^= zk(ZC_CTX + CX_ACTOR, s.actor)
    k ^= zk(ZC_CTX + CX_ORDER_INDEX, s.order_index)
    k ^= zk(ZC_CTX + CX_MOVES, s.moves)
    k ^= zk(ZC_CTX + CX_CHANCE, chance_value(s.chance_kind, s.chance_arg))
    k ^= zk(ZC_CTX + CX_FISH_ISLAND, s.fish_island)
    k ^= zk(ZC_CTX + CX_FISH_MATCHES, s.fish_matches)
    k ^= zk(ZC_CTX + CX_DRAWS_LEFT, s.draws_left)
    k ^= zk(ZC_CTX + CX_PENDING_ROOF, pending_value(s))
    k ^= zk(ZC_CTX + CX_PAY_QUEUE, s.pay_queue)
    k ^= zk(ZC_CTX + CX_PAID, s.paid)
    k ^= zk(ZC_CTX + CX_DISCOUNT_USED, s.discount_used)
    k ^= zk(ZC_CTX + CX_SHORTFALL, s.shortfall)
    k ^= zk(ZC_CTX + CX_PICKS_LEFT, s.picks_left)
    k ^= zk(ZC_CTX + CX_KINDS_PICKED, kinds_mask(s))
    k ^= zk(ZC_CTX + CX_PYRAMID_TARGET, s.pyramid_target)
    for i in range(NUM_COLOURS):
        k ^= zk(ZC_CTX + CX_LACE_ALLOW + i, s.lace_allow[i])
    # Players.
    for p in range(n):
        pl = &s.players[p]
        k ^= zk(pcell(p, ZP_PIECES), ((pl.ring_pieces[0] * 4 + pl.ring_pieces[1]) * 4 + pl.ring_pieces[2]) * 4
                + pl.ring_pieces[3])
        k ^= zk(pcell(p, ZP_OFFSET), pl.ring_offset)
        k ^= zk(pcell(p, ZP_RING), pl.ring_workers)
        for j in range(PYRAMID_SIZE):
            k ^= zk(pcell(p, ZP_PYRAMID + j), pl.pyramid[j])
        for j in range(NUM_COLOURS):
            k ^= zk(pcell(p, ZP_RESERVE + j), pl.reserve[j])
            k ^= zk(pcell(p, ZP_PREP + j), pl.prep[j])
        k ^= zk(pcell(p, ZP_COINS), pl.coins)
        k ^= zk(pcell(p, ZP_VP), pl.vp)
        k ^= zk(pcell(p, ZP_PRIVILEGE), pl.privilege)
        for j in range(NUM_ROOF_SLOTS):
            k ^= zk(pcell(p, ZP_SLOTS + j), pl.roof_slots[j])
        k ^= zk(pcell(p, ZP_BUILDINGS), pl.buildings)
        for j in range(NUM_SPECIES):
            k ^= zk(pcell(p, ZP_KNOWN + j), pl.hand_known[j])
            k ^= zk(pcell(p, ZP_BLIND + j), pl.hand_blind[j])
            k ^= zk(pcell(p, ZP_SOLD + j), pl.sold[j])
        k ^= zk(pcell(p, ZP_BOAT), pl.boat)
    return k


cdef uint64_t info_key_c(const GameC* g, const StateC* s, int seat) noexcept nogil:
    """Key of what `seat` sees (notation's one-seat view): hidden fields replaced by what is public.

    Other seats' blind cards count only by their number (the fish deck then only by its size), and
    while pyramids are built, other seats' pyramid and reserve only as cubes per colour and cubes placed.
    """
    cdef uint64_t k = s.key ^ zk(ZC_VIEW, seat)
    cdef int q, j, total
    cdef int cubes[NUM_COLOURS]
    cdef const PlayerC* pl
    for q in range(s.num_players):
        if q == seat:
            continue
        pl = &s.players[q]
        total = 0
        for j in range(NUM_SPECIES):
            k ^= zk(pcell(q, ZP_BLIND + j), pl.hand_blind[j])
            total += pl.hand_blind[j]
        k ^= zk(pcell(q, ZP_BLIND_COUNT), total)
        if s.stage == ST_PYRAMID:
            for j in range(NUM_COLOURS):
                cubes[j] = pl.reserve[j]
                k ^= zk(pcell(q, ZP_RESERVE + j), pl.reserve[j])
            for j in range(PYRAMID_SIZE):
                k ^= zk(pcell(q, ZP_PYRAMID + j), pl.pyramid[j])
                if pl.pyramid[j] >= 0:
                    cubes[pl.pyramid[j]] += 1
            for j in range(NUM_COLOURS):
                k ^= zk(pcell(q, ZP_CUBES + j), cubes[j])
            k ^= zk(pcell(q, ZP_PLACED), pl.pyramid_count)
    return k


# ================================================================================================
# Setters: every change of a hashed field goes through one of these (they keep key and derived counts)
# ================================================================================================

cdef inline void set_ctx(StateC* s, int cx, int8_t* slot, int value) noexcept nogil:
    put8(s, ZC_CTX + cx, slot, value)


cdef inline void set_phase(StateC* s, int phase) noexcept nogil:
    put8(s, ZC_CTX + CX_PHASE, &s.phase, phase)


cdef inline void set_actor(StateC* s, int actor) noexcept nogil:
    put8(s, ZC_CTX + CX_ACTOR, &s.actor, actor)


cdef inline void set_order_index(StateC* s, int value) noexcept nogil:
    put8(s, ZC_CTX + CX_ORDER_INDEX, &s.order_index, value)


cdef inline void set_chance(StateC* s, int kind, int arg) noexcept nogil:
    rekey(s, ZC_CTX + CX_CHANCE, chance_value(s.chance_kind, s.chance_arg), chance_value(kind, arg))
    s.chance_kind = <int8_t>kind
    s.chance_arg = <int8_t>arg


cdef inline void set_chance_kind(StateC* s, int kind) noexcept nogil:
    set_chance(s, kind, s.chance_arg)


cdef inline void set_pending_roof(StateC* s, int roof_id) noexcept nogil:
    cdef int old = pending_value(s)
    s.pending_roof = <int8_t>roof_id
    rekey(s, ZC_CTX + CX_PENDING_ROOF, old, pending_value(s))


cdef inline void set_pay_queue(StateC* s, uint32_t mask) noexcept nogil:
    rekey(s, ZC_CTX + CX_PAY_QUEUE, s.pay_queue, mask)
    s.pay_queue = mask


cdef inline void set_paid(StateC* s, uint32_t mask) noexcept nogil:
    rekey(s, ZC_CTX + CX_PAID, s.paid, mask)
    s.paid = mask


cdef inline void clear_kinds_picked(StateC* s) noexcept nogil:
    rekey(s, ZC_CTX + CX_KINDS_PICKED, kinds_mask(s), 0)
    s.num_kinds_picked = 0


cdef inline void add_kind_picked(StateC* s, int kind) noexcept nogil:
    cdef int old = kinds_mask(s)
    s.kinds_picked[s.num_kinds_picked] = <int8_t>kind
    s.num_kinds_picked += 1
    rekey(s, ZC_CTX + CX_KINDS_PICKED, old, kinds_mask(s))


cdef inline void clear_lace_allow(StateC* s) noexcept nogil:
    cdef int c
    for c in range(NUM_COLOURS):
        put8(s, ZC_CTX + CX_LACE_ALLOW + c, &s.lace_allow[c], 0)


cdef inline void add_coins(StateC* s, int p, int d) noexcept nogil:
    put32(s, pcell(p, ZP_COINS), &s.players[p].coins, s.players[p].coins + d)


cdef inline void add_vp(StateC* s, int p, int d) noexcept nogil:
    put32(s, pcell(p, ZP_VP), &s.players[p].vp, s.players[p].vp + d)


cdef inline void add_privilege(StateC* s, int p, int d) noexcept nogil:
    put32(s, pcell(p, ZP_PRIVILEGE), &s.players[p].privilege, s.players[p].privilege + d)


cdef inline void add_ring_workers(StateC* s, int p, int d) noexcept nogil:
    put8(s, pcell(p, ZP_RING), &s.players[p].ring_workers, s.players[p].ring_workers + d)


cdef inline void turn_wheel(StateC* s, int p, int k) noexcept nogil:
    put8(s, pcell(p, ZP_OFFSET), &s.players[p].ring_offset, (s.players[p].ring_offset + k) % NUM_HOUSES)


cdef inline void set_pyramid(StateC* s, int p, int pos, int colour) noexcept nogil:
    cdef PlayerC* pl = &s.players[p]
    pl.pyramid_count += (colour >= 0) - (pl.pyramid[pos] >= 0)
    put8(s, pcell(p, ZP_PYRAMID + pos), &pl.pyramid[pos], colour)


cdef inline void add_reserve(StateC* s, int p, int colour, int d) noexcept nogil:
    put8(s, pcell(p, ZP_RESERVE + colour), &s.players[p].reserve[colour], s.players[p].reserve[colour] + d)


cdef inline void add_prep(StateC* s, int p, int colour, int d) noexcept nogil:
    s.players[p].prep_total += d
    put8(s, pcell(p, ZP_PREP + colour), &s.players[p].prep[colour], s.players[p].prep[colour] + d)


cdef inline void add_island_workers(StateC* s, int island, int p, int d) noexcept nogil:
    s.players[p].island_total += d
    put8(s, ZC_ISLAND_WORKERS + island * MAX_PLAYERS + p, &s.island_workers[island][p],
         s.island_workers[island][p] + d)


cdef inline void set_workshop(StateC* s, int sq, int occupant) noexcept nogil:
    cdef int old = s.workshop[sq]
    if old >= 0:
        s.players[old].workshop_mask &= ~(1u << sq)
    if occupant >= 0:
        s.players[occupant].workshop_mask |= 1u << sq
    put8(s, ZC_WORKSHOP + sq, &s.workshop[sq], occupant)


cdef inline void set_roof_slot(StateC* s, int p, int slot, int tile) noexcept nogil:
    put8(s, pcell(p, ZP_SLOTS + slot), &s.players[p].roof_slots[slot], tile)


cdef inline void add_building(StateC* s, int p, int card) noexcept nogil:
    cdef PlayerC* pl = &s.players[p]
    rekey(s, pcell(p, ZP_BUILDINGS), pl.buildings, pl.buildings | (1u << card))
    pl.buildings |= 1u << card
    pl.building_order[pl.num_buildings] = <int8_t>card
    pl.num_buildings += 1


cdef inline void set_building_display(StateC* s, uint16_t mask) noexcept nogil:
    rekey(s, ZC_BUILDING_DISPLAY, s.building_display, mask)
    s.building_display = mask


cdef inline void add_fish_display(StateC* s, int species, int d) noexcept nogil:
    s.fish_display_total += d
    put8(s, ZC_FISH_DISPLAY + species, &s.fish_display[species], s.fish_display[species] + d)


cdef inline void add_hand_known(StateC* s, int p, int species, int d) noexcept nogil:
    put8(s, pcell(p, ZP_KNOWN + species), &s.players[p].hand_known[species], s.players[p].hand_known[species] + d)


cdef inline void add_hand_blind(StateC* s, int p, int species, int d) noexcept nogil:
    put8(s, pcell(p, ZP_BLIND + species), &s.players[p].hand_blind[species], s.players[p].hand_blind[species] + d)


cdef inline void add_sold(StateC* s, int p, int species, int d) noexcept nogil:
    put8(s, pcell(p, ZP_SOLD + species), &s.players[p].sold[species], s.players[p].sold[species] + d)


cdef inline void take_from_fish_deck(StateC* s, int species) noexcept nogil:
    s.fish_deck[species] -= 1
    s.fish_deck_total -= 1


# ================================================================================================
# Small derived quantities (reference: "Small derived quantities")
# ================================================================================================

cdef inline bint has_family(const StateC* s, int p, int fam) noexcept nogil:
    return (s.players[p].buildings & T.family_cards[fam]) != 0


cdef inline int house_index(const PlayerC* pl, int sector) noexcept nogil:
    return (pl.ring_offset + sector - 1) % NUM_HOUSES


cdef inline void arrows(const PlayerC* pl, int* out) noexcept nogil:
    """Colours under the arrows: sectors 10, 11, 12 [RD-4]."""
    out[0] = pl.house_colour[house_index(pl, 10)]
    out[1] = pl.house_colour[house_index(pl, 11)]
    out[2] = pl.house_colour[house_index(pl, 12)]


cdef inline int visible_symbols(const PlayerC* pl, int symbol) noexcept nogil:
    cdef int sector, count = 0
    for sector in range(pl.ring_workers + 1, NUM_HOUSES + 1):
        if pl.house_symbol[house_index(pl, sector)] == symbol:
            count += 1
    return count


cdef inline bint is_free(const PlayerC* pl, int pos) noexcept nogil:
    """No cube rests on pyramid position `pos` (which holds a cube)."""
    cdef int m
    if pl.pyramid[pos] < 0:
        return False
    if pos < 9:
        for m in range(4):
            if pl.pyramid[9 + m] >= 0 and (T.middle_support[m][0] == pos or T.middle_support[m][1] == pos
                                           or T.middle_support[m][2] == pos or T.middle_support[m][3] == pos):
                return False
        return True
    if pos < 13:
        return pl.pyramid[13] < 0
    return True


cdef inline bint is_supported(const PlayerC* pl, int pos) noexcept nogil:
    """A pyramid position can take a cube: a base cell, or all the cells below it filled [RD-18]."""
    cdef int j
    if pos < 9:
        return True
    if pos < 13:
        for j in range(4):
            if pl.pyramid[T.middle_support[pos - 9][j]] < 0:
                return False
        return True
    for j in range(4):
        if pl.pyramid[9 + j] < 0:
            return False
    return True


cdef inline int build_level(const StateC* s, int hole) noexcept nogil:
    """Level a new cube in `hole` would take, or 0 (§4.2 build)."""
    cdef int level = s.height[hole] + 1, j
    if level == 1:
        for j in range(T.hole_nbr_n[hole]):
            if s.cubes[0][T.hole_nbr[hole][j]] >= 0:
                return 1
        return 0
    if level <= NUM_LEVELS and s.roof_at[level - 2][hole] >= 0:
        return level
    return 0


cdef inline int matches(const StateC* s, int p, int island) noexcept nogil:
    """Size of the multiset intersection of arrow colours and the island's docks [RD-7]."""
    cdef int arr[3]
    cdef int used[3]
    cdef int i, j, m = 0
    arrows(&s.players[p], arr)
    used[0] = used[1] = used[2] = 0
    for i in range(3):
        for j in range(DOCKS_PER_ISLAND):
            if not used[j] and s.docks[island][j] == arr[i]:
                used[j] = 1
                m += 1
                break
    return m


cdef inline bint can_sail(const StateC* s, int p, int node) noexcept nogil:
    cdef int island = T.node_island[node]
    if island >= 0:
        return matches(s, p, island) >= 1
    return s.ports[T.node_port[node]] != 0


cdef inline int workers_off_ring(const StateC* s, int p) noexcept nogil:
    return s.players[p].island_total + BURANO_POPCOUNT(s.players[p].workshop_mask)


cdef inline int supply_total(const StateC* s) noexcept nogil:
    cdef int c, t = 0
    for c in range(NUM_COLOURS):
        t += s.supply[c]
    return t


cdef inline bint pyramid_has(const PlayerC* pl, int colour) noexcept nogil:
    cdef int j
    for j in range(PYRAMID_SIZE):
        if pl.pyramid[j] == colour:
            return True
    return False


cdef int island_majorities(const StateC* s, int p) noexcept nogil:
    """Islands where `p` has strictly the most workers (ties won with the Island ties card)."""
    cdef bint ties = has_family(s, p, BF_ISLAND_TIES)
    cdef int i, q, mine, best_other, count = 0
    for i in range(NUM_ISLANDS):
        mine = s.island_workers[i][p]
        best_other = -1
        for q in range(s.num_players):
            if q != p and s.island_workers[i][q] > best_other:
                best_other = s.island_workers[i][q]
        if mine > 0 and (mine > best_other or (ties and mine == best_other)):
            count += 1
    return count


cdef int workshop_majorities(const GameC* g, const StateC* s, int p) noexcept nogil:
    """Workshop tiles where `p` has strictly the most workers."""
    cdef int t, q, mine, count = 0
    cdef bint best
    for t in range(NUM_TILES):
        mine = BURANO_POPCOUNT(s.players[p].workshop_mask & g.tile_mask[t])
        if mine == 0:
            continue
        best = True
        for q in range(s.num_players):
            if q != p and BURANO_POPCOUNT(s.players[q].workshop_mask & g.tile_mask[t]) >= mine:
                best = False
                break
        if best:
            count += 1
    return count


cdef int union_bonus(const GameC* g, uint32_t squares) noexcept nogil:
    """Union bonus VP of a set of paid squares: flood fill of orthogonally connected groups."""
    cdef uint32_t comp, frontier, grow
    cdef int sq, size, total = 0
    while squares:
        comp = squares & (~squares + 1)
        frontier = comp
        while frontier:
            sq = BURANO_CTZ(frontier)
            frontier &= frontier - 1
            grow = g.sq_neighbours[sq] & squares & ~comp
            comp |= grow
            frontier |= grow
        size = BURANO_POPCOUNT(comp)
        total += T.union_bonus[size if size < MAX_UNION else MAX_UNION - 1]
        squares &= ~comp
    return total


cdef int pay_options(const GameC* g, const StateC* s, int p, int sq, int* out) noexcept nogil:
    cdef const PlayerC* pl = &s.players[p]
    cdef int colour = g.sq_colour[sq], n = 0
    if pyramid_has(pl, colour):
        out[n] = PAY_PYRAMID
        n += 1
    if pl.privilege > 0 and s.supply[colour] > 0:
        out[n] = PAY_PRIVILEGE
        n += 1
    if not s.discount_used and has_family(s, p, BF_LACE_DISCOUNT):
        out[n] = PAY_DISCOUNT
        n += 1
    if n:
        out[n] = PAY_NONE
        n += 1
    return n


cdef inline int lowest_square(uint32_t mask) noexcept nogil:
    return BURANO_CTZ(mask)


# ================================================================================================
# Legal actions
# ================================================================================================

cdef int legal_roofs(const StateC* s, int p, int* out, int n) noexcept nogil:
    """Roof placements (§7), in id order: slot, line, orientation."""
    cdef const PlayerC* pl = &s.players[p]
    cdef uint32_t wild = 0
    cdef uint16_t cards = pl.buildings & T.family_cards[BF_ROOF_WILDCARD]
    cdef int lines[NUM_ROOF_LINES]
    cdef int col_a[NUM_ROOF_LINES]
    cdef int col_b[NUM_ROOF_LINES]
    cdef int nl = 0, line, a, b, level, mid, slot, tile, f0, f1, i, ca, cb
    while cards:
        i = BURANO_CTZ(cards)
        cards &= cards - 1
        wild |= T.card_arg_mask[i]
    for line in range(NUM_ROOF_LINES):
        a = T.line_a[line]
        b = T.line_b[line]
        level = s.height[a]
        if level == 0 or level > NUM_ROOF_LEVELS or s.height[b] != level:
            continue
        if s.roof_at[level - 1][a] >= 0 or s.roof_at[level - 1][b] >= 0:
            continue
        mid = T.line_mid[line]
        if (s.mid_used[level - 1][mid >> 6] >> (mid & 63)) & 1:
            continue
        lines[nl] = line
        col_a[nl] = s.cubes[level - 1][a]
        col_b[nl] = s.cubes[level - 1][b]
        nl += 1
    if nl == 0:
        return n
    for slot in range(NUM_ROOF_SLOTS):
        tile = pl.roof_slots[slot]
        if tile < 0:
            continue
        f0 = T.roof_pair[tile % NUM_ROOF_PAIRS][0]
        f1 = T.roof_pair[tile % NUM_ROOF_PAIRS][1]
        for i in range(nl):
            ca = col_a[i]
            cb = col_b[i]
            if (f0 == ca or (wild >> f0) & 1) and (f1 == cb or (wild >> f1) & 1):
                out[n] = A_ROOF + (slot * NUM_ROOF_LINES + lines[i]) * 2
                n += 1
            if (f1 == ca or (wild >> f1) & 1) and (f0 == cb or (wild >> f0) & 1):
                out[n] = A_ROOF + (slot * NUM_ROOF_LINES + lines[i]) * 2 + 1
                n += 1
    return n


cdef inline bint can_lace(const GameC* g, const StateC* s, int p, int sq, bint with_privilege) noexcept nogil:
    """May `p` place a lace worker on `sq` now (§5.2)?"""
    cdef int colour = g.sq_colour[sq], occ
    cdef uint32_t mine
    if colour < 0 or s.lace_allow[colour] == 0 or s.players[p].ring_workers <= 1:
        return False
    occ = s.workshop[sq]
    if occ == p:
        return False
    if with_privilege:
        return True
    if occ >= 0 and not has_family(s, p, BF_LACE_BUMPING):
        return False
    mine = s.players[p].workshop_mask
    return mine == 0 or (g.sq_neighbours[sq] & mine) != 0


cdef int legal_actions_c(const GameC* g, const StateC* s, int* out) noexcept nogil:
    """Write the sorted legal action ids of the actor to `out`; return their number (0 at chance/end)."""
    cdef int phase = s.phase, p = s.actor, n = 0, pos, c, h, i, j, k, sq, node, sale, ship
    cdef const PlayerC* pl
    cdef int holes[NUM_HOLES]
    cdef int nh
    cdef int opts[4]
    cdef uint32_t bits, plain
    cdef uint32_t have[5]
    cdef bint long_voyage, any_sail
    cdef int ci, cj, prev_i, prev_j
    if phase == PH_CHANCE_NODE or phase == PH_GAME_OVER:
        return 0
    pl = &s.players[p]
    if phase == PH_TURN:
        out[n] = A_DONE
        n += 1
        if s.moves < T.max_moves and pl.coins + T.move_costs[s.moves] >= 0:
            if pl.prep_total < T.prep_slots:
                for pos in range(PYRAMID_SIZE):
                    if is_free(pl, pos):
                        out[n] = A_TAKE + pos
                        n += 1
            if pl.prep_total > 0:
                nh = 0
                for h in range(NUM_HOLES):
                    if build_level(s, h):
                        holes[nh] = h
                        nh += 1
                for c in range(NUM_COLOURS):
                    if pl.prep[c] > 0:
                        for i in range(nh):
                            out[n] = A_BUILD + c * NUM_HOLES + holes[i]
                            n += 1
            n = legal_roofs(s, p, out, n)
        if pl.privilege > 0:
            out[n] = A_PRIV_COIN
            n += 1
            for c in range(NUM_COLOURS):
                if s.supply[c] > 0:
                    for pos in range(PYRAMID_SIZE):
                        if pl.pyramid[pos] < 0 and is_supported(pl, pos):
                            out[n] = A_PRIV_CUBE + c * PYRAMID_SIZE + pos
                            n += 1
    elif phase == PH_PYRAMID:
        for c in range(NUM_COLOURS):
            if pl.reserve[c] > 0:
                out[n] = A_PYRAMID + c
                n += 1
    elif phase == PH_FISH_SAIL:
        long_voyage = has_family(s, p, BF_LONG_VOYAGE)
        any_sail = False
        for i in range(T.dest_n[pl.boat][long_voyage]):
            if can_sail(s, p, T.dest[pl.boat][long_voyage][i]):
                any_sail = True
                break
        if not any_sail:
            out[n] = A_DONE   # [RD-5]: no legal trip, the action is skipped
            n += 1
        if pl.privilege > 0:
            for k in range(NUM_ISLAND_PAIRS):
                i = T.island_pair[k][0]
                j = T.island_pair[k][1]
                prev_i = -1
                for ci in range(DOCKS_PER_ISLAND):
                    if s.docks[i][ci] == prev_i:
                        continue
                    prev_i = s.docks[i][ci]
                    prev_j = -1
                    for cj in range(DOCKS_PER_ISLAND):
                        if s.docks[j][cj] == prev_j:
                            continue
                        prev_j = s.docks[j][cj]
                        if prev_i != prev_j:
                            out[n] = A_SWAP + (k * NUM_COLOURS + prev_i) * NUM_COLOURS + prev_j
                            n += 1
        if any_sail:
            for i in range(T.dest_n[pl.boat][long_voyage]):
                node = T.dest[pl.boat][long_voyage][i]
                if can_sail(s, p, node):
                    out[n] = A_SAIL + node
                    n += 1
    elif phase == PH_FISH_DRAW:
        if s.fish_deck_total > 0:
            out[n] = A_DRAW_DECK
            n += 1
        for i in range(NUM_SPECIES):
            if s.fish_display[i] > 0:
                out[n] = A_DRAW_DISPLAY + i
                n += 1
    elif phase == PH_FISH_SEND:
        out[0] = A_SEND
        out[1] = A_SEND + 1
        n = 2
    elif phase == PH_PORT_TRADE:
        out[n] = A_DONE
        n += 1
        bits = s.ports[T.node_port[pl.boat]]
        have[0] = 0xFF
        for k in range(1, 5):
            have[k] = 0
            for i in range(NUM_SPECIES):
                if pl.hand_known[i] + pl.hand_blind[i] >= k:
                    have[k] |= 1u << i
        for sale in range(NUM_SALES):
            if (bits >> T.sale_ship[sale]) & 1 and (T.sale_mask[sale] & ~have[T.sale_need[sale]]) == 0:
                out[n] = A_SELL + sale
                n += 1
    elif phase == PH_LACE_PLACE:
        out[n] = A_DONE
        n += 1
        plain = 0
        for sq in range(NUM_SQUARES):
            if can_lace(g, s, p, sq, False):
                plain |= 1u << sq
                out[n] = A_LACE + sq
                n += 1
        if pl.privilege > 0:
            for sq in range(NUM_SQUARES):
                if not (plain >> sq) & 1 and can_lace(g, s, p, sq, True):
                    out[n] = A_LACE_PRIV + sq
                    n += 1
    elif phase == PH_RECALL:
        out[n] = A_DONE
        n += 1
        for i in range(NUM_ISLANDS):
            if s.island_workers[i][p] > 0:
                out[n] = A_RECALL_ISLAND + i
                n += 1
        bits = pl.workshop_mask
        while bits:
            out[n] = A_RECALL_SQUARE + BURANO_CTZ(bits)
            n += 1
            bits &= bits - 1
    elif phase == PH_ROOF_BONUS:
        out[n] = A_BONUS_PRIVILEGE
        n += 1
        bits = s.building_display
        while bits:
            out[n] = A_BONUS_DISPLAY + BURANO_CTZ(bits)
            n += 1
            bits &= bits - 1
        if s.building_deck:
            out[n] = A_BONUS_DECK
            n += 1
    elif phase == PH_LACE_PAY:
        k = pay_options(g, s, p, lowest_square(s.pay_queue), opts)
        for i in range(k):
            out[n] = A_PAY + opts[i]
            n += 1
    elif phase == PH_REPLENISH:
        for c in range(NUM_COLOURS):
            if s.supply[c] > 0:
                out[n] = A_REPLENISH + c
                n += 1
    elif phase == PH_PRIV_RESERVE:
        out[n] = A_DONE
        n += 1
        for c in range(NUM_COLOURS):
            if s.supply[c] > 0:
                out[n] = A_PRIV_RESERVE + c
                n += 1
    elif phase == PH_ROOF_DISCARD:
        out[n] = A_DONE
        n += 1
        for i in range(NUM_ROOF_SLOTS):
            if pl.roof_slots[i] >= 0:
                out[n] = A_ROOF_DISCARD + i
                n += 1
    elif phase == PH_ROOF_PICK:
        k = kinds_mask(s)
        for i in range(NUM_ROOF_KINDS):
            if not (k >> i) & 1 and s.roof_stack[i]:
                out[n] = A_ROOF_KIND + i
                n += 1
    return n


# ================================================================================================
# Applying actions: a port of the reference's handlers, in the same order
# ================================================================================================

cdef inline void pay_move(StateC* s) noexcept nogil:
    add_coins(s, s.actor, T.move_costs[s.moves])
    set_ctx(s, CX_MOVES, &s.moves, s.moves + 1)


cdef void end_action(StateC* s) noexcept nogil:
    """Back to the turn's main decision after a move's action is complete."""
    set_phase(s, PH_TURN)
    set_ctx(s, CX_FISH_ISLAND, &s.fish_island, EMPTY)
    set_ctx(s, CX_FISH_MATCHES, &s.fish_matches, 0)
    clear_lace_allow(s)


cdef void end_turn(const GameC* g, StateC* s) noexcept nogil:
    cdef int nxt
    if s.moves == 0:
        add_coins(s, s.actor, T.no_move_coins)
    set_ctx(s, CX_MOVES, &s.moves, 0)
    nxt = (s.actor + 1) % s.num_players
    if nxt == s.first_player:
        set_ctx(s, CX_ROUND, &s.round, s.round + 1)
        if s.round > T.season_rounds[s.season]:
            start_cleanup(g, s)
            return
    set_actor(s, nxt)
    set_phase(s, PH_TURN)


cdef void do_take(StateC* s, int pos) noexcept nogil:
    cdef int p = s.actor
    pay_move(s)
    add_prep(s, p, s.players[p].pyramid[pos], 1)
    set_pyramid(s, p, pos, EMPTY)


cdef void do_build(const GameC* g, StateC* s, int i) noexcept nogil:
    cdef int colour = i // NUM_HOLES, hole = i % NUM_HOLES, p = s.actor, level, action, c
    cdef int arr[3]
    pay_move(s)
    level = build_level(s, hole)
    add_prep(s, p, colour, -1)
    put8(s, ZC_CUBE + (level - 1) * NUM_HOLES + hole, &s.cubes[level - 1][hole], colour)
    s.height[hole] = <int8_t>level
    if level >= 2 and s.roof_field[level - 2][hole] == colour:
        add_privilege(s, p, 1)
    action = s.markers[colour]
    if action == ACT_FISHING:
        set_phase(s, PH_FISH_SAIL)
    elif action == ACT_LACE:
        clear_lace_allow(s)
        arrows(&s.players[p], arr)
        for c in range(3):
            put8(s, ZC_CTX + CX_LACE_ALLOW + arr[c], &s.lace_allow[arr[c]], s.lace_allow[arr[c]] + 1)
        continue_lace(s)
    else:
        add_coins(s, p, visible_symbols(&s.players[p], SYM_COIN))
        continue_recall(s)


cdef void do_roof(StateC* s, int i) noexcept nogil:
    cdef int slot = i // (NUM_ROOF_LINES * 2), rest = i % (NUM_ROOF_LINES * 2)
    cdef int line = rest // 2, flipped = rest % 2, p = s.actor
    cdef int tile, kind, pair, a, b, level, fa, fb, roof_id, mid
    cdef RoofC* r
    pay_move(s)
    tile = s.players[p].roof_slots[slot]
    kind = tile // NUM_ROOF_PAIRS
    pair = tile % NUM_ROOF_PAIRS
    set_roof_slot(s, p, slot, EMPTY)
    a = T.line_a[line]
    b = T.line_b[line]
    level = s.height[a]
    fa = T.roof_pair[pair][flipped]
    fb = T.roof_pair[pair][1 - flipped]
    roof_id = s.num_roofs
    r = &s.roofs[roof_id]
    r.level = <int8_t>level
    r.line = <int8_t>line
    r.kind = <int8_t>kind
    r.pair = <int8_t>pair
    r.flipped = <int8_t>flipped
    s.num_roofs += 1
    rekey(s, ZC_ROOF + (level - 1) * NUM_ROOF_LINES + line, 0, roof_cell_value(r))
    s.roof_at[level - 1][a] = <int8_t>roof_id
    s.roof_at[level - 1][b] = <int8_t>roof_id
    s.roof_field[level - 1][a] = <int8_t>fa
    s.roof_field[level - 1][b] = <int8_t>fb
    mid = T.line_mid[line]
    s.mid_used[level - 1][mid >> 6] |= (<uint64_t>1) << (mid & 63)
    set_pending_roof(s, roof_id)
    set_phase(s, PH_ROOF_BONUS)


cdef void do_priv_cube(StateC* s, int i) noexcept nogil:
    cdef int colour = i // PYRAMID_SIZE, pos = i % PYRAMID_SIZE
    add_privilege(s, s.actor, -1)
    set_pyramid(s, s.actor, pos, colour)
    s.supply[colour] -= 1


# --- fishing (§5.1)

cdef void sort3(int8_t* d) noexcept nogil:
    cdef int8_t t
    if d[0] > d[1]:
        t = d[0]; d[0] = d[1]; d[1] = t
    if d[1] > d[2]:
        t = d[1]; d[1] = d[2]; d[2] = t
    if d[0] > d[1]:
        t = d[0]; d[0] = d[1]; d[1] = t


cdef void swap_dock(StateC* s, int island, int out_colour, int in_colour) noexcept nogil:
    cdef int old = dock_value(s, island), j
    for j in range(DOCKS_PER_ISLAND):
        if s.docks[island][j] == out_colour:
            s.docks[island][j] = <int8_t>in_colour
            break
    sort3(s.docks[island])
    rekey(s, ZC_DOCK + island, old, dock_value(s, island))


cdef void do_swap(StateC* s, int i) noexcept nogil:
    cdef int pair = i // (NUM_COLOURS * NUM_COLOURS), rest = i % (NUM_COLOURS * NUM_COLOURS)
    cdef int ca = rest // NUM_COLOURS, cb = rest % NUM_COLOURS
    add_privilege(s, s.actor, -1)
    swap_dock(s, T.island_pair[pair][0], ca, cb)
    swap_dock(s, T.island_pair[pair][1], cb, ca)


cdef void do_sail(const GameC* g, StateC* s, int node) noexcept nogil:
    cdef int p = s.actor, island, m
    put8(s, pcell(p, ZP_BOAT), &s.players[p].boat, node)
    island = T.node_island[node]
    if island < 0:
        set_phase(s, PH_PORT_TRADE)
        return
    set_ctx(s, CX_FISH_ISLAND, &s.fish_island, island)
    m = matches(s, p, island)
    set_ctx(s, CX_FISH_MATCHES, &s.fish_matches, m)
    set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, m)
    set_phase(s, PH_FISH_DRAW)
    continue_draws(g, s)


cdef void continue_draws(const GameC* g, StateC* s) noexcept nogil:
    if s.draws_left > 0 and s.fish_deck_total == 0 and s.fish_display_total == 0:
        add_vp(s, s.actor, T.empty_draw_vp * s.draws_left)
        set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, 0)
    if s.draws_left > 0:
        set_phase(s, PH_FISH_DRAW)
        return
    refill_fish_display(g, s)


cdef void refill_fish_display(const GameC* g, StateC* s) noexcept nogil:
    if s.fish_display_total < T.fish_display_size and s.fish_deck_total > 0:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_FISH_REFILL)
        return
    set_chance_kind(s, CK_NONE)
    before_send(g, s)


cdef void before_send(const GameC* g, StateC* s) noexcept nogil:
    cdef int ring = s.players[s.actor].ring_workers
    if s.fish_matches == 3 and ring >= 3:
        set_phase(s, PH_FISH_SEND)
        return
    send(s, 1 if ring >= 2 else 0)


cdef void send(StateC* s, int k) noexcept nogil:
    """Send k ring workers to the fished island; bump one worker of each other player there [RD-8]."""
    cdef int p = s.actor, island = s.fish_island, q
    add_ring_workers(s, p, -k)
    turn_wheel(s, p, k)
    add_island_workers(s, island, p, k)
    if k > 0:
        for q in range(s.num_players):
            if q != p and s.island_workers[island][q] > 0:
                add_island_workers(s, island, q, -1)
                add_ring_workers(s, q, 1)
                add_coins(s, q, T.bump_coins)
    end_action(s)


cdef void do_sell(StateC* s, int sale) noexcept nogil:
    cdef int p = s.actor, sp, need, from_known, ship = T.sale_ship[sale], port
    cdef PlayerC* pl = &s.players[p]
    add_vp(s, p, T.sale_vp[sale])
    for sp in range(NUM_SPECIES):
        need = T.sale_counts[sale][sp]
        if need:
            from_known = need if need < pl.hand_known[sp] else pl.hand_known[sp]
            add_hand_known(s, p, sp, -from_known)
            add_hand_blind(s, p, sp, from_known - need)
            add_sold(s, p, sp, need)
    port = T.node_port[pl.boat]
    rekey(s, ZC_PORTS, ports_value(s), ports_value(s) ^ (1 << (ship + NUM_SHIPS * port))
          ^ (1 << (ship + NUM_SHIPS * (1 - port))))
    s.ports[port] &= ~(1 << ship)
    s.ports[1 - port] |= 1 << ship
    end_action(s)


# --- lace (§5.2)

cdef void continue_lace(StateC* s) noexcept nogil:
    cdef int c, total = 0
    for c in range(NUM_COLOURS):
        total += s.lace_allow[c]
    if total == 0 or s.players[s.actor].ring_workers <= 1:
        end_action(s)
    else:
        set_phase(s, PH_LACE_PLACE)


cdef void place_lace(const GameC* g, StateC* s, int sq) noexcept nogil:
    cdef int p = s.actor, occ = s.workshop[sq], colour = g.sq_colour[sq]
    if occ >= 0:
        add_ring_workers(s, occ, 1)
        add_coins(s, occ, T.bump_coins)
    set_workshop(s, sq, p)
    add_ring_workers(s, p, -1)
    turn_wheel(s, p, 1)
    if g.sq_coin[sq]:
        add_coins(s, p, 1)
    put8(s, ZC_CTX + CX_LACE_ALLOW + colour, &s.lace_allow[colour], s.lace_allow[colour] - 1)
    continue_lace(s)


# --- earning (§5.3)

cdef void continue_recall(StateC* s) noexcept nogil:
    if workers_off_ring(s, s.actor) == 0:
        end_action(s)
    else:
        set_phase(s, PH_RECALL)


cdef void recall(StateC* s) noexcept nogil:
    add_ring_workers(s, s.actor, 1)
    add_coins(s, s.actor, T.recall_coins)
    continue_recall(s)


# --- roof bonus and scoring (§7)

cdef void refill_building_display(const GameC* g, StateC* s) noexcept nogil:
    if BURANO_POPCOUNT(s.building_display) < T.building_display_size and s.building_deck:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_BUILDING_REFILL)
        return
    set_chance_kind(s, CK_NONE)
    score_roof(g, s)


cdef void score_roof(const GameC* g, StateC* s) noexcept nogil:
    """Score the pending roof's kind and colour bonus cards; cards taken just now count [RD-15]."""
    cdef int p = s.actor, kind, pair, m, card
    cdef uint16_t cards
    kind = s.roofs[s.pending_roof].kind
    pair = s.roofs[s.pending_roof].pair
    set_pending_roof(s, EMPTY)
    if kind == KIND_ISLAND_MAJORITY:
        m = island_majorities(s, p)
        add_vp(s, p, T.majority_roof_vp[m if m < 3 else 3])
    elif kind == KIND_WORKSHOP_MAJORITY:
        m = workshop_majorities(g, s, p)
        add_vp(s, p, T.majority_roof_vp[m if m < 3 else 3])
    elif kind == KIND_FOUNTAINS:
        add_vp(s, p, T.fountain_roof_vp[visible_symbols(&s.players[p], SYM_FOUNTAIN)])
    else:
        add_vp(s, p, T.flat_roof_vp)
    cards = s.players[p].buildings & T.family_cards[BF_ROOF_BONUS]
    while cards:
        card = BURANO_CTZ(cards)
        cards &= cards - 1
        m = ((T.card_arg_mask[card] >> T.roof_pair[pair][0]) & 1) + ((T.card_arg_mask[card] >> T.roof_pair[pair][1]) & 1)
        add_vp(s, p, T.roof_bonus_vp_per_field * m)
    end_action(s)


# --- roof picks (setup §3.10 and clean-up §8.5)

cdef int empty_slots(const StateC* s, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(NUM_ROOF_SLOTS):
        if s.players[p].roof_slots[i] < 0:
            n += 1
    return n


cdef void enter_roof_pick(const GameC* g, StateC* s, int p, int picks) noexcept nogil:
    set_actor(s, p)
    set_ctx(s, CX_PICKS_LEFT, &s.picks_left, picks)
    clear_kinds_picked(s)
    continue_roof_pick(g, s)


cdef void continue_roof_pick(const GameC* g, StateC* s) noexcept nogil:
    cdef int k, picked = kinds_mask(s)
    cdef bint available = False
    for k in range(NUM_ROOF_KINDS):
        if not (picked >> k) & 1 and s.roof_stack[k]:
            available = True
    if s.picks_left > 0 and available:
        set_phase(s, PH_ROOF_PICK)
        return
    set_ctx(s, CX_PICKS_LEFT, &s.picks_left, 0)
    clear_kinds_picked(s)
    set_order_index(s, s.order_index + 1)
    if s.stage == ST_SETUP:
        next_setup_player(g, s)
    else:
        next_roof_refill_player(g, s)


cdef void next_setup_player(const GameC* g, StateC* s) noexcept nogil:
    if s.order_index < s.num_players:
        enter_roof_pick(g, s, s.order_index, NUM_ROOF_SLOTS)
    else:
        start_pyramids(g, s)


# --- pyramid construction (§4.1)

cdef void start_pyramids(const GameC* g, StateC* s) noexcept nogil:
    set_ctx(s, CX_STAGE, &s.stage, ST_PYRAMID)
    set_order_index(s, 0)
    next_pyramid_player(g, s)


cdef void next_pyramid_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p, c, total, target
    while s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        total = 0
        for c in range(NUM_COLOURS):
            total += s.players[p].reserve[c]
        target = PYRAMID_SIZE if PYRAMID_SIZE < total else total
        set_ctx(s, CX_PYRAMID_TARGET, &s.pyramid_target, target)
        if s.players[p].pyramid_count < s.pyramid_target:
            set_actor(s, p)
            set_phase(s, PH_PYRAMID)
            return
        set_order_index(s, s.order_index + 1)
    # Everyone has built: the pyramids become public; leftovers go back for 1 coin each.
    for p in range(s.num_players):
        total = 0
        for c in range(NUM_COLOURS):
            total += s.players[p].reserve[c]
            s.supply[c] += s.players[p].reserve[c]
            add_reserve(s, p, c, -s.players[p].reserve[c])
        add_coins(s, p, T.leftover_cube_coins * total)
    set_ctx(s, CX_PYRAMID_TARGET, &s.pyramid_target, 0)
    set_ctx(s, CX_STAGE, &s.stage, ST_ROUNDS)
    set_ctx(s, CX_ROUND, &s.round, 1)
    set_ctx(s, CX_MOVES, &s.moves, 0)
    set_actor(s, s.first_player)
    set_phase(s, PH_TURN)


cdef void do_pyramid(const GameC* g, StateC* s, int colour) noexcept nogil:
    cdef int p = s.actor, pos = s.players[p].pyramid_count   # fill order b1..b9, m1..m4, top [RD-19]
    add_reserve(s, p, colour, -1)
    set_pyramid(s, p, pos, colour)
    if pos + 1 >= s.pyramid_target:
        set_order_index(s, s.order_index + 1)
        next_pyramid_player(g, s)


# --- clean-up (§8)

cdef void start_cleanup(const GameC* g, StateC* s) noexcept nogil:
    score_island_majority(s)
    set_ctx(s, CX_STAGE, &s.stage, ST_LACE_SCORING)
    set_order_index(s, 0)
    next_lace_player(g, s)


cdef void score_island_majority(StateC* s) noexcept nogil:
    cdef int vp = T.island_majority_vp[s.num_players], i, p, best, ntied, holder
    for i in range(NUM_ISLANDS):
        best = 0
        for p in range(s.num_players):
            if s.island_workers[i][p] > best:
                best = s.island_workers[i][p]
        if best == 0:
            continue
        ntied = 0
        holder = -1
        for p in range(s.num_players):
            if s.island_workers[i][p] == best:
                ntied += 1
                if holder < 0 and has_family(s, p, BF_ISLAND_TIES):
                    holder = p
        if ntied == 1 or holder >= 0:
            if holder < 0:
                for p in range(s.num_players):
                    if s.island_workers[i][p] == best:
                        holder = p
                        break
            add_vp(s, holder, vp)
        else:
            for p in range(s.num_players):
                if s.island_workers[i][p] == best:
                    add_vp(s, p, vp // ntied)


cdef void next_lace_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p
    while s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        if s.players[p].workshop_mask:
            set_actor(s, p)
            set_pay_queue(s, s.players[p].workshop_mask)
            set_paid(s, 0)
            set_ctx(s, CX_DISCOUNT_USED, &s.discount_used, 0)
            continue_lace_pay(g, s)
            return
        set_order_index(s, s.order_index + 1)
    if s.season == T.num_seasons - 1:
        final_scoring(g, s)
        return
    set_phase(s, PH_CHANCE_NODE)
    set_chance_kind(s, CK_MARKERS)


cdef void continue_lace_pay(const GameC* g, StateC* s) noexcept nogil:
    cdef int p = s.actor
    cdef int opts[4]
    while s.pay_queue and pay_options(g, s, p, lowest_square(s.pay_queue), opts) == 0:
        set_pay_queue(s, s.pay_queue & (s.pay_queue - 1))   # nothing to pay with: the worker stays unpaid
    if s.pay_queue:
        set_phase(s, PH_LACE_PAY)
        return
    add_vp(s, p, T.lace_paid_vp * BURANO_POPCOUNT(s.paid) + union_bonus(g, s.paid))
    set_paid(s, 0)
    set_ctx(s, CX_DISCOUNT_USED, &s.discount_used, 0)
    set_order_index(s, s.order_index + 1)
    next_lace_player(g, s)


cdef void do_pay(const GameC* g, StateC* s, int option) noexcept nogil:
    cdef int p = s.actor, sq = lowest_square(s.pay_queue), colour = g.sq_colour[sq], pos
    set_pay_queue(s, s.pay_queue & (s.pay_queue - 1))
    if option == PAY_PYRAMID:
        # Any position may pay, even a covered one; take the highest such position.
        pos = PYRAMID_SIZE - 1
        while s.players[p].pyramid[pos] != colour:
            pos -= 1
        set_pyramid(s, p, pos, EMPTY)
        s.supply[colour] += 1
    elif option == PAY_PRIVILEGE:
        add_privilege(s, p, -1)   # the cube bought from the supply goes straight back as payment
    elif option == PAY_DISCOUNT:
        set_ctx(s, CX_DISCOUNT_USED, &s.discount_used, 1)
    if option != PAY_NONE:
        set_paid(s, s.paid | (1u << sq))
    continue_lace_pay(g, s)


cdef void next_replenish_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p, pos, c, sector, got, shortfall
    cdef int need[NUM_COLOURS]
    cdef PlayerC* pl
    if s.phase == PH_REPLENISH or s.phase == PH_PRIV_RESERVE:
        set_order_index(s, s.order_index + 1)
    while s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        pl = &s.players[p]
        set_actor(s, p)
        for pos in range(PYRAMID_SIZE):
            if pl.pyramid[pos] >= 0:
                add_reserve(s, p, pl.pyramid[pos], 1)
                set_pyramid(s, p, pos, EMPTY)
        for c in range(NUM_COLOURS):
            need[c] = 0
        for sector in range(1, pl.ring_workers + 1):
            need[pl.house_colour[house_index(pl, sector)]] += 1
        shortfall = 0
        for c in range(NUM_COLOURS):
            got = need[c] if need[c] < s.supply[c] else s.supply[c]
            add_reserve(s, p, c, got)
            s.supply[c] -= got
            shortfall += need[c] - got
        set_ctx(s, CX_SHORTFALL, &s.shortfall, shortfall)
        if continue_replenish(s):
            return
        set_order_index(s, s.order_index + 1)
    set_ctx(s, CX_STAGE, &s.stage, ST_ROOF_REFILL)
    set_order_index(s, 0)
    set_phase(s, PH_ROOF_DISCARD)
    next_roof_refill_player(g, s)


cdef bint continue_replenish(StateC* s) noexcept nogil:
    """Set the actor's next replenishment decision; False when the actor has none left."""
    cdef bint has_supply = supply_total(s) > 0
    if s.shortfall > 0 and has_supply:
        set_phase(s, PH_REPLENISH)
        return True
    set_ctx(s, CX_SHORTFALL, &s.shortfall, 0)
    if s.players[s.actor].privilege > 0 and has_supply:
        set_phase(s, PH_PRIV_RESERVE)
        return True
    return False


cdef void do_replenish(const GameC* g, StateC* s, int colour) noexcept nogil:
    add_reserve(s, s.actor, colour, 1)
    s.supply[colour] -= 1
    set_ctx(s, CX_SHORTFALL, &s.shortfall, s.shortfall - 1)
    if not continue_replenish(s):
        next_replenish_player(g, s)


cdef void do_priv_reserve(const GameC* g, StateC* s, int colour) noexcept nogil:
    add_privilege(s, s.actor, -1)
    add_reserve(s, s.actor, colour, 1)
    s.supply[colour] -= 1
    if not continue_replenish(s):
        next_replenish_player(g, s)


cdef void next_roof_refill_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p
    if s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        set_actor(s, p)
        if empty_slots(s, p) < NUM_ROOF_SLOTS:
            set_phase(s, PH_ROOF_DISCARD)
        else:
            enter_roof_pick(g, s, p, NUM_ROOF_SLOTS)
        return
    # Step 6: the first-player marker passes; the next season begins.
    set_ctx(s, CX_FIRST_PLAYER, &s.first_player, (s.first_player + 1) % s.num_players)
    set_ctx(s, CX_SEASON, &s.season, s.season + 1)
    set_ctx(s, CX_ROUND, &s.round, 1)
    start_pyramids(g, s)


cdef void do_roof_discard(const GameC* g, StateC* s, int slot) noexcept nogil:
    cdef int p = s.actor, tile = s.players[p].roof_slots[slot], kind = tile // NUM_ROOF_PAIRS
    cdef int old = removed_mask(s, kind)
    s.removed[s.num_removed] = <int8_t>tile
    s.num_removed += 1
    rekey(s, ZC_REMOVED + kind, old, removed_mask(s, kind))
    set_roof_slot(s, p, slot, EMPTY)
    if empty_slots(s, p) == NUM_ROOF_SLOTS:
        enter_roof_pick(g, s, p, NUM_ROOF_SLOTS)


# --- end of the game (§10)

cdef void final_scoring(const GameC* g, StateC* s) noexcept nogil:
    cdef int p, sp, card, fam, total
    cdef uint16_t cards
    cdef uint32_t bits
    cdef PlayerC* pl
    for p in range(s.num_players):
        pl = &s.players[p]
        add_coins(s, p, pl.privilege)
        add_privilege(s, p, -pl.privilege)
        add_vp(s, p, pl.coins // T.coins_per_vp)
        total = 0
        for sp in range(NUM_SPECIES):
            total += pl.hand_known[sp] + pl.hand_blind[sp]
        add_vp(s, p, T.hand_card_vp * total)
        cards = pl.buildings
        while cards:
            card = BURANO_CTZ(cards)
            cards &= cards - 1
            fam = T.card_family[card]
            if fam == BF_SOLD_FISH:
                total = 0
                for sp in range(NUM_SPECIES):
                    if (T.card_arg_mask[card] >> sp) & 1:
                        total += pl.sold[sp]
                add_vp(s, p, T.sold_fish_vp_per_card * total)
            elif fam == BF_LACE_COLOURS:
                total = 0
                bits = pl.workshop_mask
                while bits:
                    if (T.card_arg_mask[card] >> g.sq_colour[BURANO_CTZ(bits)]) & 1:
                        total += 1
                    bits &= bits - 1
                add_vp(s, p, T.lace_colours_vp_per_worker * total)
            elif fam == BF_LACE_DISCOUNT:
                add_vp(s, p, T.lace_discount_end_vp)
            elif fam == BF_COLLECTOR:
                add_vp(s, p, T.collector_vp_per_card * pl.num_buildings)
            elif fam == BF_MONUMENT:
                add_vp(s, p, T.monument_vp)
    set_ctx(s, CX_STAGE, &s.stage, ST_END)
    set_phase(s, PH_GAME_OVER)
    set_actor(s, EMPTY)


# --- chance

cdef void apply_chance(const GameC* g, StateC* s, int i) noexcept nogil:
    cdef int kind = s.chance_kind, p = s.actor, slot
    set_chance_kind(s, CK_NONE)
    if kind == CK_FISH_DRAW:
        take_from_fish_deck(s, i)
        add_hand_blind(s, p, i, 1)
        set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, s.draws_left - 1)
        continue_draws(g, s)
    elif kind == CK_FISH_REFILL:
        take_from_fish_deck(s, i)
        add_fish_display(s, i, 1)
        refill_fish_display(g, s)
    elif kind == CK_BUILDING_DRAW:
        s.building_deck &= ~(1u << i)
        add_building(s, p, i)
        refill_building_display(g, s)
    elif kind == CK_BUILDING_REFILL:
        s.building_deck &= ~(1u << i)
        set_building_display(s, s.building_display | (1u << i))
        refill_building_display(g, s)
    elif kind == CK_ROOF_TILE:
        slot = 0
        while s.players[p].roof_slots[slot] >= 0:
            slot += 1
        s.roof_stack[s.chance_arg] &= ~(1u << i)
        set_roof_slot(s, p, slot, s.chance_arg * NUM_ROOF_PAIRS + i)
        set_ctx(s, CX_PICKS_LEFT, &s.picks_left, s.picks_left - 1)
        continue_roof_pick(g, s)
    else:
        rekey(s, ZC_MARKERS, markers_value(s), 0)
        for slot in range(NUM_COLOURS):
            s.markers[slot] = T.marker_map[i][slot]
        rekey(s, ZC_MARKERS, 0, markers_value(s))
        set_ctx(s, CX_STAGE, &s.stage, ST_REPLENISH)
        set_order_index(s, 0)
        next_replenish_player(g, s)


cdef void apply_action_c(const GameC* g, StateC* s, int action) noexcept nogil:
    """Apply a legal action or chance outcome (unchecked)."""
    cdef int fam = T.action_family[action], i = T.action_index[action], p = s.actor
    if s.phase == PH_CHANCE_NODE:
        apply_chance(g, s, i)
        return
    if fam == F_DONE:
        if s.phase == PH_TURN:
            end_turn(g, s)
        elif s.phase == PH_FISH_SAIL or s.phase == PH_PORT_TRADE or s.phase == PH_LACE_PLACE \
                or s.phase == PH_RECALL:
            end_action(s)
        elif s.phase == PH_PRIV_RESERVE:
            next_replenish_player(g, s)
        elif s.phase == PH_ROOF_DISCARD:
            enter_roof_pick(g, s, p, empty_slots(s, p))
    elif fam == F_TAKE:
        do_take(s, i)
    elif fam == F_BUILD:
        do_build(g, s, i)
    elif fam == F_ROOF:
        do_roof(s, i)
    elif fam == F_PRIV_COIN:
        add_privilege(s, p, -1)
        add_coins(s, p, 1)
    elif fam == F_PRIV_CUBE:
        do_priv_cube(s, i)
    elif fam == F_PYRAMID:
        do_pyramid(g, s, i)
    elif fam == F_SWAP:
        do_swap(s, i)
    elif fam == F_SAIL:
        do_sail(g, s, i)
    elif fam == F_DRAW_DECK:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_FISH_DRAW)
    elif fam == F_DRAW_DISPLAY:
        add_fish_display(s, i, -1)
        add_hand_known(s, p, i, 1)
        set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, s.draws_left - 1)
        continue_draws(g, s)
    elif fam == F_SEND:
        send(s, i + 1)
    elif fam == F_SELL:
        do_sell(s, i)
    elif fam == F_LACE:
        place_lace(g, s, i)
    elif fam == F_LACE_PRIV:
        add_privilege(s, p, -1)
        place_lace(g, s, i)
    elif fam == F_RECALL_ISLAND:
        add_island_workers(s, i, p, -1)
        recall(s)
    elif fam == F_RECALL_SQUARE:
        set_workshop(s, i, EMPTY)
        recall(s)
    elif fam == F_BONUS_PRIVILEGE:
        add_privilege(s, p, T.roof_privilege_bonus)
        score_roof(g, s)
    elif fam == F_BONUS_DISPLAY:
        set_building_display(s, s.building_display & ~(1u << i))
        add_building(s, p, i)
        refill_building_display(g, s)
    elif fam == F_BONUS_DECK:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_BUILDING_DRAW)
    elif fam == F_PAY:
        do_pay(g, s, i)
    elif fam == F_REPLENISH:
        do_replenish(g, s, i)
    elif fam == F_PRIV_RESERVE:
        do_priv_reserve(g, s, i)
    elif fam == F_ROOF_DISCARD:
        do_roof_discard(g, s, i)
    elif fam == F_ROOF_KIND:
        add_kind_picked(s, i)
        set_phase(s, PH_CHANCE_NODE)
        set_chance(s, CK_ROOF_TILE, i)


# ================================================================================================
# Chance outcomes
# ================================================================================================

cdef int chance_outcomes_c(const GameC* g, const StateC* s, int* actions, double* probs) noexcept nogil:
    """Write (action, probability) of each chance outcome; return their number (0 if not a chance node)."""
    cdef int kind = s.chance_kind, n = 0, i, total
    cdef uint32_t bits
    if s.phase != PH_CHANCE_NODE:
        return 0
    if kind == CK_FISH_DRAW or kind == CK_FISH_REFILL:
        total = s.fish_deck_total
        for i in range(NUM_SPECIES):
            if s.fish_deck[i] > 0:
                actions[n] = A_CH_FISH + i
                probs[n] = <double>s.fish_deck[i] / <double>total
                n += 1
    elif kind == CK_BUILDING_DRAW or kind == CK_BUILDING_REFILL:
        total = BURANO_POPCOUNT(s.building_deck)
        bits = s.building_deck
        while bits:
            actions[n] = A_CH_BUILDING + BURANO_CTZ(bits)
            probs[n] = 1.0 / <double>total
            n += 1
            bits &= bits - 1
    elif kind == CK_ROOF_TILE:
        bits = s.roof_stack[s.chance_arg]
        total = BURANO_POPCOUNT(bits)
        while bits:
            actions[n] = A_CH_ROOF + BURANO_CTZ(bits)
            probs[n] = 1.0 / <double>total
            n += 1
            bits &= bits - 1
    else:
        for i in range(NUM_MARKER_MAPPINGS):
            actions[n] = A_CH_MARKERS + i
            probs[n] = 1.0 / <double>NUM_MARKER_MAPPINGS
            n += 1
    return n


cdef int sample_chance_c(const GameC* g, const StateC* s, Rng* rng) noexcept nogil:
    """Draw a chance outcome with its probability (exact integer weights)."""
    cdef int kind = s.chance_kind, i, r
    cdef uint32_t bits
    if kind == CK_FISH_DRAW or kind == CK_FISH_REFILL:
        r = rng_below(rng, s.fish_deck_total)
        for i in range(NUM_SPECIES):
            r -= s.fish_deck[i]
            if r < 0:
                return A_CH_FISH + i
        return A_CH_FISH + NUM_SPECIES - 1
    if kind == CK_BUILDING_DRAW or kind == CK_BUILDING_REFILL:
        bits = s.building_deck
        r = rng_below(rng, BURANO_POPCOUNT(bits))
        while r > 0:
            bits &= bits - 1
            r -= 1
        return A_CH_BUILDING + BURANO_CTZ(bits)
    if kind == CK_ROOF_TILE:
        bits = s.roof_stack[s.chance_arg]
        r = rng_below(rng, BURANO_POPCOUNT(bits))
        while r > 0:
            bits &= bits - 1
            r -= 1
        return A_CH_ROOF + BURANO_CTZ(bits)
    return A_CH_MARKERS + <int>rng_below(rng, NUM_MARKER_MAPPINGS)


cdef int current_player_c(const StateC* s) noexcept nogil:
    if s.phase == PH_GAME_OVER:
        return TERMINAL_PLAYER
    if s.phase == PH_CHANCE_NODE:
        return CHANCE_PLAYER
    return s.actor


# ================================================================================================
# Derived counts, resampling
# ================================================================================================

cdef void recompute_derived(const GameC* g, StateC* s) noexcept nogil:
    """Set every derived field from the stored ones (after loading a position)."""
    cdef int lv, h, p, c, j, i, sp, kind
    cdef PlayerC* pl
    memset(s.mid_used, 0, sizeof(s.mid_used))
    for h in range(NUM_HOLES):
        s.height[h] = 0
        for lv in range(NUM_LEVELS):
            if s.cubes[lv][h] >= 0:
                s.height[h] = <int8_t>(lv + 1)
    for i in range(s.num_roofs):
        j = T.line_mid[s.roofs[i].line]
        s.mid_used[s.roofs[i].level - 1][j >> 6] |= (<uint64_t>1) << (j & 63)
    for c in range(NUM_COLOURS):
        s.supply[c] = <int8_t>T.cubes_per_colour
    for lv in range(NUM_LEVELS):
        for h in range(NUM_HOLES):
            if s.cubes[lv][h] >= 0:
                s.supply[s.cubes[lv][h]] -= 1
    for sp in range(NUM_SPECIES):
        s.fish_deck[sp] = <int8_t>(T.cards_per_species - s.fish_display[sp])
    s.building_deck = <uint16_t>((1u << NUM_BUILDINGS) - 1) & ~s.building_display
    for kind in range(NUM_ROOF_KINDS):
        s.roof_stack[kind] = (1u << NUM_ROOF_PAIRS) - 1
    for i in range(s.num_roofs):
        s.roof_stack[s.roofs[i].kind] &= ~(1u << s.roofs[i].pair)
    for i in range(s.num_removed):
        s.roof_stack[s.removed[i] // NUM_ROOF_PAIRS] &= ~(1u << (s.removed[i] % NUM_ROOF_PAIRS))
    for p in range(s.num_players):
        pl = &s.players[p]
        for h in range(NUM_HOUSES):
            pl.house_colour[h] = T.piece_colour[pl.ring_pieces[h // 3]][h % 3]
            pl.house_symbol[h] = T.piece_symbol[pl.ring_pieces[h // 3]][h % 3]
        pl.workshop_mask = 0
        for i in range(NUM_SQUARES):
            if s.workshop[i] == p:
                pl.workshop_mask |= 1u << i
        pl.pyramid_count = 0
        for j in range(PYRAMID_SIZE):
            if pl.pyramid[j] >= 0:
                pl.pyramid_count += 1
                s.supply[pl.pyramid[j]] -= 1
        pl.prep_total = 0
        for c in range(NUM_COLOURS):
            pl.prep_total += pl.prep[c]
            s.supply[c] -= pl.reserve[c] + pl.prep[c]
        pl.island_total = 0
        for i in range(NUM_ISLANDS):
            pl.island_total += s.island_workers[i][p]
        for sp in range(NUM_SPECIES):
            s.fish_deck[sp] -= pl.hand_known[sp] + pl.hand_blind[sp] + pl.sold[sp]
        s.building_deck &= ~pl.buildings
        for j in range(NUM_ROOF_SLOTS):
            if pl.roof_slots[j] >= 0:
                s.roof_stack[pl.roof_slots[j] // NUM_ROOF_PAIRS] &= ~(1u << (pl.roof_slots[j] % NUM_ROOF_PAIRS))
    s.fish_deck_total = 0
    s.fish_display_total = 0
    for sp in range(NUM_SPECIES):
        s.fish_deck_total += s.fish_deck[sp]
        s.fish_display_total += s.fish_display[sp]


cdef void shuffle_prefix(int8_t* items, int n, int k, Rng* rng) noexcept nogil:
    """Make items[0..k) a uniform random sample-in-order of items[0..n) (partial Fisher-Yates)."""
    cdef int i, j
    cdef int8_t t
    for i in range(k if k < n - 1 else n - 1):
        j = i + <int>rng_below(rng, n - i)
        t = items[i]
        items[i] = items[j]
        items[j] = t


cdef void resample_c(const GameC* g, StateC* s, int seat, Rng* rng) noexcept nogil:
    """Replace what `seat` cannot know with a uniform consistent sample (notation.resample_hidden).

    The unseen fish cards (deck + other seats' blind cards) are dealt again, each other seat keeping its
    number of blind cards; during pyramid construction each other seat's cubes (pyramid + reserve) are
    shuffled and the first `placed` fill its pyramid positions in order. Keeps information_state_key(seat).
    The pools are laid out in species/colour order before shuffling, so the sample depends only on what
    `seat` knows and the seed, not on the hidden truth.
    """
    cdef int8_t pool[128]   # every cube of the game (120) or fish card (48)
    cdef int counts[MAX_PLAYERS]
    cdef int unseen[NUM_SPECIES]
    cdef int cubes[NUM_COLOURS]
    cdef int n = 0, dealt = 0, q, sp, j, c, placed, total
    cdef PlayerC* pl
    for sp in range(NUM_SPECIES):
        unseen[sp] = s.fish_deck[sp]
    for q in range(s.num_players):
        counts[q] = 0
        if q == seat:
            continue
        pl = &s.players[q]
        for sp in range(NUM_SPECIES):
            unseen[sp] += pl.hand_blind[sp]
            counts[q] += pl.hand_blind[sp]
            add_hand_blind(s, q, sp, -pl.hand_blind[sp])
        dealt += counts[q]
    if dealt:
        for sp in range(NUM_SPECIES):
            for j in range(unseen[sp]):
                pool[n] = <int8_t>sp
                n += 1
        shuffle_prefix(pool, n, dealt, rng)
        j = 0
        for q in range(s.num_players):
            for c in range(counts[q]):
                add_hand_blind(s, q, pool[j], 1)
                j += 1
        for sp in range(NUM_SPECIES):
            s.fish_deck[sp] = 0
        for j in range(dealt, n):
            s.fish_deck[pool[j]] += 1
    if s.stage == ST_PYRAMID:
        for q in range(s.num_players):
            pl = &s.players[q]
            placed = pl.pyramid_count
            if q == seat or placed == 0:
                continue
            for c in range(NUM_COLOURS):
                cubes[c] = pl.reserve[c]
                add_reserve(s, q, c, -pl.reserve[c])
            for j in range(PYRAMID_SIZE):
                if pl.pyramid[j] >= 0:
                    cubes[pl.pyramid[j]] += 1
                    set_pyramid(s, q, j, EMPTY)
            total = 0
            for c in range(NUM_COLOURS):
                for j in range(cubes[c]):
                    pool[total] = <int8_t>c
                    total += 1
            shuffle_prefix(pool, total, placed, rng)
            for j in range(placed):
                set_pyramid(s, q, j, pool[j])
            for j in range(placed, total):
                add_reserve(s, q, pool[j], 1)


# ================================================================================================
# Playouts
# ================================================================================================

cdef int heuristic_score(const GameC* g, const StateC* s, int action) noexcept nogil:
    """Cheap action preference of the "heuristic" playout policy (higher is better).

    Scoring actions first: roofs, sales by their VP, builds whose colour maps to an action that can be
    done now (fishing/lace need a spare ring worker, earning is best with workers to recall), fishing
    trips by matches, lace placements (coin squares first), paying lace workers; pyramid and replenish
    colours that map to fishing or lace; a turn never ends before its first move (which gains a coin)
    while any move is legal; privilege is spent only on a coin that makes the next move affordable.
    """
    cdef int fam = T.action_family[action], i = T.action_index[action], p = s.actor, colour, act
    cdef const PlayerC* pl = &s.players[p]
    if fam == F_DONE:
        if s.phase == PH_TURN:
            # The first move of a turn gains a coin: never end a turn before it.
            return -10 if s.moves == 0 else 2
        return 1
    if fam == F_SELL:
        return 20 + T.sale_vp[i]
    if fam == F_ROOF:
        return 30
    if fam == F_BUILD:
        colour = i // NUM_HOLES
        act = s.markers[colour]
        if act == ACT_FISHING or act == ACT_LACE:
            return 12 if pl.ring_workers > 1 else 4
        return 10 if workers_off_ring(s, p) > 0 else 6
    if fam == F_TAKE:
        return 8 if pl.prep_total == 0 else 3
    if fam == F_PRIV_COIN:
        # Worth it only when the next move is not affordable otherwise.
        if s.moves < T.max_moves and pl.coins + T.move_costs[s.moves] < 0 <= pl.coins + 1 + T.move_costs[s.moves]:
            return 9
        return -20
    if fam == F_PRIV_CUBE or fam == F_SWAP or fam == F_LACE_PRIV or fam == F_PRIV_RESERVE:
        return -20   # privilege is kept (it is worth a coin at the end) rather than spent on a whim
    if fam == F_SAIL:
        if T.node_island[i] >= 0:
            return 5 + 3 * matches(s, p, T.node_island[i])
        return 6
    if fam == F_DRAW_DISPLAY:
        return 3 + pl.hand_known[i] + pl.hand_blind[i]
    if fam == F_DRAW_DECK:
        return 3
    if fam == F_SEND:
        return 2 + i
    if fam == F_LACE:
        return 5 + g.sq_coin[i]
    if fam == F_RECALL_ISLAND or fam == F_RECALL_SQUARE:
        return 0
    if fam == F_BONUS_DISPLAY:
        return 4
    if fam == F_BONUS_DECK:
        return 3
    if fam == F_BONUS_PRIVILEGE:
        return 2
    if fam == F_PAY:
        return 0 if i == PAY_NONE else 5
    if fam == F_PYRAMID or fam == F_REPLENISH:
        act = s.markers[i]
        return 3 if act == ACT_FISHING or act == ACT_LACE else 1
    if fam == F_ROOF_DISCARD:
        return 0
    if fam == F_ROOF_KIND:
        return 3 if i == KIND_FLAT else 2
    return 0


cdef int choose_action_c(const GameC* g, const StateC* s, Rng* rng, int policy, int* buf) noexcept nogil:
    """Pick the next action of a playout (samples chance nodes); `buf` holds MAX_ACTIONS ints."""
    cdef int n, i, best, score, ties, pick
    if s.phase == PH_CHANCE_NODE:
        return sample_chance_c(g, s, rng)
    n = legal_actions_c(g, s, buf)
    if n == 1:
        return buf[0]
    # The heuristic policy still explores: one decision in 8 is uniform.
    if policy == POLICY_RANDOM or (rng_next(rng) & 7) == 0:
        return buf[rng_below(rng, n)]
    best = -1000000
    ties = 0
    pick = buf[0]
    for i in range(n):
        score = heuristic_score(g, s, buf[i])
        if score > best:
            best = score
            ties = 1
            pick = buf[i]
        elif score == best:
            ties += 1
            if rng_below(rng, ties) == 0:   # reservoir sampling: uniform among the best
                pick = buf[i]
    return pick


cdef enum:
    MAX_PLAYOUT_STEPS = 100000   # a safety net: real games end after ~600-1,000 decisions


cdef int rollout_c(const GameC* g, StateC* s, Rng* rng, int policy) noexcept nogil:
    """Play `s` to the end in place; return the number of actions applied (-1 if the cap was hit)."""
    cdef int buf[MAX_ACTIONS]
    cdef int steps = 0
    while s.phase != PH_GAME_OVER:
        if steps >= MAX_PLAYOUT_STEPS:
            return -1
        apply_action_c(g, s, choose_action_c(g, s, rng, policy, buf))
        debug_check(g, s)
        steps += 1
    return steps


# ================================================================================================
# Debug-build checks
# ================================================================================================

cdef int g_debug_errors = 0   # debug builds: apply_action_c calls whose key or derived counts went wrong


cdef bint state_consistent(const GameC* g, const StateC* s) noexcept nogil:
    """The incremental key equals the full key, and every derived field equals its recomputation."""
    cdef StateC copy = s[0]
    if s.key != full_key_c(g, s):
        return False
    recompute_derived(g, &copy)
    return memcmp(&copy, s, sizeof(StateC)) == 0


cdef extern from "<string.h>":
    int memcmp(const void* a, const void* b, size_t n) noexcept nogil


cdef inline void debug_check(const GameC* g, const StateC* s) noexcept nogil:
    global g_debug_errors
    if BURANO_DEBUG_BUILD:
        if not state_consistent(g, s):
            g_debug_errors += 1


def _take_debug_errors():
    global g_debug_errors
    cdef int n = g_debug_errors
    g_debug_errors = 0
    if n:
        raise AssertionError(f"burano_ai._core: {n} state(s) with an incremental key or derived count "
                             "different from its recomputation (debug build check)")


# ================================================================================================
# Python API: Game and State
# ================================================================================================

_U64 = 0xFFFF_FFFF_FFFF_FFFF
PHASE_NAMES = _enums.PHASE_NAMES
STAGE_NAMES = _enums.STAGE_NAMES
CHANCE = CHANCE_PLAYER
TERMINAL = TERMINAL_PLAYER
POLICIES = ("random", "heuristic")


cdef int policy_id(policy) except -1:
    if policy == "random":
        return POLICY_RANDOM
    if policy == "heuristic":
        return POLICY_HEURISTIC
    raise OptionError(f"unknown playout policy {policy!r} (expected one of {', '.join(POLICIES)})")


cdef void fill_game(GameC* g, int num_players, layout) except *:
    """Copy a frozen workshop layout (topology.WorkshopLayout) into C tables."""
    cdef int sq, t, c
    memset(g, 0, sizeof(GameC))
    g.num_players = num_players
    if len(layout.colour) != NUM_SQUARES or layout.num_tiles != NUM_TILES:
        raise PositionError("workshop layout: expected 28 squares and 6 tiles")
    for sq in range(NUM_SQUARES):
        g.sq_colour[sq] = layout.colour[sq]
        g.sq_coin[sq] = 1 if layout.coin[sq] else 0
        g.sq_tile[sq] = layout.tile[sq]
        for nb in layout.neighbours[sq]:
            g.sq_neighbours[sq] |= 1u << nb
        if layout.colour[sq] >= 0:
            g.colour_mask[layout.colour[sq]] |= 1u << sq
    for t, squares in enumerate(layout.tiles):
        for sq in squares:
            g.tile_mask[t] |= 1u << sq


cdef class Game:
    """Rules and metadata of one Burano configuration (the reference `Game`'s API, compiled states).

    Args:
        num_players: 2, 3 or 4.
        workshop_layout: 4 rows of 7 squares (see `burano_ai.data.workshops`); default by player count.
    """

    def __init__(self, num_players=4, workshop_layout=None):
        self.layout = _workshop_layout(num_players, workshop_layout)   # validates both arguments
        self.num_players = num_players
        fill_game(&self.g, num_players, self.layout)

    def __repr__(self):
        return f"Game(num_players={self.num_players})"

    def __eq__(self, other):
        return isinstance(other, Game) and (<Game>other).num_players == self.num_players \
            and (<Game>other).layout == self.layout

    def __hash__(self):
        return hash((self.num_players, self.layout.rows))

    def __reduce__(self):
        return (Game, (self.num_players, list(self.layout.rows)))

    def num_distinct_actions(self):
        return NUM_ACTIONS

    def max_chance_outcomes(self):
        return NUM_MARKER_MAPPINGS

    def new_initial_state(self, seed=0):
        """Set up a new game from a seed (`burano_ai.deal`: the same seed deals the same position)."""
        return State.from_position(_deal(self.num_players, seed, self.layout), self)

    def state_from_position(self, position):
        """A State of this game holding `position` (a `burano_ai.position.Position`)."""
        return State.from_position(position, self)

    def state_from_json(self, text):
        """Load a position (full, or one seat's view) written by `State.to_json` or by hand."""
        return State.from_position(_position_from_json(text, num_players=self.num_players), self)


cdef void load_position(StateC* s, ref) except *:
    """Copy a Position's fields into `s` (derived fields and key are set by the caller)."""
    cdef int lv, h, i, p, j, n = ref.num_players
    cdef PlayerC* pl
    memset(s, 0, sizeof(StateC))
    s.num_players = n
    for lv in range(NUM_LEVELS):
        for h in range(NUM_HOLES):
            s.cubes[lv][h] = ref.cubes[lv][h]
    for lv in range(NUM_ROOF_LEVELS):
        for h in range(NUM_HOLES):
            s.roof_at[lv][h] = ref.roof_at[lv][h]
            s.roof_field[lv][h] = ref.roof_field[lv][h]
    if len(ref.roofs) > MAX_ROOFS or len(ref.roofs_removed) > MAX_ROOFS:
        raise PositionError("more roofs than roof tiles")
    for i, (level, line, kind, pair, flipped) in enumerate(ref.roofs):
        s.roofs[i].level = level
        s.roofs[i].line = line
        s.roofs[i].kind = kind
        s.roofs[i].pair = pair
        s.roofs[i].flipped = 1 if flipped else 0
    s.num_roofs = len(ref.roofs)
    for i, (kind, pair) in enumerate(ref.roofs_removed):
        s.removed[i] = kind * NUM_ROOF_PAIRS + pair
    s.num_removed = len(ref.roofs_removed)
    for i in range(NUM_ISLANDS):
        for j, c in enumerate(sorted(ref.docks[i])):
            s.docks[i][j] = c
        for p in range(n):
            s.island_workers[i][p] = ref.island_workers[i][p]
    for i in range(NUM_PORTS):
        for ship in ref.ports[i]:
            s.ports[i] |= 1 << ship
    for i in range(NUM_COLOURS):
        s.markers[i] = ref.markers[i]
        s.lace_allow[i] = ref.lace_allow[i]
    for i in range(NUM_SPECIES):
        s.fish_display[i] = ref.fish_display[i]
    for card in ref.building_display:
        s.building_display |= 1u << card
    for i in range(NUM_SQUARES):
        s.workshop[i] = ref.workshop[i]
    for p in range(MAX_PLAYERS):
        pl = &s.players[p]
        for j in range(PYRAMID_SIZE):
            pl.pyramid[j] = EMPTY
        for j in range(NUM_ROOF_SLOTS):
            pl.roof_slots[j] = EMPTY
        if p >= n:
            continue
        rp = ref.players[p]
        for j in range(NUM_PIECES):
            pl.ring_pieces[j] = rp.ring_pieces[j]
        pl.ring_offset = rp.ring_offset
        pl.ring_workers = rp.ring_workers
        for j in range(PYRAMID_SIZE):
            pl.pyramid[j] = rp.pyramid[j]
        for j in range(NUM_COLOURS):
            pl.reserve[j] = rp.reserve[j]
            pl.prep[j] = rp.prep[j]
        pl.coins = rp.coins
        pl.vp = rp.vp
        pl.privilege = rp.privilege
        for j, tile in enumerate(rp.roof_slots):
            pl.roof_slots[j] = EMPTY if tile is None else tile[0] * NUM_ROOF_PAIRS + tile[1]
        if len(rp.buildings) > NUM_BUILDINGS:
            raise PositionError("more building cards than the game has")
        for j, card in enumerate(rp.buildings):
            pl.building_order[j] = card
            pl.buildings |= 1u << card
        pl.num_buildings = len(rp.buildings)
        for j in range(NUM_SPECIES):
            pl.hand_known[j] = rp.hand_known[j]
            pl.hand_blind[j] = rp.hand_blind[j]
            pl.sold[j] = rp.sold[j]
        pl.boat = rp.boat
    s.season = ref.season
    s.round = ref.round
    s.first_player = ref.first_player
    s.stage = ref.stage
    s.phase = ref.phase
    s.actor = ref.actor
    s.order_index = ref.order_index
    s.moves = ref.moves
    s.chance_kind = ref.chance_kind
    s.chance_arg = ref.chance_arg
    s.fish_island = ref.fish_island
    s.fish_matches = ref.fish_matches
    s.draws_left = ref.draws_left
    s.pending_roof = ref.pending_roof
    # The queue is always ascending in play (it starts as the seat's squares in order).
    for sq in ref.pay_queue:
        s.pay_queue |= 1u << sq
    for sq in ref.paid:
        s.paid |= 1u << sq
    s.discount_used = 1 if ref.discount_used else 0
    s.shortfall = ref.shortfall
    s.picks_left = ref.picks_left
    if len(ref.kinds_picked) > NUM_ROOF_KINDS:
        raise PositionError("more roof kinds picked than there are kinds")
    for j, kind in enumerate(ref.kinds_picked):
        s.kinds_picked[j] = kind
    s.num_kinds_picked = len(ref.kinds_picked)
    s.pyramid_target = ref.pyramid_target


cdef list mask_to_list(uint32_t mask):
    cdef list out = []
    while mask:
        out.append(BURANO_CTZ(mask))
        mask &= mask - 1
    return out


class PlayerView:
    """A read-only snapshot of one seat with `burano_ai.position.SeatPosition`'s attribute names.

    `State.players` builds these on demand (changing one does not change the state).
    """

    __slots__ = ("ring_pieces", "ring_offset", "ring_workers", "pyramid", "reserve", "prep", "coins", "vp",
                 "privilege", "roof_slots", "buildings", "hand_known", "hand_blind", "sold", "boat")

    def __repr__(self):
        return "PlayerView(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"


cdef object player_view(const PlayerC* pl):
    cdef int j
    v = PlayerView()
    v.ring_pieces = [pl.ring_pieces[j] for j in range(NUM_PIECES)]
    v.ring_offset = pl.ring_offset
    v.ring_workers = pl.ring_workers
    v.pyramid = [pl.pyramid[j] for j in range(PYRAMID_SIZE)]
    v.reserve = [pl.reserve[j] for j in range(NUM_COLOURS)]
    v.prep = [pl.prep[j] for j in range(NUM_COLOURS)]
    v.coins = pl.coins
    v.vp = pl.vp
    v.privilege = pl.privilege
    v.roof_slots = [None if pl.roof_slots[j] < 0 else (pl.roof_slots[j] // NUM_ROOF_PAIRS,
                                                        pl.roof_slots[j] % NUM_ROOF_PAIRS)
                    for j in range(NUM_ROOF_SLOTS)]
    v.buildings = [pl.building_order[j] for j in range(pl.num_buildings)]
    v.hand_known = [pl.hand_known[j] for j in range(NUM_SPECIES)]
    v.hand_blind = [pl.hand_blind[j] for j in range(NUM_SPECIES)]
    v.sold = [pl.sold[j] for j in range(NUM_SPECIES)]
    v.boat = pl.boat
    return v


@cython.freelist(64)
cdef class State:
    """A Burano position in a C struct, with the reference `State`'s API.

    `apply_action` is unchecked (like the reference); `play(text)` parses, checks and applies.
    Beyond the reference: `key()`/`full_key()` (64-bit Zobrist keys), an integer
    `information_state_key(seat)`, a fast `resample(seat, seed)`, `rollout(seed, policy)`, `check()`,
    and the converters `from_position`/`to_position`.
    """

    def __init__(self, Game game):
        """An empty position of `game`, like the reference `State(game)` (use `new_initial_state`)."""
        self.game = game
        load_position(&self.s, _Position(game.num_players, game.layout))
        recompute_derived(&game.g, &self.s)
        self.s.key = full_key_c(&game.g, &self.s)

    @staticmethod
    cdef State wrap(Game game, const StateC* s):
        cdef State st = State.__new__(State)
        st.game = game
        st.s = s[0]
        return st

    # --- conversions

    @staticmethod
    def from_position(ref, Game game=None):
        """Build from a `Position` (or any object with its fields, such as a reference State).

        `game` defaults to a Game of the same configuration.
        """
        cdef State st
        if game is None:
            game = Game(ref.num_players, list(ref.layout.rows))
        elif game.num_players != ref.num_players or game.layout != ref.layout:
            raise PositionError("the position does not belong to this game (player count or workshop layout)")
        st = State.__new__(State)
        st.game = game
        load_position(&st.s, ref)
        recompute_derived(&game.g, &st.s)
        st.s.key = full_key_c(&game.g, &st.s)
        return st

    def to_position(self):
        """Return the same position as a `burano_ai.position.Position` (a copy)."""
        cdef const StateC* s = &self.s
        cdef int n = s.num_players, i, p, j
        ref = _Position(n, self.game.layout)
        ref.cubes = [[s.cubes[lv][h] for h in range(NUM_HOLES)] for lv in range(NUM_LEVELS)]
        ref.roof_at = [[s.roof_at[lv][h] for h in range(NUM_HOLES)] for lv in range(NUM_ROOF_LEVELS)]
        ref.roof_field = [[s.roof_field[lv][h] for h in range(NUM_HOLES)] for lv in range(NUM_ROOF_LEVELS)]
        ref.roofs = [(s.roofs[i].level, s.roofs[i].line, s.roofs[i].kind, s.roofs[i].pair, bool(s.roofs[i].flipped))
                     for i in range(s.num_roofs)]
        ref.roofs_removed = [(s.removed[i] // NUM_ROOF_PAIRS, s.removed[i] % NUM_ROOF_PAIRS)
                             for i in range(s.num_removed)]
        ref.docks = [[s.docks[i][j] for j in range(DOCKS_PER_ISLAND)] for i in range(NUM_ISLANDS)]
        ref.ports = [[ship for ship in range(NUM_SHIPS) if (s.ports[i] >> ship) & 1] for i in range(NUM_PORTS)]
        ref.markers = [s.markers[c] for c in range(NUM_COLOURS)]
        ref.fish_display = [s.fish_display[i] for i in range(NUM_SPECIES)]
        ref.building_display = mask_to_list(s.building_display)
        ref.island_workers = [[s.island_workers[i][p] for p in range(n)] for i in range(NUM_ISLANDS)]
        ref.workshop = [s.workshop[i] for i in range(NUM_SQUARES)]
        for p in range(n):
            view = player_view(&s.players[p])   # fresh lists with SeatPosition's field names
            rp = ref.players[p]
            for name in PlayerView.__slots__:
                setattr(rp, name, getattr(view, name))
        ref.season = s.season
        ref.round = s.round
        ref.first_player = s.first_player
        ref.stage = s.stage
        ref.phase = s.phase
        ref.actor = s.actor
        ref.order_index = s.order_index
        ref.moves = s.moves
        ref.chance_kind = s.chance_kind
        ref.chance_arg = s.chance_arg
        ref.fish_island = s.fish_island
        ref.fish_matches = s.fish_matches
        ref.draws_left = s.draws_left
        ref.lace_allow = [s.lace_allow[c] for c in range(NUM_COLOURS)]
        ref.pending_roof = s.pending_roof
        ref.pay_queue = mask_to_list(s.pay_queue)
        ref.paid = mask_to_list(s.paid)
        ref.discount_used = bool(s.discount_used)
        ref.shortfall = s.shortfall
        ref.picks_left = s.picks_left
        ref.kinds_picked = [s.kinds_picked[j] for j in range(s.num_kinds_picked)]
        ref.pyramid_target = s.pyramid_target
        return ref

    def to_dict(self, seat=None):
        """The position as a JSON-ready dict, full or as seen by `seat` (burano_ai.notation)."""
        return _position_to_dict(self.to_position(), seat)

    def to_json(self, seat=None, indent=None):
        """The full position, or the view of one seat (hidden things left out)."""
        return json.dumps(self.to_dict(seat), indent=indent)

    def __str__(self):
        from burano_ai.render import render_state
        return render_state(self)

    def __repr__(self):
        return (f"<burano_ai._core.State {self.game.num_players}p {STAGE_NAMES[self.s.stage]} "
                f"{PHASE_NAMES[self.s.phase]} actor={self.s.actor} key=0x{self.s.key:016x}>")

    def __reduce__(self):
        return (_state_from_bytes, (self.game, (<char*>&self.s)[:sizeof(StateC)]))

    # --- the OpenSpiel-style API

    @property
    def num_players(self):
        return self.s.num_players

    @property
    def phase(self):
        return self.s.phase

    @property
    def stage(self):
        return self.s.stage

    @property
    def season(self):
        return self.s.season

    @property
    def round(self):
        return self.s.round

    @property
    def actor(self):
        return self.s.actor

    @property
    def first_player(self):
        return self.s.first_player

    @property
    def moves(self):
        return self.s.moves

    @property
    def order_index(self):
        return self.s.order_index

    @property
    def layout(self):
        return self.game.layout

    @property
    def markers(self):
        """Action of each colour (a copy)."""
        return [self.s.markers[c] for c in range(NUM_COLOURS)]

    @property
    def workshop(self):
        """Occupant of each workshop square, or -1 (a copy)."""
        return [self.s.workshop[i] for i in range(NUM_SQUARES)]

    @property
    def players(self):
        """Read-only snapshots of the seats (`PlayerView`, `SeatPosition`'s attribute names)."""
        return [player_view(&self.s.players[p]) for p in range(self.s.num_players)]

    # --- derived quantities (the reference's names; read from the incrementally kept counts)

    def pyramid_count(self, int player):
        return self.s.players[player].pyramid_count

    def workers_off_ring(self, int player):
        return workers_off_ring(&self.s, player)

    def supply(self):
        """Cubes in the supply per colour."""
        return [self.s.supply[c] for c in range(NUM_COLOURS)]

    def fish_deck(self):
        """Cards in the fish deck per species."""
        return [self.s.fish_deck[i] for i in range(NUM_SPECIES)]

    def building_deck(self):
        """Building card ids still in the deck."""
        return mask_to_list(self.s.building_deck)

    def roof_stack(self, int kind):
        """Tiles left in a kind's stack, per colour pair (0 or 1)."""
        return [(self.s.roof_stack[kind] >> p) & 1 for p in range(NUM_ROOF_PAIRS)]

    def component_counts(self):
        """Count every conserved component wherever it lies (`Position.component_counts`)."""
        return self.to_position().component_counts()

    def current_player(self):
        return current_player_c(&self.s)

    def is_terminal(self):
        return self.s.phase == PH_GAME_OVER

    def is_chance_node(self):
        return self.s.phase == PH_CHANCE_NODE

    def legal_actions(self, player=None):
        """Sorted legal action ids of the player to move (empty at chance nodes and at the end)."""
        cdef int buf[MAX_ACTIONS]
        cdef int n, i
        if player is not None and player != self.s.actor:
            return []
        n = legal_actions_c(&self.game.g, &self.s, buf)
        return [buf[i] for i in range(n)]

    def apply_action(self, int action):
        """Apply a legal action or chance outcome (unchecked: use `play` for checked input)."""
        if not 0 <= action < NUM_ACTIONS or self.s.phase == PH_GAME_OVER:
            raise IllegalMoveError(f"action id {action} cannot be applied here (ids are 0..{NUM_ACTIONS - 1})")
        if (action >= A_CH_FISH) != (self.s.phase == PH_CHANCE_NODE):
            raise IllegalMoveError(f"action '{_A.action_to_str(action)}' is "
                                   + ("not a chance outcome" if self.s.phase == PH_CHANCE_NODE
                                      else "a chance outcome, but this is no chance node"))
        apply_action_c(&self.game.g, &self.s, action)
        if BURANO_DEBUG_BUILD:
            debug_check(&self.game.g, &self.s)
            _take_debug_errors()

    def chance_outcomes(self):
        """(action, probability) of each chance outcome; empty when this is not a chance node."""
        cdef int actions[NUM_MARKER_MAPPINGS]
        cdef double probs[NUM_MARKER_MAPPINGS]
        cdef int n = chance_outcomes_c(&self.game.g, &self.s, actions, probs), i
        return [(actions[i], probs[i]) for i in range(n)]

    def chance_outcome_actions(self):
        return [a for a, _ in self.chance_outcomes()]

    def clone(self):
        return State.wrap(self.game, &self.s)

    def __copy__(self):
        return State.wrap(self.game, &self.s)

    def __deepcopy__(self, memo):
        return State.wrap(self.game, &self.s)

    def scores(self):
        """Victory points of each seat (final once the game is over)."""
        return [self.s.players[p].vp for p in range(self.s.num_players)]

    def winners(self):
        """Seats sharing the win: most VP, then most prep-area cubes, then most coins (§10)."""
        keys = [(self.s.players[p].vp, self.s.players[p].prep_total, self.s.players[p].coins)
                for p in range(self.s.num_players)]
        best = max(keys)
        return [p for p in range(self.s.num_players) if keys[p] == best]

    def returns(self):
        """1/k for each of the k winners and 0 for everyone else at the end; zeros before."""
        if self.s.phase != PH_GAME_OVER:
            return [0.0] * self.s.num_players
        win = self.winners()
        return [1.0 / len(win) if p in win else 0.0 for p in range(self.s.num_players)]

    def action_to_string(self, action):
        return _A.action_to_str(action)

    def string_to_action(self, text):
        return _A.parse_action(text)

    def play(self, text):
        """Parse a move text, check that it is legal here, and apply it; return the action id.

        Raises:
            IllegalMoveError: the text does not parse or the move is not legal in this position.
        """
        action = _A.parse_action(text)
        legal = self.chance_outcome_actions() if self.is_chance_node() else self.legal_actions()
        if action not in legal:
            where = f"{PHASE_NAMES[self.s.phase]} phase, {self._where()}"
            raise IllegalMoveError(f"illegal move '{text.strip()}' ({where}); legal here: "
                                   + ", ".join(_A.action_to_str(a) for a in legal[:12])
                                   + (" ..." if len(legal) > 12 else ""))
        self.apply_action(action)
        return action

    def _where(self):
        if self.s.stage == ST_ROUNDS:
            return f"{('spring', 'summer', 'autumn', 'winter')[self.s.season]} round {self.s.round}"
        return STAGE_NAMES[self.s.stage]

    # --- keys, information sets, resampling

    def key(self):
        """The 64-bit Zobrist key of the position (maintained incrementally)."""
        return self.s.key

    def full_key(self):
        """The 64-bit Zobrist key recomputed from scratch (equals `key()`)."""
        return full_key_c(&self.game.g, &self.s)

    def information_state_key(self, int seat):
        """A 64-bit key equal for all states that `seat` cannot tell apart (what `to_dict(seat)` shows)."""
        if not 0 <= seat < self.s.num_players:
            raise PositionError(f"seat {seat} does not exist in a {self.s.num_players}-player game")
        return info_key_c(&self.game.g, &self.s, seat)

    def resample(self, int seat, seed):
        """Return a copy with everything `seat` cannot know replaced by a consistent random sample."""
        cdef Rng rng
        cdef State out
        if not 0 <= seat < self.s.num_players:
            raise PositionError(f"seat {seat} does not exist in a {self.s.num_players}-player game")
        rng_seed(&rng, <uint64_t>(int(seed) & _U64))
        out = State.wrap(self.game, &self.s)
        resample_c(&self.game.g, &out.s, seat, &rng)
        return out

    def check(self):
        """Raise AssertionError naming the first broken invariant.

        Checks that the incremental key and every derived count equal their recomputation, then the
        position's invariants (conservation, ranges, structure: `Position.check`).
        """
        if not state_consistent(&self.game.g, &self.s):
            raise AssertionError("state inconsistent: incremental key or derived counts differ from recomputation")
        self.to_position().check()

    # --- playouts

    def rollout(self, seed=0, policy="random"):
        """Play this state to the end in place (C loop, no GIL); return the final scores.

        Chance nodes are sampled with their probabilities; `policy` is "random" (uniform over legal
        actions) or "heuristic" (see `heuristic_score` in _core.pyx). Same seed, same game.
        """
        cdef Rng rng
        cdef int pid = policy_id(policy), steps
        cdef const GameC* g = &self.game.g
        cdef StateC* s = &self.s
        rng_seed(&rng, <uint64_t>(int(seed) & _U64))
        with nogil:
            steps = rollout_c(g, s, &rng, pid)
        if steps < 0:
            raise RuntimeError("playout did not end within the step limit")
        if BURANO_DEBUG_BUILD:
            debug_check(g, s)
            _take_debug_errors()
        return self.scores()


def _state_from_bytes(Game game, bytes data):
    """Unpickle a State (its raw struct, see State.__reduce__)."""
    cdef State st = State.__new__(State)
    if len(data) != sizeof(StateC):
        raise PositionError("pickled state from another build of burano_ai._core")
    st.game = game
    memcpy(&st.s, <const char*>data, sizeof(StateC))
    return st


def rollout(State state, seed=0, policy="random"):
    """Play a copy of `state` to the end (the state is not changed); return the final scores."""
    return state.clone().rollout(seed, policy)


cdef void add_wins(const StateC* s, double* wins) noexcept nogil:
    """Add each seat's return of a finished game (winners as in State.winners) to `wins`."""
    cdef int p, nwin = 0
    cdef int32_t best_vp = -1, best_prep = -1, best_coins = -1
    cdef const PlayerC* pl
    for p in range(s.num_players):
        pl = &s.players[p]
        if pl.vp > best_vp or (pl.vp == best_vp and (pl.prep_total > best_prep or (
                pl.prep_total == best_prep and pl.coins > best_coins))):
            best_vp = pl.vp
            best_prep = pl.prep_total
            best_coins = pl.coins
    for p in range(s.num_players):
        pl = &s.players[p]
        if pl.vp == best_vp and pl.prep_total == best_prep and pl.coins == best_coins:
            nwin += 1
    for p in range(s.num_players):
        pl = &s.players[p]
        if pl.vp == best_vp and pl.prep_total == best_prep and pl.coins == best_coins:
            wins[p] += 1.0 / nwin


def playouts(State state, int count, seed=0, policy="random"):
    """Play `count` games from copies of `state` entirely in C (playout i uses seed + i).

    Returns (total actions applied, summed returns per seat). A benchmark and smoke-test helper.
    """
    cdef Rng rng
    cdef StateC work
    cdef const GameC* g = &state.game.g
    cdef int pid = policy_id(policy), i, p, steps = 0
    cdef long total = 0
    cdef double wins[MAX_PLAYERS]
    cdef uint64_t base = <uint64_t>(int(seed) & _U64)
    for p in range(MAX_PLAYERS):
        wins[p] = 0.0
    with nogil:
        for i in range(count):
            work = state.s
            rng_seed(&rng, base + <uint64_t>i)
            steps = rollout_c(g, &work, &rng, pid)
            if steps < 0:
                break
            total += steps
            add_wins(&work, wins)
    if steps < 0:
        raise RuntimeError("playout did not end within the step limit")
    return total, [wins[p] for p in range(state.s.num_players)]
