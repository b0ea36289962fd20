"""The SO-ISMCTS iteration loop in C: `NativeSearcher`, the native tree of `burano_ai.search`.

Installed as `burano_ai.search._native`. It imports only the leaf modules of the search (`params`,
`tree`), never `ismcts`, which imports it (`ismcts.make_searcher` chooses this tree), and no game: it
reaches a game only through the C game interface (`burano_ai.core._game`: the root is a `NativeState`,
whose `ops` table of function pointers answers every rules question), so it runs any game that
implements it. Every buffer is sized from the ops (`state_size`, `num_actions`, `max_legal`, up to
MAX_SEATS players).

It runs the algorithm that `burano_ai.search.ismcts` specifies (its module docstring) and that
`ismcts.Searcher` implements in readable Python, with the whole iteration in C and without the GIL:
resample, selection with availability counts, one expansion, chance and other seats' secret choices
(`DECISION_SECRET`) sampled from the game's prior (not edges; with `params.secret` "ucb" or "exp3" chosen by each
seat's own bandit, `shadow_step`), playout with the game's C playout,
the game's outcome (scores and the order of finish), reward and backpropagation. It supports the
playouts to the end of the game that the game has in C (`Params.native_policy`: the built-in playout
or a `CorePlayout` evaluator); other evaluators (horizons, estimates, custom Python playouts) are
Python code and stay with `ismcts.Searcher` (`ismcts.make_searcher` chooses).

The tree is two flat arrays: `NodeC` records (the statistics of the edge into a node, and its child
list as newest-first sibling links) and an open-addressing hash from (node, action) to child. No
Python object exists per node; `summary()` exports the `tree.export_plan` format. The other seats'
bandits (`params.secret` "ucb" or "exp3") are nodes too: each seat's small tree of its secret choices in a round
hangs under the node where the round began, keyed `num_actions` + the seat in the hash only, never in a
child list, so plans, candidates and summaries never see it (`nodes` counts it).

Threads (``run(threads=T)``): T threads iterate on the one tree (tree parallelism). Each thread has its
own world copy, RNGs and path (`WorkerC`); the tree is guarded by one mutex, held only while a thread
reads or changes it — the lookups and counts of a tree step, the claim of an iteration index, and
backpropagation — never during the resample, the rules calls between tree steps, the UCB arithmetic
(done on a snapshot) or the playout. Every reader holds the mutex, so the arrays may be realloc'ed
under it. Measured with one thread, the mutex is held for 2-4 % of an iteration mid-game and about
25 % in a game's last round, where playouts are short; there threads lose more to contention than
they gain (docs/benchmarks.md), so a threaded run measures its first iterations' CPU time and stays on
one thread when they are shorter than MIN_SHARED_ITERATION_US, or when other work held the cores
meanwhile (MIN_PROBE_CPU_SHARE; `run`). It is an adaptive mutex where
glibc has one: a waiter spins briefly first.

Virtual loss: an edge's visit is counted as soon as a thread takes it (in its next critical section),
its reward only at backpropagation, so while an iteration is in flight its edges look like visits
with reward 0 and the other threads' UCB turns to other edges; when no iteration is in flight every
edge's visits are completed iterations. With one thread this is the same computation in the same order as counting at
backpropagation (an edge is never a UCB candidate while it is on the running iteration's path).
The calling thread is one of the T: it alone handles progress callbacks and signals; the others are
`threading.Thread`s that stop before their next iteration once it asks them to (Ctrl-C, a deadline,
an error).

Randomness: iteration i seeds one `Rng` with ``ismcts.iteration_seed(seed, i)`` for its resample (the
same world as the Python searcher's) and its in-tree sampling; its playout uses a second `Rng` seeded
as the Python searcher seeds its playout. The streams differ from the Python searcher's
(`random.Random` is not used), but with one thread a search is a pure function of (root view, seat,
params, seed, iterations). With T > 1 threads each iteration still claims the next index i from a
shared counter and uses the same seeds, and an iteration budget runs exactly that many iterations, but
which tree statistics an iteration sees depends on the threads' timing: not bit-reproducible.
"""

from libc.math cimport exp, log, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_REALTIME, clock_gettime, timespec
from cpython.exc cimport PyErr_CheckSignals

from burano_ai.core._game cimport (DECISION_SECRET, GAME_ABI_VERSION, GameOpsC, MAX_SEATS, NO_TURN, NativeState,
                                   OPS_CHANCE_PLAYER, OPS_PLAYOUT_CAPPED, OPS_PLAYOUT_DEAD_END,
                                   OPS_POLICY_HEURISTIC, OPS_POLICY_RANDOM, OPS_TERMINAL_PLAYER)
from burano_ai._rng cimport Rng, rng_seed, rng_uniform

import gc as _gc
import threading
import time

from burano_ai.core.errors import OptionError
from burano_ai.search.params import Params
from burano_ai.search.tree import NO_CHANCE as _NO_CHANCE
from burano_ai.search.tree import UNKNOWN as _UNKNOWN
from burano_ai.search.tree import check_root as _check_root


cdef extern from "<pthread.h>" nogil:
    ctypedef struct pthread_mutex_t:
        pass
    int pthread_mutex_destroy(pthread_mutex_t* mutex)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)

cdef extern from *:
    """
    /* The tree lock: critical sections are a few hundred nanoseconds, so a waiter should spin a
       little before it sleeps in the kernel (glibc's adaptive mutex); elsewhere a default mutex. */
    static int burano_tree_lock_init(pthread_mutex_t *mutex) {
    #ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
        pthread_mutexattr_t attr;
        int rc;
        if (pthread_mutexattr_init(&attr) != 0) return -1;
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
        rc = pthread_mutex_init(mutex, &attr);
        pthread_mutexattr_destroy(&attr);
        return rc;
    #else
        return pthread_mutex_init(mutex, NULL);
    #endif
    }
    """
    int burano_tree_lock_init(pthread_mutex_t* mutex) nogil


cdef int _GAME_ABI_VERSION_C = GAME_ABI_VERSION

cdef enum:
    NO_NODE = -1
    NO_CHANCE = -1               # tree.NO_CHANCE
    MAX_CHANCE_KIND = 6          # NodeC.flags keeps a chance kind + 1 in 3 bits
    ROOT = 0
    FIRST_NODES = 1024           # initial node capacity
    FIRST_SLOTS = 2048           # initial hash capacity (a power of two)
    FIRST_PATH = 256             # initial path capacity
    FIRST_PRIORS = 64            # initial prior entry capacity
    # An iteration keeps its world and legal actions on the stack when they fit (they do for Burano:
    # a 1.6 kB state, 1,407 action ids), else in the thread's heap scratch (`WorkerC`).
    STACK_WORLD_WORDS = 1024     # 8 kB of 8-byte words
    STACK_LEGAL = 2048

#: Most threads one `run` accepts.
MAX_THREADS = 256
#: Threads share the tree only when an iteration takes at least this many microseconds of CPU time
#: (`run(threads=T)` measures it on its first PROBE_ITERATIONS iterations, run by the calling thread
#: alone). Shorter iterations spend a large share of their time in the tree's critical sections, and T
#: threads then run slower than one (issue 21: the 2p last round, 5-10 µs an iteration, 0.76-0.93× at
#: 4-16 threads on a 16-core host, 0.80× at 2 here); every bench position outside a game's last round
#: takes 27-190 µs and scales (docs/benchmarks.md, "Threads sharing one tree"). The floor sits between
#: the two with room both ways: last rounds measured 5-7 µs idle and 7-10.5 µs on a loaded machine (load
#: stretches CPU time too: shared caches), the shortest mid-game position 27 µs idle, which a host 1.5×
#: faster would bring to 18 µs.
MIN_SHARED_ITERATION_US = 15.0
#: Iterations the calling thread runs alone at the start of a threaded `run` to measure their length
#: (fewer when the budget is smaller; at most PROBE_SECONDS of wall time).
PROBE_ITERATIONS = 256
PROBE_SECONDS = 0.02
#: A run within this many seconds of the searcher's last probe (with the same floor) reuses its verdict
#: instead of probing again: a streamed search (`engine.suggest(on_report=...)`) runs in chunks of a
#: quarter second, and a probe in each would keep the other threads idle for up to PROBE_SECONDS of it.
REPROBE_SECONDS = 1.0
#: Threads share the tree only when the calling thread got at least this share of a core (CPU time /
#: wall time) while it ran the probe. Less means other work holds the cores: extra threads would then
#: wait for a core, and a thread preempted while it holds the tree's lock stalls the others (measured
#: here with other sessions holding ~90 % of both cores: two threads 0.74-0.88× of one at mid-game,
#: docs/benchmarks.md). OpenMP's dynamic thread count (OMP_DYNAMIC) backs off under load for the same reason.
MIN_PROBE_CPU_SHARE = 0.75
#: The C game interface version this tree was built for (GAME_ABI_VERSION; `NativeState.abi_version`
#: must equal it).
ABI_VERSION = _GAME_ABI_VERSION_C

# Iteration outcomes (nothing under nogil raises: `run` turns these into exceptions).
cdef enum:
    IT_OK = 0
    IT_PLAYOUT_CAP = -1          # the game's playout hit its step limit
    IT_NO_MEMORY = -2

# Batch outcomes of `run_batch`.
cdef enum:
    BATCH_BUDGET = 0             # every iteration of the budget is claimed
    BATCH_DEADLINE = 1           # the deadline passed
    BATCH_PAUSE = 2              # time to report progress / look at signals
    BATCH_ERROR = 3              # an iteration failed (see `error`)
    BATCH_STOPPED = 4            # the run is stopping (another thread failed, Ctrl-C, a deadline)

# The GameOpsC members the iteration loop calls most, as types of local variables.
ctypedef int (*CurrentPlayerFn)(const void* game, const void* state) noexcept nogil
ctypedef int (*LegalActionsFn)(const void* game, const void* state, int* out) noexcept nogil
ctypedef void (*ApplyActionFn)(const void* game, void* state, int action) noexcept nogil
ctypedef int (*SampleChanceFn)(const void* game, const void* state, Rng* rng) noexcept nogil
ctypedef int64_t (*TurnIdFn)(const void* game, const void* state) noexcept nogil

