# Applying actions and chance: a port of the reference's handlers in the same order, the chance
# outcomes with their probabilities, chance sampling, and whose turn it is.
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Applying actions: a port of the reference's handlers, in the same order
# ================================================================================================

cdef inline void pay_move(StateC* s) noexcept nogil:
    add_coins(s, s.actor, T.move_costs[s.moves])
    set_ctx(s, CX_MOVES, &s.moves, s.moves + 1)


cdef void end_action(StateC* s) noexcept nogil:
    """Back to the turn's main decision after a move's action is complete."""
    set_phase(s, PH_TURN)
    set_ctx(s, CX_FISH_ISLAND, &s.fish_island, EMPTY)
    set_ctx(s, CX_FISH_MATCHES, &s.fish_matches, 0)
    clear_lace_allow(s)


cdef void end_turn(const GameC* g, StateC* s) noexcept nogil:
    cdef int nxt
    if s.moves == 0:
        add_coins(s, s.actor, T.no_move_coins)
    set_ctx(s, CX_MOVES, &s.moves, 0)
    nxt = (s.actor + 1) % s.num_players
    if nxt == s.first_player:
        set_ctx(s, CX_ROUND, &s.round, s.round + 1)
        if s.round > T.season_rounds[s.season]:
            start_cleanup(g, s)
            return
    set_actor(s, nxt)
    set_phase(s, PH_TURN)


cdef void do_take(StateC* s, int pos) noexcept nogil:
    cdef int p = s.actor
    pay_move(s)
    add_prep(s, p, s.players[p].pyramid[pos], 1)
    set_pyramid(s, p, pos, EMPTY)


cdef void do_build(const GameC* g, StateC* s, int i) noexcept nogil:
    cdef int colour = i // NUM_HOLES, hole = i % NUM_HOLES, p = s.actor, level, action, c
    cdef int arr[3]
    pay_move(s)
    level = build_level(s, hole)
    add_prep(s, p, colour, -1)
    put8(s, ZC_CUBE + (level - 1) * NUM_HOLES + hole, &s.cubes[level - 1][hole], colour)
    s.height[hole] = <int8_t>level
    # a cube changes only the lines ending at its hole
    update_open_lines(s, T.hole_lines[hole])
    # and the build level of only itself and the holes it neighbours
    s.buildable = (s.buildable & ~T.hole_dependents[hole]) | buildable_among(s, T.hole_dependents[hole])
    if level >= 2 and s.roof_field[level - 2][hole] == colour:
        add_privilege(s, p, 1)
    action = s.markers[colour]
    if action == ACT_FISHING:
        set_phase(s, PH_FISH_SAIL)
    elif action == ACT_LACE:
        clear_lace_allow(s)
        arrows(&s.players[p], arr)
        for c in range(3):
            put8(s, ZC_CTX + CX_LACE_ALLOW + arr[c], &s.lace_allow[arr[c]], s.lace_allow[arr[c]] + 1)
        continue_lace(s)
    else:
        add_coins(s, p, visible_symbols(&s.players[p], SYM_COIN))
        continue_recall(s)


cdef void do_roof(StateC* s, int i) noexcept nogil:
    cdef int slot = i // (NUM_ROOF_LINES * 2), rest = i % (NUM_ROOF_LINES * 2)
    cdef int line = rest // 2, flipped = rest % 2, p = s.actor
    cdef int tile, kind, pair, a, b, level, fa, fb, roof_id, mid
    cdef uint64_t changed
    cdef RoofC* r
    pay_move(s)
    tile = s.players[p].roof_slots[slot]
    kind = tile // NUM_ROOF_PAIRS
    pair = tile % NUM_ROOF_PAIRS
    set_roof_slot(s, p, slot, EMPTY)
    a = T.line_a[line]
    b = T.line_b[line]
    level = s.height[a]
    fa = T.roof_pair[pair][flipped]
    fb = T.roof_pair[pair][1 - flipped]
    roof_id = s.num_roofs
    r = &s.roofs[roof_id]
    r.level = <int8_t>level
    r.line = <int8_t>line
    r.kind = <int8_t>kind
    r.pair = <int8_t>pair
    r.flipped = <int8_t>flipped
    s.num_roofs += 1
    rekey(s, ZC_ROOF + (level - 1) * NUM_ROOF_LINES + line, 0, roof_cell_value(r))
    s.roof_at[level - 1][a] = <int8_t>roof_id
    s.roof_at[level - 1][b] = <int8_t>roof_id
    s.roof_field[level - 1][a] = <int8_t>fa
    s.roof_field[level - 1][b] = <int8_t>fb
    mid = T.line_mid[line]
    s.mid_used[level - 1][mid >> 6] |= (<uint64_t>1) << (mid & 63)
    # the roof closes only the lines ending at its holes and those sharing its midpoint
    changed = T.hole_lines[a] | T.hole_lines[b] | T.mid_lines[mid]
    update_open_lines(s, changed)
    s.buildable = (s.buildable & ~(((<uint64_t>1) << a) | ((<uint64_t>1) << b))) | \
        buildable_among(s, ((<uint64_t>1) << a) | ((<uint64_t>1) << b))
    set_pending_roof(s, roof_id)
    set_phase(s, PH_ROOF_BONUS)


