# Burano's encoder (the C game interface's `encode`; burano_ai/games/burano/encoder.py is the readable
# Python form over the position JSON, equal on every state: tests/test_learn.py). A textual include of
# _core.pyx, after the rules functions (it reads the derived fields and the small derived quantities).
# It reads the world it is given (the search's sampled world, as the playout does), not one seat's view.
#
# Layout (ENCODER_VERSION 1, 70 + 4 * 53 = 282 floats), seats relative to `seat` (k = 0 is `seat`):
#   [0..3]   season (spring, summer, autumn, winter), one-hot
#   [4]      rounds played: (rounds of the seasons before + round - 1) / 14
#   [5..11]  stage (setup, pyramid, rounds, lace scoring, replenish, roof refill, end), one-hot
#   [12]     moves made this turn / 4; [13] a chance event is pending
#   [14..17] relative seat to move, one-hot (zeros at a chance node and at the end)
#   [18..21] the first-player marker's holder, relative, one-hot
#   [22..27] cubes in the supply per colour / 20
#   [28..33] the colour's marker is on fishing; [34..39] on lace (neither: earning)
#   [40..47] face-up fish cards per species / 3; [48] fish deck / 48; [49] building deck / 16
#   [50..59] building display cards per family (data.buildings order) / the family's copies
#   [60..63] roof tiles left per kind (island, workshop, fountains, flat) / 12
#   [64..67] ship (different, identical, pairs, triples) is in the left port (else the right)
#   [68]     cubes on the island / 40; [69] roofs laid / 20
#   then per relative seat k < 4 (zeros past the player count), 53 floats:
#     +0 VP / 100, +1 coins / 20, +2 privilege / 10,
#     +3 the §10 end bonus as it would stand now ((coins + privilege) // 5, fish cards in hand, building
#        cards' end VP; 0 once the game is over, when it is in the VP) / 30, +4 (VP + that bonus) / 100
#     the hand as the ships read it (§6.2): +5 fish cards / 10, +6 species held / 4,
#        +7 the most cards of one species / 4, +8 species held twice or more / 3, +9 three times or more / 2
#     +10 sold fish of group A / 8, +11 of group B / 8 [RD-10]
#     +12..17 pyramid cubes per colour / 5, +18 free pyramid cubes (takeable) / 9
#     +19..24 preparation-area cubes per colour / 3, +25 reserve cubes / 20
#     +26..29 roof tiles in slots per kind / 3
#     +30 roof colour bonus cards / 3, +31 roof wildcards / 3, +32 Long voyage, +33 Lace bumping,
#        +34 Island ties (the other cards only score at the end: in +3)
#     +35 ring workers / 13, +36 workers on islands / 6, +37 workers in the workshop area / 6
#     +38 islands it has the majority on (a roof's island score) / 6, +39 workshop tiles likewise / 6
#     +40 visible fountains / 6, +41 visible coin symbols / 6
#     +42..47 arrows per colour (fishing matches, lace colours) / 3
#     +48 the best matches on an island one sail away / 3, +49 a port one sail away holds a ship,
#        +50 the best matches on any island / 3
#     +51 the clean-up island-majority VP as the islands stand now / 12
#     +52 the lace-scoring VP if every workshop worker were paid (2 each and the union bonus) / 30

cdef enum:
    BU_ENCODER_VERSION = 1
    BU_GLOBAL_FEATURES = 70
    BU_SEAT_FEATURES = 53
    BU_NUM_FEATURES = BU_GLOBAL_FEATURES + MAX_PLAYERS * BU_SEAT_FEATURES
    BU_SPECIES_A = 4                  # species 0..3 are group A, 4..7 group B [RD-10]


cdef int bu_num_features(const void* game) noexcept nogil:
    return BU_NUM_FEATURES


