# The C game interface's wrappers (`GameOpsC`, core/_game.pxd) that are the same in every compiled core
# but Burano's (goofspiel, azul_sintra, walking_in_burano and venice_2099 include it): each casts the
# interface's void pointers to the game's structs and calls the game's C
# function of the same name. A textual include: the game's _core.pyx includes it in its "C game
# interface" section, having named
#
#     ctypedef <its C game struct> CoreGameC
#     ctypedef <its C state struct> CoreStateC
#     cdef enum:
#         CORE_PLAYOUT_CAPPED = <its playout's step-limit status>
#         CORE_PLAYOUT_DEAD_END = <its playout's dead-end status>
#
# and having defined current_player_c, legal_actions_c, apply_action_c, sample_chance_c,
# chance_outcomes_c, playout_c, outcome_c and full_key_c. It fills its table with `fill_common_ops(&ITS_OPS)`, then
# its own slots: num_actions, max_legal, the player range, chance_kind, resample, decision_mode, prior,
# turn_id, info_key, and consistent or is_offered if it has them (what differs between games, with the prior and heuristics, stays in its file).

cdef int ops_num_players(const void* game) noexcept nogil:
    return (<const CoreGameC*>game).num_players

cdef int ops_current_player(const void* game, const void* state) noexcept nogil:
    return current_player_c(<const CoreStateC*>state)

cdef int ops_legal_actions(const void* game, const void* state, int* out) noexcept nogil:
    return legal_actions_c(<const CoreGameC*>game, <const CoreStateC*>state, out)

cdef void ops_apply_action(const void* game, void* state, int action) noexcept nogil:
    apply_action_c(<const CoreGameC*>game, <CoreStateC*>state, action)

cdef int ops_sample_chance(const void* game, const void* state, Rng* rng) noexcept nogil:
    return sample_chance_c(<const CoreGameC*>game, <const CoreStateC*>state, rng)

cdef int ops_chance_outcomes(const void* game, const void* state, int* actions, double* probs) noexcept nogil:
    return chance_outcomes_c(<const CoreGameC*>game, <const CoreStateC*>state, actions, probs)

cdef int ops_playout(const void* game, void* state, Rng* rng, int policy) noexcept nogil:
    cdef int steps = playout_c(<const CoreGameC*>game, <CoreStateC*>state, rng, policy)
    if steps == CORE_PLAYOUT_CAPPED:
        return OPS_PLAYOUT_CAPPED
    if steps == CORE_PLAYOUT_DEAD_END:
        return OPS_PLAYOUT_DEAD_END
    return steps

cdef void ops_outcome(const void* game, const void* state, double* scores, double* shares) noexcept nogil:
    outcome_c(<const CoreGameC*>game, <const CoreStateC*>state, scores, shares)

cdef uint64_t ops_full_key(const void* game, const void* state) noexcept nogil:
    return (<const CoreStateC*>state).key

cdef uint64_t ops_recompute_key(const void* game, const void* state) noexcept nogil:
    return full_key_c(<const CoreGameC*>game, <const CoreStateC*>state)


cdef void fill_common_ops(GameOpsC* ops) noexcept:
    """The slots of `ops` that every core fills alike: the ABI version, the state's size, the wrappers above."""
    ops.abi_version = GAME_ABI_VERSION
    ops.state_size = sizeof(CoreStateC)
    ops.num_players = ops_num_players
    ops.current_player = ops_current_player
    ops.legal_actions = ops_legal_actions
    ops.apply_action = ops_apply_action
    ops.sample_chance = ops_sample_chance
    ops.chance_outcomes = ops_chance_outcomes
    ops.playout = ops_playout
    ops.outcome = ops_outcome
    ops.full_key = ops_full_key
    ops.recompute_key = ops_recompute_key