cdef void do_priv_cube(StateC* s, int i) noexcept nogil:
    cdef int colour = i // PYRAMID_SIZE, pos = i % PYRAMID_SIZE
    add_privilege(s, s.actor, -1)
    set_pyramid(s, s.actor, pos, colour)
    s.supply[colour] -= 1


# --- fishing (§5.1)

cdef void sort3(int8_t* d) noexcept nogil:
    cdef int8_t t
    if d[0] > d[1]:
        t = d[0]; d[0] = d[1]; d[1] = t
    if d[1] > d[2]:
        t = d[1]; d[1] = d[2]; d[2] = t
    if d[0] > d[1]:
        t = d[0]; d[0] = d[1]; d[1] = t


cdef void swap_dock(StateC* s, int island, int out_colour, int in_colour) noexcept nogil:
    cdef int old = dock_value(s, island), j
    for j in range(DOCKS_PER_ISLAND):
        if s.docks[island][j] == out_colour:
            s.docks[island][j] = <int8_t>in_colour
            break
    sort3(s.docks[island])
    rekey(s, ZC_DOCK + island, old, dock_value(s, island))


cdef void do_sail(const GameC* g, StateC* s, int node) noexcept nogil:
    """Sail to a port, or choose an island: its dock swaps come first if privilege allows any (§4.3)."""
    cdef int p = s.actor, island = T.node_island[node]
    if island < 0:
        put8(s, pcell(p, ZP_BOAT), &s.players[p].boat, node)
        set_phase(s, PH_PORT_TRADE)
    elif s.players[p].privilege > 0 and swap_picks(s, p, island, NULL, 0) > 0:
        set_ctx(s, CX_SAIL_TARGET, &s.sail_target, node)
        set_phase(s, PH_FISH_SWAP)
    else:
        fish(g, s, node)


cdef void do_go(const GameC* g, StateC* s) noexcept nogil:
    cdef int node = s.sail_target
    set_ctx(s, CX_SAIL_TARGET, &s.sail_target, EMPTY)
    fish(g, s, node)


cdef void do_swap_with(const GameC* g, StateC* s, int dock) noexcept nogil:
    """Swap the picked dock with this one for 1 privilege; more swaps if privilege allows, else sail on."""
    cdef int p = s.actor, pick = s.swap_pick
    set_ctx(s, CX_SWAP_PICK, &s.swap_pick, EMPTY)
    add_privilege(s, p, -1)
    swap_dock(s, pick // NUM_COLOURS, pick % NUM_COLOURS, dock % NUM_COLOURS)
    swap_dock(s, dock // NUM_COLOURS, dock % NUM_COLOURS, pick % NUM_COLOURS)
    if s.players[p].privilege == 0 or swap_picks(s, p, T.node_island[s.sail_target], NULL, 0) == 0:
        do_go(g, s)


cdef void fish(const GameC* g, StateC* s, int node) noexcept nogil:
    """The boat reaches the island at `node`: count the matches and start the draws (§5.1)."""
    cdef int p = s.actor, island = T.node_island[node], m
    put8(s, pcell(p, ZP_BOAT), &s.players[p].boat, node)
    set_ctx(s, CX_FISH_ISLAND, &s.fish_island, island)
    m = matches(s, p, island)
    set_ctx(s, CX_FISH_MATCHES, &s.fish_matches, m)
    set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, m)
    set_phase(s, PH_FISH_DRAW)
    continue_draws(g, s)


cdef void continue_draws(const GameC* g, StateC* s) noexcept nogil:
    if s.draws_left > 0 and s.fish_deck_total == 0 and s.fish_display_total == 0:
        add_vp(s, s.actor, T.empty_draw_vp * s.draws_left)
        set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, 0)
    if s.draws_left > 0:
        set_phase(s, PH_FISH_DRAW)
        return
    refill_fish_display(g, s)


