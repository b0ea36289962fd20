"""A test helper: walk any compiled State through its C game interface only (`GameOpsC`), as the native search does.

It reads nothing of a game but the `NativeState` fields (`ops`, `game_ptr`, `state_ptr`) and calls
only the function pointers of `ops`, on its own copies of the state (`state_size` bytes, memcpy), so
tests can hold a game's ops against its Python API and reference model without the native search
(tests/test_goofspiel_core.py). It is game-agnostic; it lives with Goofspiel, the game that first
needed it.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from burano_ai._rng cimport Rng, rng_below, rng_seed
from burano_ai.core._game cimport GAME_ABI_VERSION, MAX_SEATS, OPS_CHANCE_PLAYER, OPS_TERMINAL_PLAYER, GameOpsC, NativeState

from burano_ai.core.seeds import check_seed


cdef class _Copy:
    """An owned copy of a NativeState's C state (freed with the object)."""
    cdef const GameOpsC* ops
    cdef const void* game
    cdef void* state

    def __dealloc__(self):
        free(self.state)


cdef int check_ops(NativeState st) except -1:
    if st.ops == NULL or st.game_ptr == NULL or st.state_ptr == NULL or st.ops.abi_version != GAME_ABI_VERSION:
        raise ValueError("not a bound NativeState of this C game interface version")
    return 0


cdef _Copy copy_of(NativeState st):
    cdef _Copy c = _Copy.__new__(_Copy)
    check_ops(st)
    c.ops = st.ops
    c.game = st.game_ptr
    c.state = malloc(st.ops.state_size)
    if c.state == NULL:
        raise MemoryError()
    memcpy(c.state, st.state_ptr, st.ops.state_size)
    return c


def describe(NativeState st):
    """The constants of the state's ops and its game's player count."""
    check_ops(st)
    cdef const GameOpsC* ops = st.ops
    return {"abi_version": ops.abi_version, "state_size": ops.state_size, "num_actions": ops.num_actions,
            "max_legal": ops.max_legal, "min_players": ops.min_players, "max_players": ops.max_players,
            "num_players": ops.num_players(st.game_ptr)}


cdef dict node(_Copy c, int num_players):
    """Everything the ops say of the node `c.state`."""
    cdef const GameOpsC* ops = c.ops
    cdef int* legal = <int*>malloc(sizeof(int) * ops.max_legal)
    cdef int* outs = <int*>malloc(sizeof(int) * ops.max_legal)
    cdef double* probs = <double*>malloc(sizeof(double) * ops.max_legal)
    cdef double prior[64]
    cdef double scores[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef int n, m, i, player, has_prior = 0
    try:
        player = ops.current_player(c.game, c.state)
        n = ops.legal_actions(c.game, c.state, legal)
        m = ops.chance_outcomes(c.game, c.state, outs, probs)
        if ops.prior != NULL and 0 < n <= 64:
            has_prior = ops.prior(c.game, c.state, player, legal, n, prior)
        ops.outcome(c.game, c.state, scores, shares)
        return {
            "player": player,
            "legal": [legal[i] for i in range(n)],
            "chance": [(outs[i], probs[i]) for i in range(m)],
            "chance_kind": ops.chance_kind(c.game, c.state),
            "decision_mode": ops.decision_mode(c.game, c.state),
            "turn_id": ops.turn_id(c.game, c.state),
            "key": ops.full_key(c.game, c.state),
            "info_keys": [ops.info_key(c.game, c.state, i) for i in range(num_players)],
            "prior": [prior[i] for i in range(n)] if has_prior else None,
            "scores": [scores[i] for i in range(num_players)],
            "shares": [shares[i] for i in range(num_players)],
        }
    finally:
        free(legal)
        free(outs)
        free(probs)


def walk(NativeState st, seed, int max_steps=10000):
    """Play a copy of `st` to the end through the ops: chance by `sample_chance`, decisions uniformly.

    Returns (nodes, actions): `node` dicts of every node visited (the last is the end) and the action
    applied after each but the last.
    """
    cdef _Copy c = copy_of(st)
    cdef const GameOpsC* ops = c.ops
    cdef Rng rng
    cdef int num_players = ops.num_players(c.game), a, steps = 0
    nodes, actions = [], []
    rng_seed(&rng, <uint64_t>(check_seed(seed) & 0xFFFF_FFFF_FFFF_FFFF))
    while True:
        info = node(c, num_players)
        nodes.append(info)
        if info["player"] == OPS_TERMINAL_PLAYER:
            return nodes, actions
        if steps >= max_steps:
            raise RuntimeError("walk: the game did not end within max_steps")
        if info["player"] == OPS_CHANCE_PLAYER:
            a = ops.sample_chance(c.game, c.state, &rng)
            if a < 0:
                raise RuntimeError("walk: a chance node without outcome")
        else:
            if not info["legal"]:
                raise RuntimeError("walk: a decision without legal action")
            a = info["legal"][rng_below(&rng, len(info["legal"]))]
        ops.apply_action(c.game, c.state, a)
        actions.append(a)
        steps += 1


def playout(NativeState st, seed, int policy=0):
    """`ops.playout` on a copy of `st`: (status, scores, shares, key of the final state)."""
    cdef _Copy c = copy_of(st)
    cdef Rng rng
    cdef double scores[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef int status, n = c.ops.num_players(c.game), i
    rng_seed(&rng, <uint64_t>(check_seed(seed) & 0xFFFF_FFFF_FFFF_FFFF))
    with nogil:
        status = c.ops.playout(c.game, c.state, &rng, policy)
        c.ops.outcome(c.game, c.state, scores, shares)
    return status, [scores[i] for i in range(n)], [shares[i] for i in range(n)], c.ops.full_key(c.game, c.state)


def resample_key(NativeState st, int seat, seed):
    """`ops.resample(seat)` on a copy of `st` seeded `seed`; returns the copy's full key (or None if NULL)."""
    cdef _Copy c = copy_of(st)
    cdef Rng rng
    if c.ops.resample == NULL:
        return None
    rng_seed(&rng, <uint64_t>(check_seed(seed) & 0xFFFF_FFFF_FFFF_FFFF))
    c.ops.resample(c.game, c.state, seat, &rng)
    return c.ops.full_key(c.game, c.state)
