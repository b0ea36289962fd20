# The C vocabulary and interface of burano_ai.games.walking_in_burano._core: Walking in Burano positions
# as a fixed-size struct (card sets as one 24-bit mask per level, streets as card ids), the hot-path
# functions and the Game/State classes. The native search reaches it only through the C game interface
# (`WALKING_IN_BURANO_OPS`, a `GameOpsC` of burano_ai/core/_game.pxd) carried by `State`, a `NativeState`.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t
from burano_ai._rng cimport Rng
from burano_ai.core._game cimport GameOpsC, NativeState


cdef enum:
    WB_MAX_PLAYERS = 4           # data.MAX_PLAYERS (checked at import)
    WB_CARDS = 72                # data.NUM_CARDS: ids 0-71 (§2.1)
    WB_LEVELS = 3
    WB_PER_LEVEL = 24            # data.CARDS_PER_LEVEL: ids 24*level .. 24*level + 23 (§2.4 numbering)
    WB_MAX_COLUMNS = 5           # data.MAX_COLUMNS: N = P + 1 market columns (§3)
    WB_HOUSES = 5                # data.MAX_HOUSES (§6.2)
    WB_TYPES = 11                # data.NUM_CHARACTERS (§2.5)
    WB_MAX_KINDS = 8             # data.MAX_CURTAIN_KINDS
    WB_MAX_SHOP_TYPES = 16       # data.MAX_SHOP_TYPES
    WB_NUM_ACTIONS = 619         # rules.NUM_ACTIONS (§15.4)
    WB_MAX_OUTCOMES = 72         # rules.MAX_CHANCE_OUTCOMES
    WB_MAX_RETURNS = 6           # returns in one step: at most 3 (hand 6, limit 3)
    WB_STEP_LIMIT = 8192         # a game has far fewer steps (30 rounds x 4 turns x < 20 steps)

    WB_SCAFFOLD = -2             # position.SCAFFOLD: a street slot holding a scaffold (-1: empty)

    WB_PHASE_DEAL = 0            # rules.PHASE_*
    WB_PHASE_FIRST = 1
    WB_PHASE_ACQUIRE = 2
    WB_PHASE_BUILD = 3
    WB_PHASE_VISIT = 4
    WB_PHASE_RETURN = 5
    WB_PHASE_REFILL = 6
    WB_PHASE_OVER = 7

    WB_CHANCE_DRAW = 0           # rules.CHANCE_*
    WB_CHANCE_FIRST = 1

    WB_ACQUIRE_NONE = 30         # rules: the action layout (§15.4)
    WB_PLACE0 = 31
    WB_END_BUILD = 535
    WB_CHARACTER0 = 536
    WB_RETURN0 = 547

    WB_PLAYOUT_CAPPED = -1       # playout_c's failures (a negative step count)
    WB_PLAYOUT_DEAD_END = -2


