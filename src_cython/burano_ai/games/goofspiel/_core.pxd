# The C vocabulary and interface of burano_ai.games.goofspiel._core: Goofspiel positions as a
# fixed-size struct (hands as bit masks), the hot-path functions, and the Game/State classes.
# The native search reaches all of it only through the C game interface (`GOOFSPIEL_OPS`, a
# `GameOpsC` of burano_ai/core/_game.pxd) carried by `State`, a `NativeState`.

from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t
from burano_ai._rng cimport Rng
from burano_ai.core._game cimport GameOpsC, NativeState


cdef enum:
    GS_MAX_PLAYERS = 5           # rules.MAX_PLAYERS (checked at import)
    GS_MAX_CARDS = 16            # rules.MAX_CARDS: a hand is a 16-bit mask
    GS_TURN_STRIDE = 8           # turn_id = round * 8 + seat
    GS_STEP_LIMIT = 1024         # a playout never needs more than 15 * (5 + 1) steps

    GS_PHASE_CHANCE = 0          # rules.PHASE_*: the prize is to be revealed
    GS_PHASE_BID = 1             # `bidder` bids
    GS_PHASE_OVER = 2

    GS_ORDER_RANDOM = 0          # rules.POINTS_ORDERS, in order
    GS_ORDER_DESCENDING = 1
    GS_ORDER_ASCENDING = 2

    GS_POLICY_RANDOM = 0         # playout policies (the C interface's OPS_POLICY_*)
    GS_POLICY_HEURISTIC = 1
    GS_PLAYOUT_CAPPED = -1       # playout_c's failures (a negative step count)
    GS_PLAYOUT_DEAD_END = -2


ctypedef struct GsGameC:
    int num_players              # 2..5
    int num_cards                # 2..16
    int points_order             # GS_ORDER_*


ctypedef struct GsStateC:
    uint64_t key                 # Zobrist key, maintained incrementally (rules.zobrist cells)
    uint32_t hands[GS_MAX_PLAYERS]   # bit c-1: card c in the seat's hand (as at the round's start)
    uint32_t won[GS_MAX_PLAYERS]     # bit c-1: prize c taken by the seat
    int32_t points[GS_MAX_PLAYERS]   # sum of the prizes won
    uint32_t prizes_left         # bit c-1: prize c not yet revealed (the current prize excluded)
    int8_t bids[GS_MAX_PLAYERS]  # this round's bid card, 0 = not yet
    int8_t prize                 # this round's prize card, 0 = not revealed (or the end)
    int8_t round                 # rounds resolved
    int8_t bidder                # the seat to bid, -1 outside the bidding
    int8_t phase                 # GS_PHASE_*
    int8_t num_players           # copied from the game (a state reads alone in debug checks)




cdef class Game:
    cdef GsGameC g
    cdef readonly int num_players
    cdef readonly int num_cards
    cdef readonly str points_order


cdef class State(NativeState):
    cdef GsStateC s
    cdef readonly Game game

    cdef void bind(self, object game) except *   # points the NativeState fields at GOOFSPIEL_OPS, game.g and s
    cdef object illegal_error(self, action, text)
