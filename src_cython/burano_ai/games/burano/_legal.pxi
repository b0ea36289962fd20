# Legal actions: the sorted legal action ids of a decision node (the reference's legal_actions).
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Legal actions
# ================================================================================================

cdef int legal_roofs(const StateC* s, int p, int* out, int n) noexcept nogil:
    """Roof placements (§7), in id order: slot, line, orientation."""
    cdef const PlayerC* pl = &s.players[p]
    cdef uint32_t wild = 0
    cdef uint16_t cards = pl.buildings & T.family_cards[BF_ROOF_WILDCARD]
    # on_a[c] / on_b[c]: the open lines whose cube at end a / end b has colour c
    cdef uint64_t on_a[NUM_COLOURS]
    cdef uint64_t on_b[NUM_COLOURS]
    cdef uint64_t lines_open = s.open_lines, all_open = s.open_lines, bit, fits0, fits1, either
    cdef int line, a, b, level, slot, tile, f0, f1, i
    if lines_open == 0:
        return n
    if pl.roof_slots[0] < 0 and pl.roof_slots[1] < 0 and pl.roof_slots[2] < 0:
        return n          # no roof tile to place
    while cards:
        i = BURANO_CTZ(cards)
        cards &= cards - 1
        wild |= T.card_arg_mask[i]
    for i in range(NUM_COLOURS):
        on_a[i] = 0
        on_b[i] = 0
    while lines_open:     # the derived set of lines a tile may lie on (line_open)
        line = BURANO_CTZ64(lines_open)
        lines_open &= lines_open - 1
        bit = (<uint64_t>1) << line
        a = T.line_a[line]
        b = T.line_b[line]
        level = s.height[a]
        on_a[s.cubes[level - 1][a]] |= bit
        on_b[s.cubes[level - 1][b]] |= bit
    for slot in range(NUM_ROOF_SLOTS):
        tile = pl.roof_slots[slot]
        if tile < 0:
            continue
        f0 = T.roof_pair[tile % NUM_ROOF_PAIRS][0]
        f1 = T.roof_pair[tile % NUM_ROOF_PAIRS][1]
        # orientation 0 lays field f0 over end a and f1 over end b; 1 the other way round; a wildcard
        # colour matches any cube
        fits0 = (all_open if (wild >> f0) & 1 else on_a[f0]) & (all_open if (wild >> f1) & 1 else on_b[f1])
        fits1 = (all_open if (wild >> f1) & 1 else on_a[f1]) & (all_open if (wild >> f0) & 1 else on_b[f0])
        either = fits0 | fits1
        while either:
            line = BURANO_CTZ64(either)
            bit = (<uint64_t>1) << line
            either &= either - 1
            if fits0 & bit:
                out[n] = A_ROOF + (slot * NUM_ROOF_LINES + line) * 2
                n += 1
            if fits1 & bit:
                out[n] = A_ROOF + (slot * NUM_ROOF_LINES + line) * 2 + 1
                n += 1
    return n


cdef inline bint can_lace(const GameC* g, const StateC* s, int p, int sq, bint with_privilege) noexcept nogil:
    """May `p` place a lace worker on `sq` now (§5.2)?"""
    cdef int colour = g.sq_colour[sq], occ
    cdef uint32_t mine
    if colour < 0 or s.lace_allow[colour] == 0 or s.players[p].ring_workers <= 1:
        return False
    occ = s.workshop[sq]
    if occ == p:
        return False
    if with_privilege:
        return True
    if occ >= 0 and not has_family(s, p, BF_LACE_BUMPING):
        return False
    mine = s.players[p].workshop_mask
    return mine == 0 or (g.sq_neighbours[sq] & mine) != 0


