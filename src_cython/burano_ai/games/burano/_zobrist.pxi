# Zobrist keys and setters: the hashed cells of StateC, the full and information-state keys, and the
# setters through which every change of a hashed field goes (each keeps the key and derived counts).
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Zobrist keys
# ================================================================================================

# Cells: every hashed field of StateC.  A player's fields are ZP_* offsets inside that player's block.
cdef enum:
    CX_SEASON, CX_ROUND, CX_FIRST_PLAYER, CX_STAGE, CX_PHASE, CX_ACTOR, CX_ORDER_INDEX, CX_MOVES,
    CX_CHANCE, CX_FISH_ISLAND, CX_FISH_MATCHES, CX_DRAWS_LEFT, CX_PENDING_ROOF, CX_PAY_QUEUE, CX_PAID,
    CX_DISCOUNT_USED, CX_SHORTFALL, CX_PICKS_LEFT, CX_KINDS_PICKED, CX_PYRAMID_TARGET, CX_SAIL_TARGET,
    CX_SWAP_PICK, CX_LACE_ALLOW,
    CX_SIZE = CX_LACE_ALLOW + NUM_COLOURS

cdef enum:
    ZP_PIECES = 0
    ZP_OFFSET = 1
    ZP_RING = 2
    ZP_PYRAMID = 3
    ZP_RESERVE = ZP_PYRAMID + PYRAMID_SIZE
    ZP_PREP = ZP_RESERVE + NUM_COLOURS
    ZP_COINS = ZP_PREP + NUM_COLOURS
    ZP_VP = ZP_COINS + 1
    ZP_PRIVILEGE = ZP_VP + 1
    ZP_SLOTS = ZP_PRIVILEGE + 1
    ZP_BUILDINGS = ZP_SLOTS + NUM_ROOF_SLOTS
    ZP_KNOWN = ZP_BUILDINGS + 1
    ZP_BLIND = ZP_KNOWN + NUM_SPECIES
    ZP_SOLD = ZP_BLIND + NUM_SPECIES
    ZP_BOAT = ZP_SOLD + NUM_SPECIES
    # Only in information-state keys: what other seats see instead of hidden fields.
    ZP_BLIND_COUNT = ZP_BOAT + 1
    ZP_CUBES = ZP_BLIND_COUNT + 1            # per colour: pyramid + reserve while pyramids are hidden
    ZP_PLACED = ZP_CUBES + NUM_COLOURS
    ZP_SIZE = ZP_PLACED + 1

cdef enum:
    ZC_CUBE = 0                                             # + level * NUM_HOLES + hole
    ZC_ROOF = ZC_CUBE + NUM_LEVELS * NUM_HOLES              # + level * NUM_ROOF_LINES + line: the tile there
    ZC_REMOVED = ZC_ROOF + NUM_ROOF_LEVELS * NUM_ROOF_LINES  # + kind: mask of removed pairs
    ZC_DOCK = ZC_REMOVED + NUM_ROOF_KINDS                   # + island: packed sorted colours
    ZC_PORTS = ZC_DOCK + NUM_ISLANDS
    ZC_MARKERS = ZC_PORTS + 1
    ZC_FISH_DISPLAY = ZC_MARKERS + 1                        # + species
    ZC_BUILDING_DISPLAY = ZC_FISH_DISPLAY + NUM_SPECIES
    ZC_ISLAND_WORKERS = ZC_BUILDING_DISPLAY + 1             # + island * MAX_PLAYERS + seat
    ZC_WORKSHOP = ZC_ISLAND_WORKERS + NUM_ISLANDS * MAX_PLAYERS  # + square
    ZC_CTX = ZC_WORKSHOP + NUM_SQUARES                      # + CX_*
    ZC_PLAYER = ZC_CTX + CX_SIZE                            # + seat * ZP_SIZE + ZP_*
    ZC_VIEW = ZC_PLAYER + MAX_PLAYERS * ZP_SIZE             # information-state keys: the viewing seat
    Z_CELLS = ZC_VIEW + 1

cdef uint64_t ZOBRIST[Z_CELLS]
# Fixed seed of the Zobrist table: changing it changes every key (and any stored key).
ZOBRIST_SEED = 0xB0A0_5EED_2024_0001


cdef void _init_zobrist(uint64_t seed) noexcept nogil:
    cdef Rng rng
    cdef int i
    rng_seed(&rng, seed)
    for i in range(Z_CELLS):
        ZOBRIST[i] = rng_next(&rng)


