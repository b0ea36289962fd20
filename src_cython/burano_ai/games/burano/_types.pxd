# C vocabulary shared by the compiled modules: size limits, phases, stages, chance kinds, sentinels,
# playout policies, and the position structs (burano_ai.games.burano._core owns the functions on them).
#
# A position is one fixed-size C struct, StateC: no pointers and no Python
# objects, so a clone is a single struct assignment.  The configuration that
# never changes during a game (player count, workshop layout) lives in GameC;
# every C function takes `const GameC*` plus the StateC it reads or changes.
#
# Sizes below are compile-time constants; burano_ai.games.burano._core checks at import
# that they equal the numbers in burano_ai.games.burano.data / topology / actions, and
# copies every rules number (VP tables, costs, route, ring pieces, sales,
# marker mappings, building cards) from those Python modules into C tables.
#
# Field meanings mirror burano_ai/reference/state.py one for one; fields
# marked "derived" are not in the reference: they are kept up to date
# incrementally for speed and equal the reference's derived values
# (State.check() verifies them).

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    NUM_COLOURS = 6
    NUM_HOLES = 41
    NUM_LEVELS = 3            # cube levels 1..3
    NUM_ROOF_LEVELS = 2       # roofs lie on levels 1..2
    NUM_ROOF_LINES = 64
    NUM_LATTICE_CELLS = 81    # 9 x 9 cells; roof midpoints are cells
    NUM_ROOF_KINDS = 4
    NUM_ROOF_PAIRS = 12
    MAX_ROOFS = 48            # every roof tile of the game
    NUM_ROOF_SLOTS = 3
    NUM_ISLANDS = 6
    DOCKS_PER_ISLAND = 3
    NUM_PORTS = 2
    NUM_SHIPS = 4
    NUM_ROUTE_NODES = 8
    MAX_ROUTE_DESTS = 4       # 1-step plus 2-step destinations
    NUM_SPECIES = 8
    NUM_BUILDINGS = 16
    NUM_SQUARES = 28
    NUM_TILES = 6             # workshop tiles: one per colour
    MAX_PLAYERS = 4
    PYRAMID_SIZE = 14
    NUM_PIECES = 4
    NUM_HOUSES = 12
    NUM_SALES = 322
    NUM_MARKER_MAPPINGS = 90
    MAX_ACTIONS = 2048        # >= actions.NUM_ACTIONS: size of action buffers
    MAX_HOLE_NEIGHBOURS = 4

# Phases, chance kinds and stages: the numbers of burano_ai.games.burano.enums (Phase, ChanceKind, Stage);
# burano_ai.games.burano._core checks at import that they agree.
cdef enum:
    PH_ROOF_PICK = 0
    PH_PYRAMID = 1
    PH_TURN = 2
    PH_FISH_SAIL = 3
    PH_FISH_SWAP = 4
    PH_FISH_DRAW = 5
    PH_FISH_SEND = 6
    PH_PORT_TRADE = 7
    PH_LACE_PLACE = 8
    PH_RECALL = 9
    PH_ROOF_BONUS = 10
    PH_LACE_PAY = 11
    PH_REPLENISH = 12
    PH_PRIV_RESERVE = 13
    PH_ROOF_DISCARD = 14
    PH_CHANCE_NODE = 15
    PH_GAME_OVER = 16

cdef enum:
    CK_NONE = 0
    CK_FISH_DRAW = 1
    CK_FISH_REFILL = 2
    CK_BUILDING_DRAW = 3
    CK_BUILDING_REFILL = 4
    CK_ROOF_TILE = 5
    CK_MARKERS = 6

cdef enum:
    ST_SETUP = 0
    ST_PYRAMID = 1
    ST_ROUNDS = 2
    ST_LACE_SCORING = 3
    ST_REPLENISH = 4
    ST_ROOF_REFILL = 5
    ST_END = 6

