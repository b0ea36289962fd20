# The C vocabulary and interface of burano_ai.games.azul_sintra._core: Azul: Stained Glass of Sintra
# positions as a fixed-size struct (counts, never a bag order: spec §11.1), the hot-path functions and
# the Game/State classes. The native search reaches it only through the C game interface
# (`AZUL_SINTRA_OPS`, a `GameOpsC` of burano_ai/core/_game.pxd) carried by `State`, a `NativeState`.

from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from burano_ai._rng cimport Rng
from burano_ai.core._game cimport GameOpsC, NativeState


cdef enum:
    AZ_MAX_PLAYERS = 4           # data.MAX_PLAYERS (checked at import)
    AZ_COLOURS = 5               # data.NUM_COLOURS
    AZ_COLUMNS = 8               # data.COLUMNS (= strips per player)
    AZ_MAX_FACTORIES = 9         # data.MAX_FACTORIES
    AZ_ROUNDS = 6                # data.ROUNDS
    AZ_TRACK = 9                 # data.TRACK_SPACES
    AZ_NUM_ACTIONS = 456         # rules.NUM_ACTIONS (§11.4)
    AZ_MAX_ACTIONS = 856         # rules.NUM_ACTIONS_JOKER_CHOICE: with the joker_choice flag (AD-13, AD-23)
    AZ_MAX_OUTCOMES = 8          # rules.MAX_CHANCE_OUTCOMES
    AZ_STEP_LIMIT = 8192         # a game has fewer than 900 steps (setup, draws and decisions)

    AZ_PHASE_SETUP = 0           # rules.PHASE_*
    AZ_PHASE_REFILL = 1
    AZ_PHASE_DRAFT = 2
    AZ_PHASE_KEEP = 3
    AZ_PHASE_OVER = 4

    AZ_CHANCE_STRIP = 0          # rules.CHANCE_*
    AZ_CHANCE_FACE = 1
    AZ_CHANCE_INDICATOR = 2
    AZ_CHANCE_DRAW = 3
    AZ_CHANCE_FIRST = 4          # the random_first_player flag (AD-17)

    AZ_PLAYOUT_CAPPED = -1       # playout_c's failures (a negative step count)
    AZ_PLAYOUT_DEAD_END = -2


ctypedef struct AzGameC:
    int num_players              # 2..4
    int num_factories            # 5 / 7 / 9 (§3)
    int side                     # 0 = side A (ornaments), 1 = side B (windows x colour)
    int first_player             # AD-17
    int joker_choice             # the spec's optional rules (rules.Flags): jokers-first drafts too (AD-13)
    int indicator_to_tower       # the used indicator piece to the tower (AD-9), else out of the game
    int auto_keep                # side A: the keep resolved at once (AD-24)
    int random_first             # the first player drawn at setup (AD-17)
    int8_t face[AZ_COLUMNS][2][AZ_COLOURS + 1]   # the data's face counts; [5] = joker cells
    int joker_strip              # the one strip and face with jokers (it starts face down)
    int joker_face
    int window[AZ_COLUMNS]       # window values (AD-5)
    int ornament_of[AZ_COLUMNS]  # side A: the ornament of each window (AD-6), -1 none
    int num_ornaments
    int ornament_points[5]       # filled cells of an ornament -> points (RU:224-227)
    int track[AZ_TRACK]          # the broken-glass track (AD-7), top to bottom
    int bottom_loss              # 18 (RU:218)
    int token_steps              # 1 (RU:104)
    int leftover_per_point       # 3 (RU:208)
    int pieces_per_factory       # 4
    int strip_cells              # 5


ctypedef struct AzBoardC:
    int32_t score                # signed (AD-16); the final scoring is added at the end
    int32_t hits                 # times the marker reached the bottom space
    int8_t track                 # 0..7
    int8_t glazier               # column 0..7
    int8_t strip[AZ_COLUMNS]     # strip id per column, -1 before setup lays it
    int8_t face[AZ_COLUMNS]      # 0 = a, 1 = b, -1 before setup turns it
    int8_t top[AZ_COLUMNS]       # window cells: a colour or -1; bottom filled <=> the strip is gone
    int8_t bottom[AZ_COLUMNS]
    int8_t filled[AZ_COLUMNS][AZ_COLOURS]   # pieces on coloured cells, per colour
    int8_t jokers[AZ_COLUMNS][AZ_COLOURS]   # pieces on joker cells, per colour


ctypedef struct AzStateC:
    uint64_t key                 # Zobrist key, maintained incrementally (rules.zobrist cells)
    int32_t turn                 # turns completed (turn_id; not part of the key)
    int8_t num_players
    int8_t phase                 # AZ_PHASE_*
    int8_t round                 # 0..5
    int8_t to_move               # the deciding seat in draft and keep, else -1
    int8_t starter               # the seat that began the round
    int8_t token                 # -1: in the centre; else its holder
    int8_t keep_column           # the completed strip's column in the keep phase, else -1
    int8_t indicator[AZ_ROUNDS]  # round colours, -1 before setup places them
    int16_t bag[AZ_COLOURS]
    int16_t tower[AZ_COLOURS]
    int16_t centre[AZ_COLOURS]
    int16_t keep[AZ_COLOURS]     # the completed strip's 5 pieces waiting for KEEP
    int16_t factories[AZ_MAX_FACTORIES][AZ_COLOURS]
    AzBoardC boards[AZ_MAX_PLAYERS]




cdef class Game:
    cdef AzGameC g
    cdef readonly int num_players
    cdef readonly str side
    cdef readonly int first_player
    cdef readonly object data
    cdef readonly object flags


cdef class State(NativeState):
    cdef AzStateC s
    cdef readonly Game game

    cdef void bind(self, object game) except *