_init_zobrist(ZOBRIST_SEED)


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t zk(int cell, int64_t value) noexcept nogil:
    """Key contribution of `cell` holding `value`."""
    return mix64(ZOBRIST[cell] + <uint64_t>value * 0x9E3779B97F4A7C15ULL)


cdef inline int pcell(int p, int field) noexcept nogil:
    return ZC_PLAYER + p * ZP_SIZE + field


cdef inline void rekey(StateC* s, int cell, int64_t old, int64_t new) noexcept nogil:
    # A playout's state is scored and discarded: its key is not kept (see playout_c).
    if old != new and not s.keyless:
        s.key ^= zk(cell, old) ^ zk(cell, new)


cdef inline void put8(StateC* s, int cell, int8_t* slot, int value) noexcept nogil:
    rekey(s, cell, slot[0], value)
    slot[0] = <int8_t>value


cdef inline void put32(StateC* s, int cell, int32_t* slot, int value) noexcept nogil:
    rekey(s, cell, slot[0], value)
    slot[0] = value


# Packed values of composite cells.

cdef inline int dock_value(const StateC* s, int island) noexcept nogil:
    return (s.docks[island][0] * NUM_COLOURS + s.docks[island][1]) * NUM_COLOURS + s.docks[island][2]


cdef inline int ports_value(const StateC* s) noexcept nogil:
    return s.ports[0] | (s.ports[1] << NUM_SHIPS)


cdef inline int markers_value(const StateC* s) noexcept nogil:
    cdef int c, v = 0
    for c in range(NUM_COLOURS):
        v = v * 3 + s.markers[c]
    return v


cdef inline int chance_value(int kind, int arg) noexcept nogil:
    # The roof kind matters only while a roof tile is being drawn (to_dict shows it only then).
    return kind * 8 + (arg if kind == CK_ROOF_TILE else 0)


cdef inline int roof_cell_value(const RoofC* r) noexcept nogil:
    return 1 + ((r.kind * NUM_ROOF_PAIRS + r.pair) * 2 + r.flipped)


cdef inline int pending_value(const StateC* s) noexcept nogil:
    if s.pending_roof < 0:
        return -1
    return s.roofs[s.pending_roof].level * NUM_ROOF_LINES + s.roofs[s.pending_roof].line


cdef inline int removed_mask(const StateC* s, int kind) noexcept nogil:
    cdef int i, m = 0
    for i in range(s.num_removed):
        if s.removed[i] // NUM_ROOF_PAIRS == kind:
            m |= 1 << (s.removed[i] % NUM_ROOF_PAIRS)
    return m


cdef inline int kinds_mask(const StateC* s) noexcept nogil:
    cdef int i, m = 0
    for i in range(s.num_kinds_picked):
        m |= 1 << s.kinds_picked[i]
    return m


