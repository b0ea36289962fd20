# The C interface of burano_ai.games.burano._core that other compiled modules use: the hot-path functions on a
# position (legal actions, apply, chance, playout, resample, keys) and the Game/State classes that own
# one.  The vocabulary (sizes, enums, StateC, GameC) is in _types.pxd; the implementation is
# _core.pyx and the .pxi files it includes.

from libc.stdint cimport uint64_t
from burano_ai._rng cimport Rng
from burano_ai.core._game cimport NativeState
from burano_ai.games.burano._types cimport GameC, StateC


# Hot-path C API (no Python objects, no GIL).  Unchecked: `apply_action_c`
# expects a legal action or chance outcome (the Python `State.apply_action` checks first).
cdef int legal_actions_c(const GameC* g, const StateC* s, int* out) noexcept nogil
cdef void apply_action_c(const GameC* g, StateC* s, int action) noexcept nogil
cdef int chance_outcomes_c(const GameC* g, const StateC* s, int* actions, double* probs) noexcept nogil
cdef int sample_chance_c(const GameC* g, const StateC* s, Rng* rng) noexcept nogil
cdef int choose_action_c(const GameC* g, const StateC* s, Rng* rng, int policy, int* buf) noexcept nogil
cdef int playout_c(const GameC* g, StateC* s, Rng* rng, int policy) noexcept nogil
cdef void resample_c(const GameC* g, StateC* s, int seat, Rng* rng) noexcept nogil
cdef uint64_t full_key_c(const GameC* g, const StateC* s) noexcept nogil
cdef uint64_t info_key_c(const GameC* g, const StateC* s, int seat) noexcept nogil
cdef int current_player_c(const StateC* s) noexcept nogil


cdef class Game:
    cdef GameC g
    cdef readonly int num_players
    cdef readonly object layout         # topology.WorkshopLayout


cdef class State(NativeState):
    # NativeState's fields: `ops` = &BURANO_OPS, `state_ptr` = &s, `game_ptr` = &game.g (set wherever a
    # State is made or gets its Game, so the native search can run it through the C game interface).
    cdef StateC s                       # code that writes `s` in place must clear `legal_known`
    cdef readonly Game game
    # The last `legal_actions()` of this very position as a bit set, so that the checked
    # `apply_action` that usually follows costs a bit test instead of a second move generation.
    cdef bint legal_known
    cdef uint64_t legal_bits[32]        # MAX_ACTIONS / 64

    @staticmethod
    cdef State wrap(Game game, const StateC* s)
    cdef void bind(self, object game) except *
    cdef NativeState copy(self)
    cdef void apply_checked(self, action, text) except *
    cdef void apply_unchecked(self, int action) except *     # C callers only: `action` must be legal
    cdef object illegal_error(self, action, text)
