# Derived values: small quantities the rules read (arrows, free pyramid positions, matches,
# majorities, pay options) and `recompute_derived`, which sets every derived field of a loaded state.
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Small derived quantities (reference: "Small derived quantities")
# ================================================================================================

cdef inline bint has_family(const StateC* s, int p, int fam) noexcept nogil:
    return (s.players[p].buildings & T.family_cards[fam]) != 0


cdef inline int house_index(const PlayerC* pl, int sector) noexcept nogil:
    # (ring_offset + sector - 1) % NUM_HOUSES for ring_offset 0..11 (notation checks it) and sector 1..12
    cdef int h = pl.ring_offset + sector - 1
    return h - NUM_HOUSES if h >= NUM_HOUSES else h


cdef inline void arrows(const PlayerC* pl, int* out) noexcept nogil:
    """Colours under the arrows: sectors 10, 11, 12 [RD-4]."""
    out[0] = pl.house_colour[house_index(pl, 10)]
    out[1] = pl.house_colour[house_index(pl, 11)]
    out[2] = pl.house_colour[house_index(pl, 12)]


cdef inline int visible_symbols(const PlayerC* pl, int symbol) noexcept nogil:
    cdef int sector, count = 0
    for sector in range(pl.ring_workers + 1, NUM_HOUSES + 1):
        if pl.house_symbol[house_index(pl, sector)] == symbol:
            count += 1
    return count


cdef inline bint is_free(const PlayerC* pl, int pos) noexcept nogil:
    """No cube rests on pyramid position `pos` (which holds a cube)."""
    cdef int m
    if pl.pyramid[pos] < 0:
        return False
    if pos < 9:
        for m in range(4):
            if pl.pyramid[9 + m] >= 0 and (T.middle_support[m][0] == pos or T.middle_support[m][1] == pos
                                           or T.middle_support[m][2] == pos or T.middle_support[m][3] == pos):
                return False
        return True
    if pos < 13:
        return pl.pyramid[13] < 0
    return True


cdef inline bint is_supported(const PlayerC* pl, int pos) noexcept nogil:
    """A pyramid position can take a cube: a base cell, or all the cells below it filled [RD-18]."""
    cdef int j
    if pos < 9:
        return True
    if pos < 13:
        for j in range(4):
            if pl.pyramid[T.middle_support[pos - 9][j]] < 0:
                return False
        return True
    for j in range(4):
        if pl.pyramid[9 + j] < 0:
            return False
    return True


cdef inline int build_level(const StateC* s, int hole) noexcept nogil:
    """Level a new cube in `hole` would take, or 0 (§4.2 build)."""
    cdef int level = s.height[hole] + 1, j
    if level == 1:
        for j in range(T.hole_nbr_n[hole]):
            if s.cubes[0][T.hole_nbr[hole][j]] >= 0:
                return 1
        return 0
    if level <= NUM_LEVELS and s.roof_at[level - 2][hole] >= 0:
        return level
    return 0


cdef inline uint64_t buildable_among(const StateC* s, uint64_t holes) noexcept nogil:
    """The holes of `holes` a cube may be built in now (build_level > 0): the derived `buildable`."""
    cdef uint64_t bits = 0, rest = holes
    cdef int hole
    while rest:
        hole = BURANO_CTZ64(rest)
        rest &= rest - 1
        if build_level(s, hole):
            bits |= (<uint64_t>1) << hole
    return bits


cdef inline bint line_open(const StateC* s, int line) noexcept nogil:
    """May a roof tile lie on `line` now: both cubes at the same roofable level, uncovered, midpoint free (§7)?"""
    cdef int a = T.line_a[line], b = T.line_b[line], level = s.height[a], mid
    if level == 0 or level > NUM_ROOF_LEVELS or s.height[b] != level:
        return False
    if s.roof_at[level - 1][a] >= 0 or s.roof_at[level - 1][b] >= 0:
        return False
    mid = T.line_mid[line]
    return not (s.mid_used[level - 1][mid >> 6] >> (mid & 63)) & 1


cdef inline uint64_t open_lines_among(const StateC* s, uint64_t lines) noexcept nogil:
    """The lines of `lines` for which line_open holds (after a change that can affect only those)."""
    cdef uint64_t bits = 0, rest = lines
    cdef int line
    while rest:
        line = BURANO_CTZ64(rest)
        rest &= rest - 1
        if line_open(s, line):
            bits |= (<uint64_t>1) << line
    return bits


