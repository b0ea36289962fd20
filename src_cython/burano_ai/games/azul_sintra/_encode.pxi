# Azul: Stained Glass of Sintra's encoder (the C game interface's `encode`; burano_ai/games/azul_sintra/
# encoder.py is the readable Python form over the position JSON, equal on every state:
# tests/test_learn_encoders.py). A textual include of _core.pyx, after its rules functions.
#
# Layout (ENCODER_VERSION 1, 55 + 4 * 31 = 179 floats), seats relative to `seat` (k = 0 is `seat`):
#   [0..4]   phase (setup, refill, draft, keep, over), one-hot
#   [5]      round (0..5) / 5
#   [6..9]   relative seat to move, one-hot (none outside draft and keep)
#   [10..13] relative seat that began the round, one-hot
#   [14]     the first-player token in the centre; [15..18] its holder, one-hot
#   [19..23] bag / 20, [24..28] tower / 20, [29..33] centre / 10, [34..38] the pieces to keep / 5 (per colour)
#   [39..43] pieces on the factories / 20 per colour; [44] non-empty factories / 9
#   [45..49] indicators of the rounds after this one, per colour / 6; [50..54] this round's, one-hot
#   then per relative seat k < 4 (zeros past the player count), 31 floats:
#            score / 50, hits / 3, track / 8, glazier column / 8,
#            pieces on coloured cells per colour / 10 (5), on joker cells per colour / 5 (5),
#            pieces on each column's strip / 5 (8), each column's window top filled (8),
#            columns whose window is complete / 8

cdef enum:
    AZ_ENCODER_VERSION = 1
    AZ_GLOBAL_FEATURES = 55
    AZ_SEAT_FEATURES = 31
    AZ_NUM_FEATURES = AZ_GLOBAL_FEATURES + AZ_MAX_PLAYERS * AZ_SEAT_FEATURES


cdef int az_num_features(const void* game) noexcept nogil:
    return AZ_NUM_FEATURES


cdef void az_encode(const void* game, const void* state, int seat, float* out) noexcept nogil:
    cdef const AzGameC* g = <const AzGameC*>game
    cdef const AzStateC* s = <const AzStateC*>state
    cdef const AzBoardC* b
    cdef int n = g.num_players, k, p, c, col, f, base, total, busy, done
    for k in range(AZ_NUM_FEATURES):
        out[k] = 0.0
    if 0 <= s.phase <= 4:
        out[s.phase] = 1.0
    out[5] = s.round / 5.0
    if s.to_move >= 0:
        out[6 + (s.to_move - seat + n) % n] = 1.0
    if s.starter >= 0:
        out[10 + (s.starter - seat + n) % n] = 1.0
    if s.token < 0:
        out[14] = 1.0
    else:
        out[15 + (s.token - seat + n) % n] = 1.0
    busy = 0
    for c in range(AZ_COLOURS):
        out[19 + c] = s.bag[c] / 20.0
        out[24 + c] = s.tower[c] / 20.0
        out[29 + c] = s.centre[c] / 10.0
        out[34 + c] = s.keep[c] / 5.0
        total = 0
        for f in range(g.num_factories):
            total += s.factories[f][c]
        out[39 + c] = total / 20.0
    for f in range(g.num_factories):
        total = 0
        for c in range(AZ_COLOURS):
            total += s.factories[f][c]
        if total > 0:
            busy += 1
    out[44] = busy / 9.0
    for k in range(AZ_ROUNDS):
        c = s.indicator[k]
        if 0 <= c < AZ_COLOURS:
            if k > s.round:
                out[45 + c] += 1.0 / 6.0
            elif k == s.round:
                out[50 + c] = 1.0
    for k in range(n):
        p = (seat + k) % n
        b = &s.boards[p]
        base = AZ_GLOBAL_FEATURES + k * AZ_SEAT_FEATURES
        out[base] = b.score / 50.0
        out[base + 1] = b.hits / 3.0
        out[base + 2] = b.track / 8.0
        out[base + 3] = b.glazier / 8.0
        done = 0
        for col in range(AZ_COLUMNS):
            total = 0
            for c in range(AZ_COLOURS):
                out[base + 4 + c] += b.filled[col][c] / 10.0
                out[base + 9 + c] += b.jokers[col][c] / 5.0
                total += b.filled[col][c] + b.jokers[col][c]
            out[base + 14 + col] = total / 5.0
            if b.top[col] >= 0:
                out[base + 22 + col] = 1.0
            if b.bottom[col] >= 0:
                done += 1
        out[base + 30] = done / 8.0