cdef uint64_t MASK_SEED = (1 << 31) - 1    # burano_ai.core.seeds.SEED_MASK
cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL
cdef int8_t UNKNOWN_PLAYER = _UNKNOWN

if _NO_CHANCE != NO_CHANCE:
    raise ImportError("burano_ai.search._native disagrees with burano_ai.search.tree about NO_CHANCE")


# ------------------------------------------------------------------------------------------------
# Seeds (burano_ai.core.seeds.mix64 / derive, bit for bit: iteration_seed(s, i) == seeds.derive(s, i))


cdef inline uint64_t mix_step(uint64_t h, uint64_t v) noexcept nogil:
    cdef uint64_t z
    h = (h ^ v) + GOLDEN
    z = h
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t iteration_seed_c(uint64_t search_seed, uint64_t iteration) noexcept nogil:
    return mix_step(mix_step(GOLDEN, search_seed), iteration) & MASK_SEED


def iteration_seed(search_seed, iteration):
    """`burano_ai.core.seeds.derive(search_seed, iteration)` (= `ismcts.iteration_seed`) computed in C (for tests)."""
    return iteration_seed_c(<uint64_t>(int(search_seed) & 0xFFFFFFFFFFFFFFFF),
                            <uint64_t>(int(iteration) & 0xFFFFFFFFFFFFFFFF))


# ------------------------------------------------------------------------------------------------
# The game's prior (GameOpsC.prior)


cdef int sample_index(const double* weights, int n, Rng* rng) noexcept nogil:
    """Index drawn with probability proportional to its weight (`evaluators.sample_weighted`)."""
    cdef double total = 0.0, acc = 0.0, r
    cdef int i
    for i in range(n):
        total += weights[i]
    r = rng_uniform(rng) * total
    for i in range(n):
        acc += weights[i]
        if r < acc:
            return i
    return n - 1


cdef void exp3_chances_c(const double* gains, int n, double gamma, double* out) noexcept nogil:
    """Exp3's chances of `n` choices with summed importance-weighted rewards `gains` (`ismcts.exp3_chances`):
    (1 - gamma) * softmax(eta * gains) + gamma / n, eta = gamma / n."""
    cdef double eta = gamma / n, top = gains[0], total = 0.0
    cdef int i
    for i in range(1, n):
        if gains[i] > top:
            top = gains[i]
    for i in range(n):
        out[i] = exp(eta * (gains[i] - top))
        total += out[i]
    for i in range(n):
        out[i] = (1.0 - gamma) * out[i] / total + gamma / n


cdef NativeState native_state(state, what):
    """`state` as a NativeState of a game built for this C game interface, else TypeError/ValueError."""
    if not isinstance(state, NativeState):
        raise TypeError(f"{what} must be a compiled State of a game with the C game interface "
                        f"(burano_ai.core._game.NativeState), not {type(state).__module__}.{type(state).__name__}")
    cdef NativeState st = <NativeState>state
    if st.ops == NULL or st.game_ptr == NULL or st.state_ptr == NULL:
        raise TypeError(f"{what} is a NativeState without its C game interface (ops, game or state unset)")
    if st.ops.abi_version != GAME_ABI_VERSION:
        raise ValueError(f"{what} was built for C game interface version {st.ops.abi_version}, this search "
                         f"for version {GAME_ABI_VERSION}: rebuild the game")
    return st


def prior(state, int player, legal):
    """The game's prior of `player` over `legal` through the C game interface (`GameOpsC.prior`):
    {action: probability}, or None where the game has none. For tests: it must equal `state.prior`.

    Raises:
        TypeError: `state` is no NativeState. ValueError: `player` is not a seat, or `legal` is not a
            list of distinct action ids of the game.
    """
    cdef NativeState st = native_state(state, "the state")
    cdef const GameOpsC* ops = st.ops
    cdef int num_players = ops.num_players(st.game_ptr), n = len(legal), i, found
    cdef int* buf
    cdef double* probs
    if not 0 <= player < num_players:
        raise ValueError(f"seat {player} does not exist in a {num_players}-player game")
    if ops.prior == NULL:
        return None
    if len(set(legal)) != n or any(not 0 <= a < ops.num_actions for a in legal):
        raise ValueError(f"{legal!r} is not a list of distinct action ids")
    buf = <int*>malloc((n + 1) * sizeof(int))
    probs = <double*>malloc((n + 1) * sizeof(double))
    try:
        if buf == NULL or probs == NULL:
            raise MemoryError()
        for i in range(n):
            buf[i] = legal[i]
        found = ops.prior(st.game_ptr, st.state_ptr, player, buf, n, probs)
        return {buf[i]: probs[i] for i in range(n)} if found else None
    finally:
        free(buf)
        free(probs)


# ------------------------------------------------------------------------------------------------
# The tree


cdef struct NodeC:
    double value                      # summed reward, for the seat that chose the edge into this node
    int32_t visits                    # iterations that took the edge into this node
    int32_t avail                     # iterations in which that edge was legal at its parent
    int32_t newest_child              # last child added, or NO_NODE (children: newest first)
    int32_t older_sibling             # the sibling added before this node, or NO_NODE
    int32_t action                    # action of the edge into this node (-1 at the root)
    int8_t player                     # seat deciding here, UNKNOWN before the first visit as a decision
    uint8_t flags                     # bit 0: the edge ended its chooser's turn (tree.Node.ends_turn);
                                      # bits 1-3: 1 + the first chance kind seen after it (tree.Node.chance);
                                      # bit 4: the node has a prior block (`node_prior[node]`)


cdef enum:
    FLAG_ENDS_TURN = 1
    CHANCE_BITS = 7 << 1
    FLAG_PRIOR = 1 << 4
    PATH_SHADOW = 1 << 5         # WorkerC.path_flags only: the entry is another seat's secret choice (`shadow_step`)


cdef inline int chance_after(const NodeC* nd) noexcept nogil:
    """The first chance kind seen after the edge into `nd`, or NO_CHANCE (`NodeC.flags` bits 1-3)."""
    return ((nd.flags & CHANCE_BITS) >> 1) - 1


cdef inline double root_constant(double c, double root_c, double ramp, double avail) noexcept nogil:
    """The UCB constant of a root child available `avail` times (`params.root_constant`)."""
    if avail >= ramp:
        return root_c
    return c + (root_c - c) * avail / ramp


cdef inline void halving_schedule_c(int64_t v0, int64_t m0, int phase, int64_t* alive, int64_t* target) noexcept nogil:
    """Phase `phase` of sequential halving at the root: the moves alive and their visit target
    (`params.halving_schedule`, the same integers)."""
    cdef int k
    alive[0] = m0
    target[0] = v0
    for k in range(phase):
        if alive[0] <= 2:
            break
        alive[0] = (alive[0] + 1) // 2
        if alive[0] < 2:
            alive[0] = 2
        target[0] += (v0 * m0 + alive[0] - 1) // alive[0]


def halving_schedule(v0, m0, phase):
    """`halving_schedule_c` from Python: (moves alive, visit target) of phase `phase` (for the test that
    compares it with `params.halving_schedule`)."""
    cdef int64_t alive, target
    halving_schedule_c(v0, m0, phase, &alive, &target)
    return alive, target


cdef struct SlotC:
    int32_t parent                    # node whose child this is, or NO_NODE: empty slot
    int32_t action                    # action of the edge
    int32_t child                     # the child node


cdef struct PriorEntryC:
    int32_t action                    # a legal action at the node's first visit (the block's header: their count)
    double p                          # its prior probability (unused in the header)


cdef struct WorkerC:
    int32_t* path_node                # the running iteration's edges (child nodes), root first
    int8_t* path_mover                # seat that chose each edge
    uint8_t* path_flags               # that edge's NodeC.flags as this iteration saw them (stored at backpropagation)
    double* path_weight               # what the mover's reward is multiplied by at an Exp3 bandit's entry (1 / its chance)
    int path_capacity                 # length of the four path arrays
    void* world                       # the iteration's world (`ops.state_size` bytes) if the stack's is too small
    # Scratch of one tree step, `ops.max_legal` entries each.
    int* legal                        # the legal actions at the current node if the stack's buffer is too small
    int* kids                         # the child along each legal action, or NO_NODE
    int* untried                      # legal actions without a child
    double* values                    # snapshot of each child's value, visits and availability
    int32_t* visits
    int32_t* avails
    double* weights                   # prior probability per legal (or untried) action


cdef int worker_init(WorkerC* w, const GameOpsC* ops) noexcept nogil:
    """Allocate a thread's path, world and scratch; 0, or -1 when memory runs out (`worker_free` either way)."""
    cdef size_t m = <size_t>(ops.max_legal if ops.max_legal > 0 else 1)
    w.path_capacity = FIRST_PATH
    w.path_node = <int32_t*>malloc(FIRST_PATH * sizeof(int32_t))
    w.path_mover = <int8_t*>malloc(FIRST_PATH * sizeof(int8_t))
    w.path_flags = <uint8_t*>malloc(FIRST_PATH * sizeof(uint8_t))
    w.path_weight = <double*>malloc(FIRST_PATH * sizeof(double))
    w.world = malloc(ops.state_size)
    w.legal = <int*>malloc(m * sizeof(int))
    w.kids = <int*>malloc(m * sizeof(int))
    w.untried = <int*>malloc(m * sizeof(int))
    w.values = <double*>malloc(m * sizeof(double))
    w.visits = <int32_t*>malloc(m * sizeof(int32_t))
    w.avails = <int32_t*>malloc(m * sizeof(int32_t))
    w.weights = <double*>malloc(m * sizeof(double))
    if (w.path_node == NULL or w.path_mover == NULL or w.path_flags == NULL or w.path_weight == NULL
            or w.world == NULL or w.legal == NULL
            or w.kids == NULL or w.untried == NULL or w.values == NULL or w.visits == NULL or w.avails == NULL
            or w.weights == NULL):
        return -1
    return 0