cdef inline int bu_end_bonus(const GameC* g, const StateC* s, int p) noexcept nogil:
    """The VP `final_scoring` would add to seat `p` now (0 once it has: the game is over)."""
    cdef const PlayerC* pl = &s.players[p]
    cdef int sp, card, fam, cnt, total
    cdef uint16_t cards = pl.buildings
    cdef uint32_t bits
    if s.stage == ST_END:
        return 0
    total = (pl.coins + pl.privilege) // T.coins_per_vp
    for sp in range(NUM_SPECIES):
        total += T.hand_card_vp * (pl.hand_known[sp] + pl.hand_blind[sp])
    while cards:
        card = BURANO_CTZ(cards)
        cards &= cards - 1
        fam = T.card_family[card]
        if fam == BF_SOLD_FISH:
            cnt = 0
            for sp in range(NUM_SPECIES):
                if (T.card_arg_mask[card] >> sp) & 1:
                    cnt += pl.sold[sp]
            total += T.sold_fish_vp_per_card * cnt
        elif fam == BF_LACE_COLOURS:
            cnt = 0
            bits = pl.workshop_mask
            while bits:
                if (T.card_arg_mask[card] >> g.sq_colour[BURANO_CTZ(bits)]) & 1:
                    cnt += 1
                bits &= bits - 1
            total += T.lace_colours_vp_per_worker * cnt
        elif fam == BF_LACE_DISCOUNT:
            total += T.lace_discount_end_vp
        elif fam == BF_COLLECTOR:
            total += T.collector_vp_per_card * pl.num_buildings
        elif fam == BF_MONUMENT:
            total += T.monument_vp
    return total


cdef inline void bu_island_vp(const StateC* s, int* vp) noexcept nogil:
    """Each seat's clean-up island-majority VP (`score_island_majority`) as the islands stand now."""
    cdef int each = T.island_majority_vp[s.num_players], i, p, best, ntied, holder
    for p in range(s.num_players):
        vp[p] = 0
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
            vp[holder] += each
        else:
            for p in range(s.num_players):
                if s.island_workers[i][p] == best:
                    vp[p] += each // ntied