cdef uint64_t full_key_c(const GameC* g, const StateC* s) noexcept nogil:
    """The key recomputed from every hashed field (the incremental key must equal it)."""
    cdef uint64_t k = 0
    cdef int lv, h, i, p, j, n = s.num_players
    cdef const PlayerC* pl
    for lv in range(NUM_LEVELS):
        for h in range(NUM_HOLES):
            k ^= zk(ZC_CUBE + lv * NUM_HOLES + h, s.cubes[lv][h])
    cdef int roof_value[NUM_ROOF_LEVELS][NUM_ROOF_LINES]
    memset(roof_value, 0, sizeof(roof_value))
    for i in range(s.num_roofs):
        roof_value[s.roofs[i].level - 1][s.roofs[i].line] = roof_cell_value(&s.roofs[i])
    for lv in range(NUM_ROOF_LEVELS):
        for i in range(NUM_ROOF_LINES):
            k ^= zk(ZC_ROOF + lv * NUM_ROOF_LINES + i, roof_value[lv][i])
    for i in range(NUM_ROOF_KINDS):
        k ^= zk(ZC_REMOVED + i, removed_mask(s, i))
    for i in range(NUM_ISLANDS):
        k ^= zk(ZC_DOCK + i, dock_value(s, i))
    k ^= zk(ZC_PORTS, ports_value(s))
    k ^= zk(ZC_MARKERS, markers_value(s))
    for i in range(NUM_SPECIES):
        k ^= zk(ZC_FISH_DISPLAY + i, s.fish_display[i])
    k ^= zk(ZC_BUILDING_DISPLAY, s.building_display)
    for i in range(NUM_ISLANDS):
        for p in range(MAX_PLAYERS):
            k ^= zk(ZC_ISLAND_WORKERS + i * MAX_PLAYERS + p, s.island_workers[i][p])
    for i in range(NUM_SQUARES):
        k ^= zk(ZC_WORKSHOP + i, s.workshop[i])
    # Context.
    k ^= zk(ZC_CTX + CX_SEASON, s.season)
    k ^= zk(ZC_CTX + CX_ROUND, s.round)
    k ^= zk(ZC_CTX + CX_FIRST_PLAYER, s.first_player)
    k ^= zk(ZC_CTX + CX_STAGE, s.stage)
    k ^= zk(ZC_CTX + CX_PHASE, s.phase)
    k ^= zk(ZC_CTX + CX_ACTOR, s.actor)
    k ^= zk(ZC_CTX + CX_ORDER_INDEX, s.order_index)
    k ^= zk(ZC_CTX + CX_MOVES, s.moves)
    k ^= zk(ZC_CTX + CX_CHANCE, chance_value(s.chance_kind, s.chance_arg))
    k ^= zk(ZC_CTX + CX_FISH_ISLAND, s.fish_island)
    k ^= zk(ZC_CTX + CX_FISH_MATCHES, s.fish_matches)
    k ^= zk(ZC_CTX + CX_DRAWS_LEFT, s.draws_left)
    k ^= zk(ZC_CTX + CX_PENDING_ROOF, pending_value(s))
    k ^= zk(ZC_CTX + CX_PAY_QUEUE, s.pay_queue)
    k ^= zk(ZC_CTX + CX_PAID, s.paid)
    k ^= zk(ZC_CTX + CX_DISCOUNT_USED, s.discount_used)
    k ^= zk(ZC_CTX + CX_SHORTFALL, s.shortfall)
    k ^= zk(ZC_CTX + CX_PICKS_LEFT, s.picks_left)
    k ^= zk(ZC_CTX + CX_KINDS_PICKED, kinds_mask(s))
    k ^= zk(ZC_CTX + CX_PYRAMID_TARGET, s.pyramid_target)
    k ^= zk(ZC_CTX + CX_SAIL_TARGET, s.sail_target)
    k ^= zk(ZC_CTX + CX_SWAP_PICK, s.swap_pick)
    for i in range(NUM_COLOURS):
        k ^= zk(ZC_CTX + CX_LACE_ALLOW + i, s.lace_allow[i])
    # Players.
    for p in range(n):
        pl = &s.players[p]
        k ^= zk(pcell(p, ZP_PIECES), ((pl.ring_pieces[0] * 4 + pl.ring_pieces[1]) * 4 + pl.ring_pieces[2]) * 4
                + pl.ring_pieces[3])
        k ^= zk(pcell(p, ZP_OFFSET), pl.ring_offset)
        k ^= zk(pcell(p, ZP_RING), pl.ring_workers)
        for j in range(PYRAMID_SIZE):
            k ^= zk(pcell(p, ZP_PYRAMID + j), pl.pyramid[j])
        for j in range(NUM_COLOURS):
            k ^= zk(pcell(p, ZP_RESERVE + j), pl.reserve[j])
            k ^= zk(pcell(p, ZP_PREP + j), pl.prep[j])
        k ^= zk(pcell(p, ZP_COINS), pl.coins)
        k ^= zk(pcell(p, ZP_VP), pl.vp)
        k ^= zk(pcell(p, ZP_PRIVILEGE), pl.privilege)
        for j in range(NUM_ROOF_SLOTS):
            k ^= zk(pcell(p, ZP_SLOTS + j), pl.roof_slots[j])
        k ^= zk(pcell(p, ZP_BUILDINGS), pl.buildings)
        for j in range(NUM_SPECIES):
            k ^= zk(pcell(p, ZP_KNOWN + j), pl.hand_known[j])
            k ^= zk(pcell(p, ZP_BLIND + j), pl.hand_blind[j])
            k ^= zk(pcell(p, ZP_SOLD + j), pl.sold[j])
        k ^= zk(pcell(p, ZP_BOAT), pl.boat)
    return k