cdef inline void update_open_lines(StateC* s, uint64_t lines) noexcept nogil:
    """Re-test the roof lines `lines` (every line a change can affect) for the derived `open_lines`
    and its split by the colour of the cube at each end (`open_end_a`, `open_end_b`: what a roof
    tile's fields are matched against, kept here rather than rebuilt at every turn decision)."""
    cdef uint64_t now = open_lines_among(s, lines), keep = ~lines, bit
    cdef int c, line, a, b, level
    s.open_lines = (s.open_lines & keep) | now
    for c in range(NUM_COLOURS):
        s.open_end_a[c] &= keep
        s.open_end_b[c] &= keep
    while now:
        line = BURANO_CTZ64(now)
        now &= now - 1
        bit = (<uint64_t>1) << line
        a = T.line_a[line]
        b = T.line_b[line]
        level = s.height[a]          # an open line: both ends at this level, uncovered
        s.open_end_a[s.cubes[level - 1][a]] |= bit
        s.open_end_b[s.cubes[level - 1][b]] |= bit


cdef inline int dock_matches(const int8_t* docks, const int* arr) noexcept nogil:
    """Size of the multiset intersection of three arrow colours and an island's three docks [RD-7]."""
    cdef int used[3]
    cdef int i, j, m = 0
    used[0] = used[1] = used[2] = 0
    for i in range(3):
        for j in range(DOCKS_PER_ISLAND):
            if not used[j] and docks[j] == arr[i]:
                used[j] = 1
                m += 1
                break
    return m


cdef inline int matches(const StateC* s, int p, int island) noexcept nogil:
    """Size of the multiset intersection of arrow colours and the island's docks [RD-7]."""
    cdef int arr[3]
    arrows(&s.players[p], arr)
    return dock_matches(s.docks[island], arr)


cdef inline bint trip_possible(const int8_t* docks, const int* arr, int island, int privilege) noexcept nogil:
    """Can a trip to `island` be completed: m >= 1 now, or a swap can bring an arrow colour there (§4.3)?

    `docks` is NUM_ISLANDS x DOCKS_PER_ISLAND colours, row-major. With m = 0 no arrow colour lies on the
    island, so swapping any of its docks with an arrow-coloured dock of another island makes m = 1.
    """
    cdef int j, c
    if dock_matches(docks + island * DOCKS_PER_ISLAND, arr) >= 1:
        return True
    if privilege < 1:
        return False
    for j in range(NUM_ISLANDS * DOCKS_PER_ISLAND):
        c = docks[j]
        if j // DOCKS_PER_ISLAND != island and (c == arr[0] or c == arr[1] or c == arr[2]):
            return True
    return False


cdef inline bint can_sail(const StateC* s, int p, int node) noexcept nogil:
    """May the boat sail to `node`: a port with a ship, or an island the trip can match (§5.1, §4.3)."""
    cdef int island = T.node_island[node]
    cdef int arr[3]
    if island >= 0:
        arrows(&s.players[p], arr)
        return trip_possible(&s.docks[0][0], arr, island, s.players[p].privilege)
    return s.ports[T.node_port[node]] != 0


cdef inline bint is_arrow(int colour, const int* arr) noexcept nogil:
    return colour == arr[0] or colour == arr[1] or colour == arr[2]


cdef inline void island_after_swap(const StateC* s, int island, int pick, int partner, int8_t* out) noexcept nogil:
    """The three docks of `island` after the dock `pick` swaps with the dock `partner` (each
    island * NUM_COLOURS + colour; the partner on a later island): the island's docks, with the first
    dock of the pick's colour given the partner's colour if the pick lies there, or the first dock of
    the partner's colour given the pick's colour if the partner lies there. Not re-sorted (matches
    count a multiset)."""
    cdef int a, find = -1, put = 0
    out[0] = s.docks[island][0]
    out[1] = s.docks[island][1]
    out[2] = s.docks[island][2]
    if pick // NUM_COLOURS == island:
        find = pick % NUM_COLOURS
        put = partner % NUM_COLOURS
    elif partner // NUM_COLOURS == island:
        find = partner % NUM_COLOURS
        put = pick % NUM_COLOURS
    for a in range(DOCKS_PER_ISLAND):
        if out[a] == find:
            out[a] = <int8_t>put
            break


