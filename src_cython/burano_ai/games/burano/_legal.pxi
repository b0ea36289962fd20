# Legal actions: the sorted legal action ids of a decision node (the reference's legal_actions).
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Legal actions
# ================================================================================================

cdef int roof_fits(const StateC* s, int p, uint64_t fits[NUM_ROOF_SLOTS][2], int* counts) noexcept nogil:
    """The roof placements of `p` (§7): per slot, the lines its tile fits in orientation 0 and 1.

    Writes `fits[slot][orientation]` (0 for an empty slot) and `counts[slot]` (placements of the slot);
    returns their total.
    """
    cdef const PlayerC* pl = &s.players[p]
    cdef uint32_t wild = 0
    cdef uint16_t cards = pl.buildings & T.family_cards[BF_ROOF_WILDCARD]
    # open_end_a[c] / open_end_b[c] (derived): the open lines whose cube at end a / end b has colour c
    cdef const uint64_t* on_a = s.open_end_a
    cdef const uint64_t* on_b = s.open_end_b
    cdef uint64_t all_open = s.open_lines
    cdef int slot, tile, f0, f1, i, total = 0
    for slot in range(NUM_ROOF_SLOTS):
        fits[slot][0] = 0
        fits[slot][1] = 0
        counts[slot] = 0
    if all_open == 0:
        return 0
    if pl.roof_slots[0] < 0 and pl.roof_slots[1] < 0 and pl.roof_slots[2] < 0:
        return 0          # no roof tile to place
    while cards:
        i = BURANO_CTZ(cards)
        cards &= cards - 1
        wild |= T.card_arg_mask[i]
    for slot in range(NUM_ROOF_SLOTS):
        tile = pl.roof_slots[slot]
        if tile < 0:
            continue
        f0 = T.roof_pair[tile % NUM_ROOF_PAIRS][0]
        f1 = T.roof_pair[tile % NUM_ROOF_PAIRS][1]
        # orientation 0 lays field f0 over end a and f1 over end b; 1 the other way round; a wildcard
        # colour matches any cube
        fits[slot][0] = (all_open if (wild >> f0) & 1 else on_a[f0]) & (all_open if (wild >> f1) & 1 else on_b[f1])
        fits[slot][1] = (all_open if (wild >> f1) & 1 else on_a[f1]) & (all_open if (wild >> f0) & 1 else on_b[f0])
        counts[slot] = BURANO_POPCOUNT64(fits[slot][0]) + BURANO_POPCOUNT64(fits[slot][1])
        total += counts[slot]
    return total


cdef struct TurnFamiliesC:
    # The legal actions of a turn's main decision (PH_TURN) as families, in legal_actions_c's order:
    # A_DONE, the takes, the builds (colour-major, then hole), the roofs (slot, line, orientation),
    # A_PRIV_COIN, the privilege cubes (colour-major, then position). The random playout draws the
    # k-th of them by arithmetic (turn_action_at) instead of writing the list.
    uint32_t takes                  # pyramid positions a take may empty
    uint32_t build_colours          # colours in the preparation area (0 unless a build is legal)
    uint64_t build_holes            # holes a cube may be built in (the derived `buildable`)
    int holes_n                     # holes in build_holes
    uint64_t roof_fits[NUM_ROOF_SLOTS][2]   # per slot and orientation: the lines its tile fits
    int roofs_n[NUM_ROOF_SLOTS]     # roof placements per slot
    bint priv                       # privilege to spend: A_PRIV_COIN is legal
    uint32_t cube_colours           # colours in the supply (0 unless a privilege cube is legal)
    uint32_t cube_positions         # empty supported pyramid positions (0 unless priv)
    int n                           # the number of legal actions


cdef int turn_families(const StateC* s, TurnFamiliesC* f) noexcept nogil:
    """Fill `f` with the actor's legal actions of a PH_TURN decision; return their number."""
    cdef const PlayerC* pl = &s.players[s.actor]
    cdef int n = 1, i, c
    cdef uint32_t covered, present, supported
    f.takes = 0
    f.build_colours = 0
    f.build_holes = 0
    f.holes_n = 0
    f.priv = False
    f.cube_colours = 0
    f.cube_positions = 0
    if s.moves < T.max_moves and pl.coins + T.move_costs[s.moves] >= 0:
        if pl.prep_total < T.prep_slots:
            # is_free for every position at once: a base cell is covered by a placed middle cube
            # resting on it, a middle cell by the top cube
            present = pl.pyramid_mask
            covered = 0
            for i in range(4):
                if (present >> (9 + i)) & 1:
                    covered |= T.middle_cover[i]
            if (present >> 13) & 1:
                covered |= 0xF << 9
            f.takes = present & ~covered
            n += BURANO_POPCOUNT(f.takes)
        if pl.prep_total > 0 and s.buildable:
            for c in range(NUM_COLOURS):
                if pl.prep[c] > 0:
                    f.build_colours |= 1u << c
            f.build_holes = s.buildable     # the derived set of holes with build_level > 0
            f.holes_n = BURANO_POPCOUNT64(s.buildable)
            n += BURANO_POPCOUNT(f.build_colours) * f.holes_n
        n += roof_fits(s, s.actor, f.roof_fits, f.roofs_n)
    else:
        for i in range(NUM_ROOF_SLOTS):
            f.roof_fits[i][0] = 0
            f.roof_fits[i][1] = 0
            f.roofs_n[i] = 0
    if pl.privilege > 0:
        f.priv = True
        n += 1
        # is_supported for every position at once: a base cell always, a middle cell on its four
        # base cells, the top on the four middle cells
        present = pl.pyramid_mask
        supported = 0x1FF
        for i in range(4):
            if (present & T.middle_cover[i]) == T.middle_cover[i]:
                supported |= 1u << (9 + i)
        if ((present >> 9) & 0xF) == 0xF:
            supported |= 1u << 13
        f.cube_positions = supported & ~present
        if f.cube_positions:
            for c in range(NUM_COLOURS):
                if s.supply[c] > 0:
                    f.cube_colours |= 1u << c
            n += BURANO_POPCOUNT(f.cube_colours) * BURANO_POPCOUNT(f.cube_positions)
    f.n = n
    return n


