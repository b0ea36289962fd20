# The C game interface: what the native search (burano_ai.search._native) may know of a game.
#
# A compiled game fills one `GameOpsC` (a plain struct of function pointers, like a C vtable) with
# static wrappers around its own hot functions, and its State class extends `NativeState`, which
# carries a pointer to those ops, to the game's constant tables and to the state's own C struct.
# The tree calls only these pointers: it never cimports a game, never reads a game's struct fields,
# and sizes every buffer from the ops. A cimported cdef function was already called through a
# pointer (Cython imports it as a capsule at module init), so the indirection costs nothing new.
#
# Every function runs without the GIL and never raises. `game` is the game's constant data for one
# player count (const), `state` points at `state_size` bytes that a copy may duplicate with memcpy.
# Unchecked: `apply_action` expects a legal action or chance outcome of `state`.

from libc.stdint cimport int64_t, uint64_t
from burano_ai._rng cimport Rng


cdef enum:
    GAME_ABI_VERSION = 4         # bumped whenever GameOpsC changes; the tree refuses other versions
                                 # (2: the encoder slots name, encoder_version, num_features, encode;
                                 # 3: recompute_key, consistent and is_offered, for NativeState's Python face)
    MAX_SEATS = 6                # the framework's seats A-F; a game declares its own range within it

    # Special players (current_player), as burano_ai.core.seats.
    OPS_CHANCE_PLAYER = -1
    OPS_TERMINAL_PLAYER = -4

    # How the pending decision is searched (decision_mode).
    DECISION_OPEN = 0            # the seat to move chooses in the open: a tree edge for every seat
    DECISION_SECRET = 1          # a secret simultaneous choice (Burano's pyramids, Goofspiel's bids):
                                 # a tree edge for the searching seat, sampled from `prior` for the others

    # turn_id of a decision that belongs to no turn (its edge never ends one).
    NO_TURN = -1

    # Playout policies and results.
    OPS_POLICY_RANDOM = 0
    OPS_POLICY_HEURISTIC = 1
    OPS_PLAYOUT_CAPPED = -1      # playout: it hit the game's step limit (a bug or an impossible position)
    OPS_PLAYOUT_DEAD_END = -2    # playout: a decision with no legal action or chance with no outcome


