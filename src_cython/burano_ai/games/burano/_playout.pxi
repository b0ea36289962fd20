# Search support: resampling what a seat cannot see, the heuristic playout policy, the playout to the
# end of the game, and the debug-build consistency checks run after every applied action.
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Resampling
# ================================================================================================

cdef void shuffle_prefix(int8_t* items, int n, int k, Rng* rng) noexcept nogil:
    """Make items[0..k) a uniform random sample-in-order of items[0..n) (partial Fisher-Yates)."""
    cdef int i, j
    cdef int8_t t
    for i in range(k if k < n - 1 else n - 1):
        j = i + <int>rng_below(rng, n - i)
        t = items[i]
        items[i] = items[j]
        items[j] = t


cdef void resample_c(const GameC* g, StateC* s, int seat, Rng* rng) noexcept nogil:
    """Replace what `seat` cannot know with a uniform consistent sample (notation.resample_hidden).

    The unseen fish cards (deck + other seats' blind cards) are dealt again, each other seat keeping its
    number of blind cards; during pyramid construction each other seat's cubes (pyramid + reserve) are
    shuffled and the first `placed` fill its pyramid positions in order. Keeps information_state_key(seat).
    The pools are laid out in species/colour order before shuffling, so the sample depends only on what
    `seat` knows and the seed, not on the hidden truth.
    """
    cdef int8_t pool[128]   # every cube of the game (120) or fish card (48)
    cdef int counts[MAX_PLAYERS]
    cdef int unseen[NUM_SPECIES]
    cdef int cubes[NUM_COLOURS]
    cdef int n = 0, dealt = 0, q, sp, j, c, placed, total
    cdef PlayerC* pl
    for sp in range(NUM_SPECIES):
        unseen[sp] = s.fish_deck[sp]
    for q in range(s.num_players):
        counts[q] = 0
        if q == seat:
            continue
        pl = &s.players[q]
        for sp in range(NUM_SPECIES):
            unseen[sp] += pl.hand_blind[sp]
            counts[q] += pl.hand_blind[sp]
            add_hand_blind(s, q, sp, -pl.hand_blind[sp])
        dealt += counts[q]
    if dealt:
        for sp in range(NUM_SPECIES):
            for j in range(unseen[sp]):
                pool[n] = <int8_t>sp
                n += 1
        shuffle_prefix(pool, n, dealt, rng)
        j = 0
        for q in range(s.num_players):
            for c in range(counts[q]):
                add_hand_blind(s, q, pool[j], 1)
                j += 1
        for sp in range(NUM_SPECIES):
            s.fish_deck[sp] = 0
        for j in range(dealt, n):
            s.fish_deck[pool[j]] += 1
    if s.stage == ST_PYRAMID:
        for q in range(s.num_players):
            pl = &s.players[q]
            placed = pl.pyramid_count
            if q == seat or placed == 0:
                continue
            for c in range(NUM_COLOURS):
                cubes[c] = pl.reserve[c]
                add_reserve(s, q, c, -pl.reserve[c])
            for j in range(PYRAMID_SIZE):
                if pl.pyramid[j] >= 0:
                    cubes[pl.pyramid[j]] += 1
                    set_pyramid(s, q, j, EMPTY)
            total = 0
            for c in range(NUM_COLOURS):
                for j in range(cubes[c]):
                    pool[total] = <int8_t>c
                    total += 1
            shuffle_prefix(pool, total, placed, rng)
            for j in range(placed):
                set_pyramid(s, q, j, pool[j])
            for j in range(placed, total):
                add_reserve(s, q, pool[j], 1)


# ================================================================================================
# Playouts
# ================================================================================================

cdef int swap_gain(const StateC* s, int p, int pick, int partner) noexcept nogil:
    """Matches at the trip's island after swapping `pick` with `partner` (-1: with its best partner)."""
    cdef int island = T.node_island[s.sail_target], best = 0, n, k, m
    cdef int partners[NUM_ISLANDS * NUM_COLOURS]
    cdef int arr[3]
    cdef int8_t there[DOCKS_PER_ISLAND]
    if partner >= 0:
        partners[0] = partner
        n = 1
    else:
        n = swap_partners(s, p, island, pick, partners, 0)
    arrows(&s.players[p], arr)
    for k in range(n):
        island_after_swap(s, island, pick, partners[k], there)
        m = dock_matches(there, arr)
        if m > best:
            best = m
    return best


cdef inline int done_score(const StateC* s) noexcept nogil:
    if s.phase == PH_TURN:
        # The first move of a turn gains a coin: never end a turn before it.
        return -10 if s.moves == 0 else 2
    return 1


cdef inline int take_score(const PlayerC* pl) noexcept nogil:
    return 8 if pl.prep_total == 0 else 3