cdef void bu_encode(const void* game, const void* state, int seat, float* out) noexcept nogil:
    cdef const GameC* g = <const GameC*>game
    cdef const StateC* s = <const StateC*>state
    cdef const PlayerC* pl
    cdef int island_vp[MAX_PLAYERS]
    cdef int colours[NUM_COLOURS]
    cdef int arr[3]
    cdef int n = s.num_players, k, p, c, j, h, d, node, base, cnt, bonus, workers, mover, longv
    cdef int held, most, twice, thrice, near, port, best
    for k in range(BU_NUM_FEATURES):
        out[k] = 0.0
    if 0 <= s.season < 4:
        out[s.season] = 1.0
    cnt = 0
    for j in range(s.season):
        cnt += T.season_rounds[j]
    out[4] = (cnt + s.round - 1) / 14.0
    if 0 <= s.stage <= ST_END:
        out[5 + s.stage] = 1.0
    out[12] = s.moves / 4.0
    out[13] = 1.0 if s.phase == PH_CHANCE_NODE else 0.0
    mover = current_player_c(s)
    if mover >= 0:
        out[14 + (mover - seat + n) % n] = 1.0
    if s.first_player >= 0:
        out[18 + (s.first_player - seat + n) % n] = 1.0
    for c in range(NUM_COLOURS):
        out[22 + c] = s.supply[c] / 20.0
        if s.markers[c] == ACT_FISHING:
            out[28 + c] = 1.0
        elif s.markers[c] == ACT_LACE:
            out[34 + c] = 1.0
    for j in range(NUM_SPECIES):
        out[40 + j] = s.fish_display[j] / 3.0
    out[48] = s.fish_deck_total / 48.0
    out[49] = BURANO_POPCOUNT(s.building_deck) / 16.0
    for j in range(NUM_CARD_FAMILIES):
        out[50 + j] = (<double>BURANO_POPCOUNT(s.building_display & T.family_cards[j])
                       / BURANO_POPCOUNT(T.family_cards[j]))
    for j in range(NUM_ROOF_KINDS):
        out[60 + j] = BURANO_POPCOUNT(s.roof_stack[j]) / 12.0
    for j in range(NUM_SHIPS):
        out[64 + j] = 1.0 if (s.ports[0] >> j) & 1 else 0.0
    cnt = 0
    for h in range(NUM_HOLES):
        cnt += s.height[h]
    out[68] = cnt / 40.0
    out[69] = s.num_roofs / 20.0
    bu_island_vp(s, island_vp)
    for k in range(n):
        p = (seat + k) % n
        pl = &s.players[p]
        base = BU_GLOBAL_FEATURES + k * BU_SEAT_FEATURES
        bonus = bu_end_bonus(g, s, p)
        out[base] = pl.vp / 100.0
        out[base + 1] = pl.coins / 20.0
        out[base + 2] = pl.privilege / 10.0
        out[base + 3] = bonus / 30.0
        out[base + 4] = (pl.vp + bonus) / 100.0
        cnt = held = most = twice = thrice = 0
        for j in range(NUM_SPECIES):
            c = pl.hand_known[j] + pl.hand_blind[j]
            cnt += c
            held += c >= 1
            twice += c >= 2
            thrice += c >= 3
            if c > most:
                most = c
        out[base + 5] = cnt / 10.0
        out[base + 6] = held / 4.0
        out[base + 7] = most / 4.0
        out[base + 8] = twice / 3.0
        out[base + 9] = thrice / 2.0
        cnt = 0
        for j in range(NUM_SPECIES):
            if j < BU_SPECIES_A:
                cnt += pl.sold[j]
        out[base + 10] = cnt / 8.0
        cnt = 0
        for j in range(BU_SPECIES_A, NUM_SPECIES):
            cnt += pl.sold[j]
        out[base + 11] = cnt / 8.0
        cnt = 0
        for c in range(NUM_COLOURS):
            colours[c] = 0
        for j in range(PYRAMID_SIZE):
            c = pl.pyramid[j]
            if c >= 0:
                colours[c] += 1
                if is_free(pl, j):
                    cnt += 1
        out[base + 18] = cnt / 9.0
        cnt = 0
        for c in range(NUM_COLOURS):
            out[base + 12 + c] = colours[c] / 5.0
            out[base + 19 + c] = pl.prep[c] / 3.0
            cnt += pl.reserve[c]
        out[base + 25] = cnt / 20.0
        for j in range(NUM_ROOF_SLOTS):
            if pl.roof_slots[j] >= 0:
                out[base + 26 + pl.roof_slots[j] // NUM_ROOF_PAIRS] += 1.0 / 3.0
        out[base + 30] = BURANO_POPCOUNT(pl.buildings & T.family_cards[BF_ROOF_BONUS]) / 3.0
        out[base + 31] = BURANO_POPCOUNT(pl.buildings & T.family_cards[BF_ROOF_WILDCARD]) / 3.0
        out[base + 32] = 1.0 if has_family(s, p, BF_LONG_VOYAGE) else 0.0
        out[base + 33] = 1.0 if has_family(s, p, BF_LACE_BUMPING) else 0.0
        out[base + 34] = 1.0 if has_family(s, p, BF_ISLAND_TIES) else 0.0
        workers = BURANO_POPCOUNT(pl.workshop_mask)
        out[base + 35] = pl.ring_workers / 13.0
        out[base + 36] = pl.island_total / 6.0
        out[base + 37] = workers / 6.0
        out[base + 38] = island_majorities(s, p) / 6.0
        out[base + 39] = workshop_majorities(g, s, p) / 6.0
        out[base + 40] = visible_symbols(pl, SYM_FOUNTAIN) / 6.0
        out[base + 41] = visible_symbols(pl, SYM_COIN) / 6.0
        arrows(pl, arr)
        for j in range(3):
            out[base + 42 + arr[j]] += 1.0 / 3.0
        near = port = best = 0
        if 0 <= pl.boat < NUM_ROUTE_NODES:
            longv = 1 if has_family(s, p, BF_LONG_VOYAGE) else 0
            for d in range(T.dest_n[pl.boat][longv]):
                node = T.dest[pl.boat][longv][d]
                if T.node_island[node] >= 0:
                    c = dock_matches(s.docks[T.node_island[node]], arr)
                    if c > near:
                        near = c
                elif s.ports[T.node_port[node]] != 0:
                    port = 1
        for j in range(NUM_ISLANDS):
            c = dock_matches(s.docks[j], arr)
            if c > best:
                best = c
        out[base + 48] = near / 3.0
        out[base + 49] = port
        out[base + 50] = best / 3.0
        out[base + 51] = island_vp[p] / 12.0
        out[base + 52] = (T.lace_paid_vp * workers + union_bonus(g, pl.workshop_mask)) / 30.0