cdef int legal_actions_c(const GameC* g, const StateC* s, int* out) noexcept nogil:
    """Write the sorted legal action ids of the actor to `out`; return their number (0 at chance/end)."""
    cdef int phase = s.phase, p = s.actor, n = 0, pos, c, h, i, j, k, sq, node, sale, ship
    cdef const PlayerC* pl
    cdef int holes[NUM_HOLES]
    cdef int nh
    cdef int opts[4]
    cdef uint32_t bits, plain, covered
    cdef uint64_t buildable
    cdef uint32_t have[5]
    cdef bint long_voyage, swap_free
    if phase == PH_CHANCE_NODE or phase == PH_GAME_OVER:
        return 0
    pl = &s.players[p]
    if phase == PH_TURN:
        out[n] = A_DONE
        n += 1
        if s.moves < T.max_moves and pl.coins + T.move_costs[s.moves] >= 0:
            if pl.prep_total < T.prep_slots:
                # is_free for every position at once: a base cell is covered by a placed middle cube
                # resting on it, a middle cell by the top cube
                covered = 0
                for i in range(4):
                    if pl.pyramid[9 + i] >= 0:
                        covered |= T.middle_cover[i]
                if pl.pyramid[13] >= 0:
                    covered |= 0xF << 9
                for pos in range(PYRAMID_SIZE):
                    if pl.pyramid[pos] >= 0 and not (covered >> pos) & 1:
                        out[n] = A_TAKE + pos
                        n += 1
            if pl.prep_total > 0:
                nh = 0
                buildable = s.buildable     # the derived set of holes with build_level > 0
                while buildable:
                    holes[nh] = BURANO_CTZ64(buildable)
                    buildable &= buildable - 1
                    nh += 1
                for c in range(NUM_COLOURS):
                    if pl.prep[c] > 0:
                        for i in range(nh):
                            out[n] = A_BUILD + c * NUM_HOLES + holes[i]
                            n += 1
            n = legal_roofs(s, p, out, n)
        if pl.privilege > 0:
            out[n] = A_PRIV_COIN
            n += 1
            nh = 0
            for pos in range(PYRAMID_SIZE):
                if pl.pyramid[pos] < 0 and is_supported(pl, pos):
                    holes[nh] = pos      # reused: the empty supported pyramid positions
                    nh += 1
            if nh:
                for c in range(NUM_COLOURS):
                    if s.supply[c] > 0:
                        for i in range(nh):
                            out[n] = A_PRIV_CUBE + c * PYRAMID_SIZE + holes[i]
                            n += 1
    elif phase == PH_PYRAMID:
        for c in range(NUM_COLOURS):
            if pl.reserve[c] > 0:
                out[n] = A_PYRAMID + c
                n += 1
    elif phase == PH_FISH_SAIL:
        long_voyage = has_family(s, p, BF_LONG_VOYAGE)
        swap_free = False
        out[n] = A_DONE   # kept only if no trip is swap-free (A_DONE sorts first)
        n += 1
        for i in range(T.dest_n[pl.boat][long_voyage]):
            node = T.dest[pl.boat][long_voyage][i]
            if can_sail(s, p, node):
                out[n] = A_SAIL + node
                n += 1
                if T.node_island[node] < 0 or matches(s, p, T.node_island[node]) >= 1:
                    swap_free = True
        if swap_free:
            # [RD-5, RD-26]: `done` (skip the action) only when every legal trip needs a swap: spending
            # privilege is optional ("вы можете потратить", RU p. 19), a swap-free trip is not
            n -= 1
            for i in range(n):
                out[i] = out[i + 1]
    elif phase == PH_FISH_SWAP:
        node = s.sail_target
        if node < 0 or node >= NUM_ROUTE_NODES or T.node_island[node] < 0:
            return 0          # a malformed position (notation rejects it): no move, no stray read
        i = T.node_island[node]
        if s.swap_pick < 0:
            if matches(s, p, i) >= 1:
                out[n] = A_GO
                n += 1
            n += swap_picks(s, p, i, out + n, A_SWAP_PICK)
        else:
            n = swap_partners(s, p, i, s.swap_pick, out, A_SWAP_WITH)
    elif phase == PH_FISH_DRAW:
        if s.fish_deck_total > 0:
            out[n] = A_DRAW_DECK
            n += 1
        for i in range(NUM_SPECIES):
            if s.fish_display[i] > 0:
                out[n] = A_DRAW_DISPLAY + i
                n += 1
    elif phase == PH_FISH_SEND:
        out[0] = A_SEND
        out[1] = A_SEND + 1
        n = 2
    elif phase == PH_PORT_TRADE:
        out[n] = A_DONE
        n += 1
        bits = s.ports[T.node_port[pl.boat]]
        have[0] = 0xFF
        for k in range(1, 5):
            have[k] = 0
            for i in range(NUM_SPECIES):
                if pl.hand_known[i] + pl.hand_blind[i] >= k:
                    have[k] |= 1u << i
        for sale in range(NUM_SALES):
            if (bits >> T.sale_ship[sale]) & 1 and (T.sale_mask[sale] & ~have[T.sale_need[sale]]) == 0:
                out[n] = A_SELL + sale
                n += 1
    elif phase == PH_LACE_PLACE:
        out[n] = A_DONE
        n += 1
        plain = 0
        for sq in range(NUM_SQUARES):
            if can_lace(g, s, p, sq, False):
                plain |= 1u << sq
                out[n] = A_LACE + sq
                n += 1
        if pl.privilege > 0:
            for sq in range(NUM_SQUARES):
                if not (plain >> sq) & 1 and can_lace(g, s, p, sq, True):
                    out[n] = A_LACE_PRIV + sq
                    n += 1
    elif phase == PH_RECALL:
        out[n] = A_DONE
        n += 1
        for i in range(NUM_ISLANDS):
            if s.island_workers[i][p] > 0:
                out[n] = A_RECALL_ISLAND + i
                n += 1
        bits = pl.workshop_mask
        while bits:
            out[n] = A_RECALL_SQUARE + BURANO_CTZ(bits)
            n += 1
            bits &= bits - 1
    elif phase == PH_ROOF_BONUS:
        out[n] = A_BONUS_PRIVILEGE
        n += 1
        bits = s.building_display
        while bits:
            out[n] = A_BONUS_DISPLAY + BURANO_CTZ(bits)
            n += 1
            bits &= bits - 1
        if s.building_deck:
            out[n] = A_BONUS_DECK
            n += 1
    elif phase == PH_LACE_PAY:
        k = pay_options(g, s, p, lowest_square(s.pay_queue), opts)
        for i in range(k):
            out[n] = A_PAY + opts[i]
            n += 1
    elif phase == PH_REPLENISH:
        for c in range(NUM_COLOURS):
            if s.supply[c] > 0:
                out[n] = A_REPLENISH + c
                n += 1
    elif phase == PH_PRIV_RESERVE:
        out[n] = A_DONE
        n += 1
        for c in range(NUM_COLOURS):
            if s.supply[c] > 0:
                out[n] = A_PRIV_RESERVE + c
                n += 1
    elif phase == PH_ROOF_DISCARD:
        out[n] = A_DONE
        n += 1
        for i in range(NUM_ROOF_SLOTS):
            if pl.roof_slots[i] >= 0:
                out[n] = A_ROOF_DISCARD + i
                n += 1
    elif phase == PH_ROOF_PICK:
        k = kinds_mask(s)
        for i in range(NUM_ROOF_KINDS):
            if not (k >> i) & 1 and s.roof_stack[i]:
                out[n] = A_ROOF_KIND + i
                n += 1
    return n
