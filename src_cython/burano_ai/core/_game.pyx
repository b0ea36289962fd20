"""The C game interface (`_game.pxd`): `NativeState`, the base class of every compiled State.

Installed as `burano_ai.core._game`. A compiled game's State extends `NativeState`, points its three
fields at its function table, its Game's constant tables and its own C struct (`bind`), and inherits
the whole game-independent Python face of the State API from here, written once over the table:
turn and chance queries, legal actions and chance outcomes, the checked `apply_action` and `play`,
clones and pickles, keys and information keys, resampling, priors, decision modes and turn ids,
outcome shares, consistency checks, chance sampling and playouts. A game's own `_core.pyx` adds only
what is its own: its C struct and rules, its ops table, its fields, its move texts (`action_to_string`,
`string_to_action`, `where`), its scores and order of finish, and its position conversions
(`to_position`, `to_dict`, `from_position`). `burano_ai.search._native` reads nothing but the table.
"""

cimport cython
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from cpython.long cimport PyLong_AsLongAndOverflow

from burano_ai._build cimport BURANO_DEBUG_BUILD
from burano_ai._rng cimport Rng, rng_seed

import json

from burano_ai.core.arguments import check_action_id, check_indent, check_index
from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.game import check_prior_arguments
from burano_ai.core.seats import parse_seat
from burano_ai.core.seeds import check_seed

cdef object _U64 = (1 << 64) - 1


cdef int playout_policy(policy) except -1:
    """The playout policy id (OPS_POLICY_*): 0 for "random", 1 for "heuristic"."""
    if policy not in ("random", "heuristic"):
        raise OptionError(f"unknown playout policy {policy!r} (expected random or heuristic)")
    return OPS_POLICY_HEURISTIC if policy == "heuristic" else OPS_POLICY_RANDOM


cdef object playout_error(int status):
    """The exception for a playout that did not reach the end (OPS_PLAYOUT_CAPPED or _DEAD_END)."""
    if status == OPS_PLAYOUT_DEAD_END:
        return PositionError("the playout reached a decision with no legal action or a chance node with "
                             "no outcome: the position is malformed")
    return RuntimeError("playout did not end within the step limit")


cdef inline void seed_rng(Rng* rng, seed) except *:
    rng_seed(rng, <uint64_t>(check_seed(seed) & _U64))