ctypedef struct GameOpsC:
    int abi_version              # GAME_ABI_VERSION of the game's build
    size_t state_size            # bytes of the game's C state (a copy is a memcpy of this many)
    int num_actions              # action ids (and chance outcome ids) are 0 .. num_actions - 1
    int max_legal                # most legal actions or chance outcomes at one node (<= num_actions)
    int min_players              # the game's player range (within 1 .. MAX_SEATS)
    int max_players

    int (*num_players)(const void* game) noexcept nogil
    # A seat 0..n-1, OPS_CHANCE_PLAYER or OPS_TERMINAL_PLAYER.
    int (*current_player)(const void* game, const void* state) noexcept nogil
    # Writes the legal actions in increasing order; returns their number (0 at chance or the end).
    int (*legal_actions)(const void* game, const void* state, int* out) noexcept nogil
    void (*apply_action)(const void* game, void* state, int action) noexcept nogil
    # A chance outcome drawn with its probability, or -1 when there is none (a malformed position).
    int (*sample_chance)(const void* game, const void* state, Rng* rng) noexcept nogil
    # Writes the outcomes and their probabilities; returns their number.
    int (*chance_outcomes)(const void* game, const void* state, int* actions, double* probs) noexcept nogil
    # What kind of chance event is pending, 0..6 (the plan shows it; a game with one kind says 0).
    int (*chance_kind)(const void* game, const void* state) noexcept nogil
    # Replaces in place everything `seat` cannot see by a sample consistent with its view.
    # NULL: the game has perfect information apart from future chance.
    void (*resample)(const void* game, void* state, int seat, Rng* rng) noexcept nogil
    # Plays to the end with `policy` (OPS_POLICY_*); returns the number of actions and chance outcomes
    # it applied (>= 0: it reached the end), or OPS_PLAYOUT_CAPPED / OPS_PLAYOUT_DEAD_END. The state is only
    # scored afterwards: a game may leave what scoring does not read (its key) stale.
    int (*playout)(const void* game, void* state, Rng* rng, int policy) noexcept nogil
    # Scores (the game's points, for margins) and shares (the one order of finish: each winner
    # 1/k of the win, the others 0) of a finished game, or of a dead end scored where it stopped.
    void (*outcome)(const void* game, const void* state, double* scores, double* shares) noexcept nogil
    # DECISION_OPEN or DECISION_SECRET for the pending decision.
    int (*decision_mode)(const void* game, const void* state) noexcept nogil
    # The game's prior over `legal` (n actions of `player`, in order) written to `out` (summing to 1);
    # returns 1, or 0 when it has none here (NULL: never). Secret choices of other seats are sampled
    # from it; the search's progressive bias uses it for the searching seat's own decisions.
    int (*prior)(const void* game, const void* state, int player, const int* legal, int n,
                 double* out) noexcept nogil
    # The turn the pending decision belongs to: an edge ends its chooser's turn when the id after it
    # differs from the id before it (plans and horizons stop there); NO_TURN for decisions outside turns.
    int64_t (*turn_id)(const void* game, const void* state) noexcept nogil
    # Zobrist key of the whole state, and of what `seat` sees (equal views, equal keys).
    uint64_t (*full_key)(const void* game, const void* state) noexcept nogil
    uint64_t (*info_key)(const void* game, const void* state, int seat) noexcept nogil
    # The key recomputed from the fields alone (`State.full_key()`; equals `full_key` on a sound state).
    uint64_t (*recompute_key)(const void* game, const void* state) noexcept nogil
    # 1 when everything the game keeps incrementally (its key, counts, derived fields) equals its
    # recomputation, else 0 (`State.check()`; NULL: the key alone is compared).
    int (*consistent)(const void* game, const void* state) noexcept nogil
    # 1 when `action` (0 <= action < num_actions) is a legal action or, at a chance node, an offered
    # outcome (`State.apply_action`'s check; NULL: looked up in legal_actions / chance_outcomes).
    int (*is_offered)(const void* game, const void* state, int action) noexcept nogil
    # Takes back in place the other seats' secret choices of the pending round of secret choices that
    # were made before `seat`'s own, which is pending (`seat` sees that they chose, not what), so that the
    # round starts again from its first chooser; returns 1 when it took any back, else 0. The search with
    # the other seats' bandits (`Params.secret` "ucb" or "exp3") calls it on each sampled world, so that
    # those choices are made by the bandits of the round too, not drawn by `resample`. NULL: never.
    int (*rewind_secret)(const void* game, void* state, int seat) noexcept nogil

    # The encoder (burano_ai.learn, docs/learning.md): what a position is, as numbers, for a learned
    # evaluation. `name` is the game's registry key (a net file names the game it was trained for).
    # `encoder_version` 0 and `encode` NULL: the game has none. `num_features(game)` floats are written
    # by `encode` from `seat`'s side: seats in relative order (`seat` first, then the next seat in
    # turn order), padded with zeros to the game's most players, so one net serves every seat. It reads
    # the whole state it is given: the search passes only the world it sampled, never the true one.
    const char* name
    int encoder_version
    int (*num_features)(const void* game) noexcept nogil
    void (*encode)(const void* game, const void* state, int seat, float* out) noexcept nogil


cdef class NativeState:
    """The base of every compiled State: what the native search reads of it, and the whole Python face of
    the State API written once over `ops` (a game adds its fields, text and position conversions)."""
    cdef const GameOpsC* ops     # the game's function table (static, lives as long as the module)
    cdef const void* game_ptr    # the game's constant tables (owned by the subclass's Game object)
    cdef void* state_ptr         # the subclass's own C state (`ops.state_size` bytes)

    # The subclass points the three fields above at its table, `game`'s constant tables and its own
    # struct, and keeps `game` as its `game` attribute (wherever a State is made or changes Game).
    cdef void bind(self, object game) except *
    # A new State of the same class and Game holding a copy of this state (a memcpy of the struct).
    cdef NativeState copy(self)
    # The IllegalMoveError for `action` (typed as `text`, or None) here; a game may word its own.
    cdef object illegal_error(self, action, text)
    # What apply_action takes here: the chance outcomes at a chance node, the legal actions at a
    # decision, None at the end (for the illegal-move messages).
    cdef object offered_ids(self)
    # The checked apply every public path shares: IllegalMoveError (state untouched) or apply.
    cdef void apply_checked(self, action, text) except *
    # Whether `action` is legal here, or an offered outcome at a chance node (any int; False out of range).
    cpdef bint offers(self, action) except -1
    # What the game keeps incrementally equals its recomputation (`ops.consistent`, else the key).
    cdef bint is_consistent(self)