cdef enum:
    CHANCE_PLAYER = -1
    TERMINAL_PLAYER = -4
    EMPTY = -1                # no cube / no roof / no tile / no player

# Playout policies.
cdef enum:
    POLICY_RANDOM = 0
    POLICY_HEURISTIC = 1

# playout_c results other than a step count.
cdef enum:
    MAX_PLAYOUT_STEPS = 100000   # a safety net: real games end after ~600-1,000 decisions
    PLAYOUT_CAPPED = -1          # the step cap was hit
    PLAYOUT_DEAD_END = -2        # a decision with no legal action or a chance node with no outcome


cdef struct RoofC:
    int8_t level              # 1 or 2
    int8_t line               # roof line id (topology.ROOF_LINES)
    int8_t kind               # roof kind (data.roofs)
    int8_t pair               # colour pair id (data.roofs.ROOF_PAIRS)
    int8_t flipped            # 1: field 1 lies on hole a, field 0 on hole b


cdef struct PlayerC:
    int8_t ring_pieces[NUM_PIECES]      # piece id on quarter A..D
    int8_t ring_offset                  # house under sector 1
    int8_t ring_workers                 # workers on the ring (sectors 1..n)
    int8_t pyramid[PYRAMID_SIZE]        # colour per position b1..b9, m1..m4, top; EMPTY
    int8_t reserve[NUM_COLOURS]         # reserve cubes per colour
    int8_t prep[NUM_COLOURS]            # preparation area cubes per colour
    int32_t coins                       # coins
    int32_t vp                          # victory points
    int32_t privilege                   # privilege points
    int8_t roof_slots[NUM_ROOF_SLOTS]   # tile kind * 12 + pair, or EMPTY
    uint16_t buildings                  # building cards owned (bit per card id)
    int8_t building_order[NUM_BUILDINGS]  # card ids in the order taken (reference list order)
    int8_t num_buildings                # entries used in building_order
    int8_t hand_known[NUM_SPECIES]      # fish cards taken face up, per species
    int8_t hand_blind[NUM_SPECIES]      # fish cards drawn blind, per species
    int8_t sold[NUM_SPECIES]            # sold-fish area per species
    int8_t boat                         # route node of the boat
    int8_t house_colour[NUM_HOUSES]     # derived: colour of house h (from ring_pieces)
    int8_t house_symbol[NUM_HOUSES]     # derived: symbol of house h (0 coin, 1 fountain)
    uint32_t workshop_mask              # derived: squares holding this seat's workers
    int8_t pyramid_count                # derived: cubes in the pyramid
    uint16_t pyramid_mask               # derived: bit per pyramid position holding a cube
    int8_t prep_total                   # derived: cubes in the preparation area
    int8_t island_total                 # derived: workers on the islands