cdef inline int nth_bit(uint32_t bits, int k) noexcept nogil:
    """Index of the k-th (0-based) set bit of `bits` (which has more than k)."""
    while k > 0:
        bits &= bits - 1
        k -= 1
    return BURANO_CTZ(bits)


cdef inline int nth_bit64(uint64_t bits, int k) noexcept nogil:
    """Index of the k-th (0-based) set bit of `bits` (which has more than k)."""
    while k > 0:
        bits &= bits - 1
        k -= 1
    return BURANO_CTZ64(bits)


cdef int turn_action_at(const TurnFamiliesC* f, int k) noexcept nogil:
    """The k-th (0-based) legal action of the turn decision `f` describes, 0 <= k < f.n: what
    legal_actions_c writes at out[k], found without writing the list."""
    cdef int m, slot, line, both
    cdef uint64_t either, bit
    if k == 0:
        return A_DONE
    k -= 1
    m = BURANO_POPCOUNT(f.takes)
    if k < m:
        return A_TAKE + nth_bit(f.takes, k)
    k -= m
    m = BURANO_POPCOUNT(f.build_colours) * f.holes_n
    if k < m:
        return A_BUILD + nth_bit(f.build_colours, k // f.holes_n) * NUM_HOLES + nth_bit64(f.build_holes, k % f.holes_n)
    k -= m
    for slot in range(NUM_ROOF_SLOTS):
        if k < f.roofs_n[slot]:
            # lines ascending, orientation 0 before 1 on a line that takes the tile both ways
            either = f.roof_fits[slot][0] | f.roof_fits[slot][1]
            while True:
                line = BURANO_CTZ64(either)
                bit = (<uint64_t>1) << line
                either &= either - 1
                both = (f.roof_fits[slot][0] & bit) != 0 and (f.roof_fits[slot][1] & bit) != 0
                if k <= both:
                    return A_ROOF + (slot * NUM_ROOF_LINES + line) * 2 + (k if f.roof_fits[slot][0] & bit else 1)
                k -= 1 + both
        k -= f.roofs_n[slot]
    if k == 0:
        return A_PRIV_COIN
    k -= 1
    m = BURANO_POPCOUNT(f.cube_positions)
    return A_PRIV_CUBE + nth_bit(f.cube_colours, k // m) * PYRAMID_SIZE + nth_bit(f.cube_positions, k % m)


cdef int write_turn_actions(const TurnFamiliesC* f, int* out) noexcept nogil:
    """Write the legal actions `f` describes, in id order; return their number."""
    cdef int n = 0, slot, line
    cdef uint32_t colours, bits
    cdef uint64_t holes, either, bit
    out[n] = A_DONE
    n += 1
    bits = f.takes
    while bits:
        out[n] = A_TAKE + BURANO_CTZ(bits)
        n += 1
        bits &= bits - 1
    colours = f.build_colours
    while colours:
        holes = f.build_holes
        while holes:
            out[n] = A_BUILD + BURANO_CTZ(colours) * NUM_HOLES + BURANO_CTZ64(holes)
            n += 1
            holes &= holes - 1
        colours &= colours - 1
    for slot in range(NUM_ROOF_SLOTS):
        either = f.roof_fits[slot][0] | f.roof_fits[slot][1]
        while either:
            line = BURANO_CTZ64(either)
            bit = (<uint64_t>1) << line
            either &= either - 1
            if f.roof_fits[slot][0] & bit:
                out[n] = A_ROOF + (slot * NUM_ROOF_LINES + line) * 2
                n += 1
            if f.roof_fits[slot][1] & bit:
                out[n] = A_ROOF + (slot * NUM_ROOF_LINES + line) * 2 + 1
                n += 1
    if f.priv:
        out[n] = A_PRIV_COIN
        n += 1
        colours = f.cube_colours
        while colours:
            bits = f.cube_positions
            while bits:
                out[n] = A_PRIV_CUBE + BURANO_CTZ(colours) * PYRAMID_SIZE + BURANO_CTZ(bits)
                n += 1
                bits &= bits - 1
            colours &= colours - 1
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
    cdef int phase = s.phase, p = s.actor, n = 0, c, i, k, sq, node, sale
    cdef const PlayerC* pl
    cdef int opts[4]
    cdef uint32_t bits, plain
    cdef uint32_t have[5]
    cdef bint long_voyage, swap_free
    cdef TurnFamiliesC turn
    if phase == PH_CHANCE_NODE or phase == PH_GAME_OVER:
        return 0
    pl = &s.players[p]
    if phase == PH_TURN:
        turn_families(s, &turn)
        return write_turn_actions(&turn, out)
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
        sale = 0
        while sale < NUM_SALES:
            if not (bits >> T.sale_ship[sale]) & 1:
                sale = T.ship_sales_end[T.sale_ship[sale]]     # skip the sales of a ship not in this port
                continue
            if (T.sale_mask[sale] & ~have[T.sale_need[sale]]) == 0:
                out[n] = A_SELL + sale
                n += 1
            sale += 1
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
