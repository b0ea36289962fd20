"""The compiled Venice 2099 core: positions as a C struct, the rules in `nogil` C, and the C game interface.

A port of the reference model (`burano_ai.games.venice_2099.reference`, the executable specification;
the rules' citations live there and in /work/shared/rules/venice-2099.md, cited §n / VD-n here), held
against it move for move by tests/test_venice_2099_core.py: the same legal actions, chance outcomes and
probabilities, Zobrist and information-set keys, resamples, scores and returns. A position is a
fixed-size `VeStateC` (`_core.pxd`): squares of fixed width 64, hands as 42-bit card masks, so a copy
is one struct assignment; the key is kept incrementally (each changed field XORs its old and new
`rules.zobrist` cell, computed by the same mix64 formula in C) and `full_key` recomputes it.

Chance happens only at setup (§9, §10.2): the 2-player colour removal, the layout square by square and
the deal card by card. Hidden are the hands and the set-aside cards: `resample` redraws them with the
exact uniform sampler of §10.3 (the same SplitMix64 draws as the reference). The rescue decision
(§5.6) belongs to the drowning figure's owner, who may not be the active seat: `current_player` names
it, and its `turn_id` is NO_TURN (a decision outside turns), so the card that sank the district ends
the active seat's turn for the search's plans. Playouts are uniform random, or with the heuristic policy
(`heuristic_action_c`) a cheap reading of the world being played out: every card in a hand will sink its
district, so figures stand on survivors and a token is bought when its final value beats its price
(measured against random playouts in docs/benchmarks.md, "Venice 2099"). The search prior (`prior_c`,
`heuristic` its readable form) is the same preference as the deciding seat sees it, each district's
worth weighted by its chance to survive given that seat's own hand.
"""

cimport cython
from libc.math cimport exp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from burano_ai._build cimport BURANO_DEBUG_BUILD
from burano_ai._rng cimport Rng, rng_seed, rng_below
from burano_ai.core._game cimport (
    DECISION_OPEN, GAME_ABI_VERSION, NO_TURN, OPS_CHANCE_PLAYER, OPS_PLAYOUT_CAPPED, OPS_PLAYOUT_DEAD_END,
    OPS_TERMINAL_PLAYER, GameOpsC, NativeState,
)