@cython.no_gc       # its only object field (a subclass's Game) never refers back to a State
cdef class NativeState:
    """Base of compiled States: the C game interface (`ops`) with the game and state it works on, and the
    Python face of the State API every compiled game shares (`burano_ai.core.game.State`)."""

    cdef void bind(self, object game) except *:
        raise TypeError(f"{type(self).__name__} does not bind to a Game (a compiled State must override bind)")

    cdef NativeState copy(self):
        cdef NativeState st = <NativeState>type(self).__new__(type(self))
        st.bind(self.game)
        memcpy(st.state_ptr, self.state_ptr, self.ops.state_size)
        return st

    # --- the interface itself

    @property
    def abi_version(self):
        """The C game interface version the game was built for (`GAME_ABI_VERSION`)."""
        return self.ops.abi_version if self.ops != NULL else 0

    @property
    def native_num_actions(self):
        """Distinct action ids of the game, as the C interface declares them."""
        return self.ops.num_actions if self.ops != NULL else 0

    @property
    def game_name(self):
        """The game's registry key, as its C game interface names it (None before binding)."""
        if self.ops == NULL or self.ops.name == NULL:
            return None
        return (<bytes>self.ops.name).decode("ascii")

    @property
    def num_players(self):
        return self.ops.num_players(self.game_ptr)

    # --- whose turn

    def current_player(self):
        """The seat to move (0-based), CHANCE (-1) at a chance node or TERMINAL (-4) at the end."""
        return self.ops.current_player(self.game_ptr, self.state_ptr)

    def is_terminal(self):
        return self.ops.current_player(self.game_ptr, self.state_ptr) == OPS_TERMINAL_PLAYER

    def is_chance_node(self):
        return self.ops.current_player(self.game_ptr, self.state_ptr) == OPS_CHANCE_PLAYER

    def legal_actions(self, player=None):
        """The legal actions of the seat to move, sorted; [] at chance nodes and at the end.

        With `player` (a 0-based int or a seat letter), the actions if that seat is to move, else [].

        Raises:
            TypeError / OptionError: `player` is not a seat of this game (`core.seats.parse_seat`).
        """
        cdef int* buf
        cdef int n, i
        if player is not None and parse_seat(player, self.num_players, "player") != self.current_player():
            return []
        buf = <int*>malloc(self.ops.max_legal * sizeof(int))
        if buf == NULL:
            raise MemoryError()
        try:
            n = self.ops.legal_actions(self.game_ptr, self.state_ptr, buf)
            return [buf[i] for i in range(n)]
        finally:
            free(buf)

    def chance_outcomes(self):
        """(outcome, probability) of each outcome of the pending chance event; [] off chance nodes."""
        cdef int* actions
        cdef double* probs
        cdef int n, i
        actions = <int*>malloc(self.ops.max_legal * sizeof(int))
        probs = <double*>malloc(self.ops.max_legal * sizeof(double))
        try:
            if actions == NULL or probs == NULL:
                raise MemoryError()
            n = self.ops.chance_outcomes(self.game_ptr, self.state_ptr, actions, probs)
            return [(actions[i], probs[i]) for i in range(n)]
        finally:
            free(actions)
            free(probs)

    def chance_outcome_actions(self):
        """The outcome ids of the pending chance event; [] off chance nodes."""
        return [a for a, _ in self.chance_outcomes()]

    def sample_chance(self, seed):
        """A chance outcome drawn by the C sampler seeded `seed` (the state is not changed), or -1 off chance nodes."""
        cdef Rng rng
        seed_rng(&rng, seed)
        if not self.is_chance_node():
            return -1
        return self.ops.sample_chance(self.game_ptr, self.state_ptr, &rng)

    # --- moves

    cpdef bint offers(self, action) except -1:
        """Whether `action` (an int) is a legal action here or, at a chance node, an offered outcome."""
        cdef int a, n, i, player
        cdef int* buf
        cdef double* probs
        if not 0 <= action < self.ops.num_actions:
            return False
        a = action
        player = self.ops.current_player(self.game_ptr, self.state_ptr)
        if player == OPS_TERMINAL_PLAYER:
            return False
        if self.ops.is_offered != NULL:
            return self.ops.is_offered(self.game_ptr, self.state_ptr, a)
        buf = <int*>malloc(self.ops.max_legal * sizeof(int))
        probs = <double*>malloc(self.ops.max_legal * sizeof(double))
        try:
            if buf == NULL or probs == NULL:
                raise MemoryError()
            if player == OPS_CHANCE_PLAYER:
                n = self.ops.chance_outcomes(self.game_ptr, self.state_ptr, buf, probs)
            else:
                n = self.ops.legal_actions(self.game_ptr, self.state_ptr, buf)
            for i in range(n):
                if buf[i] == a:
                    return True
            return False
        finally:
            free(buf)
            free(probs)

    cdef object offered_ids(self):
        if self.is_terminal():
            return None
        return self.chance_outcome_actions() if self.is_chance_node() else self.legal_actions()

    cdef object illegal_error(self, action, text):
        offered = self.offered_ids()
        if offered is None:
            return IllegalMoveError(f"illegal move {text or action!r}: the game is over")
        in_range = 0 <= action < self.game.num_distinct_actions()
        shown = text if text is not None else (self.action_to_string(action) if in_range else f"action {action}")
        listed = ", ".join(self.action_to_string(a) for a in offered[:12])
        more = ", ..." if len(offered) > 12 else ""
        return IllegalMoveError(f"illegal move {shown!r} {self.where()}: legal are {listed}{more}")

    cdef void apply_checked(self, action, text) except *:
        if not self.offers(action):
            raise self.illegal_error(action, text)
        self.ops.apply_action(self.game_ptr, self.state_ptr, <int>action)
        if BURANO_DEBUG_BUILD and not self.is_consistent():
            raise AssertionError(f"{self.game_name} state inconsistent after apply_action")

    def apply_action(self, action):
        """Apply a legal action or, at a chance node, an offered chance outcome.

        Raises:
            TypeError: `action` is not an int (a bool or a float is no action id; numpy integers are).
            IllegalMoveError: not legal here, not an offered outcome, or the game is over; the state
                is left untouched.
        """
        cdef int overflow = 0
        if type(action) is int:
            PyLong_AsLongAndOverflow(action, &overflow)
        if overflow or type(action) is not int:
            action = check_action_id(action)      # an int that fits a C long needs no other check
        self.apply_checked(action, None)

    def play(self, text):
        """Parse a move text, check it and apply it; return its action id (IllegalMoveError, state untouched)."""
        action = self.string_to_action(text)
        self.apply_checked(action, text.strip())
        return action

    def clone(self):
        return self.copy()

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_native_state_from_bytes,
                (type(self), self.game, (<char*>self.state_ptr)[:self.ops.state_size]))

    def to_json(self, seat=None, indent=None):
        """The position as JSON (`to_dict`): the full position, or what `seat` sees."""
        indent = check_indent(indent)
        return json.dumps(self.to_dict(seat), indent=indent)

    # --- outcome

    def returns(self):
        """Each seat's share of the win at the end (1/k for each of k winners, 0 for the others); zeros before."""
        cdef double scores[MAX_SEATS]
        cdef double shares[MAX_SEATS]
        cdef int p, n = self.num_players
        if not self.is_terminal():
            return [0.0] * n
        self.ops.outcome(self.game_ptr, self.state_ptr, scores, shares)
        return [shares[p] for p in range(n)]

    # --- how the search treats the pending decision

    def decision_mode(self):
        """DecisionMode.SECRET (1) for a secret simultaneous choice, OPEN (0) otherwise."""
        return self.ops.decision_mode(self.game_ptr, self.state_ptr)

    def prior(self, player, legal):
        """The game's prior {action: probability} of `player` over `legal`, or None (none here, a chance node,
        the end, `player` not deciding, `legal` empty).

        Raises:
            TypeError / OptionError: a bad seat or id list (`core.game.check_prior_arguments`).
        """
        cdef int* buf
        cdef double* out
        cdef int i, n, ok
        player, legal = check_prior_arguments(self, player, legal)   # legal ids only: none past a buffer
        if legal is None or self.ops.prior == NULL:
            return None
        n = len(legal)
        buf = <int*>malloc(n * sizeof(int))
        out = <double*>malloc(n * sizeof(double))
        try:
            if buf == NULL or out == NULL:
                raise MemoryError()
            for i in range(n):
                buf[i] = legal[i]
            ok = self.ops.prior(self.game_ptr, self.state_ptr, player, buf, n, out)
            return {buf[i]: out[i] for i in range(n)} if ok else None
        finally:
            free(buf)
            free(out)

    def turn_id(self):
        """The turn the pending decision belongs to (an edge ends its chooser's turn when it changes), or
        NO_TURN (-1) for decisions outside turns."""
        return self.ops.turn_id(self.game_ptr, self.state_ptr)

    # --- keys, information sets, resampling, checks

    def key(self):
        """The 64-bit Zobrist key of the position (equal positions, equal keys)."""
        return self.ops.full_key(self.game_ptr, self.state_ptr)

    def full_key(self):
        """The key recomputed from the fields alone (equals `key()`)."""
        return self.ops.recompute_key(self.game_ptr, self.state_ptr)

    def information_state_key(self, seat):
        """A 64-bit key equal for all states `seat` cannot tell apart (what `to_dict(seat)` shows).

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game (an int or a letter, `parse_seat`).
        """
        return self.ops.info_key(self.game_ptr, self.state_ptr, parse_seat(seat, self.num_players))

    def resample(self, seat, seed):
        """A copy with everything `seat` cannot see replaced by a sample consistent with its view (a plain
        copy in a game of perfect information)."""
        cdef Rng rng
        cdef NativeState out
        cdef int p = parse_seat(seat, self.num_players)
        seed_rng(&rng, seed)
        out = self.copy()
        if self.ops.resample != NULL:
            self.ops.resample(self.game_ptr, out.state_ptr, p, &rng)
        return out

    def rewind_secret(self, seat):
        """A copy with the other seats' secret choices of the pending round that were made before `seat`'s
        own (pending) taken back, so that the round starts again from its first chooser; None when the
        game has no such choices here (`GameOpsC.rewind_secret`). `seat` sees that they chose, not what:
        the copy shows it nothing it could not see."""
        cdef NativeState out
        cdef int p = parse_seat(seat, self.num_players)
        if self.ops.rewind_secret == NULL:
            return None
        out = self.copy()
        if not self.ops.rewind_secret(self.game_ptr, out.state_ptr, p):
            return None
        return out

    cdef bint is_consistent(self):
        if self.ops.consistent != NULL:
            return self.ops.consistent(self.game_ptr, self.state_ptr)
        return self.ops.full_key(self.game_ptr, self.state_ptr) == self.ops.recompute_key(self.game_ptr, self.state_ptr)

    def check(self):
        """Raise AssertionError naming the first broken invariant: what the game keeps incrementally (its
        key, counts, derived fields), then the position's own (`Position.check`)."""
        if not self.is_consistent():
            raise AssertionError("state inconsistent: the incremental key or derived fields differ from "
                                 "their recomputation")
        self.to_position().check()

    # --- playouts

    def playout(self, seed=0, policy="random"):
        """Play this state to the end in place (C loop, no GIL); return the final scores.

        Chance nodes are sampled with their probabilities; `policy` is "random" (uniform over legal
        actions) or "heuristic" (the game's playout policy). Same seed, same game.
        """
        cdef Rng rng
        cdef int status, pid = playout_policy(policy)
        seed_rng(&rng, seed)
        with nogil:
            status = self.ops.playout(self.game_ptr, self.state_ptr, &rng, pid)
        if status < 0:
            raise playout_error(status)
        return self.scores()

    # --- the learned evaluation's encoder

    @property
    def encoder_version(self):
        """The version of the game's encoder (`encode`), 0 when the game has none."""
        return self.ops.encoder_version if self.ops != NULL and self.ops.encode != NULL else 0

    @property
    def num_features(self):
        """How many numbers `encode` writes (0 when the game has no encoder)."""
        if self.ops == NULL or self.ops.encode == NULL:
            return 0
        return self.ops.num_features(self.game_ptr)

    def encode(self, seat):
        """The encoder's features of this whole state from `seat`'s side (a list of floats), as the native
        search computes them at a leaf of the world it sampled (seats in relative order: `seat` first).

        Raises:
            OptionError: the game has no encoder, or `seat` is not a seat of this game.
            TypeError: `seat` is not an int.
        """
        cdef int n, p, i
        cdef float* buf
        if self.ops == NULL or self.ops.encode == NULL:
            raise OptionError("this game has no encoder (no learned evaluation reads it)")
        n = self.ops.num_players(self.game_ptr)
        p = check_index(seat, n, "seat")
        size = self.ops.num_features(self.game_ptr)
        buf = <float*>malloc(size * sizeof(float))
        if buf == NULL:
            raise MemoryError()
        try:
            memset(buf, 0, size * sizeof(float))
            self.ops.encode(self.game_ptr, self.state_ptr, p, buf)
            return [buf[i] for i in range(size)]
        finally:
            free(buf)


