# The Python-facing State glue the compiled game cores share (goofspiel, azul_sintra, walking_in_burano,
# venice_2099): legal actions and chance outcomes as lists, the playout policy, checks, chance sampling
# and playouts around the game's C functions, unpickling, and the module's `playouts`. A textual include (Cython cannot include into a class body, so
# a State's methods call these): the game's _core.pyx includes it after its State class, having named
#
#     ctypedef <its C state struct> CoreStateC     (unless its ops section did, for core/_ops_glue.pxi)
#     CORE_GAME_KEY = "<its key>"        (for error messages)
#     cdef enum:
#         CORE_MAX_LEGAL = <its most legal actions>
#         CORE_MAX_OUTCOMES = <its most chance outcomes>
#
# and having defined, as every core does: `Game` and `State(NativeState)` (`.game.g`, `.s`, `bind`,
# `scores`, `to_position`), `current_player_c`, `legal_actions_c`, `chance_outcomes_c`, `playout_c`,
# `outcome_c`, `full_key_c`, `sample_chance_c`, `_parse_seat`, `_check_seed` and `_U64`. Burano's core is
# older and differs (its own keyless flag, playout status codes and freelist): it does not include this.
# The helpers a game may not call are inline (no unused-function warning). A game's prior, heuristics and
# playout policy stay in its own file.

from burano_ai.core._game cimport MAX_SEATS


cdef int playout_policy(policy) except -1:
    """The playout policy id (the C interface's OPS_POLICY_*): 0 for "random", 1 for "heuristic"."""
    if policy not in ("random", "heuristic"):
        raise OptionError(f"unknown playout policy {policy!r} (expected random or heuristic)")
    return 1 if policy == "heuristic" else 0


cdef list legal_action_list(State state, player):
    """`State.legal_actions`: the seat to move's legal actions, sorted; [] at chance nodes and at the end,
    and with `player` (a 0-based int or a seat letter) when that seat is not to move."""
    cdef int buf[CORE_MAX_LEGAL]
    cdef int n, i
    if player is not None and _parse_seat(player, state.s.num_players, "player") != current_player_c(&state.s):
        return []
    n = legal_actions_c(&state.game.g, &state.s, buf)
    return [buf[i] for i in range(n)]


cdef list chance_outcome_list(State state):
    """`State.chance_outcomes`: (outcome, probability) of the pending chance event; [] off chance nodes."""
    cdef int actions[CORE_MAX_OUTCOMES]
    cdef double probs[CORE_MAX_OUTCOMES]
    cdef int n = chance_outcomes_c(&state.game.g, &state.s, actions, probs), i
    return [(actions[i], probs[i]) for i in range(n)]


cdef inline check_incremental_key(State state):
    """`State.check`: AssertionError naming the first broken invariant (the key, then `Position.check`)."""
    if state.s.key != full_key_c(&state.game.g, &state.s):
        raise AssertionError("state inconsistent: the incremental key differs from its recomputation")
    state.to_position().check()


cdef inline sample_chance_of(State state, seed):
    """`State.sample_chance`: a chance outcome drawn by the C sampler seeded `seed`, or -1 off chance nodes."""
    cdef Rng rng
    rng_seed(&rng, <uint64_t>(_check_seed(seed) & _U64))
    return sample_chance_c(&state.game.g, &state.s, &rng)


cdef playout_in_place(State state, seed, policy):
    """`State.playout`: play `state` to the end in place (C loop, no GIL); return its scores."""
    cdef Rng rng
    cdef int steps, pid = playout_policy(policy)
    rng_seed(&rng, <uint64_t>(_check_seed(seed) & _U64))
    with nogil:
        steps = playout_c(&state.game.g, &state.s, &rng, pid)
    if steps < 0:
        raise RuntimeError(f"{CORE_GAME_KEY} playout failed: a malformed position")
    return state.scores()


def _state_from_bytes(Game game, bytes data):
    """Unpickle a State (its raw struct, see State.__reduce__)."""
    cdef State st = State.__new__(State)
    if len(data) != sizeof(CoreStateC):
        raise PositionError(f"pickled state from another build of {__name__}")
    st.bind(game)
    memcpy(&st.s, <const char*>data, sizeof(CoreStateC))
    return st


def playouts(State state, count, seed=0, policy="random"):
    """Play `count` games from copies of `state` in C (playout i seeded seed + i).

    Returns (total steps applied, summed returns per seat). A benchmark and smoke-test helper.
    """
    count = _check_seed(count, "count")
    if not 0 <= count <= 1_000_000_000:
        raise OptionError(f"count must lie in 0..1000000000, not {count}")
    cdef Rng rng
    cdef CoreStateC work
    cdef int p, steps = 0
    cdef long i, games = count, total = 0
    cdef double scores[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef double wins[MAX_SEATS]
    cdef uint64_t base = <uint64_t>(_check_seed(seed) & _U64)
    cdef int pid = playout_policy(policy)
    for p in range(MAX_SEATS):
        wins[p] = 0.0
    with nogil:
        for i in range(games):
            work = state.s
            rng_seed(&rng, base + <uint64_t>i)
            steps = playout_c(&state.game.g, &work, &rng, pid)
            if steps < 0:
                break
            total += steps
            outcome_c(&state.game.g, &work, scores, shares)
            for p in range(state.s.num_players):
                wins[p] += shares[p]
    if steps < 0:
        raise RuntimeError(f"{CORE_GAME_KEY} playout failed: a malformed position")
    return total, [wins[p] for p in range(state.s.num_players)]