cdef void worker_free(WorkerC* w) noexcept nogil:
    free(w.path_node)
    free(w.path_mover)
    free(w.path_flags)
    free(w.path_weight)
    free(w.world)
    free(w.legal)
    free(w.kids)
    free(w.untried)
    free(w.values)
    free(w.visits)
    free(w.avails)
    free(w.weights)
    memset(w, 0, sizeof(WorkerC))


cdef int worker_reserve(WorkerC* w, int depth) noexcept nogil:
    """Make room for path entry `depth`; 0, or -1 when memory runs out."""
    cdef int32_t* nodes
    cdef int8_t* movers
    cdef uint8_t* flags
    cdef double* weights
    cdef size_t capacity
    if depth < w.path_capacity:
        return 0
    capacity = 2 * <size_t>w.path_capacity
    nodes = <int32_t*>realloc(w.path_node, capacity * sizeof(int32_t))
    if nodes == NULL:
        return -1
    w.path_node = nodes
    movers = <int8_t*>realloc(w.path_mover, capacity * sizeof(int8_t))
    if movers == NULL:
        return -1
    w.path_mover = movers
    flags = <uint8_t*>realloc(w.path_flags, capacity * sizeof(uint8_t))
    if flags == NULL:
        return -1
    w.path_flags = flags
    weights = <double*>realloc(w.path_weight, capacity * sizeof(double))
    if weights == NULL:
        return -1
    w.path_weight = weights
    w.path_capacity = <int>capacity
    return 0


cdef inline uint64_t slot_hash(int parent, int action, int shift) noexcept nogil:
    # Fibonacci hashing of (parent, action). Valid for any int32 action id: a slot holds its parent and
    # action and lookups compare both, so the hash only spreads the keys; it spreads them best when the
    # actions of a node differ in their low 11 bits (Burano's ids are all below 2**11).
    return ((<uint64_t><uint32_t>parent << 11) + <uint64_t><uint32_t>action) * GOLDEN >> shift


