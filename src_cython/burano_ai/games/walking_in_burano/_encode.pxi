# Walking in Burano's encoder (the C game interface's `encode`; burano_ai/games/walking_in_burano/
# encoder.py is the readable Python form over the position JSON, equal on every state:
# tests/test_learn_encoders.py). A textual include of _core.pyx, after its rules functions.
#
# Layout (ENCODER_VERSION 2, 39 + 4 * 23 = 131 floats), seats relative to `seat` (k = 0 is `seat`):
#   [0..7]   phase (deal, first, acquire, build, visit, return, refill, over), one-hot
#   [8]      round / 30
#   [9..12]  relative seat to move, one-hot; [13..16] the first-player token's holder, one-hot
#   [17]     the last round was triggered; [18] cards placed this turn / 3
#   [19..21] cards left per level's deck (shuffled and returned under it) / 24
#   [22..32] characters left per type (data.CHARACTER_NAMES order) / 2
#   [33..35] cards in the market per level / 5
#   [36..38] symbols on the market's cards per level (plants, flowers, cats, curtains, lanterns,
#            chimneys) / 20
#   then per relative seat k < 4 (zeros past the player count), 23 floats:
#            §11 total with the street as it stands / 50, coins / 6, tokens / 4, houses / 5,
#            occupied floors (cards and scaffolds) / 15, houses of three floors / 5, characters / 5,
#            cards in hand per level / 3 (3), houses waiting for a character / 5,
#            the street's cards' passers-by, plants, flowers, cats, curtains, lanterns, chimneys and closed
#            windows / 10 each (8), its shops / 5 and their VP / 20,
#            the hand's symbols (as the market's) / 20 and its shops / 3

cdef enum:
    WB_ENCODER_VERSION = 2
    WB_GLOBAL_FEATURES = 39
    WB_SEAT_FEATURES = 23
    WB_NUM_FEATURES = WB_GLOBAL_FEATURES + WB_MAX_PLAYERS * WB_SEAT_FEATURES


cdef inline int wb_symbols(const WbGameC* g, int card) noexcept nogil:
    """Plants, flowers, cats, curtains, lanterns and chimneys on a card."""
    return (g.plants[card] + g.flowers[card] + g.cats[card] + g.curtain_total[card] + g.lanterns[card]
            + g.chimneys[card])


cdef int wb_num_features(const void* game) noexcept nogil:
    return WB_NUM_FEATURES


cdef void wb_encode(const void* game, const void* state, int seat, float* out) noexcept nogil:
    cdef const WbGameC* g = <const WbGameC*>game
    cdef const WbStateC* s = <const WbStateC*>state
    cdef const WbSeatC* pl
    cdef int totals[WB_MAX_PLAYERS]
    cdef int cats[WB_MAX_PLAYERS]
    cdef int windows[WB_MAX_PLAYERS]
    cdef int n = g.num_players, k, p, l, c, h, base, floors, full, chars, waiting, cnt, card, sym
    cdef uint32_t m
    for k in range(WB_NUM_FEATURES):
        out[k] = 0.0
    if 0 <= s.phase <= 7:
        out[s.phase] = 1.0
    out[8] = s.round / 30.0
    if s.to_move >= 0:
        out[9 + (s.to_move - seat + n) % n] = 1.0
    if s.first >= 0:
        out[13 + (s.first - seat + n) % n] = 1.0
    out[17] = 1.0 if s.last_round else 0.0
    out[18] = s.placed / 3.0
    for l in range(WB_LEVELS):
        out[19 + l] = (WB_POPCOUNT(s.shuffled[l]) + s.under_len[l]) / 24.0
        cnt = 0
        sym = 0
        for c in range(g.columns):
            if s.market[l][c] >= 0:
                cnt += 1
                sym += wb_symbols(g, s.market[l][c])
        out[33 + l] = cnt / 5.0
        out[36 + l] = sym / 20.0
    for c in range(WB_TYPES):
        out[22 + c] = s.stacks[c] / 2.0
    totals_c(g, s, totals, cats, windows)
    for k in range(n):
        p = (seat + k) % n
        pl = &s.seats[p]
        base = WB_GLOBAL_FEATURES + k * WB_SEAT_FEATURES
        out[base] = totals[p] / 50.0
        out[base + 1] = pl.coins / 6.0
        out[base + 2] = pl.tokens / 4.0
        out[base + 3] = pl.houses / 5.0
        floors = full = chars = waiting = 0
        for h in range(pl.houses):
            cnt = 0
            for l in range(WB_LEVELS):
                if pl.street[h][l] != -1:
                    cnt += 1
                card = pl.street[h][l]
                if card >= 0:
                    out[base + 11] += g.passersby[card] / 10.0
                    out[base + 12] += g.plants[card] / 10.0
                    out[base + 13] += g.flowers[card] / 10.0
                    out[base + 14] += g.cats[card] / 10.0
                    out[base + 15] += g.curtain_total[card] / 10.0
                    out[base + 16] += g.lanterns[card] / 10.0
                    out[base + 17] += g.chimneys[card] / 10.0
                    out[base + 18] += g.closed[card] / 10.0
                    if g.shop_type[card] >= 0:
                        out[base + 19] += 1.0 / 5.0
                        out[base + 20] += g.shop_vp[card] / 20.0
            floors += cnt
            if cnt == WB_LEVELS:
                full += 1
            if pl.character[h] >= 0:
                chars += 1
            if pl.pending & (1 << h):
                waiting += 1
        out[base + 4] = floors / 15.0
        out[base + 5] = full / 5.0
        out[base + 6] = chars / 5.0
        for l in range(WB_LEVELS):
            out[base + 7 + l] = WB_POPCOUNT(pl.hand[l]) / 3.0
            m = pl.hand[l]
            while m:
                card = l * WB_PER_LEVEL + WB_CTZ(m)
                m &= m - 1
                out[base + 21] += wb_symbols(g, card) / 20.0
                if g.shop_type[card] >= 0:
                    out[base + 22] += 1.0 / 3.0
        out[base + 10] = waiting / 5.0