cdef void refill_fish_display(const GameC* g, StateC* s) noexcept nogil:
    if s.fish_display_total < T.fish_display_size and s.fish_deck_total > 0:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_FISH_REFILL)
        return
    set_chance_kind(s, CK_NONE)
    before_send(g, s)


cdef void before_send(const GameC* g, StateC* s) noexcept nogil:
    cdef int ring = s.players[s.actor].ring_workers
    if s.fish_matches == 3 and ring >= 3:
        set_phase(s, PH_FISH_SEND)
        return
    send(s, 1 if ring >= 2 else 0)


cdef void send(StateC* s, int k) noexcept nogil:
    """Send k ring workers to the fished island; bump one worker of each other player there [RD-8]."""
    cdef int p = s.actor, island = s.fish_island, q
    add_ring_workers(s, p, -k)
    turn_wheel(s, p, k)
    add_island_workers(s, island, p, k)
    if k > 0:
        for q in range(s.num_players):
            if q != p and s.island_workers[island][q] > 0:
                add_island_workers(s, island, q, -1)
                add_ring_workers(s, q, 1)
                add_coins(s, q, T.bump_coins)
    end_action(s)


cdef void do_sell(StateC* s, int sale) noexcept nogil:
    cdef int p = s.actor, sp, need, from_known, ship = T.sale_ship[sale], port
    cdef PlayerC* pl = &s.players[p]
    add_vp(s, p, T.sale_vp[sale])
    for sp in range(NUM_SPECIES):
        need = T.sale_counts[sale][sp]
        if need:
            from_known = need if need < pl.hand_known[sp] else pl.hand_known[sp]
            add_hand_known(s, p, sp, -from_known)
            add_hand_blind(s, p, sp, from_known - need)
            add_sold(s, p, sp, need)
    port = T.node_port[pl.boat]
    rekey(s, ZC_PORTS, ports_value(s), ports_value(s) ^ (1 << (ship + NUM_SHIPS * port))
          ^ (1 << (ship + NUM_SHIPS * (1 - port))))
    s.ports[port] &= ~(1 << ship)
    s.ports[1 - port] |= 1 << ship
    end_action(s)


# --- lace (§5.2)

cdef void continue_lace(StateC* s) noexcept nogil:
    cdef int c, total = 0
    for c in range(NUM_COLOURS):
        total += s.lace_allow[c]
    if total == 0 or s.players[s.actor].ring_workers <= 1:
        end_action(s)
    else:
        set_phase(s, PH_LACE_PLACE)


cdef void place_lace(const GameC* g, StateC* s, int sq) noexcept nogil:
    cdef int p = s.actor, occ = s.workshop[sq], colour = g.sq_colour[sq]
    if occ >= 0:
        add_ring_workers(s, occ, 1)
        add_coins(s, occ, T.bump_coins)
    set_workshop(s, sq, p)
    add_ring_workers(s, p, -1)
    turn_wheel(s, p, 1)
    if g.sq_coin[sq]:
        add_coins(s, p, 1)
    put8(s, ZC_CTX + CX_LACE_ALLOW + colour, &s.lace_allow[colour], s.lace_allow[colour] - 1)
    continue_lace(s)


# --- earning (§5.3)

cdef void continue_recall(StateC* s) noexcept nogil:
    if workers_off_ring(s, s.actor) == 0:
        end_action(s)
    else:
        set_phase(s, PH_RECALL)


cdef void recall(StateC* s) noexcept nogil:
    add_ring_workers(s, s.actor, 1)
    add_coins(s, s.actor, T.recall_coins)
    continue_recall(s)


# --- roof bonus and scoring (§7)

cdef void refill_building_display(const GameC* g, StateC* s) noexcept nogil:
    if BURANO_POPCOUNT(s.building_display) < T.building_display_size and s.building_deck:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_BUILDING_REFILL)
        return
    set_chance_kind(s, CK_NONE)
    score_roof(g, s)


