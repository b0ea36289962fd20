# Burano behind the C game interface (burano_ai.core._game): the pyramid prior, the order of finish,
# the turn id, and `BURANO_OPS`, the function table that `State` hands to the native search.
# Included by _core.pyx (Cython `include`) after the hot path, so every wrapper below is a static
# function of the same C unit as the function it wraps and gcc inlines the one into the other: the
# search pays one indirect call per rules call, as it did when it cimported these functions.

# ================================================================================================
# The pyramid prior (burano_ai.games.burano.pyramid.colour_prior, in C)
# ================================================================================================

cdef enum:
    MAX_MARKER_ACTIONS = 8            # > every marker action id (data.turn.ACTIONS)

cdef double PRIOR_ACTION_BONUS[MAX_MARKER_ACTIONS]   # pyramid.ACTION_BONUS by action id (0 elsewhere)
cdef double PRIOR_ROOF_BONUS = 0.0                   # pyramid.ROOF_BONUS
cdef double PRIOR_LACE_KEEP_BONUS = 0.0              # pyramid.LACE_KEEP_BONUS
cdef int PRIOR_FIRST_UPPER = 0                       # pyramid.FIRST_UPPER


def _init_prior_tables():
    """Copy the prior's weights from `burano_ai.games.burano.pyramid` (run once at import)."""
    global PRIOR_ROOF_BONUS, PRIOR_LACE_KEEP_BONUS, PRIOR_FIRST_UPPER
    cdef int i
    for i in range(MAX_MARKER_ACTIONS):
        PRIOR_ACTION_BONUS[i] = 0.0
    for action, bonus in _pyramid.ACTION_BONUS.items():
        _require(0 <= action < MAX_MARKER_ACTIONS, f"marker action {action} out of range")
        PRIOR_ACTION_BONUS[action] = bonus
    PRIOR_ROOF_BONUS = _pyramid.ROOF_BONUS
    PRIOR_LACE_KEEP_BONUS = _pyramid.LACE_KEEP_BONUS
    PRIOR_FIRST_UPPER = _pyramid.FIRST_UPPER


cdef int pyramid_prior_c(const GameC* g, const StateC* s, int player, const int* legal, int n,
                         double* out) noexcept nogil:
    """The pyramid prior of `player` over `legal` (PYRAMID actions) into `out`; 1, or 0 outside the
    pyramid phase (the game has no prior there). `pyramid.colour_prior` in C, the same arithmetic in
    the same order: on the upper positions the colour's marker action and the seat's roof tiles
    showing it count, on the base its lace workers on squares of that colour (only the features the
    position needs are read: the search samples other seats' cubes with this in its hot loop)."""
    cdef const PlayerC* pl = &s.players[player]
    cdef int roof[NUM_COLOURS]
    cdef int lace[NUM_COLOURS]
    cdef int i, c, j, tile, a, b
    cdef bint upper = pl.pyramid_count >= PRIOR_FIRST_UPPER
    cdef uint32_t squares
    cdef double w, total = 0.0
    if s.phase != PH_PYRAMID:
        return 0
    for c in range(NUM_COLOURS):
        roof[c] = 0
        lace[c] = 0
    if upper:
        for j in range(NUM_ROOF_SLOTS):
            tile = pl.roof_slots[j]
            if tile >= 0:
                a = T.roof_pair[tile % NUM_ROOF_PAIRS][0]
                b = T.roof_pair[tile % NUM_ROOF_PAIRS][1]
                roof[a] += 1
                if b != a:                # a tile counts once per colour it shows
                    roof[b] += 1
    else:
        squares = pl.workshop_mask
        while squares:
            c = g.sq_colour[BURANO_CTZ(squares)]
            if c >= 0:
                lace[c] += 1
            squares &= squares - 1
    for i in range(n):
        w = 1.0
        c = legal[i] - A_PYRAMID
        if upper:
            w += PRIOR_ACTION_BONUS[s.markers[c]] + PRIOR_ROOF_BONUS * roof[c]
        elif lace[c]:
            w += PRIOR_LACE_KEEP_BONUS
        out[i] = w
        total += w
    for i in range(n):
        out[i] = out[i] / total
    return 1


