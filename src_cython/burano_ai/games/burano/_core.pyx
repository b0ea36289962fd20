"""The compiled rules core: Burano positions as C structs, with move generation, chance, keys and playouts.

It is a port of the reference model (`burano_ai.games.burano.reference`) and agrees with it move for move: the same
sorted legal action ids, the same chance outcomes and probabilities, the same scores and winners
(tests/test_core_differential.py plays them in lockstep). `Game` and `State` have the reference's API;
the hot path (`legal_actions_c`, `apply_action_c`, chance sampling, `playout_c`, `resample_c`) is
`nogil` C on a fixed-size `StateC` (see `_types.pxd`), so `clone()` is one struct copy.

Setup, JSON and rendering are not hot: `Game.new_initial_state(seed)` builds the C state from the
dealt `burano_ai.games.burano.position.Position` (`burano_ai.games.burano.deal`, `State.from_position`), and `to_dict`/`to_json`
write one back (`State.to_position`) for `burano_ai.games.burano.notation`. The core never imports the reference
model: that is the oracle the tests hold it against.

Every rules number comes from `burano_ai.games.burano.data`, `burano_ai.games.burano.topology` and `burano_ai.games.burano.actions`, copied
into C tables once at import (the workshop layout at `Game` construction).

Zobrist keys: each hashed field ("cell") has a 64-bit seed from a fixed-seed SplitMix64 table; a cell
holding value v contributes mix64(seed + v * golden) to the key. Every change goes through a setter
that updates the key, so `State.key()` is incremental; `State.full_key()` recomputes it, and debug
builds (BURANO_DEBUG=1) check the two after every `apply_action`.

Source layout, in dependency order: `_types.pxd` (the C vocabulary), then the files this module
includes, `_tables.pxi` (rules tables), `_zobrist.pxi` (keys and setters), `_derived.pxi` (derived
values), `_legal.pxi` (legal actions), `_apply.pxi` (apply and chance), `_playout.pxi` (resample,
heuristic policy, playout, debug checks), `_encode.pxi` (the learned evaluation's encoder), `_ops.pxi` (the pyramid prior, the order of finish, the
turn id and `BURANO_OPS`, Burano's table of the C game interface), then the Python API below. They
are `include`d rather than built as modules of their own because the hot path must stay one C compilation unit: Cython cannot
share module-level C variables (the tables `T`, `ZOBRIST`) between extension modules, and calls across
modules go through function pointers that gcc cannot inline. `_core.pxd` declares the narrow C
interface that other compiled modules may cimport; the native search reaches the core only through
`BURANO_OPS`, which every `State` carries as a `burano_ai.core._game.NativeState`.
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy
from cpython.long cimport PyLong_AsLongAndOverflow

from burano_ai._build cimport BURANO_DEBUG_BUILD
from burano_ai.games.burano._types cimport *     # the C vocabulary: sizes, enums, StateC, GameC (a header)
from burano_ai._rng cimport Rng, rng_seed, rng_next, rng_below
from burano_ai.core._game cimport (DECISION_OPEN, DECISION_SECRET, GAME_ABI_VERSION, GameOpsC, MAX_SEATS, NO_TURN,
                                   NativeState, OPS_CHANCE_PLAYER, OPS_PLAYOUT_CAPPED, OPS_PLAYOUT_DEAD_END,
                                   OPS_POLICY_HEURISTIC, OPS_TERMINAL_PLAYER)

import json

import burano_ai.games.burano.actions as _actions
import burano_ai.games.burano.topology as _topo
from burano_ai.games.burano.data import buildings as _buildings
from burano_ai.games.burano.data import colours as _colours
from burano_ai.games.burano.data import fish as _fish
from burano_ai.games.burano.data import island as _island
from burano_ai.games.burano.data import ring as _ring
from burano_ai.games.burano.data import roofs as _roofs
from burano_ai.games.burano.data import route as _route
from burano_ai.games.burano.data import ships as _ships
from burano_ai.games.burano.data import turn as _turn
from burano_ai.games.burano.data import workshops as _workshops
import burano_ai.games.burano.enums as _enums
import burano_ai.games.burano.pyramid as _pyramid
import burano_ai.games.burano.heuristics as _heuristics
from burano_ai.games.burano.deal import deal as _deal
from burano_ai.core.arguments import check_index as _check_index, check_indent as _check_indent
from burano_ai.core.arguments import check_instance as _check_instance, int_text as _int_text
from burano_ai.core.game import check_prior_arguments as _check_prior_arguments
from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.games.burano.notation import position_from_dict as _position_from_dict
from burano_ai.games.burano.notation import position_from_json as _position_from_json
from burano_ai.games.burano.notation import position_to_dict as _position_to_dict
from burano_ai.games.burano.position import Position as _Position
from burano_ai.core.seeds import check_seed as _check_seed
from burano_ai.games.burano.position import workshop_layout as _workshop_layout

cdef extern from *:
    """
    #define BURANO_CTZ(x) __builtin_ctz(x)
    #define BURANO_CTZ64(x) __builtin_ctzll(x)
    #if defined(__POPCNT__)
    #define BURANO_POPCOUNT(x) __builtin_popcount(x)
    #define BURANO_POPCOUNT64(x) __builtin_popcountll(x)
    #else
    /* Without the popcnt instruction (the x86-64 baseline) gcc calls libgcc's __popcountdi2: these
       branch-free bit sums are inlined and cheaper (the playout counts a turn's actions with them). */
    static inline int burano_popcount32(uint32_t x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        x = (x + (x >> 4)) & 0x0F0F0F0Fu;
        return (int)((x * 0x01010101u) >> 24);
    }
    static inline int burano_popcount64(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ull);
        x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
        return (int)((x * 0x0101010101010101ull) >> 56);
    }
    #define BURANO_POPCOUNT(x) burano_popcount32(x)
    #define BURANO_POPCOUNT64(x) burano_popcount64(x)
    #endif
    """
    int BURANO_CTZ(uint32_t x) noexcept nogil
    int BURANO_CTZ64(uint64_t x) noexcept nogil
    int BURANO_POPCOUNT(uint32_t x) noexcept nogil
    int BURANO_POPCOUNT64(uint64_t x) noexcept nogil


include "_tables.pxi"
include "_zobrist.pxi"
include "_derived.pxi"
include "_legal.pxi"
include "_apply.pxi"
include "_playout.pxi"
include "_encode.pxi"
include "_ops.pxi"

_init_prior_tables()
_init_ops()


# ================================================================================================
# Python API: Game and State
# ================================================================================================

_U64 = 0xFFFF_FFFF_FFFF_FFFF
PHASE_NAMES = _enums.PHASE_NAMES
STAGE_NAMES = _enums.STAGE_NAMES
CHANCE_KIND_NAMES = _enums.CHANCE_KIND_NAMES
_parse_seat = _enums.parse_seat
CHANCE = CHANCE_PLAYER
TERMINAL = TERMINAL_PLAYER
POLICIES = ("random", "heuristic")


cdef int policy_id(policy) except -1:
    if policy == "random":
        return POLICY_RANDOM
    if policy == "heuristic":
        return POLICY_HEURISTIC
    raise OptionError(f"unknown playout policy {policy!r} (expected one of {', '.join(POLICIES)})")


cdef void fill_game(GameC* g, int num_players, layout) except *:
    """Copy a frozen workshop layout (topology.WorkshopLayout) into C tables."""
    cdef int sq, t, c
    memset(g, 0, sizeof(GameC))
    g.num_players = num_players
    if len(layout.colour) != NUM_SQUARES or layout.num_tiles != NUM_TILES:
        raise PositionError("workshop layout: expected 28 squares and 6 tiles")
    for sq in range(NUM_SQUARES):
        g.sq_colour[sq] = layout.colour[sq]
        g.sq_coin[sq] = 1 if layout.coin[sq] else 0
        g.sq_tile[sq] = layout.tile[sq]
        for nb in layout.neighbours[sq]:
            g.sq_neighbours[sq] |= 1u << nb
        if layout.colour[sq] >= 0:
            g.colour_mask[layout.colour[sq]] |= 1u << sq
    for t, squares in enumerate(layout.tiles):
        for sq in squares:
            g.tile_mask[t] |= 1u << sq


cdef class Game:
    """Rules and metadata of one Burano configuration (the reference `Game`'s API, compiled states).

    Args:
        num_players: 2, 3 or 4.
        workshop_layout: 4 rows of 7 squares (see `burano_ai.games.burano.data.workshops`); default by player count.
    """

    def __init__(self, num_players=4, workshop_layout=None):
        self.layout = _workshop_layout(num_players, workshop_layout)   # validates both arguments
        self.num_players = num_players
        fill_game(&self.g, num_players, self.layout)

    def __repr__(self):
        return f"Game(num_players={self.num_players})"

    def __eq__(self, other):
        return isinstance(other, Game) and (<Game>other).num_players == self.num_players \
            and (<Game>other).layout == self.layout

    def __hash__(self):
        return hash((self.num_players, self.layout.rows))

    def __reduce__(self):
        return (Game, (self.num_players, list(self.layout.rows)))

    def num_distinct_actions(self):
        return NUM_ACTIONS

    def max_chance_outcomes(self):
        return NUM_MARKER_MAPPINGS

    def new_initial_state(self, seed=0):
        """Set up a new game from a seed (`burano_ai.games.burano.deal`: the same seed deals the same position)."""
        return State.from_position(_deal(self.num_players, seed, self.layout), self)

    def state_from_position(self, position):
        """A State of this game holding `position` (a `burano_ai.games.burano.position.Position`)."""
        return State.from_position(position, self)

    def state_from_json(self, text):
        """Load a position (full, or one seat's view) written by `State.to_json` or by hand."""
        return State.from_position(_position_from_json(text, num_players=self.num_players), self)


cdef void load_position(StateC* s, ref) except *:
    """Copy a Position's fields into `s` (derived fields and key are set by the caller)."""
    cdef int lv, h, i, p, j, n = ref.num_players
    cdef PlayerC* pl
    memset(s, 0, sizeof(StateC))
    s.num_players = n
    for lv in range(NUM_LEVELS):
        for h in range(NUM_HOLES):
            s.cubes[lv][h] = ref.cubes[lv][h]
    for lv in range(NUM_ROOF_LEVELS):
        for h in range(NUM_HOLES):
            s.roof_at[lv][h] = ref.roof_at[lv][h]
            s.roof_field[lv][h] = ref.roof_field[lv][h]
    if len(ref.roofs) > MAX_ROOFS or len(ref.roofs_removed) > MAX_ROOFS:
        raise PositionError("more roofs than roof tiles")
    for i, (level, line, kind, pair, flipped) in enumerate(ref.roofs):
        s.roofs[i].level = level
        s.roofs[i].line = line
        s.roofs[i].kind = kind
        s.roofs[i].pair = pair
        s.roofs[i].flipped = 1 if flipped else 0
    s.num_roofs = len(ref.roofs)
    for i, (kind, pair) in enumerate(ref.roofs_removed):
        s.removed[i] = kind * NUM_ROOF_PAIRS + pair
    s.num_removed = len(ref.roofs_removed)
    for i in range(NUM_ISLANDS):
        for j, c in enumerate(sorted(ref.docks[i])):
            s.docks[i][j] = c
        for p in range(n):
            s.island_workers[i][p] = ref.island_workers[i][p]
    for i in range(NUM_PORTS):
        for ship in ref.ports[i]:
            s.ports[i] |= 1 << ship
    for i in range(NUM_COLOURS):
        s.markers[i] = ref.markers[i]
        s.lace_allow[i] = ref.lace_allow[i]
    for i in range(NUM_SPECIES):
        s.fish_display[i] = ref.fish_display[i]
    for card in ref.building_display:
        s.building_display |= 1u << card
    for i in range(NUM_SQUARES):
        s.workshop[i] = ref.workshop[i]
    for p in range(MAX_PLAYERS):
        pl = &s.players[p]
        for j in range(PYRAMID_SIZE):
            pl.pyramid[j] = EMPTY
        for j in range(NUM_ROOF_SLOTS):
            pl.roof_slots[j] = EMPTY
        if p >= n:
            continue
        rp = ref.players[p]
        for j in range(NUM_PIECES):
            pl.ring_pieces[j] = rp.ring_pieces[j]
        pl.ring_offset = rp.ring_offset
        pl.ring_workers = rp.ring_workers
        for j in range(PYRAMID_SIZE):
            pl.pyramid[j] = rp.pyramid[j]
        for j in range(NUM_COLOURS):
            pl.reserve[j] = rp.reserve[j]
            pl.prep[j] = rp.prep[j]
        pl.coins = rp.coins
        pl.vp = rp.vp
        pl.privilege = rp.privilege
        for j, tile in enumerate(rp.roof_slots):
            pl.roof_slots[j] = EMPTY if tile is None else tile[0] * NUM_ROOF_PAIRS + tile[1]
        if len(rp.buildings) > NUM_BUILDINGS:
            raise PositionError("more building cards than the game has")
        for j, card in enumerate(rp.buildings):
            pl.building_order[j] = card
            pl.buildings |= 1u << card
        pl.num_buildings = len(rp.buildings)
        for j in range(NUM_SPECIES):
            pl.hand_known[j] = rp.hand_known[j]
            pl.hand_blind[j] = rp.hand_blind[j]
            pl.sold[j] = rp.sold[j]
        pl.boat = rp.boat
    s.season = ref.season
    s.round = ref.round
    s.first_player = ref.first_player
    s.stage = ref.stage
    s.phase = ref.phase
    s.actor = ref.actor
    s.order_index = ref.order_index
    s.moves = ref.moves
    s.chance_kind = ref.chance_kind
    s.chance_arg = ref.chance_arg
    s.sail_target = ref.sail_target
    s.swap_pick = ref.swap_pick
    s.fish_island = ref.fish_island
    s.fish_matches = ref.fish_matches
    s.draws_left = ref.draws_left
    s.pending_roof = ref.pending_roof
    # The queue is always ascending in play (it starts as the seat's squares in order).
    for sq in ref.pay_queue:
        s.pay_queue |= 1u << sq
    for sq in ref.paid:
        s.paid |= 1u << sq
    s.discount_used = 1 if ref.discount_used else 0
    s.shortfall = ref.shortfall
    s.picks_left = ref.picks_left
    if len(ref.kinds_picked) > NUM_ROOF_KINDS:
        raise PositionError("more roof kinds picked than there are kinds")
    for j, kind in enumerate(ref.kinds_picked):
        s.kinds_picked[j] = kind
    s.num_kinds_picked = len(ref.kinds_picked)
    s.pyramid_target = ref.pyramid_target


cdef list mask_to_list(uint32_t mask):
    cdef list out = []
    while mask:
        out.append(BURANO_CTZ(mask))
        mask &= mask - 1
    return out


class PlayerView:
    """A read-only snapshot of one seat with `burano_ai.games.burano.position.SeatPosition`'s attribute names.

    `State.players` builds these on demand (changing one does not change the state).
    """

    __slots__ = ("ring_pieces", "ring_offset", "ring_workers", "pyramid", "reserve", "prep", "coins", "vp",
                 "privilege", "roof_slots", "buildings", "hand_known", "hand_blind", "sold", "boat")

    def __repr__(self):
        return "PlayerView(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"


cdef object player_view(const PlayerC* pl):
    cdef int j
    v = PlayerView()
    v.ring_pieces = [pl.ring_pieces[j] for j in range(NUM_PIECES)]
    v.ring_offset = pl.ring_offset
    v.ring_workers = pl.ring_workers
    v.pyramid = [pl.pyramid[j] for j in range(PYRAMID_SIZE)]
    v.reserve = [pl.reserve[j] for j in range(NUM_COLOURS)]
    v.prep = [pl.prep[j] for j in range(NUM_COLOURS)]
    v.coins = pl.coins
    v.vp = pl.vp
    v.privilege = pl.privilege
    v.roof_slots = [None if pl.roof_slots[j] < 0 else (pl.roof_slots[j] // NUM_ROOF_PAIRS,
                                                        pl.roof_slots[j] % NUM_ROOF_PAIRS)
                    for j in range(NUM_ROOF_SLOTS)]
    v.buildings = [pl.building_order[j] for j in range(pl.num_buildings)]
    v.hand_known = [pl.hand_known[j] for j in range(NUM_SPECIES)]
    v.hand_blind = [pl.hand_blind[j] for j in range(NUM_SPECIES)]
    v.sold = [pl.sold[j] for j in range(NUM_SPECIES)]
    v.boat = pl.boat
    return v


cdef bint is_offered_outcome_c(const StateC* s, long action) noexcept nogil:
    """Is `action` one of the outcomes `chance_outcomes_c` lists at this chance node? (Same branches, no list.)"""
    cdef int kind = s.chance_kind
    if kind == CK_FISH_DRAW or kind == CK_FISH_REFILL:
        return A_CH_FISH <= action < A_CH_FISH + NUM_SPECIES and s.fish_deck[action - A_CH_FISH] > 0
    if kind == CK_BUILDING_DRAW or kind == CK_BUILDING_REFILL:
        return (A_CH_BUILDING <= action < A_CH_BUILDING + NUM_BUILDINGS
                and (s.building_deck >> <uint32_t>(action - A_CH_BUILDING)) & 1)
    if kind == CK_ROOF_TILE:
        return (0 <= s.chance_arg < NUM_ROOF_KINDS and A_CH_ROOF <= action < A_CH_ROOF + NUM_ROOF_PAIRS
                and (s.roof_stack[s.chance_arg] >> <uint32_t>(action - A_CH_ROOF)) & 1)
    return A_CH_MARKERS <= action < A_CH_MARKERS + NUM_MARKER_MAPPINGS


cdef bint is_offered_c(const GameC* g, const StateC* s, long action) noexcept nogil:
    """Is `action` a legal action here, or at a chance node an offered outcome? (The public apply's check.)

    At a decision: a membership test in the output of `legal_actions_c`, the very definition of legal
    (one move generation; `State.apply_action` skips it when `legal_actions()` just ran). At a chance
    node: `is_offered_outcome_c`, which reads the deck exactly as `chance_outcomes_c` lists it
    (tests/test_api_misuse.py tries every id). Bench: bench/test_bench_core.py, bench/compare_builds.py.
    """
    cdef int buf[MAX_ACTIONS]
    cdef int n, i
    if action < 0 or action >= NUM_ACTIONS or s.phase == PH_GAME_OVER:
        return False
    if s.phase == PH_CHANCE_NODE:
        return is_offered_outcome_c(s, action)
    if action >= A_CH_FISH:
        return False
    n = legal_actions_c(g, s, buf)
    for i in range(n):
        if buf[i] == action:
            return True
    return False


cdef extern from *:
    """
    /* A freelist for burano_ai.games.burano._core.State (Cython keeps freelists for base classes only,
       and State extends burano_ai.core._game.NativeState). States are not GC objects (no GC header in
       front), so a recycled block is the object itself. Called with the GIL held. */
    #define BURANO_STATE_FREELIST 64
    static PyObject *burano_state_free_objs[BURANO_STATE_FREELIST];
    static int burano_state_free_count = 0;
    static PyTypeObject *burano_state_type = NULL;

    static PyObject *burano_state_alloc(PyTypeObject *t, Py_ssize_t nitems) {
        if (t == burano_state_type && burano_state_free_count > 0) {
            PyObject *o = burano_state_free_objs[--burano_state_free_count];
            memset(o, 0, (size_t)t->tp_basicsize);
            return PyObject_Init(o, t);
        }
        return PyType_GenericAlloc(t, nitems);
    }

    static void burano_state_free(void *p) {
        PyObject *o = (PyObject *)p;
        if (Py_TYPE(o) == burano_state_type && burano_state_free_count < BURANO_STATE_FREELIST) {
            burano_state_free_objs[burano_state_free_count++] = o;
            return;
        }
        PyObject_Free(p);
    }

    static int burano_state_install_freelist(PyObject *type) {
        PyTypeObject *t = (PyTypeObject *)type;
        if (PyType_IS_GC(t) || t->tp_alloc != PyType_GenericAlloc || t->tp_free != PyObject_Free) return -1;
        burano_state_type = t;
        t->tp_alloc = burano_state_alloc;
        t->tp_free = burano_state_free;
        return 0;
    }
    """
    int burano_state_install_freelist(object state_type)


@cython.no_gc       # its only object field is its Game, which never refers back to a State
cdef class State:
    """A Burano position in a C struct, with the reference `State`'s API.

    A `burano_ai.core._game.NativeState`: `set_game` points its C game interface at `BURANO_OPS`, its
    Game's tables and its own struct wherever a State is made. Cython keeps freelists for base classes
    only, so States are recycled by `burano_state_alloc`/`burano_state_free` (at most 64 kept, as `cython.freelist`
    did): a State is larger than what pymalloc and glibc's per-thread cache serve fast.

    `apply_action` is checked (like the reference's): an id that is not legal here raises
    `IllegalMoveError` and leaves the state as it was; `play(text)` parses, checks and applies. The
    unchecked `apply_action_c` is C-only (`_core.pxd`), for search and playouts.
    Beyond the reference: `key()`/`full_key()` (64-bit Zobrist keys), an integer
    `information_state_key(seat)`, a fast `resample(seat, seed)`, `playout(seed, policy)`, `check()`,
    and the converters `from_position`/`to_position`.
    """

    def __init__(self, Game game, seed=0):
        """The deal of `seed` in `game`: the position `game.new_initial_state(seed)` gives (as the reference's
        `State(game, seed)`). A State is always a position that passes `check()`: an empty board, which
        did not, could be played to the end."""
        self.bind(game)
        load_position(&self.s, _deal(game.num_players, seed, game.layout))
        recompute_derived(&game.g, &self.s)
        self.s.key = full_key_c(&game.g, &self.s)

    @staticmethod
    cdef State wrap(Game game, const StateC* s):
        cdef State st = State.__new__(State)
        st.bind(game)
        st.s = s[0]
        return st

    cdef void bind(self, object game) except *:
        self.game = <Game?>game
        self.ops = &BURANO_OPS
        self.game_ptr = &self.game.g
        self.state_ptr = &self.s

    cdef NativeState copy(self):
        return State.wrap(self.game, &self.s)

    def key(self):
        """The 64-bit Zobrist key of the position (kept incrementally; `full_key()` recomputes it)."""
        return self.s.key

    # --- conversions

    @staticmethod
    def from_position(ref, Game game=None):
        """Build from a `Position` (or a reference State, which is one).

        `game` defaults to a Game of the same configuration. The position is first checked as the position
        reader checks a file (`notation.position_from_dict` on its dict): every value lands in a fixed-size
        C array, so a hand-made Position with an index out of range must be refused, not copied.

        Raises:
            TypeError: `ref` is not a Position. PositionError: it breaks the reader's checks, or belongs
                to another configuration than `game`.
        """
        _check_instance(ref, _Position, "a Burano position")
        try:
            _position_from_dict(_position_to_dict(ref))
        except PositionError:
            raise
        except Exception as exc:     # a field of the wrong shape, which the dict writer trips over
            raise PositionError(f"malformed position: {type(exc).__name__}: {exc}") from None
        return State._from_position_unchecked(ref, game)

    @staticmethod
    def _from_position_unchecked(ref, Game game=None):
        """`from_position` without the reader's checks: for tests that build impossible positions on
        purpose (a seat with no legal move) to see the search refuse them. The caller guarantees every
        value lies in the range of its C array; a library user calls `from_position`."""
        cdef State st
        if game is None:
            game = Game(ref.num_players, list(ref.layout.rows))
        elif game.num_players != ref.num_players or game.layout != ref.layout:
            raise PositionError("the position does not belong to this game (player count or workshop layout)")
        st = State.__new__(State)
        st.bind(game)
        load_position(&st.s, ref)
        recompute_derived(&game.g, &st.s)
        st.s.key = full_key_c(&game.g, &st.s)
        return st

    def to_position(self):
        """Return the same position as a `burano_ai.games.burano.position.Position` (a copy)."""
        cdef const StateC* s = &self.s
        cdef int n = s.num_players, i, p, j
        ref = _Position(n, self.game.layout)
        ref.cubes = [[s.cubes[lv][h] for h in range(NUM_HOLES)] for lv in range(NUM_LEVELS)]
        ref.roof_at = [[s.roof_at[lv][h] for h in range(NUM_HOLES)] for lv in range(NUM_ROOF_LEVELS)]
        ref.roof_field = [[s.roof_field[lv][h] for h in range(NUM_HOLES)] for lv in range(NUM_ROOF_LEVELS)]
        ref.roofs = [(s.roofs[i].level, s.roofs[i].line, s.roofs[i].kind, s.roofs[i].pair, bool(s.roofs[i].flipped))
                     for i in range(s.num_roofs)]
        ref.roofs_removed = [(s.removed[i] // NUM_ROOF_PAIRS, s.removed[i] % NUM_ROOF_PAIRS)
                             for i in range(s.num_removed)]
        ref.docks = [[s.docks[i][j] for j in range(DOCKS_PER_ISLAND)] for i in range(NUM_ISLANDS)]
        ref.ports = [[ship for ship in range(NUM_SHIPS) if (s.ports[i] >> ship) & 1] for i in range(NUM_PORTS)]
        ref.markers = [s.markers[c] for c in range(NUM_COLOURS)]
        ref.fish_display = [s.fish_display[i] for i in range(NUM_SPECIES)]
        ref.building_display = mask_to_list(s.building_display)
        ref.island_workers = [[s.island_workers[i][p] for p in range(n)] for i in range(NUM_ISLANDS)]
        ref.workshop = [s.workshop[i] for i in range(NUM_SQUARES)]
        for p in range(n):
            view = player_view(&s.players[p])   # fresh lists with SeatPosition's field names
            rp = ref.players[p]
            for name in PlayerView.__slots__:
                setattr(rp, name, getattr(view, name))
        ref.season = s.season
        ref.round = s.round
        ref.first_player = s.first_player
        ref.stage = s.stage
        ref.phase = s.phase
        ref.actor = s.actor
        ref.order_index = s.order_index
        ref.moves = s.moves
        ref.chance_kind = s.chance_kind
        ref.chance_arg = s.chance_arg
        ref.sail_target = s.sail_target
        ref.swap_pick = s.swap_pick
        ref.fish_island = s.fish_island
        ref.fish_matches = s.fish_matches
        ref.draws_left = s.draws_left
        ref.lace_allow = [s.lace_allow[c] for c in range(NUM_COLOURS)]
        ref.pending_roof = s.pending_roof
        ref.pay_queue = mask_to_list(s.pay_queue)
        ref.paid = mask_to_list(s.paid)
        ref.discount_used = bool(s.discount_used)
        ref.shortfall = s.shortfall
        ref.picks_left = s.picks_left
        ref.kinds_picked = [s.kinds_picked[j] for j in range(s.num_kinds_picked)]
        ref.pyramid_target = s.pyramid_target
        return ref

    def to_dict(self, seat=None):
        """The position as a JSON-ready dict, full or as seen by `seat` (burano_ai.games.burano.notation).

        Raises:
            TypeError / OptionError: `seat` is not None, a seat letter or a 0-based int seat (`parse_seat`).
        """
        if seat is not None:
            seat = _parse_seat(seat, self.s.num_players)
        return _position_to_dict(self.to_position(), seat)

    def __str__(self):
        from burano_ai.games.burano.render import render_state
        return render_state(self)

    def __repr__(self):
        return (f"<burano_ai.games.burano._core.State {self.game.num_players}p {STAGE_NAMES[self.s.stage]} "
                f"{PHASE_NAMES[self.s.phase]} actor={self.s.actor} key=0x{self.s.key:016x}>")

    # --- the OpenSpiel-style API

    @property
    def phase(self):
        return self.s.phase

    @property
    def stage(self):
        return self.s.stage

    @property
    def season(self):
        return self.s.season

    @property
    def round(self):
        return self.s.round

    @property
    def actor(self):
        return self.s.actor

    @property
    def first_player(self):
        return self.s.first_player

    @property
    def chance_kind(self):
        """The pending chance event (a `ChanceKind` value; NONE away from chance nodes)."""
        return self.s.chance_kind

    @property
    def moves(self):
        return self.s.moves

    @property
    def order_index(self):
        return self.s.order_index

    @property
    def layout(self):
        return self.game.layout

    @property
    def markers(self):
        """Action of each colour (a copy)."""
        return [self.s.markers[c] for c in range(NUM_COLOURS)]

    @property
    def workshop(self):
        """Occupant of each workshop square, or -1 (a copy)."""
        return [self.s.workshop[i] for i in range(NUM_SQUARES)]

    @property
    def players(self):
        """Read-only snapshots of the seats (`PlayerView`, `SeatPosition`'s attribute names)."""
        return [player_view(&self.s.players[p]) for p in range(self.s.num_players)]

    # --- derived quantities (the reference's names; read from the incrementally kept counts)

    def pyramid_count(self, player):
        return self.s.players[<int>_parse_seat(player, self.s.num_players, "player")].pyramid_count

    def workers_off_ring(self, player):
        return workers_off_ring(&self.s, _parse_seat(player, self.s.num_players, "player"))

    def supply(self):
        """Cubes in the supply per colour."""
        return [self.s.supply[c] for c in range(NUM_COLOURS)]

    def fish_deck(self):
        """Cards in the fish deck per species."""
        return [self.s.fish_deck[i] for i in range(NUM_SPECIES)]

    def building_deck(self):
        """Building card ids still in the deck."""
        return mask_to_list(self.s.building_deck)

    def roof_stack(self, kind):
        """Tiles left in a kind's stack, per colour pair (0 or 1).

        Raises:
            TypeError: `kind` is not an int. OptionError: no such kind.
        """
        kind = _check_seed(kind, "a roof kind")
        if not 0 <= kind < NUM_ROOF_KINDS:
            raise OptionError(f"roof kind {_int_text(kind)} does not exist (0..{NUM_ROOF_KINDS - 1})")
        return [(self.s.roof_stack[kind] >> p) & 1 for p in range(NUM_ROOF_PAIRS)]

    def component_counts(self):
        """Count every conserved component wherever it lies (`Position.component_counts`)."""
        return self.to_position().component_counts()

    def legal_actions(self, player=None):
        """Sorted legal action ids of the player to move (empty at chance nodes and at the end).

        With `player` (a 0-based int or a seat letter), the ids if that seat is to move, else [].

        Raises:
            TypeError / OptionError: `player` is not a seat of this game (`enums.parse_seat`).
        """
        cdef int buf[MAX_ACTIONS]
        cdef int n, i, a
        if player is not None and _parse_seat(player, self.s.num_players, "player") != self.s.actor:
            return []
        n = legal_actions_c(&self.game.g, &self.s, buf)
        memset(self.legal_bits, 0, sizeof(self.legal_bits))
        for i in range(n):
            a = buf[i]
            self.legal_bits[a >> 6] |= (<uint64_t>1) << (a & 63)
        self.legal_known = True
        return [buf[i] for i in range(n)]

    cdef void apply_checked(self, action, text) except *:
        """NativeState's checked apply, with the bit set of the last `legal_actions()` for a fast check."""
        cdef int overflow = 0
        cdef long a = PyLong_AsLongAndOverflow(action, &overflow)
        cdef bint ok
        if overflow or a < 0 or a >= NUM_ACTIONS:
            ok = False
        elif self.legal_known and self.s.phase != PH_CHANCE_NODE and self.s.phase != PH_GAME_OVER:
            ok = (self.legal_bits[a >> 6] >> (a & 63)) & 1     # legal_actions() of this position just ran
        else:
            ok = is_offered_c(&self.game.g, &self.s, a)
        if not ok:
            raise self.illegal_error(action, text)
        self.apply_unchecked(<int>a)

    cdef void apply_unchecked(self, int action) except *:
        self.legal_known = False
        apply_action_c(&self.game.g, &self.s, action)
        if BURANO_DEBUG_BUILD:
            debug_check(&self.game.g, &self.s)
            _take_debug_errors()

    cdef object illegal_error(self, action, text):
        """The IllegalMoveError for `action` (written as `text`, or None for its own text) here."""
        kind = CHANCE_KIND_NAMES[self.s.chance_kind] if self.s.phase == PH_CHANCE_NODE else None
        return _actions.illegal_action_error(action, text, PHASE_NAMES[self.s.phase], kind, self._where(),
                                             self.offered_ids())

    def scores(self):
        """Victory points of each seat (final once the game is over)."""
        return [self.s.players[p].vp for p in range(self.s.num_players)]

    def winners(self):
        """Seats sharing the win: most VP, then most prep-area cubes, then most coins (§10, `outcome_c`)."""
        cdef double scores[MAX_PLAYERS]
        cdef double shares[MAX_PLAYERS]
        outcome_c(&self.s, scores, shares)
        return [p for p in range(self.s.num_players) if shares[p] > 0.0]

    def finishing_key(self, player):
        """The order of finish's key of `player` (`scoring.finishing_key`: VP, prep-area cubes, coins)."""
        cdef int p = _parse_seat(player, self.s.num_players, "player")
        return (self.s.players[p].vp, self.s.players[p].prep_total, self.s.players[p].coins)

    def estimated_scores(self):
        """Cut-off estimate of each seat's final VP (`heuristics.estimated_scores`)."""
        return _heuristics.estimated_scores(self)

    # --- how the search treats the pending decision (the C game interface's answers, for Python)

    def prior(self, player, legal):
        """The pyramid prior {action: probability} of `player` over `legal` (`pyramid.colour_prior`), or
        None outside the pyramid phase (Burano has no prior there) and for a seat not deciding.

        Raises:
            TypeError / OptionError: a bad seat or id list (`core.arguments.check_prior_arguments`).
        """
        player, legal = _check_prior_arguments(self, player, legal)
        return None if legal is None else _heuristics.prior(self, player, legal)

    def chance_kind_name(self, kind=None):
        """The label of a chance kind (`ChanceKind.label`; default: the pending one)."""
        return CHANCE_KIND_NAMES[self.s.chance_kind if kind is None else
                                 _check_index(kind, len(CHANCE_KIND_NAMES), "chance kind")]

    def phase_name(self):
        """The label of the pending phase (`Phase.label`)."""
        return PHASE_NAMES[self.s.phase]

    def action_to_string(self, action):
        """The text of an action id (TypeError if `action` is not an int)."""
        return _actions.action_to_str(action)

    def string_to_action(self, text):
        """The action id of a move text (TypeError if `text` is not a str; IllegalMoveError if it names none)."""
        return _actions.parse_action(text)

    def _where(self):
        if self.s.stage == ST_ROUNDS:
            return f"{('spring', 'summer', 'autumn', 'winter')[self.s.season]} round {self.s.round}"
        return STAGE_NAMES[self.s.stage]

    # --- keys, information sets, resampling

    # --- playouts

    def playout(self, seed=0, policy="random"):
        """Play this state to the end in place (C loop, no GIL); return the final scores.

        Chance nodes are sampled with their probabilities; `policy` is "random" (uniform over legal
        actions) or "heuristic" (see `heuristic_score` in _core.pyx). Same seed, same game.
        """
        cdef Rng rng
        cdef int pid = policy_id(policy), steps
        cdef const GameC* g = &self.game.g
        cdef StateC* s = &self.s
        rng_seed(&rng, <uint64_t>(_check_seed(seed) & _U64))
        self.legal_known = False
        with nogil:
            steps = playout_c(g, s, &rng, pid)
            s.key = full_key_c(g, s)     # playout_c leaves the key stale
        if steps < 0:
            raise playout_error(steps)
        if BURANO_DEBUG_BUILD:
            debug_check(g, s)
            _take_debug_errors()
        return self.scores()


cdef object playout_error(int status):
    """The exception for a failed `playout_c` (PLAYOUT_CAPPED or PLAYOUT_DEAD_END)."""
    if status == PLAYOUT_DEAD_END:
        return PositionError("the playout reached a decision with no legal action or a chance node with "
                             "no outcome: the position is malformed")
    return RuntimeError("playout did not end within the step limit")


if burano_state_install_freelist(State) != 0:
    raise ImportError("burano_ai.games.burano._core.State: unexpected allocator slots (a GC type?)")


def playout(State state, seed=0, policy="random"):
    """Play a copy of `state` to the end (the state is not changed); return the final scores."""
    return state.clone().playout(seed, policy)


# ================================================================================================
# Test entries: the playout's counted draw against the listed path
# ================================================================================================

def _turn_actions_counted(State state):
    """The legal actions of a turn's main decision found one by one by arithmetic (turn_action_at of
    k = 0..n-1), for tests to compare with `legal_actions()`; [] at any other decision."""
    cdef TurnFamiliesC f
    cdef int n, k
    if state.s.phase != PH_TURN:
        return []
    n = turn_families(&state.s, &f)
    return [turn_action_at(&f, k) for k in range(n)]


def _choose_lockstep(State state, seed, policy="random"):
    """The playout's pick at this decision by both paths from the same seed, for tests.

    Returns ((action, rng state after) of choose_action_c, the same of choose_listed_c): equal when the
    counted draw picks what the written list would, with the same RNG draws.
    """
    cdef Rng a, b
    cdef int buf[MAX_ACTIONS]
    cdef int pid = policy_id(policy), pa, pb
    if state.s.phase == PH_CHANCE_NODE or state.s.phase == PH_GAME_OVER:
        raise PositionError("_choose_lockstep needs a decision")
    rng_seed(&a, <uint64_t>(_check_seed(seed) & _U64))
    b = a
    pa = choose_action_c(&state.game.g, &state.s, &a, pid, buf)
    pb = choose_listed_c(&state.game.g, &state.s, &b, pid, buf)
    return (pa, a.s), (pb, b.s)


def _swap_gains(State state):
    """At a dock-swap decision (PH_FISH_SWAP), for every legal swap action: (swap_gain, the same
    counted on a copy of all the docks with the swap made), for tests; [] at any other decision."""
    cdef const StateC* s = &state.s
    cdef int buf[MAX_ACTIONS]
    cdef int8_t docks[NUM_ISLANDS][DOCKS_PER_ISLAND]
    cdef int arr[3]
    cdef int n, i, k, a, fam, pick, m, best, island
    cdef int partners[NUM_ISLANDS * NUM_COLOURS]
    if s.phase != PH_FISH_SWAP:
        return []
    island = T.node_island[s.sail_target]
    arrows(&s.players[s.actor], arr)
    n = legal_actions_c(&state.game.g, s, buf)
    out = []
    for i in range(n):
        fam = T.action_family[buf[i]]
        if fam != F_SWAP_PICK and fam != F_SWAP_WITH:
            continue
        pick = T.action_index[buf[i]] if fam == F_SWAP_PICK else s.swap_pick
        if fam == F_SWAP_PICK:
            m = swap_partners(s, s.actor, island, pick, partners, 0)
        else:
            partners[0] = T.action_index[buf[i]]
            m = 1
        best = 0
        for k in range(m):
            docks = s.docks
            for a in range(DOCKS_PER_ISLAND):
                if docks[pick // NUM_COLOURS][a] == pick % NUM_COLOURS:
                    docks[pick // NUM_COLOURS][a] = <int8_t>(partners[k] % NUM_COLOURS)
                    break
            for a in range(DOCKS_PER_ISLAND):
                if docks[partners[k] // NUM_COLOURS][a] == partners[k] % NUM_COLOURS:
                    docks[partners[k] // NUM_COLOURS][a] = <int8_t>(pick % NUM_COLOURS)
                    break
            best = max(best, dock_matches(docks[island], arr))
        out.append((swap_gain(s, s.actor, pick, -1 if fam == F_SWAP_PICK else partners[0]), best))
    return out