def _native_state_from_bytes(cls, game, bytes data):
    """Unpickle a compiled State (its raw struct, see NativeState.__reduce__)."""
    cdef NativeState st = <NativeState>cls.__new__(cls)
    st.bind(game)
    if len(data) != st.ops.state_size:
        raise PositionError(f"pickled state from another build of {cls.__module__}")
    memcpy(st.state_ptr, <const char*>data, st.ops.state_size)
    return st


def playouts(NativeState state, count, seed=0, policy="random"):
    """Play `count` games from copies of `state` in C (playout i seeded seed + i).

    Returns (total actions applied, summed returns per seat). A benchmark and smoke-test helper.
    """
    count = check_seed(count, "count")
    if not 0 <= count <= 1_000_000_000:
        raise OptionError(f"count must lie in 0..1000000000, not {count}")
    cdef Rng rng
    cdef const GameOpsC* ops = state.ops
    cdef int p, status = 0, n = state.num_players
    cdef long i, games = count, total = 0
    cdef double scores[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef double wins[MAX_SEATS]
    cdef uint64_t base = <uint64_t>(check_seed(seed) & _U64)
    cdef int pid = playout_policy(policy)
    cdef char* work = <char*>malloc(ops.state_size)
    if work == NULL:
        raise MemoryError()
    for p in range(MAX_SEATS):
        wins[p] = 0.0
    try:
        with nogil:
            for i in range(games):
                memcpy(work, state.state_ptr, ops.state_size)
                rng_seed(&rng, base + <uint64_t>i)
                status = ops.playout(state.game_ptr, work, &rng, pid)
                if status < 0:
                    break
                total += status
                ops.outcome(state.game_ptr, work, scores, shares)
                for p in range(n):
                    wins[p] += shares[p]
    finally:
        free(work)
    if status < 0:
        raise playout_error(status)
    return total, [wins[p] for p in range(n)]