# ================================================================================================
# The order of finish and the turn id
# ================================================================================================

cdef void outcome_c(const StateC* s, double* scores, double* shares) noexcept nogil:
    """VP as scores; shares by the order of finish (most VP, then prep-area cubes, then coins; the k
    tied winners 1/k each), of a finished game or of a dead end scored where it stopped."""
    cdef int p, nwin = 0
    cdef int best_vp = -1, best_prep = -1, best_coins = -1
    cdef const PlayerC* pl
    for p in range(s.num_players):
        pl = &s.players[p]
        scores[p] = pl.vp
        if pl.vp > best_vp or (pl.vp == best_vp and (pl.prep_total > best_prep or (
                pl.prep_total == best_prep and pl.coins > best_coins))):
            best_vp = pl.vp
            best_prep = pl.prep_total
            best_coins = pl.coins
    for p in range(s.num_players):
        pl = &s.players[p]
        if pl.vp == best_vp and pl.prep_total == best_prep and pl.coins == best_coins:
            nwin += 1
    for p in range(s.num_players):
        pl = &s.players[p]
        shares[p] = 1.0 / nwin if (pl.vp == best_vp and pl.prep_total == best_prep
                                   and pl.coins == best_coins) else 0.0


cdef int64_t turn_id_c(const StateC* s) noexcept nogil:
    """The turn the pending decision belongs to (the C interface's `turn_id`), or NO_TURN.

    A turn of the rounds is (season, round, actor): in the rounds only `A_DONE` at the turn's main
    decision changes the actor or the round (`end_turn`), so every step inside a turn (its action
    steps and chance events) keeps the id and `done` changes it. A seat's pyramid is (season, actor) in
    the pyramid phase: it ends when the phase or the seat to move changes. Every other decision
    (setup and clean-up steps) belongs to no turn. Together: "the id changes across an edge" is exactly
    the rule the search used before the interface (tests/test_search_native.py checks it).
    """
    if s.phase == PH_PYRAMID:
        return (<int64_t>2 << 32) | (<int64_t>s.season << 8) | <int64_t>s.actor
    if s.stage == ST_ROUNDS and s.phase != PH_GAME_OVER:
        return (<int64_t>1 << 32) | (<int64_t>s.season << 16) | (<int64_t>s.round << 8) | <int64_t>s.actor
    return NO_TURN


# ================================================================================================
# BURANO_OPS: the C game interface (wrappers with the GameOpsC signatures)
# ================================================================================================

cdef int ops_num_players(const void* game) noexcept nogil:
    return (<const GameC*>game).num_players


cdef int ops_current_player(const void* game, const void* state) noexcept nogil:
    return current_player_c(<const StateC*>state)


cdef int ops_legal_actions(const void* game, const void* state, int* out) noexcept nogil:
    return legal_actions_c(<const GameC*>game, <const StateC*>state, out)


cdef void ops_apply_action(const void* game, void* state, int action) noexcept nogil:
    apply_action_c(<const GameC*>game, <StateC*>state, action)


cdef int ops_sample_chance(const void* game, const void* state, Rng* rng) noexcept nogil:
    return sample_chance_c(<const GameC*>game, <const StateC*>state, rng)


cdef int ops_chance_outcomes(const void* game, const void* state, int* actions, double* probs) noexcept nogil:
    return chance_outcomes_c(<const GameC*>game, <const StateC*>state, actions, probs)


cdef int ops_chance_kind(const void* game, const void* state) noexcept nogil:
    return (<const StateC*>state).chance_kind


cdef void ops_resample(const void* game, void* state, int seat, Rng* rng) noexcept nogil:
    resample_c(<const GameC*>game, <StateC*>state, seat, rng)