cdef void score_roof(const GameC* g, StateC* s) noexcept nogil:
    """Score the pending roof's kind and colour bonus cards; cards taken just now count [RD-15]."""
    cdef int p = s.actor, kind, pair, m, card
    cdef uint16_t cards
    kind = s.roofs[s.pending_roof].kind
    pair = s.roofs[s.pending_roof].pair
    set_pending_roof(s, EMPTY)
    if kind == KIND_ISLAND_MAJORITY:
        m = island_majorities(s, p)
        add_vp(s, p, T.majority_roof_vp[m if m < 3 else 3])
    elif kind == KIND_WORKSHOP_MAJORITY:
        m = workshop_majorities(g, s, p)
        add_vp(s, p, T.majority_roof_vp[m if m < 3 else 3])
    elif kind == KIND_FOUNTAINS:
        add_vp(s, p, T.fountain_roof_vp[visible_symbols(&s.players[p], SYM_FOUNTAIN)])
    else:
        add_vp(s, p, T.flat_roof_vp)
    cards = s.players[p].buildings & T.family_cards[BF_ROOF_BONUS]
    while cards:
        card = BURANO_CTZ(cards)
        cards &= cards - 1
        m = ((T.card_arg_mask[card] >> T.roof_pair[pair][0]) & 1) + ((T.card_arg_mask[card] >> T.roof_pair[pair][1]) & 1)
        add_vp(s, p, T.roof_bonus_vp_per_field * m)
    end_action(s)


# --- roof picks (setup §3.10 and clean-up §8.5)