cdef inline int build_score(const StateC* s, int p, int colour) noexcept nogil:
    """Every build of one colour scores the same: by the action the colour maps to."""
    cdef int act = s.markers[colour]
    if act == ACT_FISHING or act == ACT_LACE:
        return 12 if s.players[p].ring_workers > 1 else 4
    return 10 if workers_off_ring(s, p) > 0 else 6


cdef inline int priv_coin_score(const StateC* s, const PlayerC* pl) noexcept nogil:
    # Worth it only when the next move is not affordable otherwise.
    if s.moves < T.max_moves and pl.coins + T.move_costs[s.moves] < 0 <= pl.coins + 1 + T.move_costs[s.moves]:
        return 9
    return -20


cdef inline int colour_score(const StateC* s, int colour) noexcept nogil:
    """A pyramid or replenishment cube: a colour that maps to fishing or lace first."""
    cdef int act = s.markers[colour]
    return 3 if act == ACT_FISHING or act == ACT_LACE else 1


cdef enum:
    ROOF_SCORE = 30
    GO_SCORE = 5
    SWAP_SCORE_MAX = -8           # -20 + 4 * (at most 3 matches): below GO_SCORE
    PRIVILEGE_SPENT_SCORE = -20   # privilege is kept (it is worth a coin at the end) rather than spent on a whim