cdef uint64_t info_key_c(const GameC* g, const StateC* s, int seat) noexcept nogil:
    """Key of what `seat` sees (notation's one-seat view): hidden fields replaced by what is public.

    Other seats' blind cards count only by their number (the fish deck then only by its size), and
    while pyramids are built, other seats' pyramid and reserve only as cubes per colour and cubes placed.
    """
    cdef uint64_t k = s.key ^ zk(ZC_VIEW, seat)
    cdef int q, j, total
    cdef int cubes[NUM_COLOURS]
    cdef const PlayerC* pl
    for q in range(s.num_players):
        if q == seat:
            continue
        pl = &s.players[q]
        total = 0
        for j in range(NUM_SPECIES):
            k ^= zk(pcell(q, ZP_BLIND + j), pl.hand_blind[j])
            total += pl.hand_blind[j]
        k ^= zk(pcell(q, ZP_BLIND_COUNT), total)
        if s.stage == ST_PYRAMID:
            for j in range(NUM_COLOURS):
                cubes[j] = pl.reserve[j]
                k ^= zk(pcell(q, ZP_RESERVE + j), pl.reserve[j])
            for j in range(PYRAMID_SIZE):
                k ^= zk(pcell(q, ZP_PYRAMID + j), pl.pyramid[j])
                if pl.pyramid[j] >= 0:
                    cubes[pl.pyramid[j]] += 1
            for j in range(NUM_COLOURS):
                k ^= zk(pcell(q, ZP_CUBES + j), cubes[j])
            k ^= zk(pcell(q, ZP_PLACED), pl.pyramid_count)
    return k


# ================================================================================================
# Setters: every change of a hashed field goes through one of these (they keep key and derived counts)
# ================================================================================================

cdef inline void set_ctx(StateC* s, int cx, int8_t* slot, int value) noexcept nogil:
    put8(s, ZC_CTX + cx, slot, value)


cdef inline void set_phase(StateC* s, int phase) noexcept nogil:
    put8(s, ZC_CTX + CX_PHASE, &s.phase, phase)


cdef inline void set_actor(StateC* s, int actor) noexcept nogil:
    put8(s, ZC_CTX + CX_ACTOR, &s.actor, actor)


cdef inline void set_order_index(StateC* s, int value) noexcept nogil:
    put8(s, ZC_CTX + CX_ORDER_INDEX, &s.order_index, value)


cdef inline void set_chance(StateC* s, int kind, int arg) noexcept nogil:
    rekey(s, ZC_CTX + CX_CHANCE, chance_value(s.chance_kind, s.chance_arg), chance_value(kind, arg))
    s.chance_kind = <int8_t>kind
    s.chance_arg = <int8_t>arg


cdef inline void set_chance_kind(StateC* s, int kind) noexcept nogil:
    set_chance(s, kind, s.chance_arg)


cdef inline void set_pending_roof(StateC* s, int roof_id) noexcept nogil:
    cdef int old = pending_value(s)
    s.pending_roof = <int8_t>roof_id
    rekey(s, ZC_CTX + CX_PENDING_ROOF, old, pending_value(s))


cdef inline void set_pay_queue(StateC* s, uint32_t mask) noexcept nogil:
    rekey(s, ZC_CTX + CX_PAY_QUEUE, s.pay_queue, mask)
    s.pay_queue = mask


cdef inline void set_paid(StateC* s, uint32_t mask) noexcept nogil:
    rekey(s, ZC_CTX + CX_PAID, s.paid, mask)
    s.paid = mask


cdef inline void clear_kinds_picked(StateC* s) noexcept nogil:
    rekey(s, ZC_CTX + CX_KINDS_PICKED, kinds_mask(s), 0)
    s.num_kinds_picked = 0


cdef inline void add_kind_picked(StateC* s, int kind) noexcept nogil:
    cdef int old = kinds_mask(s)
    s.kinds_picked[s.num_kinds_picked] = <int8_t>kind
    s.num_kinds_picked += 1
    rekey(s, ZC_CTX + CX_KINDS_PICKED, old, kinds_mask(s))


cdef inline void clear_lace_allow(StateC* s) noexcept nogil:
    cdef int c
    for c in range(NUM_COLOURS):
        put8(s, ZC_CTX + CX_LACE_ALLOW + c, &s.lace_allow[c], 0)


cdef inline void add_coins(StateC* s, int p, int d) noexcept nogil:
    put32(s, pcell(p, ZP_COINS), &s.players[p].coins, s.players[p].coins + d)