cdef struct StateC:
    int8_t num_players                  # 2..4
    # Board.
    int8_t cubes[NUM_LEVELS][NUM_HOLES]             # colour per [level - 1][hole], or EMPTY
    int8_t height[NUM_HOLES]                        # derived: level of the topmost cube, 0 if none
    int8_t roof_at[NUM_ROOF_LEVELS][NUM_HOLES]      # roof id lying on a cube, or EMPTY
    int8_t roof_field[NUM_ROOF_LEVELS][NUM_HOLES]   # colour of that roof's field over the cube
    RoofC roofs[MAX_ROOFS]                          # roofs in the order laid (index = roof id)
    int8_t num_roofs                                # entries used in roofs
    uint64_t mid_used[NUM_ROOF_LEVELS][2]           # derived: bitset of roof midpoints per level
    uint64_t open_lines                             # derived: bit per roof line a tile may lie on now
    uint64_t open_end_a[NUM_COLOURS]                # derived: the open lines whose cube at end a has colour c
    uint64_t open_end_b[NUM_COLOURS]                # derived: the open lines whose cube at end b has colour c
    uint64_t buildable                              # derived: bit per hole a cube may be built in now
    int8_t removed[MAX_ROOFS]                       # tiles out of the game: kind * 12 + pair, in order
    int8_t num_removed                              # entries used in removed
    int8_t docks[NUM_ISLANDS][DOCKS_PER_ISLAND]     # dock colours per island, sorted
    uint8_t ports[NUM_PORTS]                        # ships per port (bit per ship id)
    int8_t markers[NUM_COLOURS]                     # action (fishing/lace/earning) of each colour
    int8_t fish_display[NUM_SPECIES]                # face-up fish cards per species
    uint16_t building_display                       # face-up building cards (bit per card id)
    int8_t island_workers[NUM_ISLANDS][MAX_PLAYERS] # workers per island and seat
    int8_t workshop[NUM_SQUARES]                    # occupant seat per workshop square, or EMPTY
    PlayerC players[MAX_PLAYERS]                    # per seat
    # Progress.
    int8_t season                       # 0..3
    int8_t round                        # 1-based round within the season
    int8_t first_player                 # holder of the first-player marker
    int8_t stage                        # ST_* : which loop the game is in
    int8_t phase                        # PH_* : what the pending decision is
    int8_t actor                        # who decides (EMPTY at the end)
    int8_t order_index                  # position in the turn order of a setup/pyramid/clean-up loop
    int8_t moves                        # moves made in the current turn
    # Pending action context.
    int8_t chance_kind                  # CK_* of the pending chance node
    int8_t chance_arg                   # roof kind for CK_ROOF_TILE
    int8_t sail_target                  # route node of the island trip whose dock swaps are pending, or EMPTY
    int8_t swap_pick                    # first dock of a pending swap (island * NUM_COLOURS + colour), or EMPTY
    int8_t fish_island                  # island being fished, or EMPTY
    int8_t fish_matches                 # matches of the current fishing trip
    int8_t draws_left                   # fish cards still to draw
    int8_t lace_allow[NUM_COLOURS]      # lace placements still allowed per colour
    int8_t pending_roof                 # roof id awaiting its bonus and scoring, or EMPTY
    uint32_t pay_queue                  # squares still to decide in lace scoring (ascending = queue order)
    uint32_t paid                       # squares paid in lace scoring
    int8_t discount_used                # Lace discount used in this lace scoring
    int8_t shortfall                    # replenishment cubes still owed
    int8_t picks_left                   # roof tiles still to pick
    int8_t kinds_picked[NUM_ROOF_KINDS] # roof kinds picked in this pick, in order
    int8_t num_kinds_picked             # entries used in kinds_picked
    int8_t pyramid_target               # cubes the current builder must place
    # Derived counts (not hashed).
    int8_t supply[NUM_COLOURS]          # derived: cubes in the supply per colour
    int8_t fish_deck[NUM_SPECIES]       # derived: fish deck per species
    int8_t fish_deck_total              # derived: fish deck size
    int8_t fish_display_total           # derived: face-up fish cards
    uint16_t building_deck              # derived: building cards in the deck (bit per card id)
    uint16_t roof_stack[NUM_ROOF_KINDS] # derived: tiles left per kind (bit per pair id)
    # Zobrist key of the position, maintained by every change (except inside a playout, see keyless).
    uint64_t key
    int8_t keyless                      # 1 only while playout_c runs: the setters skip the key


cdef struct GameC:
    int8_t num_players                  # 2..4
    int8_t sq_colour[NUM_SQUARES]       # workshop square colour, or EMPTY
    int8_t sq_coin[NUM_SQUARES]         # 1 if the square shows a coin
    int8_t sq_tile[NUM_SQUARES]         # workshop tile id, or EMPTY
    uint32_t sq_neighbours[NUM_SQUARES] # orthogonal non-empty neighbours (bit per square)
    uint32_t tile_mask[NUM_TILES]       # squares of each tile
    uint32_t colour_mask[NUM_COLOURS]   # squares of each colour
