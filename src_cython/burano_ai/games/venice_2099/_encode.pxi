# Venice 2099's encoder (the C game interface's `encode`; burano_ai/games/venice_2099/encoder.py is the
# readable Python form over the position JSON, equal on every state: tests/test_learn_encoders.py).
# A textual include of _core.pyx, after its rules functions.
#
# Layout (ENCODER_VERSION 3, 31 + 5 * 23 = 146 floats), seats relative to `seat` (k = 0 is `seat`):
#   [0..6]   phase (setup, place, move, buy, card, rescue, over), one-hot
#   [7..11]  relative seat to decide (the rescuer in a rescue), one-hot (none at chance and the end)
#   [12]     cards played / 42; [13] districts sunk / 48; [14] coins sunk / 50; [15] coins on the board / 50
#   [16..21] treasure tokens left in the supply per colour / 10 (1 when unlimited)
#   [22]     a rescue is pending; [23] figures placed / 16; [24] cards in all hands / 30
#   [25..30] districts of each colour that survive every card in a hand / 8
#   then per relative seat k < 5 (zeros past the player count), 21 floats:
#            §7 score on the board as it stands / 50, §7 score once every card in a hand has sunk its
#            district (`estimated_scores`) / 50, coins / 30, tokens per colour / 5 (6), gondolas / 2,
#            figures on the board / 4, figures lost or in the water / 4, cards in hand / 10,
#            §7's treasures, figures and X districts as the board stands / 30 (3) and once the cards in
#            hand have sunk their districts / 30 (3),
#            the two §7 scores' margins over the best other seat / 50 (2: a win is a margin, not a score)

cdef enum:
    VE_ENCODER_VERSION = 3
    VE_GLOBAL_FEATURES = 31
    VE_SEAT_FEATURES = 23
    VE_NUM_FEATURES = VE_GLOBAL_FEATURES + VE_MAX_PLAYERS * VE_SEAT_FEATURES


cdef int ve_num_features(const void* game) noexcept nogil:
    return VE_NUM_FEATURES


cdef void ve_encode(const void* game, const void* state, int seat, float* out) noexcept nogil:
    cdef const VeGameC* g = <const VeGameC*>game
    cdef const VeStateC* s = <const VeStateC*>state
    cdef const VeSeatC* st
    cdef int n = g.num_players, k, p, c, sq, f, base, sunk = 0, coins = 0, alive, gone
    cdef uint64_t doomed = 0
    cdef int parts[4]
    cdef int now[VE_MAX_PLAYERS]
    cdef int later[VE_MAX_PLAYERS]
    cdef int best_now, best_later, q
    for k in range(VE_NUM_FEATURES):
        out[k] = 0.0
    if 0 <= s.phase <= 6:
        out[s.phase] = 1.0
    p = current_player_c(s)
    if p >= 0:
        out[7 + (p - seat + n) % n] = 1.0
    out[12] = s.num_played / 42.0
    for sq in range(g.squares):
        if s.tile[sq] >= 0 and s.tile[sq] != VE_PLATFORM and s.water[sq]:
            sunk += 1
        coins += s.coins[sq]
    out[13] = sunk / 48.0
    out[14] = s.coins_sunk / 50.0
    out[15] = coins / 50.0
    for c in range(VE_COLOURS):
        out[16 + c] = 1.0 if s.supply[c] < 0 else s.supply[c] / 10.0
    out[22] = 1.0 if s.phase == VE_PHASE_RESCUE else 0.0
    out[23] = s.placed / 16.0
    if s.phase != VE_PHASE_OVER and s.phase != VE_PHASE_SETUP:
        doomed = doomed_districts(g, s)
    for sq in range(g.squares):
        if is_land(s, sq) and not (doomed >> s.tile[sq] & 1):
            out[25 + g.tile_colour[s.tile[sq]]] += 1.0 / 8.0
    for k in range(n):
        p = (seat + k) % n
        st = &s.seats[p]
        base = VE_GLOBAL_FEATURES + k * VE_SEAT_FEATURES
        now[p] = score_c(g, s, p, 0)
        later[p] = score_c(g, s, p, doomed)
        out[base] = now[p] / 50.0
        out[base + 1] = later[p] / 50.0
        out[base + 2] = st.coins / 30.0
        for c in range(VE_COLOURS):
            out[base + 3 + c] = st.tokens[c] / 5.0
        out[base + 9] = st.gondolas / 2.0
        alive = 0
        gone = 0
        for f in range(g.figures):
            if st.fig[f] >= 0:
                alive += 1
            elif st.fig[f] == VE_LOST or st.fig[f] == VE_IN_WATER:
                gone += 1
        out[base + 10] = alive / 4.0
        out[base + 11] = gone / 4.0
        out[base + 12] = ve_popcount(st.hand) / 10.0
        out[24] += ve_popcount(st.hand) / 30.0
        breakdown_c(g, s, p, 0, parts)
        for c in range(3):
            out[base + 13 + c] = parts[c] / 30.0
        breakdown_c(g, s, p, doomed, parts)
        for c in range(3):
            out[base + 16 + c] = parts[c] / 30.0
    for k in range(n):
        p = (seat + k) % n
        base = VE_GLOBAL_FEATURES + k * VE_SEAT_FEATURES
        best_now = best_later = -1000000
        for q in range(n):
            if q != p:
                best_now = now[q] if now[q] > best_now else best_now
                best_later = later[q] if later[q] > best_later else best_later
        out[base + 21] = (now[p] - best_now) / 50.0
        out[base + 22] = (later[p] - best_later) / 50.0
