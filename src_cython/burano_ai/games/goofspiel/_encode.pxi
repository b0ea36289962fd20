# Goofspiel's encoder (the C game interface's `encode`; burano_ai/games/goofspiel/encoder.py is the
# readable Python form over the position JSON, equal on every state: tests/test_learn_encoders.py).
# A textual include of _core.pyx, after its rules functions.
#
# Layout (ENCODER_VERSION 1, 19 + 5 + 5 * 19 = 119 floats), seats relative to `seat` (k = 0 is `seat`):
#   [0]      the revealed prize / 16 (0: none)
#   [1..16]  prize c+1 still to come (1/0)
#   [17]     rounds resolved / 16
#   [18]     the points still to come (the revealed prize included) / 136
#   [19..23] the bidder is relative seat k (1/0)
#   then per relative seat k < 5 (zeros past the player count), 19 floats:
#            the hand (cards c+1 at the round's start, 1/0) x16, points / 136,
#            has bid this round (1/0), the bid card / 16

cdef enum:
    GS_ENCODER_VERSION = 1
    GS_SEAT_FEATURES = 19
    GS_NUM_FEATURES = 24 + GS_MAX_PLAYERS * GS_SEAT_FEATURES


cdef int gs_num_features(const void* game) noexcept nogil:
    return GS_NUM_FEATURES


cdef void gs_encode(const void* game, const void* state, int seat, float* out) noexcept nogil:
    cdef const GsGameC* g = <const GsGameC*>game
    cdef const GsStateC* s = <const GsStateC*>state
    cdef int n = g.num_players, k, p, c, left = 0, base
    for k in range(GS_NUM_FEATURES):
        out[k] = 0.0
    out[0] = s.prize / 16.0
    for c in range(16):
        if s.prizes_left & card_bit(c + 1):
            out[1 + c] = 1.0
            left += c + 1
    out[17] = s.round / 16.0
    out[18] = (left + s.prize) / 136.0
    if s.bidder >= 0 and s.phase == GS_PHASE_BID:
        out[19 + (s.bidder - seat + n) % n] = 1.0
    for k in range(n):
        p = (seat + k) % n
        base = 24 + k * GS_SEAT_FEATURES
        for c in range(16):
            if s.hands[p] & card_bit(c + 1):
                out[base + c] = 1.0
        out[base + 16] = s.points[p] / 136.0
        if s.bids[p] > 0:
            out[base + 17] = 1.0
            out[base + 18] = s.bids[p] / 16.0