cdef int swap_partners(const StateC* s, int p, int island, int pick, int* out, int offset) noexcept nogil:
    """Docks the picked dock may swap with on the way to `island` [RD-37]; return their number.

    Writes `offset` + island * NUM_COLOURS + colour of each to `out`, ascending; with `out` NULL only
    whether there is one (1 or 0: it stops at the first). A partner
    lies on a later island than the pick and has another colour; the swap must leave the trip possible
    with the privilege left after paying for it (the reference's `swap_partners`).

    trip_possible on the swapped docks without copying them: the trip's island after the swap
    (island_after_swap) has a match, or privilege is left and some other island shows an arrow colour;
    a swap changes the docks off the trip's island only by the colours it moves on or off it.
    """
    cdef int pick_island = pick // NUM_COLOURS, pick_colour = pick % NUM_COLOURS, j, k, a, c, prev, n = 0
    cdef int outside = 0, left
    cdef int arr[3]
    cdef int8_t there[DOCKS_PER_ISLAND]
    if pick < 0 or pick >= NUM_ISLANDS * NUM_COLOURS:
        return 0
    for a in range(DOCKS_PER_ISLAND):
        if s.docks[pick_island][a] == pick_colour:
            break
    else:
        return 0              # not a dock (a malformed position): no partner
    arrows(&s.players[p], arr)
    if s.players[p].privilege - 1 >= 1:
        for j in range(NUM_ISLANDS):
            if j != island:
                for k in range(DOCKS_PER_ISLAND):
                    outside += is_arrow(s.docks[j][k], arr)
    for j in range(pick_island + 1, NUM_ISLANDS):
        prev = -1
        for k in range(DOCKS_PER_ISLAND):
            c = s.docks[j][k]
            if c == prev or c == pick_colour:   # docks are sorted: each colour once
                prev = c
                continue
            prev = c
            island_after_swap(s, island, pick, j * NUM_COLOURS + c, there)
            if dock_matches(there, arr) >= 1:
                left = 1
            elif s.players[p].privilege - 1 < 1:
                left = 0
            elif pick_island == island:      # c leaves island j for the trip's island, pick_colour comes
                left = outside - is_arrow(c, arr) + is_arrow(pick_colour, arr)
            elif j == island:                # pick_colour leaves the pick's island, c comes
                left = outside - is_arrow(pick_colour, arr) + is_arrow(c, arr)
            else:
                left = outside
            if left > 0:
                if out == NULL:
                    return 1
                out[n] = offset + j * NUM_COLOURS + c
                n += 1
    return n


cdef int swap_picks(const StateC* s, int p, int island, int* out, int offset) noexcept nogil:
    """Docks that may start a swap on the way to `island` (those with a partner); as `swap_partners`
    (with `out` NULL: 1 if there is one, else 0)."""
    cdef int i, k, c, prev, n = 0
    for i in range(NUM_ISLANDS):
        prev = -1
        for k in range(DOCKS_PER_ISLAND):
            c = s.docks[i][k]
            if c == prev:
                continue
            prev = c
            if swap_partners(s, p, island, i * NUM_COLOURS + c, NULL, 0) > 0:
                if out == NULL:
                    return 1
                out[n] = offset + i * NUM_COLOURS + c
                n += 1
    return n


cdef inline int workers_off_ring(const StateC* s, int p) noexcept nogil:
    return s.players[p].island_total + BURANO_POPCOUNT(s.players[p].workshop_mask)


cdef inline int supply_total(const StateC* s) noexcept nogil:
    cdef int c, t = 0
    for c in range(NUM_COLOURS):
        t += s.supply[c]
    return t


cdef inline bint pyramid_has(const PlayerC* pl, int colour) noexcept nogil:
    cdef int j
    for j in range(PYRAMID_SIZE):
        if pl.pyramid[j] == colour:
            return True
    return False


cdef int island_majorities(const StateC* s, int p) noexcept nogil:
    """Islands where `p` has strictly the most workers (ties won with the Island ties card)."""
    cdef bint ties = has_family(s, p, BF_ISLAND_TIES)
    cdef int i, q, mine, best_other, count = 0
    for i in range(NUM_ISLANDS):
        mine = s.island_workers[i][p]
        best_other = -1
        for q in range(s.num_players):
            if q != p and s.island_workers[i][q] > best_other:
                best_other = s.island_workers[i][q]
        if mine > 0 and (mine > best_other or (ties and mine == best_other)):
            count += 1
    return count


cdef int workshop_majorities(const GameC* g, const StateC* s, int p) noexcept nogil:
    """Workshop tiles where `p` has strictly the most workers."""
    cdef int t, q, mine, count = 0
    cdef bint best
    for t in range(NUM_TILES):
        mine = BURANO_POPCOUNT(s.players[p].workshop_mask & g.tile_mask[t])
        if mine == 0:
            continue
        best = True
        for q in range(s.num_players):
            if q != p and BURANO_POPCOUNT(s.players[q].workshop_mask & g.tile_mask[t]) >= mine:
                best = False
                break
        if best:
            count += 1
    return count


cdef int union_bonus(const GameC* g, uint32_t squares) noexcept nogil:
    """Union bonus VP of a set of paid squares: flood fill of orthogonally connected groups."""
    cdef uint32_t comp, frontier, grow
    cdef int sq, size, total = 0
    while squares:
        comp = squares & (~squares + 1)
        frontier = comp
        while frontier:
            sq = BURANO_CTZ(frontier)
            frontier &= frontier - 1
            grow = g.sq_neighbours[sq] & squares & ~comp
            comp |= grow
            frontier |= grow
        size = BURANO_POPCOUNT(comp)
        total += T.union_bonus[size if size < MAX_UNION else MAX_UNION - 1]
        squares &= ~comp
    return total