cdef extern from *:
    """
    static inline int ve_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int ve_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int ve_popcount(uint64_t x) nogil
    int ve_ctz(uint64_t x) nogil


import json

from burano_ai.core.arguments import check_index as _check_index, check_indent as _check_indent
from burano_ai.core.arguments import check_instance as _check_instance
from burano_ai.core.game import check_prior_arguments as _check_prior_arguments
from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.seats import SEAT_LETTERS as _SEAT_LETTERS
from burano_ai.core.seats import parse_seat as _parse_seat
from burano_ai.core.seeds import check_seed as _check_seed
import burano_ai.games.venice_2099.data as _data
import burano_ai.games.venice_2099.heuristic as _heuristic
import burano_ai.games.venice_2099.rules as _rules
from burano_ai.games.venice_2099.position import Position as _Position
from burano_ai.games.venice_2099.position import position_from_json as _position_from_json
from burano_ai.games.venice_2099.position import position_to_dict as _position_to_dict
from burano_ai.games.venice_2099.position import check_land as _check_land
from burano_ai.games.venice_2099.position import validate as _validate
from burano_ai.games.venice_2099.render import render as _render


if (VE_MAX_PLAYERS, VE_DISTRICTS, VE_PLATFORM, VE_CARDS, VE_COLOURS, VE_VALUES, VE_MAX_FIGURES) != (
        _data.MAX_PLAYERS, _data.NUM_DISTRICTS, _rules.PLATFORM, _rules.NUM_CARDS, _data.NUM_COLOURS,
        _data.NUM_VALUES, _data.MAX_FIGURES) or _data.MAX_GRID ** 2 > VE_SQUARES:
    raise ImportError("venice_2099 _core.pxd sizes differ from burano_ai.games.venice_2099.data")
if (VE_NUM_ACTIONS, VE_MAX_OUTCOMES, VE_PHASE_OVER, VE_PHASE_RESCUE, VE_CHANCE_DEAL, VE_UNPLACED, VE_LOST,
        VE_IN_WATER) != (_rules.NUM_ACTIONS, _rules.MAX_CHANCE_OUTCOMES, _rules.PHASE_OVER, _rules.PHASE_RESCUE,
                         _rules.CHANCE_DEAL, _rules.UNPLACED, _rules.LOST, _rules.IN_WATER):
    raise ImportError("venice_2099 _core.pxd constants differ from burano_ai.games.venice_2099.rules")

CHANCE = OPS_CHANCE_PLAYER
TERMINAL = OPS_TERMINAL_PLAYER
_U64 = 0xFFFF_FFFF_FFFF_FFFF

# Action layout (§10.6).
cdef enum:
    PLACE0 = 0
    MOVE0 = 64
    GONDOLA0 = 320
    PASS_MOVE = 576
    BUY0 = 577
    PASS_BUY = 581
    PLAY0 = 582
    RESCUE0 = 624
    DECLINE = 688
if (PLACE0, MOVE0, GONDOLA0, PASS_MOVE, BUY0, PASS_BUY, PLAY0, RESCUE0, DECLINE) != (
        _rules.PLACE0, _rules.MOVE0, _rules.GONDOLA0, _rules.PASS_MOVE, _rules.BUY0, _rules.PASS_BUY, _rules.PLAY0,
        _rules.RESCUE0, _rules.DECLINE_RESCUE) or _rules.BOARD_WIDTH != 64:
    raise ImportError("venice_2099 action layout differs from rules")

# Zobrist cell kinds and values (rules.Z_*, checked at import).
cdef enum:
    Z_PHASE = 0
    Z_REMOVED = 1
    Z_SQUARE = 2
    Z_COINS_ON = 3
    Z_FIGURE = 4
    Z_SEAT_COINS = 5
    Z_TOKENS = 6
    Z_GONDOLAS = 7
    Z_CARD = 8
    Z_HAND_SIZE = 9
    Z_SUPPLY = 10
    Z_MOVED = 11
    Z_COINS_SUNK = 12
    Z_VIEWER = 13
    WATER_CODE = 64              # Z_SQUARE value of a sunk district: WATER_CODE + d
    PLAYED_CODE = 8              # Z_CARD values: a seat, PLAYED_CODE + the seat that played it,
    CARD_UNDEALT = 16            # undealt or set aside,
    CARD_HIDDEN = 17             # unseen (information-set keys)

if (Z_PHASE, Z_REMOVED, Z_SQUARE, Z_COINS_ON, Z_FIGURE, Z_SEAT_COINS, Z_TOKENS, Z_GONDOLAS, Z_CARD, Z_HAND_SIZE,
        Z_SUPPLY, Z_MOVED, Z_COINS_SUNK, Z_VIEWER) != tuple(range(14)) or (Z_VIEWER, WATER_CODE, PLAYED_CODE,
        CARD_UNDEALT, CARD_HIDDEN) != (_rules.Z_VIEWER, _rules.WATER_CODE, _rules.PLAYED_CODE, _rules.CARD_UNDEALT,
                                       _rules.CARD_HIDDEN) or (Z_CARD, Z_COINS_SUNK) != (_rules.Z_CARD, _rules.Z_COINS_SUNK):
    raise ImportError("venice_2099 Zobrist cells differ from rules")

cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL
cdef uint64_t ZOBRIST_SEED = _rules.ZOBRIST_SEED
# The search prior's worths and temperature (`heuristic`, the readable form).
cdef double PLATFORM_WORTH = _heuristic.PLATFORM_WORTH
cdef double X_WORTH = _heuristic.X_WORTH
cdef double GONDOLA_COST = _heuristic.GONDOLA_COST
cdef double DECLINE_VALUE = _heuristic.DECLINE_VALUE
cdef double PRIOR_TEMPERATURE = _heuristic.PRIOR_TEMPERATURE


# ================================================================================================
# Zobrist cells: core.seeds.mix64(ZOBRIST_SEED, kind, where, value), in C
# ================================================================================================

cdef inline uint64_t mix_step(uint64_t h, uint64_t v) noexcept nogil:
    cdef uint64_t z
    h = h ^ v
    h = h + GOLDEN
    z = h
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef uint64_t SEEDED = mix_step(GOLDEN, ZOBRIST_SEED)


cdef inline uint64_t zob(int kind, int where, int value) noexcept nogil:
    return mix_step(mix_step(mix_step(SEEDED, <uint64_t>(<int64_t>kind)), <uint64_t>(<int64_t>where)),
                    <uint64_t>(<int64_t>value))


cdef inline void upd(VeStateC* s, int kind, int where, int old, int new) noexcept nogil:
    if old != new:
        s.key ^= zob(kind, where, old) ^ zob(kind, where, new)


if zob(Z_SQUARE, 5, -1) != _rules.zobrist(_rules.Z_SQUARE, 5, -1):
    raise ImportError("venice_2099 Zobrist cells differ from rules.zobrist")


cdef inline int square_code(const VeStateC* s, int sq) noexcept nogil:
    """The Z_SQUARE value: -1 not laid, the tile, or WATER_CODE + the district once sunk."""
    return WATER_CODE + s.tile[sq] if s.water[sq] else s.tile[sq]


# Field setters that keep the key.
cdef inline void set_phase(VeStateC* s, int v) noexcept nogil:
    upd(s, Z_PHASE, 0, s.phase, v)
    s.phase = <int8_t>v

cdef inline void set_removed(VeStateC* s, int v) noexcept nogil:
    upd(s, Z_REMOVED, 0, s.removed, v)
    s.removed = <int8_t>v

cdef inline void set_moved(VeStateC* s, int v) noexcept nogil:
    upd(s, Z_MOVED, 0, s.moved, v)
    s.moved = <int8_t>v

cdef inline void set_coins_sunk(VeStateC* s, int v) noexcept nogil:
    upd(s, Z_COINS_SUNK, 0, s.coins_sunk, v)
    s.coins_sunk = <int16_t>v

cdef inline void set_tile(VeStateC* s, int sq, int v) noexcept nogil:
    cdef int old = square_code(s, sq)
    s.tile[sq] = <int8_t>v
    upd(s, Z_SQUARE, sq, old, square_code(s, sq))

cdef inline void sink(VeStateC* s, int sq) noexcept nogil:
    cdef int old = square_code(s, sq)
    s.water[sq] = 1
    upd(s, Z_SQUARE, sq, old, square_code(s, sq))

cdef inline void set_square_coins(VeStateC* s, int sq, int v) noexcept nogil:
    upd(s, Z_COINS_ON, sq, s.coins[sq], v)
    s.coins[sq] = <int16_t>v

cdef inline void set_supply(VeStateC* s, int c, int v) noexcept nogil:
    upd(s, Z_SUPPLY, c, s.supply[c], v)
    s.supply[c] = <int16_t>v

cdef inline void set_coins(VeStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_SEAT_COINS, p, s.seats[p].coins, v)
    s.seats[p].coins = <int16_t>v

cdef inline void set_tokens(VeStateC* s, int p, int c, int v) noexcept nogil:
    upd(s, Z_TOKENS, p * VE_COLOURS + c, s.seats[p].tokens[c], v)
    s.seats[p].tokens[c] = <int8_t>v

cdef inline void set_gondolas(VeStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_GONDOLAS, p, s.seats[p].gondolas, v)
    s.seats[p].gondolas = <int8_t>v

cdef inline void set_figure(VeStateC* s, int p, int f, int v) noexcept nogil:
    """Slot f of seat p to square v (or a VE_UNPLACED/LOST/IN_WATER state); occupancy follows."""
    cdef int old = s.seats[p].fig[f]
    if old >= 0:
        s.occ[old] = -1
    upd(s, Z_FIGURE, p * VE_MAX_FIGURES + f, old, v)
    s.seats[p].fig[f] = <int8_t>v
    if v >= 0:
        s.occ[v] = <int8_t>(p * VE_MAX_FIGURES + f)

cdef inline void add_to_hand(VeStateC* s, int p, int k) noexcept nogil:
    cdef int size = ve_popcount(s.seats[p].hand)
    s.seats[p].hand |= (<uint64_t>1) << k
    upd(s, Z_HAND_SIZE, p, size, size + 1)
    upd(s, Z_CARD, k, CARD_UNDEALT, p)

cdef inline void take_from_hand(VeStateC* s, int p, int k, int new_code) noexcept nogil:
    cdef int size = ve_popcount(s.seats[p].hand)
    s.seats[p].hand &= ~((<uint64_t>1) << k)
    upd(s, Z_HAND_SIZE, p, size, size - 1)
    upd(s, Z_CARD, k, p, new_code)


# ================================================================================================
# Derived sets
# ================================================================================================

cdef inline uint64_t deck_in_play(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """The cards of this game (§3.2: without the removed colour's; with 2 players none before the draw)."""
    if g.removes_colour:
        if s.removed < 0:
            return 0
        return g.base_deck & ~g.colour_cards[s.removed]
    return g.base_deck

cdef inline uint64_t districts_in_play(const VeGameC* g, const VeStateC* s) noexcept nogil:
    if s.removed >= 0:
        return g.base_districts & ~g.colour_districts[s.removed]
    return g.base_districts

cdef inline uint64_t held_cards(const VeGameC* g, const VeStateC* s) noexcept nogil:
    cdef uint64_t m = 0
    cdef int p
    for p in range(g.num_players):
        m |= s.seats[p].hand
    return m

cdef inline uint64_t played_cards(const VeStateC* s) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(s.num_played):
        m |= (<uint64_t>1) << s.played[i]
    return m

cdef inline bint is_land(const VeStateC* s, int sq) noexcept nogil:
    return 0 <= s.tile[sq] < VE_DISTRICTS and not s.water[sq]

cdef inline int alive_figures(const VeStateC* s, int p) noexcept nogil:
    cdef int f, n = 0
    for f in range(VE_MAX_FIGURES):
        n += s.seats[p].fig[f] >= 0
    return n

cdef inline int placing_seat(const VeGameC* g, int k) noexcept nogil:
    """The seat of placement k: round robin (VD-6), or each seat all its figures."""
    return k % g.num_players if g.round_robin else k // g.figures

cdef inline int placing_slot(const VeGameC* g, int k) noexcept nogil:
    return k // g.num_players if g.round_robin else k % g.figures


cdef uint64_t public_key_c(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """Every cell but the cards' (the reference's `_public_key`)."""
    cdef uint64_t k
    cdef int i, c, p, f
    k = zob(Z_PHASE, 0, s.phase) ^ zob(Z_REMOVED, 0, s.removed)
    k ^= zob(Z_MOVED, 0, s.moved) ^ zob(Z_COINS_SUNK, 0, s.coins_sunk)
    for i in range(g.squares):
        k ^= zob(Z_SQUARE, i, square_code(s, i)) ^ zob(Z_COINS_ON, i, s.coins[i])
    for c in range(VE_COLOURS):
        k ^= zob(Z_SUPPLY, c, s.supply[c])
    for p in range(g.num_players):
        k ^= zob(Z_SEAT_COINS, p, s.seats[p].coins) ^ zob(Z_GONDOLAS, p, s.seats[p].gondolas)
        k ^= zob(Z_HAND_SIZE, p, ve_popcount(s.seats[p].hand))
        for f in range(g.figures):
            k ^= zob(Z_FIGURE, p * VE_MAX_FIGURES + f, s.seats[p].fig[f])
        for c in range(VE_COLOURS):
            k ^= zob(Z_TOKENS, p * VE_COLOURS + c, s.seats[p].tokens[c])
    return k


cdef inline int card_code(const VeGameC* g, const VeStateC* s, int k) noexcept nogil:
    """The Z_CARD value of card k: its holder, PLAYED_CODE + who played it, or CARD_UNDEALT."""
    cdef uint64_t bit = (<uint64_t>1) << k
    cdef int p, i
    for p in range(g.num_players):
        if s.seats[p].hand & bit:
            return p
    for i in range(s.num_played):
        if s.played[i] == k:
            return PLAYED_CODE + s.played_by[i]
    return CARD_UNDEALT


cdef uint64_t full_key_c(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """The Zobrist key recomputed from every field (the reference's `State.key`)."""
    cdef uint64_t k = public_key_c(g, s)
    cdef int i
    for i in range(VE_CARDS):
        k ^= zob(Z_CARD, i, card_code(g, s, i))
    return k


cdef uint64_t info_key_c(const VeGameC* g, const VeStateC* s, int seat) noexcept nogil:
    """The key of what `seat` sees (§9): every card in another hand, undealt or set aside reads CARD_HIDDEN."""
    cdef uint64_t k = s.key ^ zob(Z_VIEWER, 0, seat)
    cdef uint64_t hidden = ((<uint64_t>1) << VE_CARDS) - 1
    cdef int c
    hidden &= ~s.seats[seat].hand & ~played_cards(s)
    while hidden:
        c = ve_ctz(hidden)
        hidden &= hidden - 1
        k ^= zob(Z_CARD, c, card_code(g, s, c)) ^ zob(Z_CARD, c, CARD_HIDDEN)
    return k


# ================================================================================================
# Chance (§10.2)
# ================================================================================================

cdef int current_player_c(const VeStateC* s) noexcept nogil:
    if s.phase == VE_PHASE_SETUP:
        return OPS_CHANCE_PLAYER
    if s.phase == VE_PHASE_OVER:
        return OPS_TERMINAL_PLAYER
    if s.phase == VE_PHASE_RESCUE:
        return s.rescue_owner
    return s.to_move


cdef int chance_kind_c(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """The pending chance node (rules.CHANCE_*); 0 off chance nodes."""
    if s.phase != VE_PHASE_SETUP:
        return 0
    if g.removes_colour and s.removed < 0:
        return VE_CHANCE_REMOVE_COLOUR
    if s.cursor < g.squares:
        return VE_CHANCE_LAYOUT
    return VE_CHANCE_DEAL


cdef int chance_outcomes_c(const VeGameC* g, const VeStateC* s, int* actions, double* probs) noexcept nogil:
    """The outcomes in increasing order with their probabilities (§10.2); 0 off chance nodes."""
    cdef int n = 0, kind, i, rest, left
    cdef uint64_t m
    if s.phase != VE_PHASE_SETUP:
        return 0
    kind = chance_kind_c(g, s)
    if kind == VE_CHANCE_REMOVE_COLOUR:
        for i in range(VE_COLOURS):
            actions[i] = i
            probs[i] = 1.0 / VE_COLOURS
        return VE_COLOURS
    if kind == VE_CHANCE_LAYOUT:
        m = districts_in_play(g, s) & ~s.laid
        left = g.platforms - s.platforms_laid
        rest = ve_popcount(m) + left
        while m:
            actions[n] = ve_ctz(m)
            probs[n] = 1.0 / rest
            m &= m - 1
            n += 1
        if left > 0:
            actions[n] = VE_PLATFORM
            probs[n] = <double>left / rest
            n += 1
        return n
    m = deck_in_play(g, s) & ~held_cards(g, s)
    rest = ve_popcount(m)
    while m:
        actions[n] = ve_ctz(m)
        probs[n] = 1.0 / rest
        m &= m - 1
        n += 1
    return n


cdef int sample_chance_c(const VeGameC* g, const VeStateC* s, Rng* rng) noexcept nogil:
    """An outcome drawn with its probability, or -1 off chance nodes: every tile or card left is
    equally likely (a platform is P of the R tiles left)."""
    cdef int actions[VE_MAX_OUTCOMES]
    cdef double probs[VE_MAX_OUTCOMES]
    cdef int n, r, left, districts
    n = chance_outcomes_c(g, s, actions, probs)
    if n <= 0:
        return -1
    if chance_kind_c(g, s) == VE_CHANCE_LAYOUT:
        left = g.platforms - s.platforms_laid
        districts = n - 1 if left > 0 else n
        r = <int>rng_below(rng, <uint32_t>(districts + left))
        return actions[r] if r < districts else VE_PLATFORM
    return actions[<int>rng_below(rng, <uint32_t>n)]


cdef void apply_chance_c(const VeGameC* g, VeStateC* s, int a) noexcept nogil:
    cdef int kind = chance_kind_c(g, s), sq, j
    if kind == VE_CHANCE_REMOVE_COLOUR:           # §3.2 step 1, VD-11
        set_removed(s, a)
        if g.treasure_supply:
            set_supply(s, a, 0)                    # §3.2 step 3: its tokens leave the game
        return
    if kind == VE_CHANCE_LAYOUT:                  # §3.1 step 1 [RB:56]
        sq = s.cursor
        set_tile(s, sq, a)
        if a == VE_PLATFORM:
            s.platforms_laid += 1
        else:
            s.laid |= (<uint64_t>1) << a
            s.square_of[a] = <int8_t>sq
        s.cursor += 1
        return
    j = s.cursor - g.squares                       # §3.1 step 3: card j to seat j mod n
    add_to_hand(s, j % g.num_players, a)
    s.cursor += 1
    if j == g.dealt - 1:                           # the rest stays set aside, unseen (RB:64)
        set_phase(s, VE_PHASE_PLACE)
        s.to_move = <int8_t>placing_seat(g, 0)


# ================================================================================================
# Decisions (§5, §10.7)
# ================================================================================================

cdef uint64_t normal_moves_c(const VeGameC* g, const VeStateC* s, int sq0) noexcept nogil:
    """The squares a figure on sq0 reaches by a normal move (§5.1, VD-2, VD-3) as a mask."""
    cdef uint64_t m = 0
    cdef int d, r, c, nr, nc, ns, N = g.side
    for d in range(g.move_dirs):
        r = sq0 // N
        c = sq0 % N
        while True:
            nr = r + g.dr[d]
            nc = c + g.dc[d]
            if nr < 0 or nr >= N or nc < 0 or nc >= N:
                break
            ns = nr * N + nc
            if s.water[ns] or s.occ[ns] >= 0:
                break
            if not g.diagonal_squeeze and g.dr[d] != 0 and g.dc[d] != 0:
                if (s.water[nr * N + c] or s.occ[nr * N + c] >= 0) and \
                        (s.water[r * N + nc] or s.occ[r * N + nc] >= 0):
                    break
            m |= (<uint64_t>1) << ns
            r = nr
            c = nc
    return m


cdef inline uint64_t free_squares(const VeGameC* g, const VeStateC* s, bint land_only) noexcept nogil:
    """Squares that are not WATER and hold no figure (LAND only with `land_only`)."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(g.squares):
        if s.water[i] or s.occ[i] >= 0 or s.tile[i] < 0:
            continue
        if land_only and s.tile[i] >= VE_DISTRICTS:
            continue
        m |= (<uint64_t>1) << i
    return m


cdef inline uint64_t rescue_squares(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """Where a drowning figure may be put (§5.6, VD-5)."""
    return free_squares(g, s, not g.rescue_to_platform)


cdef inline bint can_buy(const VeGameC* g, const VeStateC* s, int p, int f) noexcept nogil:
    """§5.3 [VD-8]: figure f stands on an unsunk district whose colour the supply has, at a price p can pay."""
    cdef int sq = s.seats[p].fig[f]
    if sq < 0 or not is_land(s, sq):
        return False
    return s.supply[g.tile_colour[s.tile[sq]]] != 0 and s.seats[p].coins >= s.coins[sq] + 1


cdef inline int lowest_rank(const VeGameC* g, uint64_t hand) noexcept nogil:
    cdef int best = 99, k
    while hand:
        k = ve_ctz(hand)
        hand &= hand - 1
        if g.card_rank[k] < best:
            best = g.card_rank[k]
    return best


cdef int legal_actions_c(const VeGameC* g, const VeStateC* s, int* out) noexcept nogil:
    cdef int n = 0, p, f, sq, k, rank
    cdef uint64_t m, used, gond
    cdef const VeSeatC* st
    if s.phase == VE_PHASE_SETUP or s.phase == VE_PHASE_OVER:
        return 0
    if s.phase == VE_PHASE_RESCUE:                # §5.6, VD-5
        m = rescue_squares(g, s)
        while m:
            out[n] = RESCUE0 + ve_ctz(m)
            m &= m - 1
            n += 1
        out[n] = DECLINE
        return n + 1
    p = s.to_move
    st = &s.seats[p]
    if s.phase == VE_PHASE_PLACE:                 # §3.1 step 7, VD-7
        used = 0
        for f in range(VE_MAX_FIGURES):
            if st.fig[f] >= 0 and s.tile[st.fig[f]] < VE_DISTRICTS:
                used |= (<uint64_t>1) << g.tile_vi[s.tile[st.fig[f]]]
        for sq in range(g.squares):
            if s.occ[sq] >= 0:
                continue
            if s.tile[sq] < VE_DISTRICTS and used >> g.tile_vi[s.tile[sq]] & 1:
                continue
            out[n] = PLACE0 + sq
            n += 1
        return n
    if s.phase == VE_PHASE_MOVE:                  # §5.1, §5.2
        if not s.moved & 1:
            for f in range(VE_MAX_FIGURES):
                if st.fig[f] < 0:
                    continue
                m = normal_moves_c(g, s, st.fig[f])
                while m:
                    out[n] = MOVE0 + 64 * f + ve_ctz(m)
                    m &= m - 1
                    n += 1
        if st.gondolas > 0 and not s.moved & 2:
            gond = free_squares(g, s, False)
            for f in range(VE_MAX_FIGURES):
                if st.fig[f] < 0:
                    continue
                m = gond
                while m:
                    out[n] = GONDOLA0 + 64 * f + ve_ctz(m)
                    m &= m - 1
                    n += 1
        out[n] = PASS_MOVE
        return n + 1
    if s.phase == VE_PHASE_BUY:                   # §5.3
        for f in range(VE_MAX_FIGURES):
            if can_buy(g, s, p, f):
                out[n] = BUY0 + f
                n += 1
        out[n] = PASS_BUY
        return n + 1
    if st.hand == 0:
        return 0
    rank = lowest_rank(g, st.hand)                # §5.4
    m = st.hand
    while m:
        k = ve_ctz(m)
        m &= m - 1
        if g.card_rank[k] == rank:
            out[n] = PLAY0 + k
            n += 1
    return n


cdef int64_t turn_id_c(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """The reference's `turn_id`: each placement a turn of its own (its index); a turn's move, buy and card
    share placements + the turn number; a rescue belongs to no turn (NO_TURN: its owner may not be the
    active seat, and the card before it ended the active seat's turn); NO_TURN at setup and at the end."""
    if s.phase == VE_PHASE_PLACE:
        return s.placed
    if s.phase == VE_PHASE_MOVE or s.phase == VE_PHASE_BUY or s.phase == VE_PHASE_CARD:
        return g.num_players * g.figures + s.num_played
    return NO_TURN


cdef void start_turn_c(const VeGameC* g, VeStateC* s) noexcept nogil:
    """§4: the next seat clockwise; §6: the end after the last card; §5.7: a seat without figures only
    plays its card."""
    set_moved(s, 0)
    s.rescue_owner = -1
    s.rescue_slot = -1
    if s.num_played == g.dealt:
        set_phase(s, VE_PHASE_OVER)
        s.to_move = -1
        return
    s.to_move = <int8_t>(s.num_played % g.num_players)
    set_phase(s, VE_PHASE_MOVE if alive_figures(s, s.to_move) else VE_PHASE_CARD)


cdef void play_card_c(const VeGameC* g, VeStateC* s, int k) noexcept nogil:
    """§5.4-§5.5: the card is played face up; its district sinks with its coins and any figure on it."""
    cdef int p = s.to_move, sq, who, o, f
    take_from_hand(s, p, k, PLAYED_CODE + p)
    s.played[s.num_played] = <int8_t>k
    s.played_by[s.num_played] = <int8_t>p
    s.num_played += 1
    s.seats[p].bound = <int8_t>g.card_rank[k]
    sq = s.square_of[g.card_district[k]]
    sink(s, sq)
    set_coins_sunk(s, s.coins_sunk + s.coins[sq])
    set_square_coins(s, sq, 0)
    who = s.occ[sq]
    if who >= 0:
        o = who // VE_MAX_FIGURES
        f = who % VE_MAX_FIGURES
        if s.seats[o].gondolas > 0 and rescue_squares(g, s) != 0:
            set_figure(s, o, f, VE_IN_WATER)     # §5.6: its owner decides, out of turn
            s.rescue_owner = <int8_t>o
            s.rescue_slot = <int8_t>f
            set_phase(s, VE_PHASE_RESCUE)
            return
        set_figure(s, o, f, VE_LOST)
    start_turn_c(g, s)


cdef void apply_decision_c(const VeGameC* g, VeStateC* s, int a) noexcept nogil:
    cdef int p = s.to_move, f, sq, c, price, k
    if s.phase == VE_PHASE_PLACE:
        k = s.placed
        set_figure(s, p, placing_slot(g, k), a - PLACE0)
        s.placed += 1
        if k + 1 == g.num_players * g.figures:
            start_turn_c(g, s)
        else:
            s.to_move = <int8_t>placing_seat(g, k + 1)
    elif s.phase == VE_PHASE_MOVE:
        if a == PASS_MOVE:                         # passing is allowed (§5.1); the move step ends
            set_moved(s, 0)
            set_phase(s, VE_PHASE_BUY)
            return
        if a >= GONDOLA0:                          # §5.2
            set_gondolas(s, p, s.seats[p].gondolas - 1)
            set_figure(s, p, (a - GONDOLA0) // 64, (a - GONDOLA0) % 64)
            set_moved(s, s.moved | 2)
        else:                                      # §5.1
            set_figure(s, p, (a - MOVE0) // 64, (a - MOVE0) % 64)
            set_moved(s, s.moved | 1)
        if g.gondola_step1 or s.moved == 3:        # VD-4
            set_moved(s, 0)
            set_phase(s, VE_PHASE_BUY)
    elif s.phase == VE_PHASE_BUY:
        if a != PASS_BUY:                          # §5.3
            sq = s.seats[p].fig[a - BUY0]
            c = g.tile_colour[s.tile[sq]]
            price = s.coins[sq] + 1
            set_coins(s, p, s.seats[p].coins - price)
            set_square_coins(s, sq, s.coins[sq] + price)
            set_tokens(s, p, c, s.seats[p].tokens[c] + 1)
            if s.supply[c] > 0:
                set_supply(s, c, s.supply[c] - 1)
        set_phase(s, VE_PHASE_CARD)
    elif s.phase == VE_PHASE_CARD:
        play_card_c(g, s, a - PLAY0)
    else:                                          # RESCUE, §5.6
        if a == DECLINE:
            set_figure(s, s.rescue_owner, s.rescue_slot, VE_LOST)
        else:
            set_gondolas(s, s.rescue_owner, s.seats[s.rescue_owner].gondolas - 1)
            set_figure(s, s.rescue_owner, s.rescue_slot, a - RESCUE0)
        start_turn_c(g, s)


cdef void apply_action_c(const VeGameC* g, VeStateC* s, int action) noexcept nogil:
    cdef int buf[VE_NUM_ACTIONS]
    if s.phase == VE_PHASE_SETUP:
        apply_chance_c(g, s, action)
    else:
        apply_decision_c(g, s, action)
    if g.auto_forced:                              # §10.5: decisions with one legal action apply themselves
        while s.phase != VE_PHASE_SETUP and s.phase != VE_PHASE_OVER and legal_actions_c(g, s, buf) == 1:
            apply_decision_c(g, s, buf[0])


# ================================================================================================
# Scoring (§7)
# ================================================================================================

cdef uint64_t doomed_districts(const VeGameC* g, const VeStateC* s) noexcept nogil:
    """The districts the cards still in hands will sink (§10.9 item 1)."""
    cdef uint64_t doomed = 0, m = held_cards(g, s)
    cdef int j
    while m:
        j = ve_ctz(m)
        m &= m - 1
        doomed |= (<uint64_t>1) << g.card_district[j]
    return doomed


cdef void breakdown_c(const VeGameC* g, const VeStateC* s, int p, uint64_t doomed, int* parts) noexcept nogil:
    """A seat's §7 score by category (treasures, figures, X districts, coins) on the board as it stands,
    without the `doomed` districts."""
    cdef int k[VE_COLOURS]
    cdef int numbers[VE_COLOURS]
    cdef int i, t, c, f, sq
    for c in range(VE_COLOURS):
        k[c] = 0
        numbers[c] = 0
    for i in range(g.squares):
        if not is_land(s, i) or doomed >> s.tile[i] & 1:
            continue
        t = s.tile[i]
        k[g.tile_colour[t]] += 1
        numbers[g.tile_colour[t]] += g.tile_number[t]
    parts[0] = 0
    for c in range(VE_COLOURS):
        parts[0] += s.seats[p].tokens[c] * g.token_value[k[c]]
    parts[1] = 0
    parts[2] = 0
    for f in range(VE_MAX_FIGURES):
        sq = s.seats[p].fig[f]
        if sq < 0 or not is_land(s, sq) or doomed >> s.tile[sq] & 1:
            continue
        t = s.tile[sq]
        if g.tile_is_x[t]:
            parts[2] += g.x_multiplier * numbers[g.tile_colour[t]]      # VD-9
        else:
            parts[1] += g.tile_number[t]
    parts[3] = s.seats[p].coins


cdef inline int score_c(const VeGameC* g, const VeStateC* s, int p, uint64_t doomed) noexcept nogil:
    cdef int parts[4]
    breakdown_c(g, s, p, doomed, parts)
    return parts[0] + parts[1] + parts[2] + parts[3]


cdef void outcome_c(const VeGameC* g, const VeStateC* s, double* scores, double* shares) noexcept nogil:
    """Scores, and 1/k of the win for each of the k seats with the best (score, figures on the board)
    (§7 [RB:182, VD-10])."""
    cdef int p, count = 0, best = 0
    cdef int pts[VE_MAX_PLAYERS]
    cdef int figs[VE_MAX_PLAYERS]
    for p in range(g.num_players):
        pts[p] = score_c(g, s, p, 0)
        figs[p] = alive_figures(s, p)
        scores[p] = pts[p]
        if pts[p] > pts[best] or (pts[p] == pts[best] and figs[p] > figs[best]):
            best = p
    for p in range(g.num_players):
        if pts[p] == pts[best] and figs[p] == figs[best]:
            count += 1
    for p in range(g.num_players):
        shares[p] = 1.0 / count if pts[p] == pts[best] and figs[p] == figs[best] else 0.0


# ================================================================================================
# Resampling what a seat cannot see (§10.3)
# ================================================================================================

cdef inline int nth_bit(uint64_t m, int i) noexcept nogil:
    while i > 0:
        m &= m - 1
        i -= 1
    return ve_ctz(m)


cdef void resample_c(const VeGameC* g, VeStateC* s, int seat, Rng* rng) noexcept nogil:
    """Redraw the other seats' hands (and so the set-aside pile) uniformly among the deals consistent with
    `seat`'s view, with the draws of `rules.resample_hands`: opponents by bound, highest first, then by
    seat; each takes its hand size, one card at a time, `eligible[below(len)]` of the unseen cards ranked
    at least its bound, in id order."""
    cdef int order[VE_MAX_PLAYERS]
    cdef int sizes[VE_MAX_PLAYERS]
    cdef int n = 0, i, j, p, q, t, k, cnt
    cdef uint64_t unseen, eligible, m
    if s.phase == VE_PHASE_SETUP and held_cards(g, s) == 0:
        return
    unseen = deck_in_play(g, s) & ~s.seats[seat].hand & ~played_cards(s)
    for p in range(g.num_players):
        if p == seat:
            continue
        sizes[p] = ve_popcount(s.seats[p].hand)
        m = s.seats[p].hand                        # every unseen card back to the pile first
        while m:
            k = ve_ctz(m)
            m &= m - 1
            take_from_hand(s, p, k, CARD_UNDEALT)
        order[n] = p
        n += 1
    for i in range(1, n):                          # insertion sort: bound descending, seat ascending
        q = order[i]
        j = i - 1
        while j >= 0 and s.seats[order[j]].bound < s.seats[q].bound:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = q
    for i in range(n):
        p = order[i]
        eligible = 0
        m = unseen
        while m:
            k = ve_ctz(m)
            m &= m - 1
            if g.card_rank[k] >= s.seats[p].bound:
                eligible |= (<uint64_t>1) << k
        for t in range(sizes[p]):
            cnt = ve_popcount(eligible)
            if cnt == 0:
                return                              # an impossible view (never for a legal position)
            k = nth_bit(eligible, <int>rng_below(rng, <uint32_t>cnt))
            eligible &= ~((<uint64_t>1) << k)
            unseen &= ~((<uint64_t>1) << k)
            add_to_hand(s, p, k)


# ================================================================================================
# Playouts
# ================================================================================================

cdef inline double square_worth(const VeGameC* g, const VeStateC* s, int sq, uint64_t doomed) noexcept nogil:
    """The heuristic playout's worth of standing on sq in the world being played out, where the cards in
    hands will sink `doomed` (§10.9 item 1: the final board is fixed by the deal): a district that
    survives is worth its numeral (an X 10), one that will sink 0, a platform 0.5 (safe, no points)."""
    cdef int t = s.tile[sq]
    if t >= VE_DISTRICTS:
        return 0.5
    if doomed >> t & 1:
        return 0.0
    return 10.0 if g.tile_is_x[t] else g.tile_number[t]


cdef int heuristic_action_c(const VeGameC* g, const VeStateC* s, Rng* rng, const int* legal, int n) noexcept nogil:
    """The heuristic playout's choice in the world being played out; one decision in eight, and every
    card, uniformly at random.

    PLACE and RESCUE: the free square of most `square_worth`. MOVE: the move that gains most worth for
    its figure (a gondola move costs 3, the card's value), or pass when none gains. BUY: the purchase whose
    token will be worth most over its price (V(k_c) of the colour's final survivors, a coin being a point),
    or pass when none is worth its price. Ties are broken at random."""
    cdef int p = current_player_c(s), i, a, f, ties = 0, pick = legal[n - 1], sq, c, t
    cdef double v, best = -1e300
    cdef uint64_t doomed
    cdef int k[VE_COLOURS]
    if n == 1:
        return legal[0]
    if s.phase == VE_PHASE_CARD or rng_below(rng, 8) == 0:
        return legal[<int>rng_below(rng, <uint32_t>n)]
    doomed = doomed_districts(g, s)
    if s.phase == VE_PHASE_BUY:
        for c in range(VE_COLOURS):
            k[c] = 0
        for sq in range(g.squares):
            t = s.tile[sq]
            if is_land(s, sq) and not doomed >> t & 1:
                k[g.tile_colour[t]] += 1
    for i in range(n):
        a = legal[i]
        if s.phase == VE_PHASE_PLACE:
            v = square_worth(g, s, a - PLACE0, doomed)
        elif s.phase == VE_PHASE_RESCUE:
            v = -1.0 if a == DECLINE else square_worth(g, s, a - RESCUE0, doomed)
        elif s.phase == VE_PHASE_MOVE:
            if a == PASS_MOVE:
                v = 0.0
            elif a < GONDOLA0:
                f = (a - MOVE0) // 64
                v = square_worth(g, s, (a - MOVE0) % 64, doomed) - square_worth(g, s, s.seats[p].fig[f], doomed)
            else:
                f = (a - GONDOLA0) // 64
                v = square_worth(g, s, (a - GONDOLA0) % 64, doomed) - \
                    square_worth(g, s, s.seats[p].fig[f], doomed) - 3.0
        else:
            if a == PASS_BUY:
                v = 0.0
            else:
                sq = s.seats[p].fig[a - BUY0]
                v = g.token_value[k[g.tile_colour[s.tile[sq]]]] - (s.coins[sq] + 1.0)
        if v > best:
            best = v
            ties = 1
            pick = a
        elif v == best:
            ties += 1
            if rng_below(rng, <uint32_t>ties) == 0:
                pick = a
    return pick


cdef int playout_c(const VeGameC* g, VeStateC* s, Rng* rng, int policy) noexcept nogil:
    """Play to the end in place (policy 0: uniformly at random; 1: `heuristic_action_c`); return the
    steps, or VE_PLAYOUT_* on failure."""
    cdef int buf[VE_NUM_ACTIONS]
    cdef int steps = 0, a, n
    while s.phase != VE_PHASE_OVER:
        if steps >= VE_STEP_LIMIT:
            return VE_PLAYOUT_CAPPED
        if s.phase == VE_PHASE_SETUP:
            a = sample_chance_c(g, s, rng)
            if a < 0:
                return VE_PLAYOUT_DEAD_END
        else:
            n = legal_actions_c(g, s, buf)
            if n == 0:
                return VE_PLAYOUT_DEAD_END
            if policy == 1:
                a = heuristic_action_c(g, s, rng, buf, n)
            else:
                a = buf[<int>rng_below(rng, <uint32_t>n)]
        apply_action_c(g, s, a)
        steps += 1
    return steps


# ================================================================================================
# The search prior (`heuristic`, the readable form)
# ================================================================================================

cdef void sink_chances_c(const VeGameC* g, const VeStateC* s, int seat, double* chance) noexcept nogil:
    """`heuristic.sink_chances`: per district, the chance as `seat` sees it that a card in a hand sinks
    it (1 for its own cards; for an unseen card, the sizes of the hands that may hold it over the unseen
    cards each may hold, capped at 1). Reads no hidden card: only `seat`'s hand, the cards played, the
    other hands' sizes and their bounds."""
    cdef uint64_t unseen, eligible, m
    cdef int d, o, k, held, count
    for d in range(VE_DISTRICTS):
        chance[d] = 0.0
    m = s.seats[seat].hand
    while m:
        k = ve_ctz(m)
        m &= m - 1
        chance[g.card_district[k]] = 1.0
    unseen = deck_in_play(g, s) & ~s.seats[seat].hand & ~played_cards(s)
    for o in range(g.num_players):
        held = ve_popcount(s.seats[o].hand)
        if o == seat or held == 0:
            continue
        eligible = 0
        m = unseen
        while m:
            k = ve_ctz(m)
            m &= m - 1
            if g.card_rank[k] >= s.seats[o].bound:
                eligible |= (<uint64_t>1) << k
        count = ve_popcount(eligible)
        while eligible:
            k = ve_ctz(eligible)
            eligible &= eligible - 1
            chance[g.card_district[k]] += <double>held / count
    for d in range(VE_DISTRICTS):
        if chance[d] > 1.0:
            chance[d] = 1.0


cdef inline double prior_square_worth(const VeGameC* g, const VeStateC* s, int sq, const double* chance) noexcept nogil:
    """`heuristic.square_worth`: a district's worth times its chance to survive; a platform's."""
    cdef int t = s.tile[sq]
    if t >= VE_DISTRICTS:
        return PLATFORM_WORTH
    return (X_WORTH if g.tile_is_x[t] else <double>g.tile_number[t]) * (1.0 - chance[t])


cdef inline double token_worth_c(const VeGameC* g, double surviving) noexcept nogil:
    """`heuristic.token_worth`: §7's V interpolated at an expected count of survivors (V(0) = 0)."""
    cdef int low = <int>surviving
    cdef double frac = surviving - low
    cdef double v_low = <double>g.token_value[low] if low else 0.0
    if frac == 0.0:
        return v_low
    return v_low * (1.0 - frac) + frac * g.token_value[low + 1]


cdef double prior_value_c(const VeGameC* g, const VeStateC* s, int p, int a, const double* chance) noexcept nogil:
    """`heuristic.action_value`: the preference of p, the seat to decide, for action a."""
    cdef int f, sq, q, colour
    cdef double surviving
    if s.phase == VE_PHASE_PLACE:
        return prior_square_worth(g, s, a - PLACE0, chance)
    if s.phase == VE_PHASE_RESCUE:
        return DECLINE_VALUE if a == DECLINE else prior_square_worth(g, s, a - RESCUE0, chance)
    if s.phase == VE_PHASE_MOVE:
        if a == PASS_MOVE:
            return 0.0
        if a < GONDOLA0:
            f = (a - MOVE0) // 64
            return prior_square_worth(g, s, (a - MOVE0) % 64, chance) - \
                prior_square_worth(g, s, s.seats[p].fig[f], chance)
        f = (a - GONDOLA0) // 64
        return prior_square_worth(g, s, (a - GONDOLA0) % 64, chance) - \
            prior_square_worth(g, s, s.seats[p].fig[f], chance) - GONDOLA_COST
    if a == PASS_BUY:
        return 0.0
    sq = s.seats[p].fig[a - BUY0]
    colour = g.tile_colour[s.tile[sq]]
    surviving = 0.0
    for q in range(g.squares):
        if is_land(s, q) and g.tile_colour[s.tile[q]] == colour:
            surviving += 1.0 - chance[s.tile[q]]
    return token_worth_c(g, surviving) - (s.coins[sq] + 1.0)


cdef int prior_c(const VeGameC* g, const VeStateC* s, int player, const int* legal, int n,
                 double* out) noexcept nogil:
    """The search prior (`heuristic.prior`): a softmax of `prior_value_c / PRIOR_TEMPERATURE` over the
    legal actions of the seat to decide in a place, move, buy or rescue; 0 (none) for a card, for another
    seat and with no moves."""
    cdef double chance[VE_DISTRICTS]
    cdef double top = -1e300, total = 0.0
    cdef int i
    if n <= 0 or player != current_player_c(s) or not (
            s.phase == VE_PHASE_PLACE or s.phase == VE_PHASE_MOVE or s.phase == VE_PHASE_BUY or
            s.phase == VE_PHASE_RESCUE):
        return 0
    sink_chances_c(g, s, player, chance)
    for i in range(n):
        out[i] = prior_value_c(g, s, player, legal[i], chance)
        if out[i] > top:
            top = out[i]
    for i in range(n):
        out[i] = exp((out[i] - top) / PRIOR_TEMPERATURE)
        total += out[i]
    for i in range(n):
        out[i] /= total
    return 1


# ================================================================================================
# The C game interface (burano_ai/core/_game.pxd)
# ================================================================================================

# The wrappers every core shares (core/_ops_glue.pxi: ops_num_players .. ops_full_key and
# fill_common_ops), over this game's structs; its own wrappers follow.
ctypedef VeGameC CoreGameC
ctypedef VeStateC CoreStateC
cdef enum:
    CORE_PLAYOUT_CAPPED = VE_PLAYOUT_CAPPED
    CORE_PLAYOUT_DEAD_END = VE_PLAYOUT_DEAD_END
include "burano_ai/core/_ops_glue.pxi"
include "_encode.pxi"

cdef int ops_chance_kind(const void* game, const void* state) noexcept nogil:
    return chance_kind_c(<const VeGameC*>game, <const VeStateC*>state)

cdef void ops_resample(const void* game, void* state, int seat, Rng* rng) noexcept nogil:
    resample_c(<const VeGameC*>game, <VeStateC*>state, seat, rng)

cdef int ops_decision_mode(const void* game, const void* state) noexcept nogil:
    return DECISION_OPEN

cdef int ops_prior(const void* game, const void* state, int player, const int* legal, int n,
                   double* out) noexcept nogil:
    return prior_c(<const VeGameC*>game, <const VeStateC*>state, player, legal, n, out)

cdef int64_t ops_turn_id(const void* game, const void* state) noexcept nogil:
    return turn_id_c(<const VeGameC*>game, <const VeStateC*>state)

cdef uint64_t ops_info_key(const void* game, const void* state, int seat) noexcept nogil:
    return info_key_c(<const VeGameC*>game, <const VeStateC*>state, seat)


cdef GameOpsC VENICE_2099_OPS
fill_common_ops(&VENICE_2099_OPS)
VENICE_2099_OPS.num_actions = VE_NUM_ACTIONS
VENICE_2099_OPS.max_legal = VE_NUM_ACTIONS
VENICE_2099_OPS.min_players = 2
VENICE_2099_OPS.max_players = VE_MAX_PLAYERS
VENICE_2099_OPS.chance_kind = ops_chance_kind
VENICE_2099_OPS.resample = ops_resample
VENICE_2099_OPS.decision_mode = ops_decision_mode
VENICE_2099_OPS.prior = ops_prior
VENICE_2099_OPS.turn_id = ops_turn_id
VENICE_2099_OPS.info_key = ops_info_key
VENICE_2099_OPS.name = b"venice-2099"
VENICE_2099_OPS.encoder_version = VE_ENCODER_VERSION
VENICE_2099_OPS.num_features = ve_num_features
VENICE_2099_OPS.encode = ve_encode


# ================================================================================================
# Python API: Game and State (the reference's)
# ================================================================================================

cdef class Game:
    """Rules and metadata of one configuration (the reference `Game`'s API, compiled states).

    Args:
        num_players: 2..5.
        options: the rule flags of §10.10 (`rules.Options`, or a mapping flag -> value; None = the
            spec's decisions).
        **flags: the same flags as keywords (the framework's game options: `forecast_values=...`);
            they override `options`.

    Raises:
        OptionError: a parameter out of range or an unknown flag (one line, named).
    """

    def __init__(self, num_players=3, options=None, **flags):
        cdef int c, d, k, i
        self.num_players = _rules.check_players(num_players)
        if flags:
            base = _rules.check_options(options).to_dict()
            base.update(flags)
            options = base
        self.options = _rules.check_options(options)
        opts = self.options
        counts = _rules.config_counts(num_players)
        memset(&self.g, 0, sizeof(VeGameC))
        self.g.num_players = num_players
        self.g.side = counts["N"]
        self.g.squares = counts["N"] ** 2
        self.g.hand_size = counts["cards_each"]
        self.g.dealt = num_players * counts["cards_each"]
        self.g.figures = counts["figures_each"]
        self.g.platforms = counts["platforms"]
        self.g.removes_colour = num_players == 2
        self.g.treasure_supply = opts.treasure_supply
        self.g.move_dirs = opts.move_dirs
        self.g.diagonal_squeeze = opts.diagonal_squeeze
        self.g.gondola_step1 = opts.gondola_move_is_step1
        self.g.rescue_to_platform = opts.rescue_to_platform
        self.g.round_robin = opts.placement_round_robin
        self.g.auto_forced = opts.auto_apply_forced
        for d in _rules.districts_in_play(num_players, -1):
            self.g.base_districts |= (<uint64_t>1) << d
        for k in _rules.cards_in_play(num_players, -1, opts):
            self.g.base_deck |= (<uint64_t>1) << k
        for k in range(VE_CARDS):
            self.g.card_district[k] = _rules.card_district(k, opts)
            self.g.card_rank[k] = _rules.card_vi(k, opts)
            self.g.colour_cards[_rules.card_colour(k)] |= (<uint64_t>1) << k
        for d in range(VE_DISTRICTS):
            c = _rules.district_colour(d)
            self.g.colour_districts[c] |= (<uint64_t>1) << d
            self.g.tile_colour[d] = c
            self.g.tile_vi[d] = _rules.district_vi(d)
            self.g.tile_number[d] = _data.NUMERIC_VALUES[_rules.district_vi(d)]
            self.g.tile_is_x[d] = _rules.district_vi(d) == _data.X_INDEX
            if _rules.card_of_district(d, opts) < 0:
                self.g.never_sinks |= (<uint64_t>1) << d
        self.g.x_multiplier = _data.X_MULTIPLIER
        self.g.token_value[0] = _data.TOKEN_VALUES[len(_data.TOKEN_VALUES) - 1]      # as the reference's token_value(0); no token has k = 0
        for i in range(1, VE_DISTRICTS + 1):
            self.g.token_value[i] = _data.token_value(i)
        for i, (dr, dc) in enumerate(_rules.DIRECTIONS):
            self.g.dr[i] = dr
            self.g.dc[i] = dc

    def __repr__(self):
        changed = {k: v for k, v in self.options.to_dict().items() if getattr(_rules.DEFAULT_OPTIONS, k) != v}
        return f"Game(num_players={self.num_players}{', options=' + repr(changed) if changed else ''})"

    def __eq__(self, other):
        return isinstance(other, Game) and self.config() == other.config()

    def __hash__(self):
        return hash(self.config())

    def __reduce__(self):
        return (Game, (self.num_players, self.options.to_dict()))

    def config(self):
        """(num_players, options)."""
        return self.num_players, self.options

    def num_distinct_actions(self):
        return VE_NUM_ACTIONS

    def max_chance_outcomes(self):
        return VE_MAX_OUTCOMES

    def max_game_length(self):
        """Most decisions (§10.8): placements + 3 per turn (4 with an extra gondola move) + 1 rescue per turn."""
        per_turn = 4 if self.g.gondola_step1 else 5
        return self.g.num_players * self.g.figures + per_turn * self.g.dealt

    def new_initial_state(self, seed=0):
        """The position before setup (setup is chance: `seed` is accepted and unused)."""
        _check_seed(seed)
        return State(self)

    def state_from_position(self, position):
        return State.from_position(position, self)

    def state_from_json(self, text):
        """Load a position (full, or a seat's view with the hidden hands filled consistently).

        Raises:
            PositionError: a field is wrong, or the position is of another configuration (named).
        """
        pos, _ = _position_from_json(text, expect=self.config())
        return State.from_position(pos, self)


cdef class State(NativeState):
    """A position in a C struct, with the reference `State`'s API and the C game interface.

    The position's fields read as the reference's (`tiles`, `figures`, `hands`, ...: fresh lists) and its
    derived facts (`turn()`, `to_move()`, `occupant()`, ...) are `position.Position`'s, computed on a
    snapshot (`to_position`), so the narration and the services see one model.
    """

    def __init__(self, Game game):
        self.bind(game)
        self.set_from(_Position(game.num_players, game.options))

    cdef void bind(self, object game) except *:
        self.game = <Game?>game
        self.ops = &VENICE_2099_OPS
        self.game_ptr = &self.game.g
        self.state_ptr = &self.s

    def set_from(self, pos):
        """Load the fields of a `position.Position` of this State's game; derive the rest and the key.

        Raises:
            TypeError: `pos` is not a Position of this game; PositionError: it is of another configuration
                or breaks an invariant (checked before any field is written: the C arrays are bounded).
        """
        cdef int p, f, sq, c, i, k, t
        cdef const VeGameC* g = &self.game.g
        _check_instance(pos, _Position, "a Venice 2099 position")
        if pos.config() != self.game.config():
            raise PositionError("the position does not belong to this game (players or rule options)")
        _validate(pos)
        memset(&self.s, 0, sizeof(VeStateC))
        self.s.num_players = pos.num_players
        self.s.phase = pos.phase
        self.s.removed = pos.removed_colour
        self.s.moved = pos.moved
        self.s.coins_sunk = pos.coins_sunk
        self.s.rescue_owner = -1
        self.s.rescue_slot = -1
        for sq in range(VE_SQUARES):
            self.s.tile[sq] = -1
            self.s.occ[sq] = -1
        for t in range(VE_DISTRICTS):
            self.s.square_of[t] = -1
        for sq in range(g.squares):
            t = pos.tiles[sq]
            self.s.tile[sq] = t
            self.s.water[sq] = pos.water[sq]
            self.s.coins[sq] = pos.coins_on[sq]
            if t == VE_PLATFORM:
                self.s.platforms_laid += 1
            elif t >= 0:
                self.s.laid |= (<uint64_t>1) << t
                self.s.square_of[t] = sq
            if t >= 0:
                self.s.cursor += 1
        self.s.cursor += pos.dealt_count() if pos.phase == VE_PHASE_SETUP else 0
        for c in range(VE_COLOURS):
            self.s.supply[c] = pos.supply[c]
        for p in range(pos.num_players):
            st = &self.s.seats[p]
            st.coins = pos.coins[p]
            st.gondolas = pos.gondolas[p]
            st.bound = pos.bound(p)
            for c in range(VE_COLOURS):
                st.tokens[c] = pos.tokens[p][c]
            for f in range(VE_MAX_FIGURES):
                st.fig[f] = pos.figures[p][f] if f < pos.figures_each else VE_UNPLACED
                if st.fig[f] >= 0:
                    self.s.occ[st.fig[f]] = p * VE_MAX_FIGURES + f
                if st.fig[f] == VE_IN_WATER:
                    self.s.rescue_owner = p
                    self.s.rescue_slot = f
            for k in pos.hands[p]:
                st.hand |= (<uint64_t>1) << k
        for i, (p, k) in enumerate(pos.played):
            self.s.played[i] = k
            self.s.played_by[i] = p
        self.s.num_played = len(pos.played)
        self.s.placed = pos.placed_count()
        self.s.to_move = pos.active() if pos.phase != VE_PHASE_PLACE else pos.to_move()
        self.s.key = full_key_c(g, &self.s)

    @staticmethod
    def from_position(pos, Game game not None):
        """A State of `game` holding `pos` (a `position.Position` of the same configuration)."""
        cdef State st
        _check_instance(pos, _Position, "a Venice 2099 position")
        if pos.config() != game.config():
            raise PositionError("the position does not belong to this game (players or rule options)")
        st = State.__new__(State)
        st.bind(game)
        st.set_from(pos)
        return st

    def to_position(self):
        """The fields as a `position.Position`."""
        cdef int p, f, c, sq, i, k
        cdef const VeGameC* g = &self.game.g
        pos = _Position(self.game.num_players, self.game.options)
        pos.removed_colour = self.s.removed
        pos.tiles = [self.s.tile[sq] for sq in range(g.squares)]
        pos.water = [bool(self.s.water[sq]) for sq in range(g.squares)]
        pos.coins_on = [self.s.coins[sq] for sq in range(g.squares)]
        pos.figures = [[self.s.seats[p].fig[f] for f in range(g.figures)] for p in range(g.num_players)]
        pos.coins = [self.s.seats[p].coins for p in range(g.num_players)]
        pos.tokens = [[self.s.seats[p].tokens[c] for c in range(VE_COLOURS)] for p in range(g.num_players)]
        pos.gondolas = [self.s.seats[p].gondolas for p in range(g.num_players)]
        pos.hands = [[k for k in range(VE_CARDS) if self.s.seats[p].hand >> k & 1] for p in range(g.num_players)]
        pos.played = [(self.s.played_by[i], self.s.played[i]) for i in range(self.s.num_played)]
        pos.supply = [self.s.supply[c] for c in range(VE_COLOURS)]
        pos.coins_sunk = self.s.coins_sunk
        pos.phase = self.s.phase
        pos.moved = self.s.moved
        return pos

    def to_dict(self, seat=None):
        if seat is not None:
            seat = _parse_seat(seat, self.s.num_players)
        return _position_to_dict(self.to_position(), seat)

    def __str__(self):
        return _render(self.to_dict())

    def __repr__(self):
        return (f"<venice-2099 State turn {self.turn() + 1} {_rules.PHASE_NAMES[self.s.phase]} "
                f"key {self.s.key:016x}>")

    # --- the position's fields (fresh lists, as the reference's attributes read)

    @property
    def options(self):
        return self.game.options

    @property
    def n(self):
        return self.game.g.side

    @property
    def figures_each(self):
        return self.game.g.figures

    @property
    def cards_each(self):
        return self.game.g.hand_size

    @property
    def platforms(self):
        return self.game.g.platforms

    @property
    def phase(self):
        return self.s.phase

    @property
    def moved(self):
        return self.s.moved

    @property
    def removed_colour(self):
        return self.s.removed

    @property
    def coins_sunk(self):
        return self.s.coins_sunk

    @property
    def tiles(self):
        return [self.s.tile[sq] for sq in range(self.game.g.squares)]

    @property
    def water(self):
        return [bool(self.s.water[sq]) for sq in range(self.game.g.squares)]

    @property
    def coins_on(self):
        return [self.s.coins[sq] for sq in range(self.game.g.squares)]

    @property
    def figures(self):
        return self.to_position().figures

    @property
    def coins(self):
        return [self.s.seats[p].coins for p in range(self.s.num_players)]

    @property
    def tokens(self):
        return self.to_position().tokens

    @property
    def gondolas(self):
        return [self.s.seats[p].gondolas for p in range(self.s.num_players)]

    @property
    def hands(self):
        return self.to_position().hands

    @property
    def played(self):
        return self.to_position().played

    @property
    def supply(self):
        return [self.s.supply[c] for c in range(VE_COLOURS)]

    # --- the position's derived facts (`position.Position`'s, on a snapshot)

    def config(self):
        return self.game.config()

    def deck(self):
        return self.to_position().deck()

    def dealt_total(self):
        return self.game.g.dealt

    def dealt_count(self):
        return self.to_position().dealt_count()

    def set_aside(self):
        return self.to_position().set_aside()

    def setup_cursor(self):
        return self.to_position().setup_cursor()

    def placed_count(self):
        return self.to_position().placed_count()

    def placement_order(self):
        return self.to_position().placement_order()

    def turn(self):
        return self.to_position().turn()

    def active(self):
        return self.to_position().active()

    def rescue_pending(self):
        return self.to_position().rescue_pending()

    def to_move(self):
        return self.to_position().to_move()

    def occupant(self):
        return self.to_position().occupant()

    def is_land(self, s):
        return self.to_position().is_land(s)

    def alive_figures(self, p):
        return self.to_position().alive_figures(p)

    def bound(self, p):
        return self.to_position().bound(p)

    def hand_size(self, p):
        return self.to_position().hand_size(p)

    def price(self, s):
        """§5.3 [RB:109]: the coins on the square + 1."""
        return self.s.coins[_check_index(s, self.game.g.squares, "square")] + 1

    # --- the State API

    @property
    def chance_kind(self):
        """The pending chance event (`rules.CHANCE_*`); 0 off chance nodes."""
        return chance_kind_c(&self.game.g, &self.s)

    def chance_kind_name(self, kind=None):
        names = _rules.CHANCE_KIND_NAMES
        return names[self.chance_kind if kind is None else _check_index(kind, len(names), "chance kind")]

    def phase_name(self):
        return _rules.PHASE_NAMES[self.s.phase]

    def _text_context(self):
        cdef int p, f
        cdef int kind
        if self.s.phase == VE_PHASE_SETUP:
            kind = chance_kind_c(&self.game.g, &self.s)
            return {"chance_kind": kind, "square": self.s.cursor if kind == VE_CHANCE_LAYOUT else 0}
        p = current_player_c(&self.s)
        squares = tuple(self.s.seats[p].fig[f] for f in range(self.game.g.figures)) if p >= 0 else ()
        return {"figure_squares": squares, "phase": self.s.phase}

    def action_to_string(self, action):
        return _rules.action_to_str(action, self.game.g.side, options=self.game.options, **self._text_context())

    def string_to_action(self, text):
        return _rules.parse_action(text, self.game.g.side, options=self.game.options, **self._text_context())

    def where(self):
        """Where the game stands, for messages ("in turn 5 (move), seat B to move")."""
        if self.s.phase == VE_PHASE_OVER:
            return "after the end of the game"
        if self.s.phase == VE_PHASE_SETUP:
            return "during setup"
        who = _SEAT_LETTERS[current_player_c(&self.s)]
        if self.s.phase == VE_PHASE_PLACE:
            return f"during the placement, seat {who} to place"
        return f"in turn {self.turn() + 1} ({_rules.PHASE_NAMES[self.s.phase]}), seat {who} to move"

    # --- scoring (§7)

    def surviving(self):
        """Per colour, the unsunk districts on the board now (k_c at the end)."""
        cdef int sq
        k = [0] * VE_COLOURS
        for sq in range(self.game.g.squares):
            if is_land(&self.s, sq):
                k[self.game.g.tile_colour[self.s.tile[sq]]] += 1
        return k

    def final_breakdown(self, player, land=None):
        """§7 for a seat on the board as it stands (at the end: the final scoring), by category.

        `land[s]`: which squares count as surviving districts (default: the unsunk ones; a list of n*n
        bools, True only on unsunk districts: `position.check_land`).
        """
        cdef int parts[4]
        cdef uint64_t doomed = 0
        cdef int sq
        p = _parse_seat(player, self.s.num_players, "player")
        if land is not None:
            land = _check_land(self.to_position(), land)
            for sq in range(self.game.g.squares):
                if is_land(&self.s, sq) and not land[sq]:
                    doomed |= (<uint64_t>1) << self.s.tile[sq]
        breakdown_c(&self.game.g, &self.s, p, doomed, parts)
        return {"treasures": parts[0], "figures": parts[1], "X districts": parts[2], "coins": parts[3]}

    def scores(self):
        """Each seat's points by §7 on the board as it stands (the final scores at the end)."""
        return [score_c(&self.game.g, &self.s, p, 0) for p in range(self.s.num_players)]

    def figures_on_board(self, player):
        """VD-10's tie-break: figures on districts and platforms."""
        return alive_figures(&self.s, _parse_seat(player, self.s.num_players, "player"))

    def finishing_key(self, player):
        """§7 [RB:182, VD-10]: the higher score; tied, more figures still on the board."""
        p = _parse_seat(player, self.s.num_players, "player")
        return score_c(&self.game.g, &self.s, p, 0), alive_figures(&self.s, p)

    def winners(self):
        keys = [self.finishing_key(p) for p in range(self.s.num_players)]
        return [p for p in range(self.s.num_players) if keys[p] == max(keys)]

    def estimated_scores(self):
        """A cut-off evaluation: §7 on the final board this state's deal fixes (§10.9 item 1: every card
        in a hand sinks its district), a figure counting where it stands now."""
        cdef uint64_t doomed = 0
        if self.s.phase != VE_PHASE_OVER and self.s.phase != VE_PHASE_SETUP:
            doomed = doomed_districts(&self.game.g, &self.s)
        return [float(score_c(&self.game.g, &self.s, p, doomed)) for p in range(self.s.num_players)]