cdef inline double now_seconds() noexcept nogil:
    # Wall clock, as time.time() (deadlines are time.time() values).
    cdef timespec ts
    clock_gettime(CLOCK_REALTIME, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9



# ------------------------------------------------------------------------------------------------
# A learned evaluation (burano_ai.search.netfile reads net files; docs/learning.md)

cdef enum:
    NET_MAX_LAYERS = 8
    NET_MAX_WIDTH = 1024         # most inputs or units of one layer (stack buffers of the iteration)


ctypedef struct NetC:
    int num_layers
    int sizes[NET_MAX_LAYERS + 1]                # sizes[0] inputs, sizes[i + 1] units of layer i
    float* weights[NET_MAX_LAYERS]               # layer i: sizes[i] columns of sizes[i + 1] (weights[i][c * rows + r])
    float* biases[NET_MAX_LAYERS]
    double score_scale


cdef class NetEval:
    """A small fully connected network in C: dense layers with ReLU between them, linear outputs.

    Made by `burano_ai.search.netfile.load_net` from a checked net file; `forward` is the same
    computation for tests (the search calls `net_forward` without the GIL). Outputs, for a net of n
    players, in relative seats (the encoded seat first): n win shares, n score margins and n final
    scores, the last two in units of `score_scale`.
    """

    cdef NetC c
    cdef readonly int num_inputs
    cdef readonly int num_outputs
    cdef readonly int num_players
    cdef readonly double score_scale
    cdef readonly object info                   # the net file's header (game, players, encoder, digest)

    def __cinit__(self):
        self.c.num_layers = 0

    def __init__(self, layers, int num_players, double score_scale, info=None):
        """`layers`: [(weights as rows (out) of columns (in), biases)], first layer first."""
        cdef int i, r, c, rows, cols
        if not 1 <= len(layers) <= NET_MAX_LAYERS:
            raise ValueError(f"a net has 1..{NET_MAX_LAYERS} layers, not {len(layers)}")
        for i, (w, b) in enumerate(layers):
            rows = len(w)
            cols = len(w[0]) if rows else 0
            if not (1 <= rows <= NET_MAX_WIDTH and 1 <= cols <= NET_MAX_WIDTH) or len(b) != rows \
                    or any(len(row) != cols for row in w):
                raise ValueError(f"layer {i}: weights must be 1..{NET_MAX_WIDTH} rows of equal length with a bias each")
            if i == 0:
                self.c.sizes[0] = cols
            elif cols != self.c.sizes[i]:
                raise ValueError(f"layer {i} takes {cols} inputs but layer {i - 1} has {self.c.sizes[i]} units")
            self.c.sizes[i + 1] = rows
        if self.c.sizes[len(layers)] != 3 * num_players:
            raise ValueError(f"a {num_players}-player net has {3 * num_players} outputs, not {self.c.sizes[len(layers)]}")
        for i, (w, b) in enumerate(layers):
            rows, cols = self.c.sizes[i + 1], self.c.sizes[i]
            self.c.weights[i] = <float*>malloc(rows * cols * sizeof(float))
            self.c.biases[i] = <float*>malloc(rows * sizeof(float))
            self.c.num_layers = i + 1
            if self.c.weights[i] == NULL or self.c.biases[i] == NULL:
                raise MemoryError()
            for r in range(rows):
                row = w[r]
                for c in range(cols):
                    self.c.weights[i][c * rows + r] = <float>row[c]      # column-major: see net_forward
                self.c.biases[i][r] = <float>b[r]
        self.num_inputs = self.c.sizes[0]
        self.num_outputs = self.c.sizes[len(layers)]
        self.num_players = num_players
        self.score_scale = score_scale
        self.c.score_scale = score_scale
        self.info = info

    def __dealloc__(self):
        cdef int i
        for i in range(self.c.num_layers):
            free(self.c.weights[i])
            free(self.c.biases[i])

    def forward(self, features):
        """The outputs for one input vector (a list of floats), computed in C as the search does."""
        cdef float inp[NET_MAX_WIDTH]
        cdef float outp[NET_MAX_WIDTH]
        cdef float scratch[2 * NET_MAX_WIDTH]
        cdef int i
        if len(features) != self.num_inputs:
            raise ValueError(f"the net takes {self.num_inputs} features, not {len(features)}")
        for i in range(self.num_inputs):
            inp[i] = <float>features[i]
        net_forward(&self.c, inp, outp, scratch)
        return [outp[i] for i in range(self.num_outputs)]


def time_leaf_evaluations(NetEval net, NativeState state, int seat, long count):
    """Seconds `count` leaf evaluations take in C: the game's `encode` of `state` from `seat`'s side and
    the net's forward pass, as the native tree runs them (`burano bench`'s "net leaf evaluation").

    Raises:
        ValueError: the state's game has no encoder or a feature count other than the net's, or count < 1.
    """
    cdef float features[NET_MAX_WIDTH]
    cdef float outputs[NET_MAX_WIDTH]
    cdef float scratch[2 * NET_MAX_WIDTH]
    cdef const GameOpsC* ops = state.ops
    cdef long i
    cdef double start, sink = 0.0
    if ops.encode == NULL or ops.num_features(state.game_ptr) != net.num_inputs:
        raise ValueError("the state's encoder does not feed this net")
    if count < 1:
        raise ValueError("count must be at least 1")
    start = now_seconds()
    with nogil:
        for i in range(count):
            ops.encode(state.game_ptr, state.state_ptr, seat, features)
            net_forward(&net.c, features, outputs, scratch)
            sink += outputs[0]
    return now_seconds() - start + 0.0 * sink


cdef void net_forward(const NetC* net, const float* inp, float* out, float* scratch) noexcept nogil:
    """`out` = the net's outputs for `inp`; `scratch` holds 2 * NET_MAX_WIDTH floats (`inp` is not changed).

    The hidden layers write the two halves of `scratch` in turn; the last layer writes `out`. A layer adds
    its inputs' columns one by one into all of its units at once (the weights are stored column-major):
    the loop over units has no dependence between iterations, so the compiler vectorises it, and an input
    of 0 (most of an encoder's one-hot slots) is skipped. Each unit still sums its inputs in column order,
    so the outputs are those of the row-by-row dot products, bit for bit (adding 0 × w changes nothing).
    """
    cdef int i, r, c, rows, cols
    cdef const float* src = inp
    cdef float* dst
    cdef const float* w
    cdef const float* bias
    cdef float x
    for i in range(net.num_layers):
        rows = net.sizes[i + 1]
        cols = net.sizes[i]
        if i == net.num_layers - 1:
            dst = out
        else:
            dst = scratch + (i % 2) * NET_MAX_WIDTH
        bias = net.biases[i]
        for r in range(rows):
            dst[r] = bias[r]
        for c in range(cols):
            x = src[c]
            if x == 0.0:
                continue
            w = net.weights[i] + c * rows
            for r in range(rows):
                dst[r] = dst[r] + w[r] * x
        if i < net.num_layers - 1:
            for r in range(rows):
                if dst[r] < 0.0:
                    dst[r] = 0.0
        src = dst


cdef class NativeSearcher:
    """An SO-ISMCTS search for `seat` from `root` with the iteration loop and the tree in C.

    The driving interface of `ismcts.Searcher`: `run`, `iterations`, `elapsed`, `summary()`; `run` also
    takes `threads` (several threads on this one tree: see the module docstring).

    Args:
        root: a compiled State of any game with the C game interface (a `burano_ai.core._game.NativeState`)
            where `seat` is to move (never modified: the search copies it).
        seat: the searching seat.
        params: tunables; the leaf evaluation must be the game's playout in C (`params.native_policy`
            not None, see the module docstring).
        seed: this search's seed; iteration seeds derive from it (`ismcts.iteration_seed`).
        root_actions: the root moves the search may choose (action ids), or None for every legal one.

    A position the rules cannot reach may still hold a decision with no legal action or a chance node
    with no outcome below the root; an iteration that meets one stops there, is scored as if the game
    had ended, and is counted in `dead_ends` (it never reads an empty action list).

    Raises:
        TypeError: `root` is not a NativeState (a reference State: use `ismcts.Searcher`).
        ValueError: the game was built for another C game interface version, or `seat` is not to move
            at the root.
        PositionError: the root is terminal, a chance node, or `seat` has no legal action there
            (`tree.check_root`).
        OptionError: `params` ask for something only the Python searcher does.
    """

    cdef void* root_c                 # the root's C state (a copy: `ops.state_size` bytes)
    cdef const void* game_c           # the game's constant tables (kept alive by `root_state.game`)
    cdef const GameOpsC* ops          # the game's C interface
    cdef readonly object root_state
    cdef readonly int seat
    cdef readonly int num_players
    cdef readonly object params
    cdef readonly object seed
    cdef readonly long iterations     # completed iterations
    cdef readonly double elapsed
    cdef readonly long dead_ends      # iterations that stopped at a dead end (a malformed position)
    cdef readonly int threads_used    # threads the last `run` iterated with (1 after a fallback: see run)
    cdef readonly double iteration_cpu_us   # CPU µs per iteration measured by the last threaded run's probe
    cdef readonly double probe_cpu_share    # the calling thread's CPU time / wall time during that probe
    cdef double probed_at             # time.perf_counter() at the end of the last probe, 0 before any
    cdef bint probe_solo              # its verdict: stay on one thread (short iterations or busy cores)
    cdef double probe_floor           # the min_iteration_us it judged with
    cdef uint64_t seed_c
    cdef int policy
    cdef int num_actions
    cdef double exploration, root_exploration, root_ramp, bias, win_weight, margin_scale
    # Tree.
    cdef NodeC* nodes
    cdef int num_nodes, node_capacity
    cdef SlotC* slots
    cdef int slot_capacity, slot_shift, slots_used
    # Priors (progressive bias, `bias` > 0 only): a node with FLAG_PRIOR has its block at
    # `priors[node_prior[node]]`: a header whose `action` is the count k, then k (action, p) in action order.
    cdef int32_t* node_prior          # per node (`node_capacity` entries), allocated when `bias` > 0
    cdef PriorEntryC* priors
    cdef int num_priors, prior_capacity
    # Root statistics per root action: win share, VP and margin sums of the searching seat. Every
    # root child was first chosen by the iteration that created it, so the keys are the root's children.
    cdef double* root_share
    cdef double* root_vp
    cdef double* root_margin
    cdef double* root_square          # sum of the seat's squared rewards (the spread of a root move's value)
    cdef double* root_margin_square   # sum of the seat's squared VP margins (the spread of the margin)
    cdef double* root_seat_share      # [action * num_players + p]: win share sums of every seat p
    # Threads. `tree_lock` guards everything above that a search changes (the tree, the root
    # statistics, `iterations`, `dead_ends`) and the run state below.
    cdef pthread_mutex_t tree_lock
    cdef long claimed                 # iteration indices handed out (the next iteration's index)
    cdef long claim_end               # this run hands out indices below this
    cdef bint stopping                # this run hands out no more indices (deadline, error, Ctrl-C)
    cdef int error                    # the first failed iteration's IT_* code in this run, or IT_OK
    # Root moves (allowMoves / avoidMoves): when `root_restricted`, only actions with `root_allowed` set
    # are available at the root.
    cdef bint root_restricted
    cdef uint8_t* root_allowed        # `num_actions` flags
    # The learned evaluation (`params.net`): None, or a net whose outputs are blended with the playout's
    # result by `net_weight` (1: the net alone, no playout).
    cdef readonly NetEval net
    cdef const NetC* net_c            # &net.c, or NULL without a net
    cdef double net_weight
    # Sequential halving at the root (`params.root` = "halving": `halving_visits` > 0; `halving_choice`),
    # guarded by `tree_lock`: the moves alive (flags by action), m0 (0 before the first choice among
    # expanded root moves) and the phase.
    cdef int halving_visits
    # Other seats' secret choices by their own bandits (`params.secret` "ucb" or "exp3"; `shadow_step`), else
    # sampled from the game's prior.
    cdef bint secret_ucb
    cdef bint secret_exp3            # the bandits draw by Exp3 (`params.secret` = "exp3"), else choose by UCB
    cdef double secret_exploration   # their UCB constant, or Exp3's gamma (`params.secret_c`)
    cdef int halving_moves
    cdef int halving_phase
    cdef uint8_t* root_alive          # `num_actions` flags

    def __cinit__(self):
        self.root_c = NULL
        self.nodes = NULL
        self.slots = NULL
        self.node_prior = NULL
        self.priors = NULL
        self.root_share = self.root_vp = self.root_margin = self.root_square = self.root_margin_square = NULL
        self.root_seat_share = NULL
        self.root_allowed = NULL
        self.root_alive = NULL
        if burano_tree_lock_init(&self.tree_lock) != 0:
            raise MemoryError("cannot create the search tree's lock")

    def __init__(self, root, seat, params=None, seed=0, root_actions=None):
        cdef NativeState st
        cdef const GameOpsC* ops
        cdef size_t na
        if self.nodes != NULL:
            raise RuntimeError("a NativeSearcher is initialised once")
        st = native_state(root, "the root")
        ops = st.ops
        if not 1 <= ops.num_players(st.game_ptr) <= MAX_SEATS or ops.num_actions <= 0 or ops.max_legal <= 0:
            raise ValueError("the root's game declares an impossible C game interface (players, actions)")
        seat = _check_root(root, seat)
        params = params or Params()
        policy = params.native_policy
        if policy is None:
            raise OptionError(f"the native tree cannot run this search: {params.native_tree_blocker}")
        if policy not in ("random", "heuristic"):
            raise OptionError(f"unknown playout policy {policy!r} (expected random or heuristic)")
        self.ops = ops
        self.num_actions = ops.num_actions
        na = <size_t>ops.num_actions
        self.root_allowed = <uint8_t*>malloc(na)
        if self.root_allowed == NULL:
            raise MemoryError()
        memset(self.root_allowed, 0, na)
        self.root_alive = <uint8_t*>calloc(na, 1)
        if self.root_alive == NULL:
            raise MemoryError()
        self.halving_visits = params.halving_visits if params.root == "halving" else 0
        self.secret_ucb = params.secret != "prior"
        self.secret_exp3 = params.secret == "exp3"
        self.secret_exploration = params.secret_c
        self.halving_moves = 0
        self.halving_phase = 0
        self.root_restricted = root_actions is not None
        if root_actions is not None:
            for a in root_actions:
                if not 0 <= a < self.num_actions:
                    raise ValueError(f"root action {a!r} out of range")
                self.root_allowed[<int>a] = 1
        self.policy = OPS_POLICY_HEURISTIC if policy == "heuristic" else OPS_POLICY_RANDOM
        self.net = None
        self.net_c = NULL
        self.net_weight = 0.0
        if params.net is not None:
            from burano_ai.search.netfile import net_for
            self.net = net_for(root, params.net)      # OptionError naming the mismatch; None: "auto", no net
            if self.net is not None:
                self.net_c = &self.net.c
                self.net_weight = params.net_weight
        self.root_state = root
        self.root_c = malloc(ops.state_size)
        if self.root_c == NULL:
            raise MemoryError()
        memcpy(self.root_c, st.state_ptr, ops.state_size)
        self.game_c = st.game_ptr
        self.seat = seat
        self.num_players = ops.num_players(st.game_ptr)
        self.params = params
        self.seed = seed
        self.seed_c = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        self.exploration = params.exploration
        self.root_exploration = params.root_c
        self.root_ramp = params.root_ramp
        self.bias = params.prior_bias if ops.prior != NULL else 0.0
        self.win_weight = params.win_weight
        self.margin_scale = params.margin_scale
        self.iterations = 0
        self.threads_used = 1
        self.iteration_cpu_us = 0.0
        self.probe_cpu_share = 0.0
        self.probed_at = 0.0
        self.probe_solo = False
        self.probe_floor = -1.0
        self.claimed = 0
        self.elapsed = 0.0
        self.dead_ends = 0
        self.error = IT_OK
        self.nodes = <NodeC*>malloc(FIRST_NODES * sizeof(NodeC))
        self.slots = <SlotC*>malloc(FIRST_SLOTS * sizeof(SlotC))
        self.root_share = <double*>malloc(na * sizeof(double))
        self.root_vp = <double*>malloc(na * sizeof(double))
        self.root_margin = <double*>malloc(na * sizeof(double))
        self.root_square = <double*>malloc(na * sizeof(double))
        self.root_margin_square = <double*>malloc(na * sizeof(double))
        self.root_seat_share = <double*>malloc(na * self.num_players * sizeof(double))
        if (self.nodes == NULL or self.slots == NULL or self.root_share == NULL or self.root_vp == NULL
                or self.root_margin == NULL or self.root_square == NULL or self.root_margin_square == NULL
                or self.root_seat_share == NULL):
            raise MemoryError()
        if self.bias > 0:
            self.node_prior = <int32_t*>malloc(FIRST_NODES * sizeof(int32_t))
            if self.node_prior == NULL:
                raise MemoryError()
        self.node_capacity = FIRST_NODES
        self.slot_capacity = FIRST_SLOTS
        self.slot_shift = 64 - 11      # log2(FIRST_SLOTS) = 11
        self.slots_used = 0
        self.num_priors = self.prior_capacity = 0
        memset(self.slots, 0xFF, FIRST_SLOTS * sizeof(SlotC))      # parent = NO_NODE everywhere
        memset(self.root_share, 0, na * sizeof(double))
        memset(self.root_vp, 0, na * sizeof(double))
        memset(self.root_margin, 0, na * sizeof(double))
        memset(self.root_square, 0, na * sizeof(double))
        memset(self.root_margin_square, 0, na * sizeof(double))
        memset(self.root_seat_share, 0, na * self.num_players * sizeof(double))
        self.num_nodes = 0
        self.new_node(-1)

    def __dealloc__(self):
        free(self.root_c)
        free(self.nodes)
        free(self.slots)
        free(self.node_prior)
        free(self.priors)
        free(self.root_share)
        free(self.root_vp)
        free(self.root_margin)
        free(self.root_square)
        free(self.root_margin_square)
        free(self.root_seat_share)
        free(self.root_allowed)
        free(self.root_alive)
        pthread_mutex_destroy(&self.tree_lock)

    # --- tree storage

    cdef int new_node(self, int action) noexcept nogil:
        """Append a fresh node; return its index, or NO_NODE when memory runs out."""
        cdef NodeC* grown
        cdef int32_t* grown_prior
        cdef NodeC* nd
        if self.num_nodes == self.node_capacity:
            grown = <NodeC*>realloc(self.nodes, 2 * <size_t>self.node_capacity * sizeof(NodeC))
            if grown == NULL:
                return NO_NODE
            self.nodes = grown
            if self.node_prior != NULL:
                grown_prior = <int32_t*>realloc(self.node_prior, 2 * <size_t>self.node_capacity * sizeof(int32_t))
                if grown_prior == NULL:
                    return NO_NODE
                self.node_prior = grown_prior
            self.node_capacity *= 2
        nd = &self.nodes[self.num_nodes]
        nd.value = 0.0
        nd.visits = 0
        nd.avail = 0
        nd.newest_child = NO_NODE
        nd.older_sibling = NO_NODE
        nd.action = action
        nd.player = UNKNOWN_PLAYER
        nd.flags = 0
        self.num_nodes += 1
        return self.num_nodes - 1

    cdef inline int find_child(self, int parent, int action) noexcept nogil:
        """The child of `parent` along `action`, or NO_NODE."""
        cdef uint64_t mask = self.slot_capacity - 1
        cdef uint64_t h = slot_hash(parent, action, self.slot_shift)
        cdef SlotC* slot
        while True:
            slot = &self.slots[h]
            if slot.parent == NO_NODE:
                return NO_NODE
            if slot.parent == parent and slot.action == action:
                return slot.child
            h = (h + 1) & mask

    cdef void put_slot(self, int parent, int action, int child) noexcept nogil:
        cdef uint64_t mask = self.slot_capacity - 1
        cdef uint64_t h = slot_hash(parent, action, self.slot_shift)
        while self.slots[h].parent != NO_NODE:
            h = (h + 1) & mask
        self.slots[h].parent = parent
        self.slots[h].action = action
        self.slots[h].child = child

    cdef int grow_slots(self) noexcept nogil:
        """Double the hash table and re-insert every edge; 0, or -1 when memory runs out."""
        cdef SlotC* old = self.slots
        cdef int old_capacity = self.slot_capacity, i
        cdef SlotC* fresh = <SlotC*>malloc(2 * <size_t>old_capacity * sizeof(SlotC))
        if fresh == NULL:
            return -1
        memset(fresh, 0xFF, 2 * <size_t>old_capacity * sizeof(SlotC))
        self.slots = fresh
        self.slot_capacity = 2 * old_capacity
        self.slot_shift -= 1
        for i in range(old_capacity):
            if old[i].parent != NO_NODE:
                self.put_slot(old[i].parent, old[i].action, old[i].child)
        free(old)
        return 0

    cdef int add_child(self, int parent, int action) noexcept nogil:
        """Create the child of `parent` along `action` (availability 1); its index, or NO_NODE."""
        cdef int child = self.add_unlinked(parent, action)
        if child != NO_NODE:
            self.nodes[child].avail = 1
            self.nodes[child].older_sibling = self.nodes[parent].newest_child
            self.nodes[parent].newest_child = child
        return child

    cdef int add_unlinked(self, int parent, int key) noexcept nogil:
        """Create the node under `parent` keyed `key` in the hash only, not in `parent`'s child list; its
        index, or NO_NODE. `add_child` links it; the other seats' bandits (`shadow_step`: `key` is
        `num_actions` + the seat) stay unlinked, so that plans, candidates and summaries never see them."""
        cdef int child
        if 3 * (self.slots_used + 1) > 2 * self.slot_capacity:     # keep the load under 2/3
            if self.grow_slots() < 0:
                return NO_NODE
        child = self.new_node(key)
        if child == NO_NODE:
            return NO_NODE
        self.put_slot(parent, key, child)
        self.slots_used += 1
        return child

    cdef int new_prior(self, int node, const int* legal, int n, const double* probs) noexcept nogil:
        """Store `probs` (the prior over `legal`, in order) as `node`'s prior block; 0, or -1 (no memory)."""
        cdef PriorEntryC* grown
        cdef int i, capacity = self.prior_capacity
        while self.num_priors + n + 1 > capacity:
            capacity = 2 * capacity if capacity else FIRST_PRIORS
        if capacity != self.prior_capacity:
            grown = <PriorEntryC*>realloc(self.priors, <size_t>capacity * sizeof(PriorEntryC))
            if grown == NULL:
                return -1
            self.priors = grown
            self.prior_capacity = capacity
        self.priors[self.num_priors].action = n
        self.priors[self.num_priors].p = 0.0
        for i in range(n):
            self.priors[self.num_priors + 1 + i].action = legal[i]
            self.priors[self.num_priors + 1 + i].p = probs[i]
        self.node_prior[node] = self.num_priors
        self.nodes[node].flags |= FLAG_PRIOR
        self.num_priors += n + 1
        return 0

    cdef void prior_lookup(self, int node, const int* actions, int n, double* out) noexcept nogil:
        """The prior probability of each of `actions` (increasing) at `node`: 0 for an action that was
        not legal at the node's first visit. A merge of two increasing lists."""
        cdef const PriorEntryC* block = &self.priors[self.node_prior[node]]
        cdef int k = block[0].action, i, j = 1
        for i in range(n):
            while j <= k and block[j].action < actions[i]:
                j += 1
            out[i] = block[j].p if j <= k and block[j].action == actions[i] else 0.0

    # --- one iteration

    cdef int tree_step(self, WorkerC* w, const void* world, int node, int player, const int* legal, int n,
                       Rng* rng, uint64_t seed, int* pending, int* action_out, bint* expanded_out,
                       double c) noexcept nogil:
        """Choose the edge out of `node` for this iteration among the `n` actions `legal` (in `world`) and
        take it; the child, or NO_NODE (no memory).

        At a node with untried legal actions one of them is expanded (`expanded_out` says whether the
        iteration leaves the tree there: not at a forced move); else UCB with availability counts
        (+ progressive bias) picks one, or `halving_choice` at the root with `params.root` = "halving".
        Either way every available child's availability goes up and the chosen child's visits too: the
        virtual loss of the iteration in flight (its reward comes at backpropagation). `action_out` gets
        the action. `c` is the UCB constant (the root's rises from it, `root_constant`): `exploration`, or
        `secret_exploration` in another seat's bandit (`shadow_step`).

        Takes `tree_lock` for the tree's reads and writes only: the UCB arithmetic (a log and a square
        root per child) runs outside it on a snapshot of the children's statistics. The chosen child's
        visit is then `pending`: counted at the start of the thread's next critical section (the next
        tree step, or backpropagation), which reads no statistics of that child, so one lock per tree
        step suffices. With one thread nothing changes in between, so the choice is the one a single
        critical section would make. `halving_choice` needs no arithmetic worth taking out of the lock: its
        choice is made and counted inside it.
        """
        cdef int* kids = w.kids
        cdef int* untried = w.untried
        cdef double* weights = w.weights
        cdef int child, action, i, best_i, num_untried
        cdef bint has_prior
        cdef double bias = self.bias, best_score, score
        cdef NodeC* ch
        pthread_mutex_lock(&self.tree_lock)
        if pending[0] != NO_NODE:
            self.nodes[pending[0]].visits += 1
            pending[0] = NO_NODE
        if self.nodes[node].player == UNKNOWN_PLAYER:  # first visit as a decision
            self.nodes[node].player = player
            # The progressive bias's prior: the searching seat's decisions, where the game has one.
            if bias > 0 and player == self.seat and self.ops.prior(self.game_c, world, player, legal, n, weights):
                if self.new_prior(node, legal, n, weights) < 0:
                    pthread_mutex_unlock(&self.tree_lock)
                    return NO_NODE
        has_prior = self.nodes[node].flags & FLAG_PRIOR
        num_untried = 0
        for i in range(n):
            kids[i] = self.find_child(node, legal[i])
            if kids[i] == NO_NODE:
                untried[num_untried] = legal[i]
                num_untried += 1
        if num_untried:
            for i in range(n):
                if kids[i] != NO_NODE:
                    self.nodes[kids[i]].avail += 1
            if num_untried == 1:
                action = untried[0]
            elif has_prior:
                self.prior_lookup(node, untried, num_untried, weights)
                for i in range(num_untried):
                    weights[i] = weights[i] + 1e-9
                action = untried[sample_index(weights, num_untried, rng)]
            else:
                action = untried[seed % <uint64_t>num_untried]   # one expansion per iteration: the seed will do
            child = self.add_child(node, action)
            if child != NO_NODE:
                self.nodes[child].visits += 1
            pthread_mutex_unlock(&self.tree_lock)
            action_out[0] = action
            expanded_out[0] = n > 1
            return child
        if node == ROOT and self.halving_visits > 0 and n > 1 and player == self.seat:
            # Sequential halving (`halving_choice`), decided under the lock: the chosen child's visit is
            # counted at once (not `pending`), so that other threads see it and spread out.
            best_i = self.halving_choice(kids, legal, n, untried)
            for i in range(n):
                self.nodes[kids[i]].avail += 1
            child = kids[best_i]
            self.nodes[child].visits += 1
            pthread_mutex_unlock(&self.tree_lock)
            action_out[0] = legal[best_i]
            expanded_out[0] = False
            return child
        for i in range(n):
            ch = &self.nodes[kids[i]]
            ch.avail += 1
            w.values[i] = ch.value
            w.visits[i] = ch.visits
            w.avails[i] = ch.avail
        if has_prior:
            self.prior_lookup(node, legal, n, weights)
        pthread_mutex_unlock(&self.tree_lock)
        # UCB with availability counts (+ progressive bias where the node has a prior). Every child
        # has at least one visit: a completed iteration, or the virtual one of its creator.
        best_score = -1e300
        best_i = 0
        for i in range(n):
            if node == ROOT:
                c = root_constant(self.exploration, self.root_exploration, self.root_ramp, w.avails[i])
            score = w.values[i] / w.visits[i] + c * sqrt(log(<double>w.avails[i]) / w.visits[i])
            if has_prior:
                score += bias * weights[i] / (w.visits[i] + 1)
            if score > best_score:
                best_score = score
                best_i = i
        child = kids[best_i]
        pending[0] = child
        action_out[0] = legal[best_i]
        expanded_out[0] = False
        return child

    cdef int shadow_step(self, WorkerC* w, const void* world, int anchor, int current, int player,
                         const int* legal, int n, Rng* rng, uint64_t seed, int* pending,
                         int* action_out, double* weight_out) noexcept nogil:
        """Another seat's secret choice with `params.secret` "ucb" or "exp3" (`ismcts.Searcher.secret_choice`): a
        tree step in that seat's own small tree, whose root hangs under `anchor` (the node where the round of
        secret choices began) keyed `num_actions` + the seat, and whose edges are the seat's earlier choices
        in the round (`current`: the node after its last one, or NO_NODE before its first). The searching
        seat's own choice of the round is an edge below `anchor`, so neither side's bandit reacts to the
        other's choice. An untried choice is taken in the iteration seed's order (`tree_step`; the Python tree
        draws it from the prior), and its expansion does not end the iteration. Then "ucb" chooses by UCB
        (`tree_step`); "exp3" draws from `rng` with `exp3_chances_c` of the children's summed weighted rewards,
        and `weight_out` gets 1 / the chance drawn (the entry's reward is multiplied by it: Exp3's importance
        weighting), else 1. The child, or NO_NODE (no memory)."""
        cdef int start = current, i
        cdef bint expanded
        cdef NodeC* ch
        weight_out[0] = 1.0
        if start == NO_NODE:
            pthread_mutex_lock(&self.tree_lock)
            start = self.find_child(anchor, self.num_actions + player)
            if start == NO_NODE:
                start = self.add_unlinked(anchor, self.num_actions + player)
            pthread_mutex_unlock(&self.tree_lock)
            if start == NO_NODE:
                return NO_NODE
        if not self.secret_exp3:
            return self.tree_step(w, world, start, player, legal, n, rng, seed, pending, action_out, &expanded,
                                  self.secret_exploration)
        pthread_mutex_lock(&self.tree_lock)
        if pending[0] != NO_NODE:
            self.nodes[pending[0]].visits += 1
            pending[0] = NO_NODE
        if self.nodes[start].player == UNKNOWN_PLAYER:
            self.nodes[start].player = player
        for i in range(n):
            w.kids[i] = self.find_child(start, legal[i])
            if w.kids[i] == NO_NODE:
                # An untried choice: `tree_step` expands one (had another thread expanded it meanwhile, it
                # would choose by UCB once: harmless, and only while the bandit is new).
                pthread_mutex_unlock(&self.tree_lock)
                return self.tree_step(w, world, start, player, legal, n, rng, seed, pending, action_out,
                                      &expanded, self.secret_exploration)
        for i in range(n):
            ch = &self.nodes[w.kids[i]]
            ch.avail += 1
            w.values[i] = ch.value
        pthread_mutex_unlock(&self.tree_lock)
        exp3_chances_c(w.values, n, self.secret_exploration, w.weights)
        i = sample_index(w.weights, n, rng)
        pending[0] = w.kids[i]
        action_out[0] = legal[i]
        weight_out[0] = 1.0 / w.weights[i]
        return w.kids[i]

    cdef int halving_choice(self, const int* kids, const int* legal, int n, int* rank) noexcept nogil:
        """The index in `legal` (the root's moves, every one with its child `kids[i]`) of this iteration's
        root move under sequential halving: `ismcts.Searcher.halving_choice`'s rule (the alive move with
        the fewest visits, virtual ones included, after keeping the best half by mean value for as many
        phases as every alive move reached its target). Call with `tree_lock` held; `rank` is scratch of
        `n` entries."""
        cdef int i, j, best_i
        cdef int64_t alive, target, keep
        cdef bint reached
        cdef const NodeC* a
        cdef const NodeC* b
        if self.halving_moves == 0:
            self.halving_moves = n
            for i in range(n):
                self.root_alive[legal[i]] = 1
        while True:
            halving_schedule_c(self.halving_visits, self.halving_moves, self.halving_phase, &alive, &target)
            if alive <= 2:
                break
            reached = True
            for i in range(n):
                if self.root_alive[legal[i]] and self.nodes[kids[i]].visits < target:
                    reached = False
                    break
            if not reached:
                break
            halving_schedule_c(self.halving_visits, self.halving_moves, self.halving_phase + 1, &keep, &target)
            # Each alive move's rank: the alive moves ahead of it by mean value, then visits, then order.
            for i in range(n):
                rank[i] = 0
                if not self.root_alive[legal[i]]:
                    continue
                a = &self.nodes[kids[i]]
                for j in range(n):
                    if j == i or not self.root_alive[legal[j]]:
                        continue
                    b = &self.nodes[kids[j]]
                    if (b.value / b.visits > a.value / a.visits
                            or (b.value / b.visits == a.value / a.visits
                                and (b.visits > a.visits or (b.visits == a.visits and j < i)))):
                        rank[i] += 1
            for i in range(n):
                if self.root_alive[legal[i]] and rank[i] >= keep:
                    self.root_alive[legal[i]] = 0
            self.halving_phase += 1
        best_i = -1
        for i in range(n):
            if self.root_alive[legal[i]] and (
                    best_i < 0 or self.nodes[kids[i]].visits < self.nodes[kids[best_i]].visits):
                best_i = i
        if best_i < 0:          # no alive move is legal (the root's moves never change: not reached)
            best_i = 0
            for i in range(1, n):
                if self.nodes[kids[i]].visits < self.nodes[kids[best_i]].visits:
                    best_i = i
        return best_i

    cdef void abandon(self, WorkerC* w, int depth, int pending) noexcept nogil:
        """Take back the virtual visits of a failed iteration's first `depth` edges (a `pending` one was
        never counted)."""
        cdef int k
        pthread_mutex_lock(&self.tree_lock)
        for k in range(depth):
            if w.path_node[k] != pending:
                self.nodes[w.path_node[k]].visits -= 1
        pthread_mutex_unlock(&self.tree_lock)

    cdef int iterate(self, WorkerC* w, uint64_t seed) noexcept nogil:
        """Run one iteration with iteration seed `seed` on thread scratch `w`; IT_OK or an IT_* error.

        Holds `tree_lock` only inside `tree_step` and for the backpropagation.
        """
        cdef const GameOpsC* ops = self.ops
        cdef const void* g = self.game_c
        # The hot rules calls, read once from the table (a call through `ops` may not let the compiler
        # keep them in registers).
        cdef CurrentPlayerFn current_player = ops.current_player
        cdef LegalActionsFn legal_actions = ops.legal_actions
        cdef ApplyActionFn apply_action = ops.apply_action
        cdef SampleChanceFn sample_chance = ops.sample_chance
        cdef TurnIdFn turn_id = ops.turn_id
        cdef size_t state_size = ops.state_size
        cdef uint64_t stack_world[STACK_WORLD_WORDS]
        cdef int stack_legal[STACK_LEGAL]
        cdef void* world = <void*>stack_world if state_size <= sizeof(stack_world) else w.world
        cdef int* legal = <int*>stack_legal if ops.max_legal <= STACK_LEGAL else w.legal
        cdef Rng rng, playout_rng
        cdef double scores[MAX_SEATS]
        cdef double shares[MAX_SEATS]
        cdef double margin[MAX_SEATS]
        cdef double reward[MAX_SEATS]
        cdef double net_share[MAX_SEATS]
        cdef double net_score[MAX_SEATS]
        cdef double net_margin[MAX_SEATS]
        cdef float features[NET_MAX_WIDTH]
        cdef float outputs[NET_MAX_WIDTH]
        cdef float scratch[2 * NET_MAX_WIDTH]
        cdef bint by_net = False
        cdef double lam, total
        cdef int seat = self.seat, num_players = self.num_players
        cdef int node = ROOT, child, action, player, n, depth = 0, first_action = -1, kind
        cdef int anchor = NO_NODE           # the node where this round of secret choices began (secret_ucb)
        cdef int shadow_at[MAX_SEATS]       # each other seat's node in its own secret tree (`shadow_step`)
        cdef int pending = NO_NODE          # the chosen child whose visit is not counted yet (tree_step)
        cdef int p, first, k, status
        cdef int64_t turn
        cdef bint expanded, ends, dead_end = False
        cdef double best, second, x, squashed
        cdef NodeC* ch
        memcpy(world, self.root_c, state_size)
        rng_seed(&rng, seed)
        if ops.resample != NULL:
            ops.resample(g, world, seat, &rng)
        if self.secret_ucb and ops.rewind_secret != NULL:
            # The round's secret choices made before the seat's are its bandits' to make again (`rewind_secret`).
            ops.rewind_secret(g, world, seat)
        while True:
            player = current_player(g, world)
            if player < 0:
                anchor = NO_NODE
                if player == OPS_CHANCE_PLAYER:
                    k = depth - 1               # the last edge of the tree (not another seat's secret choice)
                    while k >= 0 and w.path_flags[k] & PATH_SHADOW:
                        k -= 1
                    if k >= 0 and not w.path_flags[k] & CHANCE_BITS:    # the first chance after it
                        kind = ops.chance_kind(g, world)
                        if 0 <= kind <= MAX_CHANCE_KIND:
                            w.path_flags[k] |= (kind + 1) << 1
                    action = sample_chance(g, world, &rng)
                    if action < 0:              # no outcome: a malformed position
                        dead_end = True
                        break
                    apply_action(g, world, action)
                    continue
                break   # terminal
            n = legal_actions(g, world, legal)
            if n <= 0:                          # no legal action: a malformed position; never read legal[0]
                dead_end = True
                break
            if node == ROOT and self.root_restricted and player == seat:   # allowMoves / avoidMoves
                k = 0
                for p in range(n):
                    if self.root_allowed[legal[p]]:
                        legal[k] = legal[p]
                        k += 1
                if k > 0:                       # the root's moves are the seat's to know: never 0 here
                    n = k
            if self.secret_ucb:
                if ops.decision_mode(g, world) != DECISION_SECRET:
                    anchor = NO_NODE
                else:
                    if anchor == NO_NODE:
                        anchor = node
                        for p in range(num_players):
                            shadow_at[p] = NO_NODE
                    if player != seat:
                        # Another seat's secret choice by its own bandit (`shadow_step`), not an edge of the tree.
                        if worker_reserve(w, depth) < 0:
                            self.abandon(w, depth, pending)
                            return IT_NO_MEMORY
                        child = self.shadow_step(w, world, anchor, shadow_at[player], player, legal, n, &rng,
                                                 seed, &pending, &action, &w.path_weight[depth])
                        if child == NO_NODE:
                            self.abandon(w, depth, pending)
                            return IT_NO_MEMORY
                        shadow_at[player] = child
                        apply_action(g, world, action)
                        w.path_node[depth] = child
                        w.path_mover[depth] = player
                        w.path_flags[depth] = PATH_SHADOW
                        depth += 1
                        continue
            elif player != seat and ops.decision_mode(g, world) == DECISION_SECRET:
                # Another seat's secret choice: sampled from the game's prior (uniform without one), not an edge.
                if ops.prior == NULL or not ops.prior(g, world, player, legal, n, w.weights):
                    for p in range(n):
                        w.weights[p] = 1.0
                action = legal[sample_index(w.weights, n, &rng)]
                apply_action(g, world, action)
                continue
            if worker_reserve(w, depth) < 0:
                self.abandon(w, depth, pending)
                return IT_NO_MEMORY
            turn = turn_id(g, world)
            child = self.tree_step(w, world, node, player, legal, n, &rng, seed, &pending, &action, &expanded,
                                   self.exploration)
            if child == NO_NODE:
                self.abandon(w, depth, pending)
                return IT_NO_MEMORY
            if node == ROOT:
                first_action = action
            apply_action(g, world, action)
            ends = turn != NO_TURN and turn_id(g, world) != turn
            w.path_node[depth] = child
            w.path_mover[depth] = player
            w.path_flags[depth] = ends
            depth += 1
            node = child
            if expanded:
                break
        # The learned evaluation of the leaf's world (never of a finished game: that is scored exactly).
        if self.net_c != NULL and not dead_end and current_player(g, world) != OPS_TERMINAL_PLAYER:
            by_net = True
            ops.encode(g, world, seat, features)
            net_forward(self.net_c, features, outputs, scratch)
            total = 0.0
            for k in range(num_players):
                p = (seat + k) % num_players
                x = outputs[k]
                net_share[p] = 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)
                total += net_share[p]
                net_margin[p] = outputs[num_players + k] * self.net_c.score_scale
                net_score[p] = outputs[2 * num_players + k] * self.net_c.score_scale
            for p in range(num_players):
                net_share[p] = net_share[p] / total if total > 0.0 else 1.0 / num_players
        # Playout (seeded as ismcts.Searcher seeds its playout), unless the net alone evaluates the leaf.
        if not dead_end and current_player(g, world) != OPS_TERMINAL_PLAYER and not (by_net and self.net_weight >= 1.0):
            rng_seed(&playout_rng, (seed * 0x2545F491ULL + 0x9E3779B9ULL) & MASK_SEED)
            status = ops.playout(g, world, &playout_rng, self.policy)
            if status == OPS_PLAYOUT_CAPPED:
                self.abandon(w, depth, pending)
                return IT_PLAYOUT_CAP
            dead_end = status == OPS_PLAYOUT_DEAD_END
        # Evaluation: the game's scores and order of finish (a dead end is scored where it stopped).
        ops.outcome(g, world, scores, shares)
        # ismcts.margins and ismcts.rewards.
        first = 0
        for p in range(1, num_players):
            if scores[p] > scores[first]:
                first = p
        best = scores[first]
        second = -1e300
        for p in range(num_players):
            if p != first and scores[p] > second:
                second = scores[p]
        for p in range(num_players):
            margin[p] = scores[p] - second if p == first else scores[p] - best
            x = margin[p] / self.margin_scale
            squashed = 1.0 / (1.0 + exp(-x)) if x > -60 else 0.0
            reward[p] = self.win_weight * shares[p] + (1.0 - self.win_weight) * squashed
        if by_net:
            # The net's reward, alone (net_weight 1) or blended with the playout's.
            lam = self.net_weight
            for p in range(num_players):
                x = net_margin[p] / self.margin_scale
                x = x if x > -60 else -60
                squashed = 1.0 / (1.0 + exp(-x))
                x = self.win_weight * net_share[p] + (1.0 - self.win_weight) * squashed
                if lam >= 1.0:
                    reward[p] = x
                    shares[p] = net_share[p]
                    scores[p] = net_score[p]
                    margin[p] = net_margin[p]
                else:
                    reward[p] = lam * x + (1.0 - lam) * reward[p]
                    shares[p] = lam * net_share[p] + (1.0 - lam) * shares[p]
                    scores[p] = lam * net_score[p] + (1.0 - lam) * scores[p]
                    margin[p] = lam * net_margin[p] + (1.0 - lam) * margin[p]
        # Backpropagation: the rewards of the visits counted on the way down.
        pthread_mutex_lock(&self.tree_lock)
        if pending != NO_NODE:
            self.nodes[pending].visits += 1
        for k in range(depth):
            ch = &self.nodes[w.path_node[k]]
            if w.path_flags[k] & PATH_SHADOW:
                ch.value += reward[w.path_mover[k]] * w.path_weight[k]     # 1 but at an Exp3 bandit
            else:
                ch.value += reward[w.path_mover[k]]
            ch.flags = (ch.flags & ~FLAG_ENDS_TURN) | (w.path_flags[k] & FLAG_ENDS_TURN)     # 0 for PATH_SHADOW
            if chance_after(ch) == NO_CHANCE:
                ch.flags |= w.path_flags[k] & CHANCE_BITS
        if first_action >= 0:                   # always, unless the root itself was a dead end
            self.root_share[first_action] += shares[seat]
            self.root_vp[first_action] += scores[seat]
            self.root_margin[first_action] += margin[seat]
            self.root_square[first_action] += reward[seat] * reward[seat]
            self.root_margin_square[first_action] += margin[seat] * margin[seat]
            for p in range(num_players):
                self.root_seat_share[first_action * num_players + p] += shares[p]
        if dead_end:
            self.dead_ends += 1
        self.iterations += 1
        pthread_mutex_unlock(&self.tree_lock)
        return IT_OK

    cdef int run_batch(self, WorkerC* w, double deadline, double pause) noexcept nogil:
        """Claim and run iterations until the budget is handed out, `deadline` or `pause` passes, the run
        stops, or an iteration fails (its error recorded in `error`, and the run stopped)."""
        cdef double now
        cdef int status
        cdef long index
        while True:
            now = now_seconds()
            if now >= deadline:
                return BATCH_DEADLINE
            if now >= pause:
                return BATCH_PAUSE
            pthread_mutex_lock(&self.tree_lock)
            if self.stopping:
                pthread_mutex_unlock(&self.tree_lock)
                return BATCH_STOPPED
            if self.claimed >= self.claim_end:
                pthread_mutex_unlock(&self.tree_lock)
                return BATCH_BUDGET
            index = self.claimed
            self.claimed += 1
            pthread_mutex_unlock(&self.tree_lock)
            status = self.iterate(w, iteration_seed_c(self.seed_c, <uint64_t>index))
            if status != IT_OK:
                self.stop(status)
                return BATCH_ERROR

    cdef void stop(self, int error) noexcept nogil:
        """Hand out no more iterations in this run; record `error` (an IT_* code) unless one came first."""
        pthread_mutex_lock(&self.tree_lock)
        self.stopping = True
        if self.error == IT_OK:
            self.error = error
        pthread_mutex_unlock(&self.tree_lock)

    cdef long completed(self) noexcept nogil:
        """Completed iterations, read under the lock (other threads may be backpropagating)."""
        cdef long done
        pthread_mutex_lock(&self.tree_lock)
        done = self.iterations
        pthread_mutex_unlock(&self.tree_lock)
        return done

    # --- driving

    def run(self, iterations=None, deadline=None, progress=None, progress_every=0.1, threads=1,
            min_iteration_us=None):
        """Run until `iterations` more iterations are done or `time.time()` passes `deadline`.

        The loop runs in C without the GIL, in batches; between batches the calling thread calls
        `progress` (every `progress_every` seconds, and once at the end) and lets Python handle
        signals (Ctrl-C). With `threads` = T > 1 the calling thread and T - 1 helper threads iterate
        on this tree (see the module docstring): `iterations` is still the total, and the call returns
        once every helper has finished its last iteration (after an error or Ctrl-C too). T = 1 runs
        the search exactly as a single-threaded searcher.

        Threads only where they help: a threaded run first lets the calling thread run up to
        PROBE_ITERATIONS iterations alone and measures their CPU time; when an iteration takes less than
        `min_iteration_us` microseconds (default MIN_SHARED_ITERATION_US; 0: always share, whatever the
        probe finds) the rest of the run stays on that one thread, since T threads would contend for the
        tree more than they gain; so it does when the thread got less than MIN_PROBE_CPU_SHARE of a core
        meanwhile (other work holds the cores). `threads_used`, `iteration_cpu_us` and
        `probe_cpu_share` say what the last probe found; a run within REPROBE_SECONDS of it reuses its
        verdict. A run that fell back is
        the one-thread search bit for bit (an iteration's seeds are its index), but whether it falls
        back depends on timing.

        Raises:
            ValueError: neither `iterations` nor `deadline`, `threads` not in 1..MAX_THREADS, or a
                negative `min_iteration_us`.
            MemoryError: the tree (or a thread's path) does not fit in memory.
            RuntimeError: a playout did not end within the game's step limit.
        """
        cdef long budget, first, probe, done_before
        cdef double stop_time, pause, step, cpu, wall
        cdef int outcome
        cdef WorkerC w
        if iterations is None and deadline is None:
            raise ValueError("run() needs iterations or a deadline")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
        if min_iteration_us is None:
            min_iteration_us = MIN_SHARED_ITERATION_US
        if isinstance(min_iteration_us, bool) or not isinstance(min_iteration_us, (int, float)) \
                or not 0 <= min_iteration_us < float("inf"):
            raise ValueError(f"min_iteration_us must be a number of microseconds >= 0, not {min_iteration_us!r}")
        budget = (1 << 62) if iterations is None else iterations
        stop_time = 1e300 if deadline is None else deadline
        step = progress_every if progress is not None else 0.1
        if worker_init(&w, self.ops) < 0:
            worker_free(&w)
            raise MemoryError("no memory for the search path")
        first = self.claimed
        self.stopping = False
        self.error = IT_OK
        self.threads_used = threads
        helpers = []
        start = time.perf_counter()
        next_report = time.time() + progress_every
        try:
            if (threads > 1 and min_iteration_us > 0 and self.probed_at > 0 and self.probe_floor == min_iteration_us
                    and time.perf_counter() - self.probed_at < REPROBE_SECONDS):
                if self.probe_solo:       # a recent probe's verdict (REPROBE_SECONDS)
                    self.threads_used = 1
            elif threads > 1 and min_iteration_us > 0:
                # The probe: a few iterations on this thread alone, timed in CPU time (machine load
                # stretches wall time, not the work of an iteration).
                probe = PROBE_ITERATIONS if budget > PROBE_ITERATIONS else budget
                self.claim_end = first + probe
                done_before = self.iterations
                self.iteration_cpu_us = 0.0
                self.probe_cpu_share = 0.0
                pause = time.time() + PROBE_SECONDS
                wall = time.perf_counter()
                cpu = time.thread_time()
                with nogil:
                    outcome = self.run_batch(&w, stop_time, pause)
                cpu = time.thread_time() - cpu
                wall = time.perf_counter() - wall
                if self.iterations > done_before:
                    self.iteration_cpu_us = cpu * 1e6 / (self.iterations - done_before)
                    self.probe_cpu_share = min(1.0, cpu / wall) if wall > 0 else 1.0
                    if outcome in (BATCH_BUDGET, BATCH_PAUSE):
                        self.probe_solo = (self.iteration_cpu_us < min_iteration_us
                                           or self.probe_cpu_share < MIN_PROBE_CPU_SHARE)
                        self.probe_floor = min_iteration_us
                        self.probed_at = time.perf_counter()
                if (outcome not in (BATCH_BUDGET, BATCH_PAUSE) or self.iteration_cpu_us < min_iteration_us
                        or self.probe_cpu_share < MIN_PROBE_CPU_SHARE
                        or self.claimed >= first + budget):   # failed, out of time, too short, busy cores, or done
                    self.threads_used = 1
            self.claim_end = first + budget
            for t in range(1, self.threads_used):
                helper = threading.Thread(target=_help, args=(self, stop_time), name=f"burano-search-{t}",
                                          daemon=True)
                helper.start()
                helpers.append(helper)
            while True:
                pause = next_report if progress is not None else time.time() + step
                with nogil:
                    outcome = self.run_batch(&w, stop_time, pause)
                if outcome != BATCH_PAUSE:
                    break
                PyErr_CheckSignals()
                if progress is not None:
                    progress(self.completed(), iterations)
                    next_report = time.time() + progress_every
        finally:
            self.stop(IT_OK)     # helpers stop before their next iteration (a no-op once the budget is out)
            _join(helpers)
            worker_free(&w)
            self.elapsed += time.perf_counter() - start
        if self.error == IT_NO_MEMORY:
            raise MemoryError("the search tree does not fit in memory")
        if self.error == IT_PLAYOUT_CAP:
            raise RuntimeError("playout did not end within the step limit")
        if progress is not None:
            progress(self.iterations, iterations)

    # --- results

    @property
    def nodes(self):
        """Nodes in the tree (the root included)."""
        return self.num_nodes

    @property
    def memory_bytes(self):
        """Bytes allocated for the tree: node records, the child hash and the priors."""
        return (self.node_capacity * sizeof(NodeC) + self.slot_capacity * sizeof(SlotC)
                + (self.node_capacity * sizeof(int32_t) if self.node_prior != NULL else 0)
                + self.prior_capacity * sizeof(PriorEntryC))

    @staticmethod
    def node_bytes():
        """(sizeof NodeC, sizeof SlotC): bytes of one node record and of one hash slot."""
        return sizeof(NodeC), sizeof(SlotC)

    cdef list children_of(self, int node):
        """Children of `node` in the order they were added (as `Node.children` iterates)."""
        cdef list out = []
        cdef int child = self.nodes[node].newest_child
        while child != NO_NODE:
            out.append(child)
            child = self.nodes[child].older_sibling
        out.reverse()
        return out

    def export_plan(self, int max_nodes=20000):
        """The tree in the `tree.export_plan` format (same order, same node budget).

        The cyclic garbage collector is paused meanwhile: the export allocates a tuple and a dict per node
        and none of them can be garbage, so collections would only cost time (up to tens of ms)."""
        cdef int budget = max_nodes
        collecting = _gc.isenabled()
        _gc.disable()
        try:
            return self.export_level(ROOT, &budget)
        finally:
            if collecting:
                _gc.enable()

    cdef dict export_level(self, int node, int* budget):
        """The children of `node` for `export_plan`: most visited first (ties: oldest first, as a stable
        sort of `children_of` gives, since a node's index grows with its age), each followed while it is
        the searching seat's own decision within its turn and the budget lasts."""
        cdef dict out = {}
        cdef list kids = []
        cdef int child = self.nodes[node].newest_child
        cdef NodeC* ch
        cdef bint follow
        while child != NO_NODE:
            kids.append((-self.nodes[child].visits, child))
            child = self.nodes[child].older_sibling
        if not kids:
            return out
        kids.sort()
        for _negative, child in kids:
            budget[0] -= 1
            ch = &self.nodes[child]
            follow = not (ch.flags & FLAG_ENDS_TURN) and ch.player == self.seat and budget[0] > 0
            sub = self.export_level(child, budget) if follow else {}
            ch = &self.nodes[child]
            out[ch.action] = (ch.visits, ch.value, ch.avail, bool(ch.flags & FLAG_ENDS_TURN), ch.player,
                              chance_after(ch), sub)
        return out

    def edges(self):
        """Every edge of the tree as (chooser, action, visits, value, avail), parents before children.

        The chooser is the seat that decided at the edge's parent: the seat whose reward `value` sums.
        For tests and inspection; `summary()` is the result.
        """
        cdef int node, child
        cdef NodeC* ch
        out = []
        stack = [ROOT]
        while stack:
            node = stack.pop()
            for child in self.children_of(node):
                ch = &self.nodes[child]
                out.append((self.nodes[node].player, ch.action, ch.visits, ch.value, ch.avail))
                stack.append(child)
        return out

    def secret_visits(self, int player):
        """With `params.secret` "ucb" or "exp3": {action: visits} of `player`'s first secret choice in the round of
        secret choices that begins at the root, as its bandit chose it (`ismcts.Searcher.secret_visits`);
        {} when there is none."""
        cdef int start, child
        out = {}
        if not 0 <= player < self.num_players:
            raise ValueError(f"seat {player} does not exist in a {self.num_players}-player game")
        start = self.find_child(ROOT, self.num_actions + player)     # read between runs, as `summary`
        child = self.nodes[start].newest_child if start != NO_NODE else NO_NODE
        while child != NO_NODE:
            out[self.nodes[child].action] = self.nodes[child].visits
            child = self.nodes[child].older_sibling
        return out

    def summary(self, int max_nodes=20000):
        """The search's results in the form of `ismcts.Searcher.summary()` (picklable, summable); the plan
        tree holds at most about `max_nodes` nodes (`export_plan`)."""
        cdef int a
        root_stats = {}
        seat_shares = {}
        for child in self.children_of(ROOT):     # in the order the Python searcher adds its entries
            a = self.nodes[<int>child].action
            root_stats[a] = (self.root_share[a], self.root_vp[a], self.root_margin[a], self.root_square[a],
                             self.root_margin_square[a])
            seat_shares[a] = tuple(self.root_seat_share[a * self.num_players + p] for p in range(self.num_players))
        return {
            "iterations": self.iterations,
            "elapsed": self.elapsed,
            "plan": self.export_plan(max_nodes),
            "root_stats": root_stats,
            "seat_shares": seat_shares,
            "nodes": self.num_nodes,
        }


def _help(NativeSearcher searcher, double deadline):
    """Body of a helper thread of `NativeSearcher.run`: iterate on the shared tree until the run ends."""
    cdef WorkerC w
    if worker_init(&w, searcher.ops) < 0:
        searcher.stop(IT_NO_MEMORY)
    else:
        with nogil:
            searcher.run_batch(&w, deadline, 1e300)
    worker_free(&w)


def _join(helpers):
    """Wait for every helper thread, even through Ctrl-C (a helper may be in its last iteration and
    uses the tree until it returns); re-raise a KeyboardInterrupt that arrived while waiting."""
    interrupted = None
    for helper in helpers:
        while helper.is_alive():
            try:
                helper.join()
            except KeyboardInterrupt as exc:
                interrupted = exc
    if interrupted is not None:
        raise interrupted