cdef int pay_options(const GameC* g, const StateC* s, int p, int sq, int* out) noexcept nogil:
    cdef const PlayerC* pl = &s.players[p]
    cdef int colour = g.sq_colour[sq], n = 0
    if pyramid_has(pl, colour):
        out[n] = PAY_PYRAMID
        n += 1
    if pl.privilege > 0 and s.supply[colour] > 0:
        out[n] = PAY_PRIVILEGE
        n += 1
    if not s.discount_used and has_family(s, p, BF_LACE_DISCOUNT):
        out[n] = PAY_DISCOUNT
        n += 1
    if n:
        out[n] = PAY_NONE
        n += 1
    return n


cdef inline int lowest_square(uint32_t mask) noexcept nogil:
    return BURANO_CTZ(mask)


# ================================================================================================
# Derived counts
# ================================================================================================

cdef void recompute_derived(const GameC* g, StateC* s) noexcept nogil:
    """Set every derived field from the stored ones (after loading a position)."""
    cdef int lv, h, p, c, j, i, sp, kind
    cdef PlayerC* pl
    memset(s.mid_used, 0, sizeof(s.mid_used))
    for h in range(NUM_HOLES):
        s.height[h] = 0
        for lv in range(NUM_LEVELS):
            if s.cubes[lv][h] >= 0:
                s.height[h] = <int8_t>(lv + 1)
    for i in range(s.num_roofs):
        j = T.line_mid[s.roofs[i].line]
        s.mid_used[s.roofs[i].level - 1][j >> 6] |= (<uint64_t>1) << (j & 63)
    update_open_lines(s, ~(<uint64_t>0))   # NUM_ROOF_LINES == 64: every line
    s.buildable = buildable_among(s, ((<uint64_t>1) << NUM_HOLES) - 1)
    for c in range(NUM_COLOURS):
        s.supply[c] = <int8_t>T.cubes_per_colour
    for lv in range(NUM_LEVELS):
        for h in range(NUM_HOLES):
            if s.cubes[lv][h] >= 0:
                s.supply[s.cubes[lv][h]] -= 1
    for sp in range(NUM_SPECIES):
        s.fish_deck[sp] = <int8_t>(T.cards_per_species - s.fish_display[sp])
    s.building_deck = <uint16_t>((1u << NUM_BUILDINGS) - 1) & ~s.building_display
    for kind in range(NUM_ROOF_KINDS):
        s.roof_stack[kind] = (1u << NUM_ROOF_PAIRS) - 1
    for i in range(s.num_roofs):
        s.roof_stack[s.roofs[i].kind] &= ~(1u << s.roofs[i].pair)
    for i in range(s.num_removed):
        s.roof_stack[s.removed[i] // NUM_ROOF_PAIRS] &= ~(1u << (s.removed[i] % NUM_ROOF_PAIRS))
    for p in range(s.num_players):
        pl = &s.players[p]
        for h in range(NUM_HOUSES):
            pl.house_colour[h] = T.piece_colour[pl.ring_pieces[h // 3]][h % 3]
            pl.house_symbol[h] = T.piece_symbol[pl.ring_pieces[h // 3]][h % 3]
        pl.workshop_mask = 0
        for i in range(NUM_SQUARES):
            if s.workshop[i] == p:
                pl.workshop_mask |= 1u << i
        pl.pyramid_count = 0
        pl.pyramid_mask = 0
        for j in range(PYRAMID_SIZE):
            if pl.pyramid[j] >= 0:
                pl.pyramid_count += 1
                pl.pyramid_mask |= 1u << j
                s.supply[pl.pyramid[j]] -= 1
        pl.prep_total = 0
        for c in range(NUM_COLOURS):
            pl.prep_total += pl.prep[c]
            s.supply[c] -= pl.reserve[c] + pl.prep[c]
        pl.island_total = 0
        for i in range(NUM_ISLANDS):
            pl.island_total += s.island_workers[i][p]
        for sp in range(NUM_SPECIES):
            s.fish_deck[sp] -= pl.hand_known[sp] + pl.hand_blind[sp] + pl.sold[sp]
        s.building_deck &= ~pl.buildings
        for j in range(NUM_ROOF_SLOTS):
            if pl.roof_slots[j] >= 0:
                s.roof_stack[pl.roof_slots[j] // NUM_ROOF_PAIRS] &= ~(1u << (pl.roof_slots[j] % NUM_ROOF_PAIRS))
    s.fish_deck_total = 0
    s.fish_display_total = 0
    for sp in range(NUM_SPECIES):
        s.fish_deck_total += s.fish_deck[sp]
        s.fish_display_total += s.fish_display[sp]