cdef int ops_playout(const void* game, void* state, Rng* rng, int policy) noexcept nogil:
    # The search only scores the world after its playout: the key playout_c leaves stale is not read.
    cdef int status = playout_c(<const GameC*>game, <StateC*>state, rng,
                                POLICY_HEURISTIC if policy == OPS_POLICY_HEURISTIC else POLICY_RANDOM)
    if status >= 0:
        return status
    return OPS_PLAYOUT_CAPPED if status == PLAYOUT_CAPPED else OPS_PLAYOUT_DEAD_END


cdef void ops_outcome(const void* game, const void* state, double* scores, double* shares) noexcept nogil:
    outcome_c(<const StateC*>state, scores, shares)


cdef int ops_decision_mode(const void* game, const void* state) noexcept nogil:
    return DECISION_SECRET if (<const StateC*>state).phase == PH_PYRAMID else DECISION_OPEN


cdef int ops_prior(const void* game, const void* state, int player, const int* legal, int n,
                   double* out) noexcept nogil:
    return pyramid_prior_c(<const GameC*>game, <const StateC*>state, player, legal, n, out)


cdef int64_t ops_turn_id(const void* game, const void* state) noexcept nogil:
    return turn_id_c(<const StateC*>state)


cdef uint64_t ops_full_key(const void* game, const void* state) noexcept nogil:
    return full_key_c(<const GameC*>game, <const StateC*>state)


cdef uint64_t ops_info_key(const void* game, const void* state, int seat) noexcept nogil:
    return info_key_c(<const GameC*>game, <const StateC*>state, seat)


cdef int ops_consistent(const void* game, const void* state) noexcept nogil:
    return state_consistent(<const GameC*>game, <const StateC*>state)


cdef int ops_is_offered(const void* game, const void* state, int action) noexcept nogil:
    return is_offered_c(<const GameC*>game, <const StateC*>state, action)


cdef GameOpsC BURANO_OPS


def _init_ops():
    """Fill `BURANO_OPS` (run once at import, after the tables: the action count comes from them)."""
    BURANO_OPS.abi_version = GAME_ABI_VERSION
    BURANO_OPS.state_size = sizeof(StateC)
    BURANO_OPS.num_actions = NUM_ACTIONS
    BURANO_OPS.max_legal = NUM_ACTIONS
    BURANO_OPS.min_players = 2
    BURANO_OPS.max_players = MAX_PLAYERS
    BURANO_OPS.num_players = ops_num_players
    BURANO_OPS.current_player = ops_current_player
    BURANO_OPS.legal_actions = ops_legal_actions
    BURANO_OPS.apply_action = ops_apply_action
    BURANO_OPS.sample_chance = ops_sample_chance
    BURANO_OPS.chance_outcomes = ops_chance_outcomes
    BURANO_OPS.chance_kind = ops_chance_kind
    BURANO_OPS.resample = ops_resample
    BURANO_OPS.playout = ops_playout
    BURANO_OPS.outcome = ops_outcome
    BURANO_OPS.decision_mode = ops_decision_mode
    BURANO_OPS.prior = ops_prior
    BURANO_OPS.turn_id = ops_turn_id
    BURANO_OPS.full_key = ops_full_key        # Burano's key is not kept during playouts: always recomputed
    BURANO_OPS.recompute_key = ops_full_key
    BURANO_OPS.consistent = ops_consistent
    BURANO_OPS.is_offered = ops_is_offered
    BURANO_OPS.info_key = ops_info_key
    BURANO_OPS.encoder_version = BU_ENCODER_VERSION       # _encode.pxi
    BURANO_OPS.num_features = bu_num_features
    BURANO_OPS.encode = bu_encode
    _require(<int>CHANCE_PLAYER == <int>OPS_CHANCE_PLAYER and <int>TERMINAL_PLAYER == <int>OPS_TERMINAL_PLAYER
             and <int>MAX_PLAYERS <= <int>MAX_SEATS and NUM_MARKER_MAPPINGS <= NUM_ACTIONS, "the C game interface")