ctypedef struct WbGameC:
    int num_players              # 2..4
    int columns                  # N = P + 1 (§3 step 2)
    int first_player             # options.first_player: a fixed first seat, or -1: drawn by chance (WD-25)
    int public_returns           # returned cards are shown face up (§14 variant): nothing is pooled
    int window_penalty           # 0 with options.no_window_penalty (§13): no step D
    int round_guard              # 30 (WD-20)
    int hand_limit               # 3 (§8)
    int coin_cap                 # 6 (§8)
    int max_places               # 3 (§6.1)
    int place_cost[3]            # 1, 2, 2 (WD-4) or 1, 3, 3 (options.literal_cost)
    int gain_per_card_less       # coins gained = cards_per_acquire - cards taken (§5)
    int cards_per_acquire        # 3
    int token_vp                 # 3 (§11.1 C)
    int scaffolds                # 2 per player (§3 step 5)
    int stacks[WB_TYPES]         # characters in play per type at setup (§3 step 3, §13)
    int tourist[WB_TYPES]        # 1 for tourist types (they repeat; they score their house)
    int tourist_base             # 2 (§11.2)
    int woman_per_flower, man_per_plant, girl_per_cat, boy_per_symbol, mayor_per_passerby
    int boy_scoring              # what the Boy counts: 0 every symbol (WD-11), 1 symbol types, 2 sets (WD-32)
    int police[4]                # 0, 5, 9, 15 by non-adjacent lanterns (WD-12)
    int shop_owner[5]            # 0, 2, 5, 9, 15 by distinct shop types (WD-13)
    int seamstress_pair          # 4 (WD-14)
    int santa_chimney            # 3
    int florist_window           # 3 (WD-15)
    int8_t colour[WB_CARDS]
    int8_t passersby[WB_CARDS]
    int8_t plants[WB_CARDS]
    int8_t flowers[WB_CARDS]
    int8_t cats[WB_CARDS]
    int8_t curtains[WB_CARDS][WB_MAX_KINDS]   # curtains of each kind
    int8_t curtain_total[WB_CARDS]
    int8_t lanterns[WB_CARDS]
    int8_t chimneys[WB_CARDS]
    int8_t closed[WB_CARDS]      # closed windows
    int8_t shop_type[WB_CARDS]   # -1: no shop
    int8_t shop_vp[WB_CARDS]


ctypedef struct WbSeatC:
    int8_t coins                 # 0..8 (<= 6 at a turn boundary)
    int8_t tokens                # 0..4
    int8_t houses                # houses in the street, 0..5
    uint8_t pending              # houses finished this turn still waiting for a character (bit per house)
    int8_t street[WB_HOUSES][WB_LEVELS]   # card id, WB_SCAFFOLD or -1, per house (left to right) and level
    int8_t character[WB_HOUSES]  # type under the house or -1
    uint32_t hand[WB_LEVELS]     # hidden: the hand, one bit per card of the level
    uint32_t pool[WB_LEVELS]     # public: cards in the hand or under a deck whose place others cannot tell (WD-27)


ctypedef struct WbStateC:
    uint64_t key                 # Zobrist key, maintained incrementally (rules.zobrist cells)
    int32_t turn                 # turns completed (turn_id; not part of the key)
    int8_t num_players
    int8_t phase                 # WB_PHASE_*
    int8_t round                 # 0..29
    int8_t first                 # the first-player token's holder (-1 before it is drawn)
    int8_t to_move               # the deciding seat, -1 outside turns
    int8_t placed                # cards placed this turn
    int8_t returned[WB_MAX_RETURNS]   # the cards returned in this return step, ascending (§15.4)
    int8_t returned_len
    int8_t last_round            # the end was triggered by an empty deck (WD-18)
    int8_t market[WB_LEVELS][WB_MAX_COLUMNS]  # card id or -1; row = level
    uint32_t shuffled[WB_LEVELS] # the shuffled part of each deck (its order is chance)
    int8_t under[WB_LEVELS][WB_PER_LEVEL]     # returned cards under each deck, first drawn first
    int8_t under_owner[WB_LEVELS][WB_PER_LEVEL]
    int8_t under_round[WB_LEVELS][WB_PER_LEVEL]   # the round each was returned in, -1 not known (public;
                                                  # not in the key: one owner's cards of one round lie ascending)
    int8_t under_len[WB_LEVELS]
    int8_t discard[WB_CARDS]     # the 2-player discards in order (WD-17), public
    int8_t discard_len
    int8_t stacks[WB_TYPES]      # characters left per type
    WbSeatC seats[WB_MAX_PLAYERS]




cdef class Game:
    cdef WbGameC g
    cdef readonly int num_players
    cdef readonly object options
    cdef readonly object data
    cdef readonly object _config


cdef class State(NativeState):
    cdef WbStateC s
    cdef readonly Game game

    cdef void bind(self, object game) except *
