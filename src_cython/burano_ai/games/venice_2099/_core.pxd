# The C vocabulary and interface of burano_ai.games.venice_2099._core: Venice 2099 positions as a
# fixed-size struct (the board as 64 squares of fixed width, hands as 42-bit card masks), the hot-path
# functions and the Game/State classes. The native search reaches it only through the C game interface
# (`VENICE_2099_OPS`, a `GameOpsC` of burano_ai/core/_game.pxd) carried by `State`, a `NativeState`.

from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from burano_ai._rng cimport Rng
from burano_ai.core._game cimport GameOpsC, NativeState


cdef enum:
    VE_MAX_PLAYERS = 5           # spec §1: 2-5 players
    VE_SQUARES = 64              # §10.6: squares s = r * N + c, width 64 (a 6x6 board uses 0..35)
    VE_DISTRICTS = 48            # §1: district d = 8 * colour + value index
    VE_PLATFORM = 48             # the tile id of a platform (the LAYOUT outcome, §10.2)
    VE_CARDS = 42                # §1: forecast cards
    VE_COLOURS = 6
    VE_VALUES = 8                # value indexes 0..7 = 2, 3, ..., 8, X
    VE_MAX_FIGURES = 4           # §3.1: 4 figures with 3 players
    VE_DIRS = 8                  # §2 lines, [VD-2]
    VE_NUM_ACTIONS = 689         # §10.6
    VE_MAX_OUTCOMES = 49         # §10.2
    VE_STEP_LIMIT = 4096         # a game has at most 99 chance steps and 155 decisions (§10.8)

    VE_PHASE_SETUP = 0           # rules.PHASE_* (§10.5)
    VE_PHASE_PLACE = 1
    VE_PHASE_MOVE = 2
    VE_PHASE_BUY = 3
    VE_PHASE_CARD = 4
    VE_PHASE_RESCUE = 5
    VE_PHASE_OVER = 6

    VE_CHANCE_REMOVE_COLOUR = 0  # rules.CHANCE_* (§10.2)
    VE_CHANCE_LAYOUT = 1
    VE_CHANCE_DEAL = 2

    VE_UNPLACED = -1             # rules.UNPLACED, LOST, IN_WATER: figure slots off the board
    VE_LOST = -2
    VE_IN_WATER = -3

    VE_PLAYOUT_CAPPED = -1       # playout_c's failures (a negative step count)
    VE_PLAYOUT_DEAD_END = -2


ctypedef struct VeGameC:
    int num_players              # 2..5
    int side                     # N: 8, or 6 with 2 players (§2)
    int squares                  # N * N
    int hand_size                # §3.3
    int dealt                    # hand_size * num_players
    int figures                  # figures per seat
    int platforms                # 16, or 6 with 2 players
    int removes_colour           # 2 players: a REMOVE_COLOUR chance node first (§3.2, VD-11)
    int treasure_supply          # tokens per colour (VD-8); 0 = unlimited
    int move_dirs                # 8 or 4 (VD-2): the first move_dirs of rules.DIRECTIONS
    int diagonal_squeeze         # VD-3
    int gondola_step1            # VD-4
    int rescue_to_platform       # VD-5
    int round_robin              # VD-6
    int auto_forced              # §10.5 auto_apply_forced
    uint64_t base_deck           # the cards of the game (2 players: before the colour removal)
    uint64_t base_districts      # its districts, likewise
    uint64_t never_sinks         # districts no card names (the "2"s, VD-1)
    uint64_t colour_cards[VE_COLOURS]
    uint64_t colour_districts[VE_COLOURS]
    int card_district[VE_CARDS]  # the district a card sinks
    int card_rank[VE_CARDS]      # its rank = the value index (2 < 3 < ... < 8 < X)
    int tile_colour[VE_DISTRICTS]
    int tile_vi[VE_DISTRICTS]
    int tile_number[VE_DISTRICTS]   # the numeral it adds to sums and scores; X adds 0 (VD-9)
    int tile_is_x[VE_DISTRICTS]
    int x_multiplier             # §7 item 3
    int token_value[VE_DISTRICTS + 1]   # points per token by surviving districts of its colour (§7 item 1)
    int dr[VE_DIRS]
    int dc[VE_DIRS]


ctypedef struct VeSeatC:
    int16_t coins
    int8_t tokens[VE_COLOURS]
    int8_t gondolas
    int8_t bound                 # rank of the last card played, 0 before (derived, §10.3)
    int8_t fig[VE_MAX_FIGURES]   # square of each figure slot, or VE_UNPLACED / VE_LOST / VE_IN_WATER
    uint64_t hand                # card mask


ctypedef struct VeStateC:
    uint64_t key                 # Zobrist key, maintained incrementally (rules.zobrist cells)
    uint64_t laid                # districts already laid (derived)
    int8_t num_players
    int8_t phase                 # VE_PHASE_*
    int8_t to_move               # the placing seat in PLACE, the active seat in a turn, else -1 (derived)
    int8_t removed               # the 2-player removed colour, -1 none / not yet drawn
    int8_t cursor                # setup: squares laid, then squares + cards dealt (derived)
    int8_t platforms_laid        # (derived)
    int8_t placed                # placements done (derived)
    int8_t rescue_owner          # RESCUE: the owner of the figure in the water, else -1 (derived)
    int8_t rescue_slot
    int8_t moved                 # move steps made this turn: bit 0 normal, bit 1 gondola (VD-4 alternative)
    int8_t num_played
    int16_t coins_sunk           # coins gone with sinking districts (§5.5 step 2)
    int8_t tile[VE_SQUARES]      # district id, VE_PLATFORM, or -1 (not laid / off the board)
    int8_t water[VE_SQUARES]     # 1 once the district sank
    int8_t occ[VE_SQUARES]       # seat * 4 + slot of the figure on it, or -1 (derived)
    int16_t coins[VE_SQUARES]    # coins paid onto the square (§5.3)
    int8_t square_of[VE_DISTRICTS]   # where each district lies, -1 not laid (derived)
    int16_t supply[VE_COLOURS]   # tokens left, -1 unlimited
    int8_t played[VE_CARDS]      # card ids in the order played
    int8_t played_by[VE_CARDS]
    VeSeatC seats[VE_MAX_PLAYERS]




cdef class Game:
    cdef VeGameC g
    cdef readonly int num_players
    cdef readonly object options


cdef class State(NativeState):
    cdef VeStateC s
    cdef readonly Game game

    cdef void bind(self, object game) except *