cdef int heuristic_score(const GameC* g, const StateC* s, int action) noexcept nogil:
    """Cheap action preference of the "heuristic" playout policy (higher is better).

    Scoring actions first: roofs, sales by their VP, builds whose colour maps to an action that can be
    done now (fishing/lace need a spare ring worker, earning is best with workers to recall), fishing
    trips by matches (an island reachable only with a privilege swap last), sailing on (`go`) rather than
    swapping docks, lace placements (coin squares first), paying lace workers; pyramid and replenish
    colours that map to fishing or lace; a turn never ends before its first move (which gains a coin)
    while any move is legal; privilege is spent only on a coin that makes the next move affordable, or on
    the dock swap a trip needs (the one giving the most matches).
    """
    cdef int fam = T.action_family[action], i = T.action_index[action], p = s.actor, colour, act
    cdef const PlayerC* pl = &s.players[p]
    if fam == F_DONE:
        return done_score(s)
    if fam == F_SELL:
        return 20 + T.sale_vp[i]
    if fam == F_ROOF:
        return ROOF_SCORE
    if fam == F_BUILD:
        return build_score(s, p, i // NUM_HOLES)
    if fam == F_TAKE:
        return take_score(pl)
    if fam == F_PRIV_COIN:
        return priv_coin_score(s, pl)
    if fam == F_PRIV_CUBE or fam == F_LACE_PRIV or fam == F_PRIV_RESERVE:
        return PRIVILEGE_SPENT_SCORE
    if fam == F_SAIL:
        if T.node_island[i] >= 0:
            colour = matches(s, p, T.node_island[i])
            return 5 + 3 * colour if colour else 1   # m = 0: the trip needs a privilege swap
        return 6
    if fam == F_GO:
        return GO_SCORE
    if fam == F_SWAP_PICK or fam == F_SWAP_WITH:
        # Kept rare like every privilege use; when a swap must be made (m = 0), the one that gives the
        # trip the most matches.
        return -20 + 4 * swap_gain(s, p, i if fam == F_SWAP_PICK else s.swap_pick,
                                   -1 if fam == F_SWAP_PICK else i)
    if fam == F_DRAW_DISPLAY:
        return 3 + pl.hand_known[i] + pl.hand_blind[i]
    if fam == F_DRAW_DECK:
        return 3
    if fam == F_SEND:
        return 2 + i
    if fam == F_LACE:
        return 5 + g.sq_coin[i]
    if fam == F_RECALL_ISLAND or fam == F_RECALL_SQUARE:
        return 0
    if fam == F_BONUS_DISPLAY:
        return 4
    if fam == F_BONUS_DECK:
        return 3
    if fam == F_BONUS_PRIVILEGE:
        return 2
    if fam == F_PAY:
        return 0 if i == PAY_NONE else 5
    if fam == F_PYRAMID or fam == F_REPLENISH:
        return colour_score(s, i)
    if fam == F_ROOF_DISCARD:
        return 0
    if fam == F_ROOF_KIND:
        return 3 if i == KIND_FLAT else 2
    return 0


cdef int choose_listed_c(const GameC* g, const StateC* s, Rng* rng, int policy, int* buf) noexcept nogil:
    """Pick the next action of a playout at a decision from its written legal list (`buf`, MAX_ACTIONS ints).

    Returns -1 at a dead end: a decision with no legal action (only a malformed position has one).
    """
    cdef int n
    n = legal_actions_c(g, s, buf)
    if n <= 0:
        return -1
    if n == 1:
        return buf[0]
    # The heuristic policy still explores: one decision in 8 is uniform.
    if policy == POLICY_RANDOM or (rng_next(rng) & 7) == 0:
        return buf[rng_below(rng, n)]
    return heuristic_pick(g, s, rng, buf, n)


cdef int heuristic_pick(const GameC* g, const StateC* s, Rng* rng, const int* buf, int n) noexcept nogil:
    """The heuristic policy's pick among the `n` listed actions `buf`: the best score, ties broken
    uniformly by reservoir sampling (one rng_below per tie, in list order)."""
    cdef int i, best, score, ties, pick
    best = -1000000
    ties = 0
    pick = buf[0]
    for i in range(n):
        score = heuristic_score(g, s, buf[i])
        if score > best:
            best = score
            ties = 1
            pick = buf[i]
        elif score == best:
            ties += 1
            if rng_below(rng, ties) == 0:   # reservoir sampling: uniform among the best
                pick = buf[i]
    return pick


cdef inline void reservoir_block(Rng* rng, int score, int m, int first, int* best, int* ties, int* pick) noexcept nogil:
    """Feed `m` consecutive entries (list indices first..first+m-1) that all score `score` to the
    reservoir sampling of choose_listed_c: the same comparisons and the same RNG draws, in order."""
    cdef int i = 0
    if m <= 0 or score < best[0]:
        return
    if score > best[0]:
        best[0] = score
        ties[0] = 1
        pick[0] = first
        i = 1
    while i < m:
        ties[0] += 1
        if rng_below(rng, ties[0]) == 0:
            pick[0] = first + i
        i += 1


cdef int choose_turn_c(const StateC* s, Rng* rng, int policy) noexcept nogil:
    """choose_listed_c at a turn's main decision (PH_TURN), without writing the legal list.

    The families of the decision (turn_families) give the count n, so the uniform pick is the same
    rng_below(n) draw and turn_action_at finds the action; the heuristic scores a family at a time
    (every take scores the same, every build of one colour, every roof) and feeds each family's block
    of list entries to the same reservoir sampling. Same action, same RNG draws as the listed path
    (test_playout_lockstep checks it).
    """
    cdef TurnFamiliesC f
    cdef int n = turn_families(s, &f), p = s.actor, first, best, ties, pick, slot, roofs = 0
    cdef uint32_t colours
    cdef const PlayerC* pl = &s.players[p]
    if n == 1:
        return A_DONE
    if policy == POLICY_RANDOM or (rng_next(rng) & 7) == 0:
        return turn_action_at(&f, <int>rng_below(rng, n))
    best = -1000000
    ties = 0
    pick = 0
    reservoir_block(rng, done_score(s), 1, 0, &best, &ties, &pick)
    first = 1
    reservoir_block(rng, take_score(pl), BURANO_POPCOUNT(f.takes), first, &best, &ties, &pick)
    first += BURANO_POPCOUNT(f.takes)
    colours = f.build_colours
    while colours:
        reservoir_block(rng, build_score(s, p, BURANO_CTZ(colours)), f.holes_n, first, &best, &ties, &pick)
        first += f.holes_n
        colours &= colours - 1
    for slot in range(NUM_ROOF_SLOTS):
        roofs += f.roofs_n[slot]
    reservoir_block(rng, ROOF_SCORE, roofs, first, &best, &ties, &pick)
    first += roofs
    if f.priv:
        reservoir_block(rng, priv_coin_score(s, pl), 1, first, &best, &ties, &pick)
        first += 1
        reservoir_block(rng, PRIVILEGE_SPENT_SCORE, BURANO_POPCOUNT(f.cube_colours) * BURANO_POPCOUNT(f.cube_positions),
                        first, &best, &ties, &pick)
    return turn_action_at(&f, pick)


cdef int choose_colour_c(const StateC* s, Rng* rng, int policy, const int8_t* counts, int base) noexcept nogil:
    """choose_listed_c at a decision among colours, without writing the list: the pyramid's (a reserve
    cube) and the replenishment's (a supply cube), whose legal actions are `base` + each colour with
    counts[colour] > 0, in colour order. The same draws: rng_below(n) for a uniform pick, and for the
    heuristic each colour's score fed to the reservoir sampling in list order (test_playout_lockstep
    checks it against the listed path)."""
    cdef uint32_t colours = 0, rest
    cdef int c, n, best = -1000000, ties = 0, pick = 0
    for c in range(NUM_COLOURS):
        if counts[c] > 0:
            colours |= 1u << c
    n = BURANO_POPCOUNT(colours)
    if n == 0:
        return -1
    if n == 1:
        return base + BURANO_CTZ(colours)
    if policy == POLICY_RANDOM or (rng_next(rng) & 7) == 0:
        return base + nth_bit(colours, <int>rng_below(rng, n))
    rest = colours
    while rest:
        c = BURANO_CTZ(rest)
        rest &= rest - 1
        reservoir_block(rng, colour_score(s, c), 1, c, &best, &ties, &pick)   # the entry's label: its colour
    return base + pick


cdef int choose_swap_c(const GameC* g, const StateC* s, Rng* rng, int policy, int* buf) noexcept nogil:
    """choose_listed_c at a dock-swap decision without scoring swaps that cannot win.

    Every swap scores at most SWAP_SCORE_MAX, below `go` (GO_SCORE), which sorts first in the list
    when it is legal: after it no swap wins or ties (no reservoir draw), so the heuristic's pick is
    `go`. The uniform pick (and a decision without `go`) takes the listed path.
    """
    cdef int n = legal_actions_c(g, s, buf)
    if n <= 0:
        return -1
    if n == 1:
        return buf[0]
    if policy == POLICY_RANDOM or (rng_next(rng) & 7) == 0:
        return buf[rng_below(rng, n)]
    if buf[0] == A_GO:
        return A_GO
    return heuristic_pick(g, s, rng, buf, n)


cdef int choose_action_c(const GameC* g, const StateC* s, Rng* rng, int policy, int* buf) noexcept nogil:
    """Pick the next action of a playout (samples chance nodes); `buf` holds MAX_ACTIONS ints.

    Returns -1 at a dead end: a decision with no legal action or a chance node with no outcome (only
    a malformed position has one).
    """
    if s.phase == PH_CHANCE_NODE:
        return sample_chance_c(g, s, rng)
    if s.phase == PH_TURN:
        return choose_turn_c(s, rng, policy)
    if s.phase == PH_PYRAMID:
        return choose_colour_c(s, rng, policy, s.players[s.actor].reserve, A_PYRAMID)
    if s.phase == PH_REPLENISH:
        return choose_colour_c(s, rng, policy, s.supply, A_REPLENISH)
    if s.phase == PH_FISH_SWAP:
        return choose_swap_c(g, s, rng, policy, buf)
    return choose_listed_c(g, s, rng, policy, buf)


cdef int playout_c(const GameC* g, StateC* s, Rng* rng, int policy) noexcept nogil:
    """Play `s` to the end in place; return the number of actions applied.

    Returns PLAYOUT_CAPPED (-1) if the step cap was hit, PLAYOUT_DEAD_END (-2) if a decision had no
    legal action or a chance node no outcome (a malformed position; `s` is left there).

    The Zobrist key is not maintained on the way (a fifth of a random playout's work went into it, and
    a playout's state is only scored): `s.key` is stale on return, and a caller that keeps `s` sets it
    with `full_key_c` (State.playout does). Debug builds keep the key, to check it after every action.
    """
    cdef int buf[MAX_ACTIONS]
    cdef int steps = 0, action
    s.keyless = not BURANO_DEBUG_BUILD
    while s.phase != PH_GAME_OVER:
        if steps >= MAX_PLAYOUT_STEPS:
            steps = PLAYOUT_CAPPED
            break
        action = choose_action_c(g, s, rng, policy, buf)
        if action < 0:
            steps = PLAYOUT_DEAD_END
            break
        apply_action_c(g, s, action)
        debug_check(g, s)
        steps += 1
    s.keyless = 0
    return steps


# ================================================================================================
# Debug-build checks
# ================================================================================================

cdef int g_debug_errors = 0   # debug builds: apply_action_c calls whose key or derived counts went wrong


cdef bint state_consistent(const GameC* g, const StateC* s) noexcept nogil:
    """The incremental key equals the full key, and every derived field equals its recomputation."""
    cdef StateC copy = s[0]
    if s.key != full_key_c(g, s):
        return False
    recompute_derived(g, &copy)
    return memcmp(&copy, s, sizeof(StateC)) == 0


cdef extern from "<string.h>":
    int memcmp(const void* a, const void* b, size_t n) noexcept nogil


cdef inline void debug_check(const GameC* g, const StateC* s) noexcept nogil:
    global g_debug_errors
    if BURANO_DEBUG_BUILD:
        if not state_consistent(g, s):
            g_debug_errors += 1


def _take_debug_errors():
    global g_debug_errors
    cdef int n = g_debug_errors
    g_debug_errors = 0
    if n:
        raise AssertionError(f"burano_ai.games.burano._core: {n} state(s) with an incremental key or derived count "
                             "different from its recomputation (debug build check)")