cdef int empty_slots(const StateC* s, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(NUM_ROOF_SLOTS):
        if s.players[p].roof_slots[i] < 0:
            n += 1
    return n


cdef void enter_roof_pick(const GameC* g, StateC* s, int p, int picks) noexcept nogil:
    set_actor(s, p)
    set_ctx(s, CX_PICKS_LEFT, &s.picks_left, picks)
    clear_kinds_picked(s)
    continue_roof_pick(g, s)


cdef void continue_roof_pick(const GameC* g, StateC* s) noexcept nogil:
    cdef int k, picked = kinds_mask(s)
    cdef bint available = False
    for k in range(NUM_ROOF_KINDS):
        if not (picked >> k) & 1 and s.roof_stack[k]:
            available = True
    if s.picks_left > 0 and available:
        set_phase(s, PH_ROOF_PICK)
        return
    set_ctx(s, CX_PICKS_LEFT, &s.picks_left, 0)
    clear_kinds_picked(s)
    set_order_index(s, s.order_index + 1)
    if s.stage == ST_SETUP:
        next_setup_player(g, s)
    else:
        next_roof_refill_player(g, s)


cdef void next_setup_player(const GameC* g, StateC* s) noexcept nogil:
    if s.order_index < s.num_players:
        enter_roof_pick(g, s, s.order_index, NUM_ROOF_SLOTS)
    else:
        start_pyramids(g, s)


# --- pyramid construction (§4.1)

cdef void start_pyramids(const GameC* g, StateC* s) noexcept nogil:
    set_ctx(s, CX_STAGE, &s.stage, ST_PYRAMID)
    set_order_index(s, 0)
    next_pyramid_player(g, s)


cdef void next_pyramid_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p, c, total, target
    while s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        total = 0
        for c in range(NUM_COLOURS):
            total += s.players[p].reserve[c]
        target = PYRAMID_SIZE if PYRAMID_SIZE < total else total
        set_ctx(s, CX_PYRAMID_TARGET, &s.pyramid_target, target)
        if s.players[p].pyramid_count < s.pyramid_target:
            set_actor(s, p)
            set_phase(s, PH_PYRAMID)
            return
        set_order_index(s, s.order_index + 1)
    # Everyone has built: the pyramids become public; leftovers go back for 1 coin each.
    for p in range(s.num_players):
        total = 0
        for c in range(NUM_COLOURS):
            total += s.players[p].reserve[c]
            s.supply[c] += s.players[p].reserve[c]
            add_reserve(s, p, c, -s.players[p].reserve[c])
        add_coins(s, p, T.leftover_cube_coins * total)
    set_ctx(s, CX_PYRAMID_TARGET, &s.pyramid_target, 0)
    set_ctx(s, CX_STAGE, &s.stage, ST_ROUNDS)
    set_ctx(s, CX_ROUND, &s.round, 1)
    set_ctx(s, CX_MOVES, &s.moves, 0)
    set_actor(s, s.first_player)
    set_phase(s, PH_TURN)


cdef void do_pyramid(const GameC* g, StateC* s, int colour) noexcept nogil:
    cdef int p = s.actor, pos = s.players[p].pyramid_count   # fill order b1..b9, m1..m4, top [RD-19]
    add_reserve(s, p, colour, -1)
    set_pyramid(s, p, pos, colour)
    if pos + 1 >= s.pyramid_target:
        set_order_index(s, s.order_index + 1)
        next_pyramid_player(g, s)


# --- clean-up (§8)

cdef void start_cleanup(const GameC* g, StateC* s) noexcept nogil:
    score_island_majority(s)
    set_ctx(s, CX_STAGE, &s.stage, ST_LACE_SCORING)
    set_order_index(s, 0)
    next_lace_player(g, s)


cdef void score_island_majority(StateC* s) noexcept nogil:
    cdef int vp = T.island_majority_vp[s.num_players], i, p, best, ntied, holder
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
            add_vp(s, holder, vp)
        else:
            for p in range(s.num_players):
                if s.island_workers[i][p] == best:
                    add_vp(s, p, vp // ntied)


cdef void next_lace_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p
    while s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        if s.players[p].workshop_mask:
            set_actor(s, p)
            set_pay_queue(s, s.players[p].workshop_mask)
            set_paid(s, 0)
            set_ctx(s, CX_DISCOUNT_USED, &s.discount_used, 0)
            continue_lace_pay(g, s)
            return
        set_order_index(s, s.order_index + 1)
    if s.season == T.num_seasons - 1:
        final_scoring(g, s)
        return
    set_phase(s, PH_CHANCE_NODE)
    set_chance_kind(s, CK_MARKERS)


cdef void continue_lace_pay(const GameC* g, StateC* s) noexcept nogil:
    cdef int p = s.actor
    cdef int opts[4]
    while s.pay_queue and pay_options(g, s, p, lowest_square(s.pay_queue), opts) == 0:
        set_pay_queue(s, s.pay_queue & (s.pay_queue - 1))   # nothing to pay with: the worker stays unpaid
    if s.pay_queue:
        set_phase(s, PH_LACE_PAY)
        return
    add_vp(s, p, T.lace_paid_vp * BURANO_POPCOUNT(s.paid) + union_bonus(g, s.paid))
    set_paid(s, 0)
    set_ctx(s, CX_DISCOUNT_USED, &s.discount_used, 0)
    set_order_index(s, s.order_index + 1)
    next_lace_player(g, s)


cdef void do_pay(const GameC* g, StateC* s, int option) noexcept nogil:
    cdef int p = s.actor, sq = lowest_square(s.pay_queue), colour = g.sq_colour[sq], pos
    set_pay_queue(s, s.pay_queue & (s.pay_queue - 1))
    if option == PAY_PYRAMID:
        # Any position may pay, even a covered one; take the highest such position.
        pos = PYRAMID_SIZE - 1
        while s.players[p].pyramid[pos] != colour:
            pos -= 1
        set_pyramid(s, p, pos, EMPTY)
        s.supply[colour] += 1
    elif option == PAY_PRIVILEGE:
        add_privilege(s, p, -1)   # the cube bought from the supply goes straight back as payment
    elif option == PAY_DISCOUNT:
        set_ctx(s, CX_DISCOUNT_USED, &s.discount_used, 1)
    if option != PAY_NONE:
        set_paid(s, s.paid | (1u << sq))
    continue_lace_pay(g, s)


cdef void next_replenish_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p, pos, c, sector, got, shortfall
    cdef int need[NUM_COLOURS]
    cdef PlayerC* pl
    if s.phase == PH_REPLENISH or s.phase == PH_PRIV_RESERVE:
        set_order_index(s, s.order_index + 1)
    while s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        pl = &s.players[p]
        set_actor(s, p)
        for pos in range(PYRAMID_SIZE):
            if pl.pyramid[pos] >= 0:
                add_reserve(s, p, pl.pyramid[pos], 1)
                set_pyramid(s, p, pos, EMPTY)
        for c in range(NUM_COLOURS):
            need[c] = 0
        for sector in range(1, pl.ring_workers + 1):
            need[pl.house_colour[house_index(pl, sector)]] += 1
        shortfall = 0
        for c in range(NUM_COLOURS):
            got = need[c] if need[c] < s.supply[c] else s.supply[c]
            add_reserve(s, p, c, got)
            s.supply[c] -= got
            shortfall += need[c] - got
        set_ctx(s, CX_SHORTFALL, &s.shortfall, shortfall)
        if continue_replenish(s):
            return
        set_order_index(s, s.order_index + 1)
    set_ctx(s, CX_STAGE, &s.stage, ST_ROOF_REFILL)
    set_order_index(s, 0)
    set_phase(s, PH_ROOF_DISCARD)
    next_roof_refill_player(g, s)


cdef bint continue_replenish(StateC* s) noexcept nogil:
    """Set the actor's next replenishment decision; False when the actor has none left."""
    cdef bint has_supply = supply_total(s) > 0
    if s.shortfall > 0 and has_supply:
        set_phase(s, PH_REPLENISH)
        return True
    set_ctx(s, CX_SHORTFALL, &s.shortfall, 0)
    if s.players[s.actor].privilege > 0 and has_supply:
        set_phase(s, PH_PRIV_RESERVE)
        return True
    return False


cdef void do_replenish(const GameC* g, StateC* s, int colour) noexcept nogil:
    add_reserve(s, s.actor, colour, 1)
    s.supply[colour] -= 1
    set_ctx(s, CX_SHORTFALL, &s.shortfall, s.shortfall - 1)
    if not continue_replenish(s):
        next_replenish_player(g, s)


cdef void do_priv_reserve(const GameC* g, StateC* s, int colour) noexcept nogil:
    add_privilege(s, s.actor, -1)
    add_reserve(s, s.actor, colour, 1)
    s.supply[colour] -= 1
    if not continue_replenish(s):
        next_replenish_player(g, s)


cdef void next_roof_refill_player(const GameC* g, StateC* s) noexcept nogil:
    cdef int p
    if s.order_index < s.num_players:
        p = (s.first_player + s.order_index) % s.num_players
        set_actor(s, p)
        if empty_slots(s, p) < NUM_ROOF_SLOTS:
            set_phase(s, PH_ROOF_DISCARD)
        else:
            enter_roof_pick(g, s, p, NUM_ROOF_SLOTS)
        return
    # Step 6: the first-player marker passes; the next season begins.
    set_ctx(s, CX_FIRST_PLAYER, &s.first_player, (s.first_player + 1) % s.num_players)
    set_ctx(s, CX_SEASON, &s.season, s.season + 1)
    set_ctx(s, CX_ROUND, &s.round, 1)
    start_pyramids(g, s)


cdef void do_roof_discard(const GameC* g, StateC* s, int slot) noexcept nogil:
    cdef int p = s.actor, tile = s.players[p].roof_slots[slot], kind = tile // NUM_ROOF_PAIRS
    cdef int old = removed_mask(s, kind)
    s.removed[s.num_removed] = <int8_t>tile
    s.num_removed += 1
    rekey(s, ZC_REMOVED + kind, old, removed_mask(s, kind))
    set_roof_slot(s, p, slot, EMPTY)
    if empty_slots(s, p) == NUM_ROOF_SLOTS:
        enter_roof_pick(g, s, p, NUM_ROOF_SLOTS)


# --- end of the game (§10)

cdef void final_scoring(const GameC* g, StateC* s) noexcept nogil:
    cdef int p, sp, card, fam, total
    cdef uint16_t cards
    cdef uint32_t bits
    cdef PlayerC* pl
    for p in range(s.num_players):
        pl = &s.players[p]
        add_coins(s, p, pl.privilege)
        add_privilege(s, p, -pl.privilege)
        add_vp(s, p, pl.coins // T.coins_per_vp)
        total = 0
        for sp in range(NUM_SPECIES):
            total += pl.hand_known[sp] + pl.hand_blind[sp]
        add_vp(s, p, T.hand_card_vp * total)
        cards = pl.buildings
        while cards:
            card = BURANO_CTZ(cards)
            cards &= cards - 1
            fam = T.card_family[card]
            if fam == BF_SOLD_FISH:
                total = 0
                for sp in range(NUM_SPECIES):
                    if (T.card_arg_mask[card] >> sp) & 1:
                        total += pl.sold[sp]
                add_vp(s, p, T.sold_fish_vp_per_card * total)
            elif fam == BF_LACE_COLOURS:
                total = 0
                bits = pl.workshop_mask
                while bits:
                    if (T.card_arg_mask[card] >> g.sq_colour[BURANO_CTZ(bits)]) & 1:
                        total += 1
                    bits &= bits - 1
                add_vp(s, p, T.lace_colours_vp_per_worker * total)
            elif fam == BF_LACE_DISCOUNT:
                add_vp(s, p, T.lace_discount_end_vp)
            elif fam == BF_COLLECTOR:
                add_vp(s, p, T.collector_vp_per_card * pl.num_buildings)
            elif fam == BF_MONUMENT:
                add_vp(s, p, T.monument_vp)
    set_ctx(s, CX_STAGE, &s.stage, ST_END)
    set_phase(s, PH_GAME_OVER)
    set_actor(s, EMPTY)


# --- chance

cdef void apply_chance(const GameC* g, StateC* s, int i) noexcept nogil:
    cdef int kind = s.chance_kind, p = s.actor, slot
    set_chance_kind(s, CK_NONE)
    if kind == CK_FISH_DRAW:
        take_from_fish_deck(s, i)
        add_hand_blind(s, p, i, 1)
        set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, s.draws_left - 1)
        continue_draws(g, s)
    elif kind == CK_FISH_REFILL:
        take_from_fish_deck(s, i)
        add_fish_display(s, i, 1)
        refill_fish_display(g, s)
    elif kind == CK_BUILDING_DRAW:
        s.building_deck &= ~(1u << i)
        add_building(s, p, i)
        refill_building_display(g, s)
    elif kind == CK_BUILDING_REFILL:
        s.building_deck &= ~(1u << i)
        set_building_display(s, s.building_display | (1u << i))
        refill_building_display(g, s)
    elif kind == CK_ROOF_TILE:
        slot = 0
        while s.players[p].roof_slots[slot] >= 0:
            slot += 1
        s.roof_stack[s.chance_arg] &= ~(1u << i)
        set_roof_slot(s, p, slot, s.chance_arg * NUM_ROOF_PAIRS + i)
        set_ctx(s, CX_PICKS_LEFT, &s.picks_left, s.picks_left - 1)
        continue_roof_pick(g, s)
    else:
        rekey(s, ZC_MARKERS, markers_value(s), 0)
        for slot in range(NUM_COLOURS):
            s.markers[slot] = T.marker_map[i][slot]
        rekey(s, ZC_MARKERS, 0, markers_value(s))
        set_ctx(s, CX_STAGE, &s.stage, ST_REPLENISH)
        set_order_index(s, 0)
        next_replenish_player(g, s)


cdef void apply_action_c(const GameC* g, StateC* s, int action) noexcept nogil:
    """Apply a legal action or chance outcome (unchecked)."""
    cdef int fam = T.action_family[action], i = T.action_index[action], p = s.actor
    if s.phase == PH_CHANCE_NODE:
        apply_chance(g, s, i)
        return
    if fam == F_DONE:
        if s.phase == PH_TURN:
            end_turn(g, s)
        elif s.phase == PH_FISH_SAIL or s.phase == PH_PORT_TRADE or s.phase == PH_LACE_PLACE \
                or s.phase == PH_RECALL:
            end_action(s)
        elif s.phase == PH_PRIV_RESERVE:
            next_replenish_player(g, s)
        elif s.phase == PH_ROOF_DISCARD:
            enter_roof_pick(g, s, p, empty_slots(s, p))
    elif fam == F_TAKE:
        do_take(s, i)
    elif fam == F_BUILD:
        do_build(g, s, i)
    elif fam == F_ROOF:
        do_roof(s, i)
    elif fam == F_PRIV_COIN:
        add_privilege(s, p, -1)
        add_coins(s, p, 1)
    elif fam == F_PRIV_CUBE:
        do_priv_cube(s, i)
    elif fam == F_PYRAMID:
        do_pyramid(g, s, i)
    elif fam == F_SAIL:
        do_sail(g, s, i)
    elif fam == F_GO:
        do_go(g, s)
    elif fam == F_SWAP_PICK:
        set_ctx(s, CX_SWAP_PICK, &s.swap_pick, i)
    elif fam == F_SWAP_WITH:
        do_swap_with(g, s, i)
    elif fam == F_DRAW_DECK:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_FISH_DRAW)
    elif fam == F_DRAW_DISPLAY:
        add_fish_display(s, i, -1)
        add_hand_known(s, p, i, 1)
        set_ctx(s, CX_DRAWS_LEFT, &s.draws_left, s.draws_left - 1)
        continue_draws(g, s)
    elif fam == F_SEND:
        send(s, i + 1)
    elif fam == F_SELL:
        do_sell(s, i)
    elif fam == F_LACE:
        place_lace(g, s, i)
    elif fam == F_LACE_PRIV:
        add_privilege(s, p, -1)
        place_lace(g, s, i)
    elif fam == F_RECALL_ISLAND:
        add_island_workers(s, i, p, -1)
        recall(s)
    elif fam == F_RECALL_SQUARE:
        set_workshop(s, i, EMPTY)
        recall(s)
    elif fam == F_BONUS_PRIVILEGE:
        add_privilege(s, p, T.roof_privilege_bonus)
        score_roof(g, s)
    elif fam == F_BONUS_DISPLAY:
        set_building_display(s, s.building_display & ~(1u << i))
        add_building(s, p, i)
        refill_building_display(g, s)
    elif fam == F_BONUS_DECK:
        set_phase(s, PH_CHANCE_NODE)
        set_chance_kind(s, CK_BUILDING_DRAW)
    elif fam == F_PAY:
        do_pay(g, s, i)
    elif fam == F_REPLENISH:
        do_replenish(g, s, i)
    elif fam == F_PRIV_RESERVE:
        do_priv_reserve(g, s, i)
    elif fam == F_ROOF_DISCARD:
        do_roof_discard(g, s, i)
    elif fam == F_ROOF_KIND:
        add_kind_picked(s, i)
        set_phase(s, PH_CHANCE_NODE)
        set_chance(s, CK_ROOF_TILE, i)


# ================================================================================================
# Chance outcomes
# ================================================================================================

cdef int chance_outcomes_c(const GameC* g, const StateC* s, int* actions, double* probs) noexcept nogil:
    """Write (action, probability) of each chance outcome; return their number (0 if not a chance node)."""
    cdef int kind = s.chance_kind, n = 0, i, total
    cdef uint32_t bits
    if s.phase != PH_CHANCE_NODE:
        return 0
    if kind == CK_FISH_DRAW or kind == CK_FISH_REFILL:
        total = s.fish_deck_total
        for i in range(NUM_SPECIES):
            if s.fish_deck[i] > 0:
                actions[n] = A_CH_FISH + i
                probs[n] = <double>s.fish_deck[i] / <double>total
                n += 1
    elif kind == CK_BUILDING_DRAW or kind == CK_BUILDING_REFILL:
        total = BURANO_POPCOUNT(s.building_deck)
        bits = s.building_deck
        while bits:
            actions[n] = A_CH_BUILDING + BURANO_CTZ(bits)
            probs[n] = 1.0 / <double>total
            n += 1
            bits &= bits - 1
    elif kind == CK_ROOF_TILE:
        if not 0 <= s.chance_arg < NUM_ROOF_KINDS:    # a malformed position: no outcome, no stray read
            return 0
        bits = s.roof_stack[s.chance_arg]
        total = BURANO_POPCOUNT(bits)
        while bits:
            actions[n] = A_CH_ROOF + BURANO_CTZ(bits)
            probs[n] = 1.0 / <double>total
            n += 1
            bits &= bits - 1
    else:
        for i in range(NUM_MARKER_MAPPINGS):
            actions[n] = A_CH_MARKERS + i
            probs[n] = 1.0 / <double>NUM_MARKER_MAPPINGS
            n += 1
    return n


cdef int sample_chance_c(const GameC* g, const StateC* s, Rng* rng) noexcept nogil:
    """Draw a chance outcome with its probability (exact integer weights).

    Returns -1 when the chance node offers no outcome (an empty deck or stack: only a malformed
    position has one); callers treat it as a dead end instead of applying garbage.
    """
    cdef int kind = s.chance_kind, i, r
    cdef uint32_t bits
    if kind == CK_FISH_DRAW or kind == CK_FISH_REFILL:
        if s.fish_deck_total <= 0:
            return -1
        r = rng_below(rng, s.fish_deck_total)
        for i in range(NUM_SPECIES):
            r -= s.fish_deck[i]
            if r < 0:
                return A_CH_FISH + i
        return A_CH_FISH + NUM_SPECIES - 1
    if kind == CK_BUILDING_DRAW or kind == CK_BUILDING_REFILL:
        bits = s.building_deck
        if bits == 0:
            return -1
        r = rng_below(rng, BURANO_POPCOUNT(bits))
        while r > 0:
            bits &= bits - 1
            r -= 1
        return A_CH_BUILDING + BURANO_CTZ(bits)
    if kind == CK_ROOF_TILE:
        if not 0 <= s.chance_arg < NUM_ROOF_KINDS:
            return -1
        bits = s.roof_stack[s.chance_arg]
        if bits == 0:
            return -1
        r = rng_below(rng, BURANO_POPCOUNT(bits))
        while r > 0:
            bits &= bits - 1
            r -= 1
        return A_CH_ROOF + BURANO_CTZ(bits)
    return A_CH_MARKERS + <int>rng_below(rng, NUM_MARKER_MAPPINGS)


cdef int current_player_c(const StateC* s) noexcept nogil:
    if s.phase == PH_GAME_OVER:
        return TERMINAL_PLAYER
    if s.phase == PH_CHANCE_NODE:
        return CHANCE_PLAYER
    return s.actor