cdef inline void add_vp(StateC* s, int p, int d) noexcept nogil:
    put32(s, pcell(p, ZP_VP), &s.players[p].vp, s.players[p].vp + d)


cdef inline void add_privilege(StateC* s, int p, int d) noexcept nogil:
    put32(s, pcell(p, ZP_PRIVILEGE), &s.players[p].privilege, s.players[p].privilege + d)


cdef inline void add_ring_workers(StateC* s, int p, int d) noexcept nogil:
    put8(s, pcell(p, ZP_RING), &s.players[p].ring_workers, s.players[p].ring_workers + d)


cdef inline void turn_wheel(StateC* s, int p, int k) noexcept nogil:
    put8(s, pcell(p, ZP_OFFSET), &s.players[p].ring_offset, (s.players[p].ring_offset + k) % NUM_HOUSES)


cdef inline void set_pyramid(StateC* s, int p, int pos, int colour) noexcept nogil:
    cdef PlayerC* pl = &s.players[p]
    pl.pyramid_count += (colour >= 0) - (pl.pyramid[pos] >= 0)
    pl.pyramid_mask = (pl.pyramid_mask & ~(1u << pos)) | ((colour >= 0) << pos)
    put8(s, pcell(p, ZP_PYRAMID + pos), &pl.pyramid[pos], colour)


cdef inline void add_reserve(StateC* s, int p, int colour, int d) noexcept nogil:
    put8(s, pcell(p, ZP_RESERVE + colour), &s.players[p].reserve[colour], s.players[p].reserve[colour] + d)


cdef inline void add_prep(StateC* s, int p, int colour, int d) noexcept nogil:
    s.players[p].prep_total += d
    put8(s, pcell(p, ZP_PREP + colour), &s.players[p].prep[colour], s.players[p].prep[colour] + d)


cdef inline void add_island_workers(StateC* s, int island, int p, int d) noexcept nogil:
    s.players[p].island_total += d
    put8(s, ZC_ISLAND_WORKERS + island * MAX_PLAYERS + p, &s.island_workers[island][p],
         s.island_workers[island][p] + d)


cdef inline void set_workshop(StateC* s, int sq, int occupant) noexcept nogil:
    cdef int old = s.workshop[sq]
    if old >= 0:
        s.players[old].workshop_mask &= ~(1u << sq)
    if occupant >= 0:
        s.players[occupant].workshop_mask |= 1u << sq
    put8(s, ZC_WORKSHOP + sq, &s.workshop[sq], occupant)


cdef inline void set_roof_slot(StateC* s, int p, int slot, int tile) noexcept nogil:
    put8(s, pcell(p, ZP_SLOTS + slot), &s.players[p].roof_slots[slot], tile)


cdef inline void add_building(StateC* s, int p, int card) noexcept nogil:
    cdef PlayerC* pl = &s.players[p]
    rekey(s, pcell(p, ZP_BUILDINGS), pl.buildings, pl.buildings | (1u << card))
    pl.buildings |= 1u << card
    pl.building_order[pl.num_buildings] = <int8_t>card
    pl.num_buildings += 1


cdef inline void set_building_display(StateC* s, uint16_t mask) noexcept nogil:
    rekey(s, ZC_BUILDING_DISPLAY, s.building_display, mask)
    s.building_display = mask


cdef inline void add_fish_display(StateC* s, int species, int d) noexcept nogil:
    s.fish_display_total += d
    put8(s, ZC_FISH_DISPLAY + species, &s.fish_display[species], s.fish_display[species] + d)


cdef inline void add_hand_known(StateC* s, int p, int species, int d) noexcept nogil:
    put8(s, pcell(p, ZP_KNOWN + species), &s.players[p].hand_known[species], s.players[p].hand_known[species] + d)


cdef inline void add_hand_blind(StateC* s, int p, int species, int d) noexcept nogil:
    put8(s, pcell(p, ZP_BLIND + species), &s.players[p].hand_blind[species], s.players[p].hand_blind[species] + d)


cdef inline void add_sold(StateC* s, int p, int species, int d) noexcept nogil:
    put8(s, pcell(p, ZP_SOLD + species), &s.players[p].sold[species], s.players[p].sold[species] + d)


cdef inline void take_from_fish_deck(StateC* s, int species) noexcept nogil:
    s.fish_deck[species] -= 1
    s.fish_deck_total -= 1
