"""The compiled Walking in Burano core: positions as a C struct, the rules in `nogil` C, and the C game
interface.

A port of the reference model (`burano_ai.games.walking_in_burano.reference`, the executable
specification; the rules' citations to ../shared/rules/walking-in-burano.md live there and are repeated
here by section), held against it move for move by tests/test_walking_in_burano_core.py: the same legal
actions, chance outcomes and probabilities, Zobrist and information-set keys, JSON and returns. A
position is a fixed-size `WbStateC` (`_core.pxd`): card sets as one 24-bit mask per level, streets as
card ids, so a copy is one struct assignment; the key is kept incrementally (each changed field XORs
its old and new `rules.zobrist` cell, computed by the same mix64 formula in C) and `full_key`
recomputes it.

Hidden information (§14, WD-27): every card that enters a hand is public, so the only secret is, after
a return with a choice, which of the owner's pooled cards of a level are in its hand and which lie
under the deck. `resample` redraws that split for every other seat; the order of each deck's shuffled
part is never stored (every draw from it is a chance node). JSON, rendering and validation are the
pure-Python `position` module; the core never imports the reference model.

Playouts and the prior: the heuristic playout plays the best `action_value_c` (`heuristic.action_value`,
whose weights it reads from `heuristic`) nine times in ten; `prior_c` is the softmax of the same
preference (`State.move_prior`), offered to the search only while `heuristic.SEARCH_PRIOR` is on (off by
default: measured, it did not pay; docs/strength.md).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.math cimport exp
from libc.string cimport memcpy, memset

from burano_ai._build cimport BURANO_DEBUG_BUILD
from burano_ai._rng cimport Rng, rng_seed, rng_below
from burano_ai.core._game cimport (
    DECISION_OPEN, GAME_ABI_VERSION, NO_TURN, OPS_CHANCE_PLAYER, OPS_PLAYOUT_CAPPED, OPS_PLAYOUT_DEAD_END,
    OPS_TERMINAL_PLAYER, GameOpsC, NativeState,
)

import json

from burano_ai.core.arguments import check_index as _check_index, check_indent as _check_indent
from burano_ai.core.arguments import check_instance as _check_instance
from burano_ai.core.game import check_prior_arguments as _check_prior_arguments
from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.seats import SEAT_LETTERS as _SEAT_LETTERS
from burano_ai.core.seats import parse_seat as _parse_seat
from burano_ai.core.seeds import check_seed as _check_seed
import burano_ai.games.walking_in_burano.data as _data
import burano_ai.games.walking_in_burano.heuristic as _heuristic
import burano_ai.games.walking_in_burano.rules as _rules
import burano_ai.games.walking_in_burano.position as _position
from burano_ai.games.walking_in_burano.render import render as _render

cdef extern from *:
    """
    #define WB_POPCOUNT(x) __builtin_popcount(x)
    #define WB_CTZ(x) __builtin_ctz(x)
    """
    int WB_POPCOUNT(uint32_t x) noexcept nogil
    int WB_CTZ(uint32_t x) noexcept nogil


if (WB_MAX_PLAYERS, WB_CARDS, WB_LEVELS, WB_PER_LEVEL, WB_MAX_COLUMNS, WB_HOUSES, WB_TYPES, WB_MAX_KINDS,
        WB_MAX_SHOP_TYPES) != (_data.MAX_PLAYERS, _data.NUM_CARDS, _data.LEVELS, _data.CARDS_PER_LEVEL,
                               _data.MAX_COLUMNS, _data.MAX_HOUSES, _data.NUM_CHARACTERS, _data.MAX_CURTAIN_KINDS,
                               _data.MAX_SHOP_TYPES):
    raise ImportError("walking_in_burano _core.pxd sizes differ from burano_ai.games.walking_in_burano.data")
if (WB_NUM_ACTIONS, WB_MAX_OUTCOMES, WB_ACQUIRE_NONE, WB_PLACE0, WB_END_BUILD, WB_CHARACTER0, WB_RETURN0,
        WB_PHASE_VISIT, WB_PHASE_REFILL, WB_PHASE_OVER, WB_CHANCE_FIRST, WB_SCAFFOLD) != (
        _rules.NUM_ACTIONS, _rules.MAX_CHANCE_OUTCOMES, _rules.ACQUIRE_NONE, _rules.PLACE0, _rules.END_BUILD,
        _rules.CHARACTER0, _rules.RETURN0, _rules.PHASE_VISIT, _rules.PHASE_REFILL, _rules.PHASE_OVER,
        _rules.CHANCE_FIRST, _position.SCAFFOLD):
    raise ImportError("walking_in_burano _core.pxd constants differ from burano_ai.games.walking_in_burano.rules")

CHANCE = OPS_CHANCE_PLAYER
TERMINAL = OPS_TERMINAL_PLAYER
_U64 = 0xFFFF_FFFF_FFFF_FFFF

# Zobrist cell kinds and card locations (rules.Z_*, rules.LOC_*), checked below.
cdef enum:
    Z_PHASE = 0
    Z_ROUND = 1
    Z_TO_MOVE = 2
    Z_FIRST = 3
    Z_LAST_ROUND = 4
    Z_PLACED = 5
    Z_RETURNED = 6
    Z_CARD = 7
    Z_UNDER_OWNER = 8
    Z_STACK = 9
    Z_COINS = 10
    Z_TOKENS = 11
    Z_SCAFFOLD = 12
    Z_CHARACTER = 13
    Z_PENDING = 14
    Z_HAND_SIZE = 15
    Z_POOLED = 16
    Z_STREET_LEN = 17
    Z_VIEWER = 18

    LOC_DECK = 0
    LOC_MARKET = 1               # + 5 level + column
    LOC_UNDER = 16               # + position under its deck
    LOC_HAND = 40                # + seat
    LOC_STREET = 44              # + 15 seat + 3 house + level
    LOC_DISCARD = 104
    LOC_POOLED = 105             # + owner (information-set keys only)
if (Z_PHASE, Z_CARD, Z_UNDER_OWNER, Z_POOLED, Z_STREET_LEN, Z_VIEWER) != (
        _rules.Z_PHASE, _rules.Z_CARD, _rules.Z_UNDER_OWNER, _rules.Z_POOLED, _rules.Z_STREET_LEN, _rules.Z_VIEWER):
    raise ImportError("walking_in_burano Zobrist kinds differ from rules")
if (LOC_DECK, LOC_MARKET, LOC_UNDER, LOC_HAND, LOC_STREET, LOC_DISCARD, LOC_POOLED) != (
        _rules.LOC_DECK, _rules.LOC_MARKET, _rules.LOC_UNDER, _rules.LOC_HAND, _rules.LOC_STREET,
        _rules.LOC_DISCARD, _rules.LOC_POOLED):
    raise ImportError("walking_in_burano card locations differ from rules")

cdef uint64_t ZOBRIST_SEED = _rules.ZOBRIST_SEED
cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL


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


if zob(3, 1, -1) != _rules.zobrist(3, 1, -1):
    raise ImportError("walking_in_burano Zobrist cells differ from rules.zobrist")


cdef inline void upd(WbStateC* s, int kind, int where, int old, int new) noexcept nogil:
    if old != new:
        s.key ^= zob(kind, where, old) ^ zob(kind, where, new)


cdef inline void set_phase(WbStateC* s, int v) noexcept nogil:
    upd(s, Z_PHASE, 0, s.phase, v)
    s.phase = <int8_t>v

cdef inline void set_round(WbStateC* s, int v) noexcept nogil:
    upd(s, Z_ROUND, 0, s.round, v)
    s.round = <int8_t>v

cdef inline void set_first(WbStateC* s, int v) noexcept nogil:
    upd(s, Z_FIRST, 0, s.first, v)
    s.first = <int8_t>v

cdef inline void set_to_move(WbStateC* s, int v) noexcept nogil:
    upd(s, Z_TO_MOVE, 0, s.to_move, v)
    s.to_move = <int8_t>v

cdef inline void set_placed(WbStateC* s, int v) noexcept nogil:
    upd(s, Z_PLACED, 0, s.placed, v)
    s.placed = <int8_t>v

cdef inline void set_last_round(WbStateC* s, int v) noexcept nogil:
    upd(s, Z_LAST_ROUND, 0, s.last_round, v)
    s.last_round = <int8_t>v

cdef inline void push_returned(WbStateC* s, int c) noexcept nogil:
    s.key ^= zob(Z_RETURNED, s.returned_len, c // WB_PER_LEVEL + 1)
    s.returned[s.returned_len] = <int8_t>c
    s.returned_len += 1

cdef inline void clear_returned(WbStateC* s) noexcept nogil:
    cdef int i
    for i in range(s.returned_len):
        s.key ^= zob(Z_RETURNED, i, s.returned[i] // WB_PER_LEVEL + 1)
    s.returned_len = 0

cdef inline void set_stack(WbStateC* s, int k, int v) noexcept nogil:
    upd(s, Z_STACK, k, s.stacks[k], v)
    s.stacks[k] = <int8_t>v

cdef inline void set_coins(WbStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_COINS, p, s.seats[p].coins, v)
    s.seats[p].coins = <int8_t>v

cdef inline void set_tokens(WbStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_TOKENS, p, s.seats[p].tokens, v)
    s.seats[p].tokens = <int8_t>v


cdef inline int hand_size(const WbSeatC* pl) noexcept nogil:
    return WB_POPCOUNT(pl.hand[0]) + WB_POPCOUNT(pl.hand[1]) + WB_POPCOUNT(pl.hand[2])


cdef inline int slot_where(int p, int h, int l) noexcept nogil:
    return (p * WB_HOUSES + h) * WB_LEVELS + l


cdef uint64_t street_cells(const WbStateC* s, int p) noexcept nogil:
    """The key cells of p's street: its length, its cards' locations, scaffolds, characters, pending marks."""
    cdef uint64_t k = zob(Z_STREET_LEN, p, s.seats[p].houses)
    cdef int h, l, v
    cdef const WbSeatC* pl = &s.seats[p]
    for h in range(pl.houses):
        for l in range(WB_LEVELS):
            v = pl.street[h][l]
            if v == WB_SCAFFOLD:
                k ^= zob(Z_SCAFFOLD, slot_where(p, h, l), 1)
            elif v >= 0:
                k ^= zob(Z_CARD, v, LOC_STREET + slot_where(p, h, l))
        if pl.character[h] >= 0:
            k ^= zob(Z_CHARACTER, p * WB_HOUSES + h, pl.character[h])
        if pl.pending & (1 << h):
            k ^= zob(Z_PENDING, p * WB_HOUSES + h, 1)
    return k


cdef uint64_t hand_cells(const WbStateC* s, int p) noexcept nogil:
    """The key cells of p's hand: its size and its cards' locations."""
    cdef uint64_t k = zob(Z_HAND_SIZE, p, hand_size(&s.seats[p]))
    cdef int l
    cdef uint32_t m
    for l in range(WB_LEVELS):
        m = s.seats[p].hand[l]
        while m:
            k ^= zob(Z_CARD, l * WB_PER_LEVEL + WB_CTZ(m), LOC_HAND + p)
            m &= m - 1
    return k


cdef uint64_t pool_cells(const WbStateC* s, int p) noexcept nogil:
    cdef uint64_t k = 0
    cdef int l
    cdef uint32_t m
    for l in range(WB_LEVELS):
        m = s.seats[p].pool[l]
        while m:
            k ^= zob(Z_POOLED, l * WB_PER_LEVEL + WB_CTZ(m), 1)
            m &= m - 1
    return k


cdef uint64_t under_cells(const WbStateC* s, int l) noexcept nogil:
    """The key cells of the returned cards under deck `l`: their locations and returners."""
    cdef uint64_t k = 0
    cdef int q
    for q in range(s.under_len[l]):
        k ^= zob(Z_CARD, s.under[l][q], LOC_UNDER + q)
        k ^= zob(Z_UNDER_OWNER, 32 * l + q, s.under_owner[l][q])
    return k


cdef uint64_t row_cells(const WbStateC* s, int l) noexcept nogil:
    cdef uint64_t k = 0
    cdef int j
    for j in range(WB_MAX_COLUMNS):
        if s.market[l][j] >= 0:
            k ^= zob(Z_CARD, s.market[l][j], LOC_MARKET + l * WB_MAX_COLUMNS + j)
    return k


cdef uint64_t full_key_c(const WbGameC* g, const WbStateC* s) noexcept nogil:
    """The Zobrist key recomputed from every field (the reference's `State.key`)."""
    cdef uint64_t k
    cdef int p, l, t, i
    cdef uint32_t m
    k = zob(Z_PHASE, 0, s.phase) ^ zob(Z_ROUND, 0, s.round) ^ zob(Z_TO_MOVE, 0, s.to_move)
    k ^= zob(Z_FIRST, 0, s.first) ^ zob(Z_LAST_ROUND, 0, s.last_round) ^ zob(Z_PLACED, 0, s.placed)
    for i in range(s.returned_len):
        k ^= zob(Z_RETURNED, i, s.returned[i] // WB_PER_LEVEL + 1)
    for t in range(WB_TYPES):
        k ^= zob(Z_STACK, t, s.stacks[t])
    for l in range(WB_LEVELS):
        k ^= row_cells(s, l) ^ under_cells(s, l)     # the shuffled parts have no cells: their order is chance
    for i in range(s.discard_len):
        k ^= zob(Z_CARD, s.discard[i], LOC_DISCARD)
    for p in range(g.num_players):
        k ^= zob(Z_COINS, p, s.seats[p].coins) ^ zob(Z_TOKENS, p, s.seats[p].tokens)
        k ^= street_cells(s, p) ^ hand_cells(s, p) ^ pool_cells(s, p)
    return k


cdef uint64_t info_key_c(const WbGameC* g, const WbStateC* s, int seat) noexcept nogil:
    """The key of what `seat` sees: another seat's pooled cards at LOC_POOLED + owner (their place,
    hand or under a deck, is unknown to it, §14 and WD-27)."""
    cdef uint64_t k = s.key ^ zob(Z_VIEWER, 0, seat)
    cdef int o, l, c, q
    for o in range(g.num_players):
        if o == seat:
            continue
        for l in range(WB_LEVELS):
            if not s.seats[o].pool[l]:
                continue
            for c in range(WB_PER_LEVEL):
                if s.seats[o].pool[l] & s.seats[o].hand[l] & (1u << c):
                    k ^= zob(Z_CARD, l * WB_PER_LEVEL + c, LOC_HAND + o) ^ \
                        zob(Z_CARD, l * WB_PER_LEVEL + c, LOC_POOLED + o)
            for q in range(s.under_len[l]):
                c = s.under[l][q]
                if s.seats[o].pool[l] & (1u << (c - l * WB_PER_LEVEL)):
                    k ^= zob(Z_CARD, c, LOC_UNDER + q) ^ zob(Z_CARD, c, LOC_POOLED + o)
    return k


# ================================================================================================
# The rules in C (the reference's functions, in the same order)
# ================================================================================================

cdef inline int scaffolds_in_street(const WbSeatC* pl) noexcept nogil:
    cdef int h, l, n = 0
    for h in range(pl.houses):
        for l in range(2):
            n += pl.street[h][l] == WB_SCAFFOLD
    return n


cdef inline bint house_finished(const WbSeatC* pl, int h) noexcept nogil:
    return pl.street[h][0] >= 0 and pl.street[h][1] >= 0 and pl.street[h][2] >= 0


cdef inline int finished_houses(const WbSeatC* pl) noexcept nogil:
    cdef int h, n = 0
    for h in range(pl.houses):
        n += house_finished(pl, h)
    return n


cdef inline int deck_size(const WbStateC* s, int l) noexcept nogil:
    return WB_POPCOUNT(s.shuffled[l]) + s.under_len[l]


cdef inline bint is_chance_phase(int phase) noexcept nogil:
    return phase == WB_PHASE_DEAL or phase == WB_PHASE_FIRST or phase == WB_PHASE_REFILL


cdef int current_player_c(const WbStateC* s) noexcept nogil:
    if s.phase == WB_PHASE_OVER:
        return OPS_TERMINAL_PLAYER
    if is_chance_phase(s.phase):
        return OPS_CHANCE_PLAYER
    return s.to_move


# Level ranges of ACQUIRE(j, r) (rules.RANGES, 0-based): [L1], [L1-L2], [L1-L3], [L2], [L2-L3], [L3].
cdef int RANGE_LO[6]
cdef int RANGE_HI[6]
RANGE_LO[:] = [0, 0, 0, 1, 1, 2]
RANGE_HI[:] = [0, 1, 2, 1, 2, 2]
if [(RANGE_LO[r] + 1, RANGE_HI[r] + 1) for r in range(6)] != list(_rules.RANGES):
    raise ImportError("walking_in_burano level ranges differ from rules.RANGES")


cdef inline bint acquire_legal(const WbGameC* g, const WbStateC* s, int j, int r) noexcept nogil:
    """§5: the range's end levels hold cards, and it starts at the lowest or ends at the highest present
    card of the column (gaps are not cards, WD-16)."""
    cdef int a = RANGE_LO[r], b = RANGE_HI[r], lo = -1, hi = -1, l
    if j >= g.columns or s.market[a][j] < 0 or s.market[b][j] < 0:
        return False
    for l in range(WB_LEVELS):
        if s.market[l][j] >= 0:
            if lo < 0:
                lo = l
            hi = l
    return a == lo or b == hi


cdef inline int place_cost(const WbGameC* g, const WbStateC* s) noexcept nogil:
    return g.place_cost[s.placed] if s.placed < g.max_places else 1000


cdef bint target_legal(const WbGameC* g, const WbSeatC* pl, int l, int t) noexcept nogil:
    """The §6.4 table: may a level-l card go to target t (house 0..4, 5 new left, 6 new right)?"""
    cdef int n = pl.houses, free = g.scaffolds - scaffolds_in_street(pl)
    if t < 5:
        if t >= n:
            return False
        if l == 0:
            return pl.street[t][0] == WB_SCAFFOLD
        if l == 1:
            return pl.street[t][1] == -1 or pl.street[t][1] == WB_SCAFFOLD
        return pl.street[t][2] == -1 and (pl.street[t][1] != -1 or free >= 1)
    if n >= WB_HOUSES or (n == 0 and t == 5):
        return False
    return free >= l


cdef inline bint has_colour(const WbGameC* g, const WbSeatC* pl, int h, int x) noexcept nogil:
    cdef int l, v
    for l in range(WB_LEVELS):
        v = pl.street[h][l]
        if v >= 0 and g.colour[v] == x:
            return True
    return False


cdef bint breaks_soft_rule(const WbGameC* g, const WbSeatC* pl, int c, int t) noexcept nogil:
    """§6.3 (WD-8): a real card of another colour in the house, or of this colour next door."""
    cdef int x = g.colour[c], l, v, n = pl.houses
    if t == 5:
        return n > 0 and has_colour(g, pl, 0, x)
    if t == 6:
        return n > 0 and has_colour(g, pl, n - 1, x)
    for l in range(WB_LEVELS):
        v = pl.street[t][l]
        if v >= 0 and g.colour[v] != x:
            return True
    return (t > 0 and has_colour(g, pl, t - 1, x)) or (t + 1 < n and has_colour(g, pl, t + 1, x))


cdef inline bint owns_type(const WbSeatC* pl, int k) noexcept nogil:
    cdef int h
    for h in range(pl.houses):
        if pl.character[h] == k:
            return True
    return False


cdef inline bint character_legal(const WbGameC* g, const WbStateC* s, const WbSeatC* pl, int k) noexcept nogil:
    """§7: a card left in the stack, and never a second inhabitant of one type."""
    return s.stacks[k] > 0 and (g.tourist[k] or not owns_type(pl, k))


cdef int legal_actions_c(const WbGameC* g, const WbStateC* s, int* out) noexcept nogil:
    cdef int n = 0, j, r, l, c, t, cost, above, need
    cdef const WbSeatC* pl
    cdef uint32_t m
    if s.phase == WB_PHASE_ACQUIRE:
        for j in range(g.columns):
            for r in range(6):
                if acquire_legal(g, s, j, r):
                    out[n] = 6 * j + r
                    n += 1
        if n == 0:                               # WD-19
            out[0] = WB_ACQUIRE_NONE
            n = 1
        return n
    if s.phase == WB_PHASE_BUILD:
        pl = &s.seats[s.to_move]
        cost = place_cost(g, s)
        if cost <= pl.coins:
            for l in range(WB_LEVELS):
                m = pl.hand[l]
                while m:
                    c = l * WB_PER_LEVEL + WB_CTZ(m)
                    m &= m - 1
                    for t in range(7):
                        if target_legal(g, pl, l, t) and (pl.tokens > 0 or not breaks_soft_rule(g, pl, c, t)):
                            out[n] = WB_PLACE0 + 7 * c + t
                            n += 1
        out[n] = WB_END_BUILD
        return n + 1
    if s.phase == WB_PHASE_VISIT:
        pl = &s.seats[s.to_move]
        for t in range(WB_TYPES):
            if character_legal(g, s, pl, t):
                out[n] = WB_CHARACTER0 + t
                n += 1
        return n
    if s.phase == WB_PHASE_RETURN:
        # §15.4 canonical order: above every card returned in this step, with enough cards above it left
        pl = &s.seats[s.to_move]
        need = hand_size(pl) - g.hand_limit
        for c in range(s.returned[s.returned_len - 1] + 1 if s.returned_len else 0, WB_CARDS):
            if pl.hand[c // WB_PER_LEVEL] & (1u << (c % WB_PER_LEVEL)):
                above = 0
                for l in range(c // WB_PER_LEVEL, WB_LEVELS):
                    m = pl.hand[l]
                    if l == c // WB_PER_LEVEL:
                        m &= ~((2u << (c % WB_PER_LEVEL)) - 1u)
                    above += WB_POPCOUNT(m)
                if above >= need - 1:
                    out[n] = WB_RETURN0 + c
                    n += 1
        return n
    return 0


# --- the pools (WD-27) ---

cdef void normalise_pool_c(WbStateC* s, int p, int l) noexcept nogil:
    """Drop p's level-l pool when nothing about it is uncertain: none of its cards is under the deck, or it
    holds a single card (`Position.normalise_pool`)."""
    cdef uint32_t pool = s.seats[p].pool[l]
    cdef int q
    cdef bint queued = False
    if not pool:
        return
    for q in range(s.under_len[l]):
        if s.under_owner[l][q] == p and pool & (1u << (s.under[l][q] - l * WB_PER_LEVEL)):
            queued = True
    if WB_POPCOUNT(pool) == 1 or not queued:
        set_pool(s, p, l, 0)


cdef inline void set_pool(WbStateC* s, int p, int l, uint32_t v) noexcept nogil:
    cdef uint32_t m = s.seats[p].pool[l] ^ v
    while m:
        s.key ^= zob(Z_POOLED, l * WB_PER_LEVEL + WB_CTZ(m), 1)
        m &= m - 1
    s.seats[p].pool[l] = v


cdef void unpool_card(WbStateC* s, int c) noexcept nogil:
    """Card c left its owner's pool (placed, or drawn back into the market): its place is public."""
    cdef int p, l = c // WB_PER_LEVEL
    cdef uint32_t bit = 1u << (c % WB_PER_LEVEL)
    for p in range(s.num_players):
        if s.seats[p].pool[l] & bit:
            set_pool(s, p, l, s.seats[p].pool[l] & ~bit)
            normalise_pool_c(s, p, l)


# --- card moves ---

cdef void market_to_hand(WbStateC* s, int l, int j, int p) noexcept nogil:
    cdef int c = s.market[l][j]
    s.key ^= hand_cells(s, p) ^ zob(Z_CARD, c, LOC_MARKET + l * WB_MAX_COLUMNS + j)
    s.market[l][j] = -1
    s.seats[p].hand[l] |= 1u << (c % WB_PER_LEVEL)
    s.key ^= hand_cells(s, p)


cdef void draw_into(WbStateC* s, int l, int j, int c) noexcept nogil:
    """A card from the shuffled part of deck l to market slot (l, j) (a chance outcome)."""
    s.shuffled[l] &= ~(1u << (c % WB_PER_LEVEL))
    s.market[l][j] = <int8_t>c
    s.key ^= zob(Z_CARD, c, LOC_MARKET + l * WB_MAX_COLUMNS + j)


cdef void surface_into(WbStateC* s, int l, int j) noexcept nogil:
    """The first returned card under deck l to market slot (l, j), at once (§9 step 4, §15.1)."""
    cdef int c = s.under[l][0], q
    s.key ^= under_cells(s, l)
    for q in range(1, s.under_len[l]):
        s.under[l][q - 1] = s.under[l][q]
        s.under_owner[l][q - 1] = s.under_owner[l][q]
        s.under_round[l][q - 1] = s.under_round[l][q]
    s.under_len[l] -= 1
    s.key ^= under_cells(s, l)
    s.market[l][j] = <int8_t>c
    s.key ^= zob(Z_CARD, c, LOC_MARKET + l * WB_MAX_COLUMNS + j)
    unpool_card(s, c)


# --- turn flow ---

cdef void start_turn_c(const WbGameC* g, WbStateC* s, int p) noexcept nogil:
    set_phase(s, WB_PHASE_ACQUIRE)
    set_to_move(s, p)
    set_placed(s, 0)


cdef bint fill_cursor(const WbGameC* g, const WbStateC* s, int* row, int* col) noexcept nogil:
    """The next market slot to fill (§9 step 4: L1 row, then L2, then L3; slot by slot left to right),
    skipping rows whose deck is empty (`Position.refill_cursor`)."""
    cdef int l, j
    for l in range(WB_LEVELS):
        if deck_size(s, l) == 0:
            continue
        for j in range(g.columns):
            if s.market[l][j] < 0:
                row[0] = l
                col[0] = j
                return True
    return False


cdef void continue_fill_c(const WbGameC* g, WbStateC* s) noexcept nogil:
    """Stop at the next slot to fill (a chance node), or end the fill: the first-player draw (setup) or
    the next round."""
    cdef int l, j
    if fill_cursor(g, s, &l, &j):
        return                                   # a chance node (a returned card: one outcome, WD-28)
    if s.phase == WB_PHASE_DEAL:
        if g.first_player < 0:
            set_phase(s, WB_PHASE_FIRST)
            return
        set_first(s, g.first_player)
        start_turn_c(g, s, g.first_player)
        return
    for l in range(WB_LEVELS):                   # §9 step 5 (WD-18)
        if deck_size(s, l) == 0:
            set_last_round(s, 1)
    set_round(s, s.round + 1)
    start_turn_c(g, s, s.first)


cdef void end_round_c(const WbGameC* g, WbStateC* s) noexcept nogil:
    """§10 then §9: the end check, the token, the 2-player discards, the slide, the refill."""
    cdef int p, l, j, k, c
    cdef bint over = s.last_round or s.round + 1 >= g.round_guard
    for p in range(g.num_players):
        if finished_houses(&s.seats[p]) >= WB_HOUSES:
            over = True
    set_to_move(s, -1)
    set_placed(s, 0)
    if over:
        set_phase(s, WB_PHASE_OVER)
        return
    set_first(s, (s.first + 1) % g.num_players)
    for l in range(WB_LEVELS):
        s.key ^= row_cells(s, l)
        if g.num_players == 2:                   # WD-17: the rightmost card of each row leaves the game
            for j in range(g.columns - 1, -1, -1):
                c = s.market[l][j]
                if c >= 0:
                    s.market[l][j] = -1
                    s.discard[s.discard_len] = <int8_t>c
                    s.discard_len += 1
                    s.key ^= zob(Z_CARD, c, LOC_DISCARD)
                    break
        k = 0
        for j in range(g.columns):               # §9 step 3: slide left
            c = s.market[l][j]
            if c >= 0:
                s.market[l][j] = -1
                s.market[l][k] = <int8_t>c
                k += 1
        s.key ^= row_cells(s, l)
    set_phase(s, WB_PHASE_REFILL)
    continue_fill_c(g, s)


cdef void finish_turn_c(const WbGameC* g, WbStateC* s) noexcept nogil:
    cdef int p = s.to_move
    if s.seats[p].coins > g.coin_cap:            # §8 (RU:102)
        set_coins(s, p, g.coin_cap)
    s.turn += 1
    if (p + 1) % g.num_players == s.first:
        end_round_c(g, s)
    else:
        start_turn_c(g, s, (p + 1) % g.num_players)


cdef void start_returns_c(const WbGameC* g, WbStateC* s) noexcept nogil:
    if hand_size(&s.seats[s.to_move]) > g.hand_limit:
        set_phase(s, WB_PHASE_RETURN)
        return
    finish_turn_c(g, s)


cdef void serve_next_c(const WbGameC* g, WbStateC* s) noexcept nogil:
    """§7 (WD-21): the leftmost finished house still waiting gets a character; none if no type is legal."""
    cdef int p = s.to_move, h, k
    cdef WbSeatC* pl = &s.seats[p]
    while pl.pending:
        h = WB_CTZ(pl.pending)
        for k in range(WB_TYPES):
            if character_legal(g, s, pl, k):
                set_phase(s, WB_PHASE_VISIT)
                return
        s.key ^= zob(Z_PENDING, p * WB_HOUSES + h, 1)
        pl.pending &= ~(1 << h)
    start_returns_c(g, s)


cdef void acquire_c(const WbGameC* g, WbStateC* s, int action) noexcept nogil:
    cdef int p = s.to_move, taken = 0, l, j, r
    if action != WB_ACQUIRE_NONE:                # WD-19: nothing taken, nothing gained
        j = action // 6
        r = action % 6
        for l in range(RANGE_LO[r], RANGE_HI[r] + 1):
            if s.market[l][j] >= 0:
                market_to_hand(s, l, j, p)
                taken += 1
        set_coins(s, p, s.seats[p].coins + g.cards_per_acquire - taken)
    set_phase(s, WB_PHASE_BUILD)


cdef void place_c(const WbGameC* g, WbStateC* s, int c, int t) noexcept nogil:
    cdef int p = s.to_move, l = c // WB_PER_LEVEL, h, i
    cdef WbSeatC* pl = &s.seats[p]
    set_coins(s, p, pl.coins - place_cost(g, s))
    if breaks_soft_rule(g, pl, c, t):
        set_tokens(s, p, pl.tokens - 1)
    set_placed(s, s.placed + 1)
    s.key ^= hand_cells(s, p) ^ street_cells(s, p)
    pl.hand[l] &= ~(1u << (c % WB_PER_LEVEL))
    if t == 5:                                   # a new house at the left end: the others shift right
        for h in range(pl.houses, 0, -1):
            for i in range(WB_LEVELS):
                pl.street[h][i] = pl.street[h - 1][i]
            pl.character[h] = pl.character[h - 1]
        pl.pending = <uint8_t>(pl.pending << 1)
        h = 0
    elif t == 6:
        h = pl.houses
    else:
        h = t
    if t >= 5:
        pl.houses += 1
        for i in range(WB_LEVELS):
            pl.street[h][i] = -1
        pl.character[h] = -1
    for i in range(l):                           # §6.4: scaffolds stand in for missing supports
        if pl.street[h][i] == -1:
            pl.street[h][i] = WB_SCAFFOLD
    pl.street[h][l] = <int8_t>c
    if house_finished(pl, h):
        pl.pending |= 1 << h
    s.key ^= hand_cells(s, p) ^ street_cells(s, p)
    unpool_card(s, c)
    if s.placed >= g.max_places:                 # END_BUILD applied automatically (§15.4)
        serve_next_c(g, s)


cdef void character_c(const WbGameC* g, WbStateC* s, int k) noexcept nogil:
    cdef int p = s.to_move
    cdef WbSeatC* pl = &s.seats[p]
    cdef int h = WB_CTZ(pl.pending)
    s.key ^= street_cells(s, p)
    pl.character[h] = <int8_t>k
    pl.pending &= ~(1 << h)
    s.key ^= street_cells(s, p)
    set_stack(s, k, s.stacks[k] - 1)
    serve_next_c(g, s)


cdef void return_c(const WbGameC* g, WbStateC* s, int c) noexcept nogil:
    """§8 (WD-22): c goes face down under its level's deck, after the returns already there. WD-27: if the
    seat keeps other cards of that level, or the level is already pooled, c and the seat's cards of that
    level join its pool; at the end of the step a level whose every card went under reveals them."""
    cdef int p = s.to_move, l = c // WB_PER_LEVEL, q, lv, i
    cdef WbSeatC* pl = &s.seats[p]
    cdef uint32_t mine
    s.key ^= hand_cells(s, p) ^ under_cells(s, l)
    pl.hand[l] &= ~(1u << (c % WB_PER_LEVEL))
    q = s.under_len[l]
    s.under[l][q] = <int8_t>c
    s.under_owner[l][q] = <int8_t>p
    s.under_round[l][q] = <int8_t>s.round
    s.under_len[l] += 1
    s.key ^= hand_cells(s, p) ^ under_cells(s, l)
    push_returned(s, c)
    if not g.public_returns and (pl.hand[l] or pl.pool[l]):
        set_pool(s, p, l, pl.pool[l] | pl.hand[l] | (1u << (c % WB_PER_LEVEL)))
    if hand_size(pl) > g.hand_limit:
        return
    for lv in range(WB_LEVELS):
        mine = 0
        for i in range(s.returned_len):
            if s.returned[i] // WB_PER_LEVEL == lv:
                mine |= 1u << (s.returned[i] % WB_PER_LEVEL)
        if mine and pl.pool[lv] == mine and not pl.hand[lv]:
            set_pool(s, p, lv, 0)
        normalise_pool_c(s, p, lv)
    clear_returned(s)
    finish_turn_c(g, s)


cdef int chance_outcomes_c(const WbGameC* g, const WbStateC* s, int* actions, double* probs) noexcept nogil:
    cdef int n = 0, l, j, i
    cdef uint32_t m
    if s.phase == WB_PHASE_FIRST:
        for i in range(g.num_players):
            actions[i] = i
            probs[i] = 1.0 / g.num_players
        return g.num_players
    if (s.phase != WB_PHASE_DEAL and s.phase != WB_PHASE_REFILL) or not fill_cursor(g, s, &l, &j):
        return 0
    m = s.shuffled[l]
    if not m:                                    # WD-28: the first returned card under the deck, surely
        actions[0] = s.under[l][0]
        probs[0] = 1.0
        return 1
    while m:
        actions[n] = l * WB_PER_LEVEL + WB_CTZ(m)
        n += 1
        m &= m - 1
    for i in range(n):
        probs[i] = 1.0 / n
    return n


cdef int sample_chance_c(const WbGameC* g, const WbStateC* s, Rng* rng) noexcept nogil:
    """An outcome drawn with its probability (every chance node is uniform), or -1 off chance nodes."""
    cdef int l, j, n, k
    cdef uint32_t m
    if s.phase == WB_PHASE_FIRST:
        return <int>rng_below(rng, <uint32_t>g.num_players)
    if (s.phase != WB_PHASE_DEAL and s.phase != WB_PHASE_REFILL) or not fill_cursor(g, s, &l, &j):
        return -1
    m = s.shuffled[l]
    n = WB_POPCOUNT(m)
    if n == 0:
        return s.under[l][0] if s.under_len[l] else -1
    k = <int>rng_below(rng, <uint32_t>n)
    while k > 0:
        m &= m - 1
        k -= 1
    return l * WB_PER_LEVEL + WB_CTZ(m)


cdef int chance_kind_c(const WbGameC* g, const WbStateC* s) noexcept nogil:
    return WB_CHANCE_FIRST if s.phase == WB_PHASE_FIRST else WB_CHANCE_DRAW


cdef void apply_action_c(const WbGameC* g, WbStateC* s, int action) noexcept nogil:
    cdef int l, j
    if s.phase == WB_PHASE_DEAL or s.phase == WB_PHASE_REFILL:
        fill_cursor(g, s, &l, &j)
        if s.shuffled[l]:
            draw_into(s, l, j, action)
        else:
            surface_into(s, l, j)
        continue_fill_c(g, s)
    elif s.phase == WB_PHASE_FIRST:
        set_first(s, action)
        start_turn_c(g, s, action)
    elif s.phase == WB_PHASE_ACQUIRE:
        acquire_c(g, s, action)
    elif s.phase == WB_PHASE_BUILD:
        if action == WB_END_BUILD:
            serve_next_c(g, s)
        else:
            place_c(g, s, (action - WB_PLACE0) // 7, (action - WB_PLACE0) % 7)
    elif s.phase == WB_PHASE_VISIT:
        character_c(g, s, action - WB_CHARACTER0)
    elif s.phase == WB_PHASE_RETURN:
        return_c(g, s, action - WB_RETURN0)


# ================================================================================================
# Scoring (§11, §12)
# ================================================================================================

cdef inline int house_sum(const WbSeatC* pl, int h, const int8_t* symbol) noexcept nogil:
    cdef int l, v, n = 0
    for l in range(WB_LEVELS):
        v = pl.street[h][l]
        if v >= 0:
            n += symbol[v]
    return n


cdef int window_best(const WbGameC* g, const WbSeatC* pl, const int8_t* symbol) noexcept nogil:
    """Florist / Gardener (WD-15): the best window of `florist_window` consecutive slots of one level
    (the whole row when the street is shorter)."""
    cdef int best = 0, l, st, j, v, total, n = pl.houses, w = g.florist_window, last
    last = n - w if n > w else 0
    for l in range(WB_LEVELS):
        for st in range(last + 1):
            total = 0
            for j in range(st, st + w if st + w < n else n):
                v = pl.street[j][l]
                if v >= 0:
                    total += symbol[v]
            if total > best:
                best = total
    return best


cdef int character_points_c(const WbGameC* g, const WbSeatC* pl, int h, int k) noexcept nogil:
    """§11.2: the points of a character of type k under house h of this street."""
    cdef int j, v, n = 0, m, prev, total, most, kind
    cdef int counts[WB_MAX_KINDS]
    cdef int symbols[4]                          # the Boy's: cats, curtains, lanterns, chimneys
    cdef uint32_t shops
    if k == 0:
        return g.tourist_base + g.woman_per_flower * house_sum(pl, h, g.flowers)
    if k == 1:
        return g.tourist_base + g.man_per_plant * house_sum(pl, h, g.plants)
    if k == 2:
        return g.tourist_base + g.girl_per_cat * house_sum(pl, h, g.cats)
    if k == 3:                                   # WD-11, its options (WD-32): scoring.boy_symbols
        symbols[0] = house_sum(pl, h, g.cats)
        symbols[1] = house_sum(pl, h, g.curtain_total)
        symbols[2] = house_sum(pl, h, g.lanterns)
        symbols[3] = house_sum(pl, h, g.chimneys)
        if g.boy_scoring == 1:                   # distinct: symbol types present
            n = (symbols[0] > 0) + (symbols[1] > 0) + (symbols[2] > 0) + (symbols[3] > 0)
        elif g.boy_scoring == 2:                 # sets: one of each of the four
            n = symbols[0]
            for kind in range(1, 4):
                if symbols[kind] < n:
                    n = symbols[kind]
        else:                                    # literal: every symbol
            n = symbols[0] + symbols[1] + symbols[2] + symbols[3]
        return g.tourist_base + g.boy_per_symbol * n
    if k == 4:
        for j in range(pl.houses):
            v = pl.street[j][0]
            if v >= 0:
                n += g.passersby[v]
        return g.mayor_per_passerby * n
    if k == 5:                                   # WD-12: greedy left to right
        m = 0
        prev = -2
        for j in range(pl.houses):
            v = pl.street[j][1]
            if v >= 0 and g.lanterns[v] >= 1 and j > prev + 1:
                m += 1
                prev = j
        return g.police[m if m < 3 else 3]
    if k == 6:
        for j in range(pl.houses):
            v = pl.street[j][2]
            if v >= 0:
                n += g.chimneys[v]
        return g.santa_chimney * n
    if k == 7:                                   # WD-13
        shops = 0
        for j in range(pl.houses):
            v = pl.street[j][0]
            if v >= 0 and g.shop_type[v] >= 0:
                shops |= 1u << g.shop_type[v]
        n = WB_POPCOUNT(shops)
        return g.shop_owner[n if n < 4 else 4]
    if k == 8:                                   # WD-14
        for kind in range(WB_MAX_KINDS):
            counts[kind] = 0
        for j in range(pl.houses):
            for m in range(WB_LEVELS):
                v = pl.street[j][m]
                if v >= 0:
                    for kind in range(WB_MAX_KINDS):
                        counts[kind] += g.curtains[v][kind]
        total = 0
        most = 0
        for kind in range(WB_MAX_KINDS):
            total += counts[kind]
            if counts[kind] > most:
                most = counts[kind]
        n = total // 2
        if total - most < n:
            n = total - most
        return g.seamstress_pair * n
    if k == 9:
        return window_best(g, pl, g.flowers)
    return window_best(g, pl, g.plants)


cdef void score_parts_c(const WbGameC* g, const WbSeatC* pl, int* parts) noexcept nogil:
    """parts = [A characters, B shops, C tokens, X closed windows, cats] (§11.1; WD-10: every real card)."""
    cdef int h, l, v
    parts[0] = 0
    parts[1] = 0
    parts[2] = g.token_vp * pl.tokens
    parts[3] = 0
    parts[4] = 0
    for h in range(pl.houses):
        if pl.character[h] >= 0:
            parts[0] += character_points_c(g, pl, h, pl.character[h])
        for l in range(WB_LEVELS):
            v = pl.street[h][l]
            if v >= 0:
                parts[3] += g.closed[v]
                parts[4] += g.cats[v]
                if l == 0 and g.shop_type[v] >= 0:
                    parts[1] += g.shop_vp[v]


cdef void totals_c(const WbGameC* g, const WbStateC* s, int* totals, int* cats, int* windows) noexcept nogil:
    """Each seat's A + B + C - D as its street stands (§11.1: D only for the most closed windows)."""
    cdef int parts[5]
    cdef int p, most = 0
    for p in range(g.num_players):
        score_parts_c(g, &s.seats[p], parts)
        totals[p] = parts[0] + parts[1] + parts[2]
        cats[p] = parts[4]
        windows[p] = parts[3]
        if parts[3] > most:
            most = parts[3]
    if g.window_penalty and most > 0:
        for p in range(g.num_players):
            if windows[p] == most:
                totals[p] -= most


cdef inline bint ahead(int t1, int c1, int k1, int t2, int c2, int k2) noexcept nogil:
    return t1 > t2 or (t1 == t2 and (c1 > c2 or (c1 == c2 and k1 > k2)))


cdef void outcome_c(const WbGameC* g, const WbStateC* s, double* scores, double* shares) noexcept nogil:
    """Totals, and 1/k of the win for each of the k seats best by (total, coins, cats) (§12, WD-24)."""
    cdef int totals[WB_MAX_PLAYERS]
    cdef int cats[WB_MAX_PLAYERS]
    cdef int windows[WB_MAX_PLAYERS]
    cdef int p, best = 0, count = 0
    totals_c(g, s, totals, cats, windows)
    for p in range(g.num_players):
        scores[p] = totals[p]
        if ahead(totals[p], s.seats[p].coins, cats[p], totals[best], s.seats[best].coins, cats[best]):
            best = p
    for p in range(g.num_players):
        if totals[p] == totals[best] and s.seats[p].coins == s.seats[best].coins and cats[p] == cats[best]:
            count += 1
    for p in range(g.num_players):
        if totals[p] == totals[best] and s.seats[p].coins == s.seats[best].coins and cats[p] == cats[best]:
            shares[p] = 1.0 / count
        else:
            shares[p] = 0.0


# ================================================================================================
# Resampling what a seat cannot see (§15.2, WD-27)
# ================================================================================================

cdef bint redeal_pool_c(const WbGameC* g, WbStateC* s, int o, int l, Rng* rng) noexcept nogil:
    """Deal o's level-l pooled cards uniformly to its pooled places (its hidden queue entries, in queue
    order, then its hand); the cards of the current return step stay ascending, and the canonical order
    must leave enough cards to return (else False: the caller draws again). The reference's `_redeal_pool`."""
    cdef int n = 0, k = 0, q, i, c, tmp, step = 0, mine, need, above
    cdef int cards[WB_PER_LEVEL]
    cdef int slots[WB_PER_LEVEL]
    cdef int tail[WB_MAX_RETURNS]
    cdef uint32_t pool = s.seats[o].pool[l], m = pool
    while m:
        cards[n] = l * WB_PER_LEVEL + WB_CTZ(m)
        n += 1
        m &= m - 1
    for q in range(s.under_len[l]):
        if s.under_owner[l][q] == o and pool & (1u << (s.under[l][q] - l * WB_PER_LEVEL)):
            slots[k] = q
            k += 1
    for i in range(n - 1, 0, -1):               # a uniform shuffle of the pooled cards
        c = <int>rng_below(rng, <uint32_t>(i + 1))
        tmp = cards[i]
        cards[i] = cards[c]
        cards[c] = tmp
    for i in range(k):
        s.under[l][slots[i]] = <int8_t>cards[i]
    for i in range(k):                          # one return step's cards (one owner, one round) ascend (WD-22)
        for q in range(i + 1, k):
            if s.under_round[l][slots[i]] >= 0 and s.under_round[l][slots[q]] == s.under_round[l][slots[i]] \
                    and s.under[l][slots[q]] < s.under[l][slots[i]]:
                tmp = s.under[l][slots[q]]
                s.under[l][slots[q]] = s.under[l][slots[i]]
                s.under[l][slots[i]] = <int8_t>tmp
    s.seats[o].hand[l] &= ~pool
    for i in range(k, n):
        s.seats[o].hand[l] |= 1u << (cards[i] - l * WB_PER_LEVEL)
    if o != s.to_move or s.phase != WB_PHASE_RETURN:
        return True
    for i in range(s.returned_len):
        step += s.returned[i] // WB_PER_LEVEL == l
    if step == 0:
        return True
    # the step's cards of this level are o's last queue entries, ascending, and the step's list shows them
    mine = 0
    for q in range(s.under_len[l] - 1, -1, -1):
        if s.under_owner[l][q] == o and mine < step:
            tail[step - 1 - mine] = q
            mine += 1
    for i in range(step):                       # sort the entries' cards (at most 3)
        for q in range(i + 1, step):
            if s.under[l][tail[q]] < s.under[l][tail[i]]:
                tmp = s.under[l][tail[q]]
                s.under[l][tail[q]] = s.under[l][tail[i]]
                s.under[l][tail[i]] = <int8_t>tmp
    q = 0
    for i in range(s.returned_len):             # levels ascend in the list, so it stays sorted
        if s.returned[i] // WB_PER_LEVEL == l:
            s.returned[i] = s.under[l][tail[q]]
            q += 1
    need = hand_size(&s.seats[o]) - g.hand_limit
    above = 0
    for c in range(s.returned[s.returned_len - 1] + 1, WB_CARDS):
        if s.seats[o].hand[c // WB_PER_LEVEL] & (1u << (c % WB_PER_LEVEL)):
            above += 1
    return above >= need


cdef void resample_c(const WbGameC* g, WbStateC* s, int seat, Rng* rng) noexcept nogil:
    """Everything `seat` cannot know, redrawn consistently with its view (§15.2, WD-27): each other seat's
    pooled cards of a level dealt uniformly to its pooled places, by rejection (64 draws at most) when the
    current return step constrains them. The deck orders are not state (chance draws them)."""
    cdef int o, l, attempt
    cdef WbStateC trial
    for o in range(g.num_players):
        if o == seat:
            continue
        for l in range(WB_LEVELS):
            if not s.seats[o].pool[l]:
                continue
            for attempt in range(64):
                trial = s[0]
                if redeal_pool_c(g, &trial, o, l, rng):
                    s[0] = trial
                    break
    s.key = full_key_c(g, s)


# ================================================================================================
# Playouts
# ================================================================================================

# The move preference's weights and the prior's temperature (`heuristic`, the readable form).
cdef double NO_FIT = _heuristic.NO_FIT
cdef double NEW_HOUSE_FIT = _heuristic.NEW_HOUSE_FIT
cdef double SHORT_TAKE_BONUS = _heuristic.SHORT_TAKE_BONUS
cdef double OVER_HAND_COST = _heuristic.OVER_HAND_COST
cdef double COST_WEIGHT = _heuristic.COST_WEIGHT
cdef double SOFT_RULE_COST = _heuristic.SOFT_RULE_COST
cdef double FINISH_BONUS = _heuristic.FINISH_BONUS
cdef double GROW_BONUS = _heuristic.GROW_BONUS
cdef double SCAFFOLD_COST = _heuristic.SCAFFOLD_COST
cdef double END_BUILD_VALUE = _heuristic.END_BUILD_VALUE
cdef double INHABITANT_BONUS = _heuristic.INHABITANT_BONUS
cdef double PRIOR_TEMPERATURE = _heuristic.PRIOR_TEMPERATURE
cdef bint SEARCH_PRIOR = _heuristic.SEARCH_PRIOR      # read once: does the C interface offer the prior?
cdef int CARDS_PER_ACQUIRE = _data.CARDS_PER_ACQUIRE


cdef double fit_value(const WbGameC* g, const WbSeatC* pl, int c) noexcept nogil:
    """`heuristic.fit_value`: 1 on an existing house without breaking a soft rule, NEW_HOUSE_FIT as a
    clean new house, NO_FIT otherwise."""
    cdef int t
    cdef double best = NO_FIT
    for t in range(7):
        if not target_legal(g, pl, c // WB_PER_LEVEL, t) or breaks_soft_rule(g, pl, c, t):
            continue
        if t < 5:
            return 1.0
        best = NEW_HOUSE_FIT
    return best


cdef double action_value_c(const WbGameC* g, const WbStateC* s, int a) noexcept nogil:
    """The heuristic playout's value of a decision for the seat to move (higher is better):
    `heuristic.action_value`, the same arithmetic."""
    cdef const WbSeatC* pl = &s.seats[s.to_move]
    cdef int j, r, l, c, t, k, h, n, real
    cdef double v
    if s.phase == WB_PHASE_ACQUIRE:
        if a == WB_ACQUIRE_NONE:
            return 0.0
        j = a // 6
        r = a % 6
        v = 0.0
        n = 0
        for l in range(RANGE_LO[r], RANGE_HI[r] + 1):
            c = s.market[l][j]
            if c >= 0:
                v += fit_value(g, pl, c)
                n += 1
        v += SHORT_TAKE_BONUS * (CARDS_PER_ACQUIRE - n)
        if hand_size(pl) + n > g.hand_limit:
            v -= OVER_HAND_COST * (hand_size(pl) + n - g.hand_limit)
        return v
    if s.phase == WB_PHASE_BUILD:
        if a == WB_END_BUILD:
            return END_BUILD_VALUE
        c = (a - WB_PLACE0) // 7
        t = (a - WB_PLACE0) % 7
        v = 1.0 - COST_WEIGHT * place_cost(g, s)
        if breaks_soft_rule(g, pl, c, t):
            v -= SOFT_RULE_COST
        if t < 5:
            real = 0
            for l in range(WB_LEVELS):
                real += pl.street[t][l] >= 0
            v += FINISH_BONUS if real == 2 else GROW_BONUS
        elif c >= WB_PER_LEVEL:
            v -= SCAFFOLD_COST
        return v
    if s.phase == WB_PHASE_VISIT:
        k = a - WB_CHARACTER0
        h = WB_CTZ(pl.pending)
        if g.tourist[k]:
            return character_points_c(g, pl, h, k)
        return character_points_c(g, pl, h, k) + INHABITANT_BONUS
    return 0.0


cdef int prior_c(const WbGameC* g, const WbStateC* s, int player, const int* legal, int n,
                 double* out) noexcept nogil:
    """The move prior (`heuristic.prior`): a softmax of `action_value_c / PRIOR_TEMPERATURE` over the
    legal takes, placements and visits of the seat to move; 0 (none) for returns or another seat. The
    search gets it only while `heuristic.SEARCH_PRIOR` is on (`search_prior_c`)."""
    cdef int i
    cdef double top = -1e300, total = 0.0
    if s.phase < WB_PHASE_ACQUIRE or s.phase > WB_PHASE_VISIT or player != s.to_move or n <= 0:
        return 0
    for i in range(n):
        out[i] = action_value_c(g, s, legal[i])
        if out[i] > top:
            top = out[i]
    for i in range(n):
        out[i] = exp((out[i] - top) / PRIOR_TEMPERATURE)
        total += out[i]
    for i in range(n):
        out[i] /= total
    return 1


cdef int search_prior_c(const WbGameC* g, const WbStateC* s, int player, const int* legal, int n,
                        double* out) noexcept nogil:
    """The search's prior (`State.prior`, the C interface's `prior`): `prior_c` while `heuristic.SEARCH_PRIOR`
    is on (off by default: measured, it did not pay); 0 (none) otherwise."""
    if not SEARCH_PRIOR:
        return 0
    return prior_c(g, s, player, legal, n, out)


cdef int heuristic_action_c(const WbGameC* g, const WbStateC* s, Rng* rng, const int* legal, int n) noexcept nogil:
    """The best `action_value_c` (ties at random); one decision in ten, and every return, at random."""
    cdef int i, best_n = 0, pick
    cdef double v, best = -1e300
    cdef double values[WB_NUM_ACTIONS]
    if s.phase == WB_PHASE_RETURN or rng_below(rng, 10) == 0:
        return legal[<int>rng_below(rng, <uint32_t>n)]
    for i in range(n):
        v = action_value_c(g, s, legal[i])
        values[i] = v
        if v > best:
            best = v
            best_n = 1
        elif v == best:
            best_n += 1
    pick = <int>rng_below(rng, <uint32_t>best_n)
    for i in range(n):
        if values[i] == best:
            if pick == 0:
                return legal[i]
            pick -= 1
    return legal[0]


cdef int playout_c(const WbGameC* g, WbStateC* s, Rng* rng, int policy) noexcept nogil:
    """Play to the end in place (policy 0: uniformly at random; 1: `heuristic_action_c`); return the
    steps, or WB_PLAYOUT_* on failure."""
    cdef int buf[WB_NUM_ACTIONS]
    cdef int steps = 0, a, n
    while s.phase != WB_PHASE_OVER:
        if steps >= WB_STEP_LIMIT:
            return WB_PLAYOUT_CAPPED
        if s.phase == WB_PHASE_DEAL or s.phase == WB_PHASE_FIRST or s.phase == WB_PHASE_REFILL:
            a = sample_chance_c(g, s, rng)
            if a < 0:
                return WB_PLAYOUT_DEAD_END
        else:
            n = legal_actions_c(g, s, buf)
            if n == 0:
                return WB_PLAYOUT_DEAD_END
            if policy == 1:
                a = heuristic_action_c(g, s, rng, buf, n)
            else:
                a = buf[<int>rng_below(rng, <uint32_t>n)]
        apply_action_c(g, s, a)
        steps += 1
    return steps


# ================================================================================================
# The C game interface (burano_ai/core/_game.pxd)
# ================================================================================================

# The wrappers every core shares (core/_ops_glue.pxi: ops_num_players .. ops_full_key and
# fill_common_ops), over this game's structs; its own wrappers follow.
ctypedef WbGameC CoreGameC
ctypedef WbStateC CoreStateC
cdef enum:
    CORE_PLAYOUT_CAPPED = WB_PLAYOUT_CAPPED
    CORE_PLAYOUT_DEAD_END = WB_PLAYOUT_DEAD_END
include "burano_ai/core/_ops_glue.pxi"
include "_encode.pxi"

cdef int ops_chance_kind(const void* game, const void* state) noexcept nogil:
    return chance_kind_c(<const WbGameC*>game, <const WbStateC*>state)

cdef void ops_resample(const void* game, void* state, int seat, Rng* rng) noexcept nogil:
    resample_c(<const WbGameC*>game, <WbStateC*>state, seat, rng)

cdef int ops_decision_mode(const void* game, const void* state) noexcept nogil:
    return DECISION_OPEN

cdef int ops_prior(const void* game, const void* state, int player, const int* legal, int n,
                   double* out) noexcept nogil:
    return search_prior_c(<const WbGameC*>game, <const WbStateC*>state, player, legal, n, out)

cdef int64_t ops_turn_id(const void* game, const void* state) noexcept nogil:
    cdef const WbStateC* s = <const WbStateC*>state
    if WB_PHASE_ACQUIRE <= s.phase <= WB_PHASE_RETURN:
        return s.turn
    return NO_TURN

cdef uint64_t ops_info_key(const void* game, const void* state, int seat) noexcept nogil:
    return info_key_c(<const WbGameC*>game, <const WbStateC*>state, seat)


cdef GameOpsC WALKING_IN_BURANO_OPS
fill_common_ops(&WALKING_IN_BURANO_OPS)
WALKING_IN_BURANO_OPS.num_actions = WB_NUM_ACTIONS
WALKING_IN_BURANO_OPS.max_legal = WB_MAX_OUTCOMES
WALKING_IN_BURANO_OPS.min_players = 2
WALKING_IN_BURANO_OPS.max_players = WB_MAX_PLAYERS
WALKING_IN_BURANO_OPS.chance_kind = ops_chance_kind
WALKING_IN_BURANO_OPS.resample = ops_resample
WALKING_IN_BURANO_OPS.decision_mode = ops_decision_mode
WALKING_IN_BURANO_OPS.prior = ops_prior
WALKING_IN_BURANO_OPS.turn_id = ops_turn_id
WALKING_IN_BURANO_OPS.info_key = ops_info_key
WALKING_IN_BURANO_OPS.name = b"walking-in-burano"
WALKING_IN_BURANO_OPS.encoder_version = WB_ENCODER_VERSION
WALKING_IN_BURANO_OPS.num_features = wb_num_features
WALKING_IN_BURANO_OPS.encode = wb_encode


# ================================================================================================
# Python API: Game and State (the reference's)
# ================================================================================================

def _options_of(options, kwargs):
    """An `position.Options` from an Options, a mapping of option values, or keyword options."""
    if options is None:
        options = _position.Options(**kwargs) if kwargs else _position.Options()
    elif isinstance(options, dict):
        options = _position.Options(**{**options, **kwargs})
    elif kwargs:
        raise OptionError("walking-in-burano: give the options as an Options or as keywords, not both")
    return options


cdef class Game:
    """Rules and metadata of one configuration (the reference `Game`'s API, compiled states).

    Args:
        num_players: 2..4. options: a `position.Options` (or its fields as keywords): the §13 variants,
        `public_returns` (§14), `literal_cost` (WD-4), `first_player` (WD-25).
        data: the card data (`data.load_data`: None = the placeholder deck PD-1, a path, a dict).
    """

    def __init__(self, num_players=2, options=None, data=None, **kwargs):
        cdef int k, c, i
        try:
            options = _options_of(options, kwargs)
        except TypeError as e:
            raise OptionError(f"walking-in-burano options: {e}") from None
        _position.check_config(num_players, options)
        d = _data.load_data(data)
        self.num_players = num_players
        self.options = options
        self.data = d
        self._config = (num_players, options, d)
        memset(&self.g, 0, sizeof(WbGameC))
        self.g.num_players = num_players
        self.g.columns = _position.columns_for(num_players)
        self.g.first_player = options.first_player
        self.g.public_returns = options.public_returns
        self.g.window_penalty = not options.no_window_penalty
        self.g.boy_scoring = _data.BOY_SCORINGS.index(options.boy_scoring)
        self.g.round_guard = _data.ROUND_GUARD
        self.g.hand_limit = _data.HAND_LIMIT
        self.g.coin_cap = _data.COIN_CAP
        self.g.max_places = _data.MAX_PLACEMENTS
        costs = _data.BUILD_COSTS_LITERAL if options.literal_cost else _data.BUILD_COSTS
        for i in range(3):
            self.g.place_cost[i] = costs[i]
        self.g.cards_per_acquire = _data.CARDS_PER_ACQUIRE
        self.g.token_vp = _data.TOKEN_VP
        self.g.scaffolds = _data.SCAFFOLDS
        stacks = _position.stacks_for(num_players, options)
        for k in range(WB_TYPES):
            self.g.stacks[k] = stacks[k]
            self.g.tourist[k] = _data.IS_TOURIST[k]
        self.g.tourist_base = _data.TOURIST_BASE
        self.g.woman_per_flower = _data.WOMAN_PER_FLOWER
        self.g.man_per_plant = _data.MAN_PER_PLANT
        self.g.girl_per_cat = _data.GIRL_PER_CAT
        self.g.boy_per_symbol = _data.BOY_PER_SYMBOL
        self.g.mayor_per_passerby = _data.MAYOR_PER_PASSERBY
        for i in range(4):
            self.g.police[i] = _data.POLICE_TABLE[i]
        for i in range(5):
            self.g.shop_owner[i] = _data.SHOPOWNER_TABLE[i]
        self.g.seamstress_pair = _data.SEAMSTRESS_PER_PAIR
        self.g.santa_chimney = _data.SANTA_PER_CHIMNEY
        self.g.florist_window = _data.FLORIST_WINDOW
        for c, card in enumerate(d.cards):
            self.g.colour[c] = card.colour
            self.g.passersby[c] = card.passersby
            self.g.plants[c] = card.plants
            self.g.flowers[c] = card.flowers
            self.g.cats[c] = card.cats
            for k in card.curtains:
                self.g.curtains[c][k] += 1
            self.g.curtain_total[c] = len(card.curtains)
            self.g.lanterns[c] = card.lanterns
            self.g.chimneys[c] = card.chimneys
            self.g.closed[c] = card.closed_windows
            self.g.shop_type[c] = card.shop_type
            self.g.shop_vp[c] = card.shop_vp

    def __repr__(self):
        return f"Game(num_players={self.num_players}, options={self.options!r})"

    def __eq__(self, other):
        return isinstance(other, Game) and self.config() == other.config()

    def __hash__(self):
        return hash((self.num_players, self.options))

    def __reduce__(self):
        return (Game, (self.num_players, self.options, None if self.data.is_default else self.data.to_dict()))

    def config(self):
        """(num_players, options, data)."""
        return self._config

    def max_game_length(self):
        """Most decisions in a game: per turn 1 acquire + 3 places + 1 end + 3 characters + 3 returns,
        30 rounds at most (WD-20); the reference's."""
        return self.g.round_guard * self.num_players * 11

    def num_distinct_actions(self):
        return WB_NUM_ACTIONS

    def max_chance_outcomes(self):
        return WB_MAX_OUTCOMES

    def new_initial_state(self, seed=0):
        """The position before setup (setup is chance: `seed` is accepted and unused)."""
        _check_seed(seed)
        return State(self)

    def state_from_position(self, position):
        return State.from_position(position, self)

    def state_from_json(self, text):
        """Load a position (full or a seat's view); PositionError naming the field if it is wrong."""
        return State.from_position(_position.position_from_json(text, expect=self.config()), self)


cdef class State(NativeState):
    """A position in a C struct, with the reference `State`'s API and the C game interface."""

    def __init__(self, Game game):
        self.bind(game)
        self.set_from(_position.Position(game.num_players, game.options, game.data))

    cdef void bind(self, object game) except *:
        self.game = <Game?>game
        self.ops = &WALKING_IN_BURANO_OPS
        self.game_ptr = &self.game.g
        self.state_ptr = &self.s

    def set_from(self, pos):
        """Load the fields of a `position.Position` of this State's game and recompute the key.

        Raises:
            TypeError: `pos` is not a Position of this game; PositionError: it is of another configuration
                or breaks an invariant (checked before any field is written: the C arrays are bounded).
        """
        cdef int p, l, j, q, h, c
        _check_instance(pos, _position.Position, "a Walking in Burano position")
        if pos.config() != self.game.config():
            raise PositionError("the position does not belong to this game (players, options or data)")
        _position.validate(pos)
        memset(&self.s, 0, sizeof(WbStateC))
        self.s.num_players = pos.num_players
        self.s.phase = pos.phase
        self.s.round = pos.round
        self.s.turn = pos.turn
        self.s.first = pos.first_player
        self.s.to_move = pos.to_move
        self.s.placed = pos.placed
        for q, c in enumerate(pos.returned):
            self.s.returned[q] = c
        self.s.returned_len = len(pos.returned)
        self.s.last_round = pos.last_round
        for l in range(WB_LEVELS):
            for j in range(WB_MAX_COLUMNS):
                self.s.market[l][j] = pos.market[l][j]
            for q, (c, owner, when) in enumerate(pos.under[l]):
                self.s.under[l][q] = c
                self.s.under_owner[l][q] = owner
                self.s.under_round[l][q] = when
            self.s.under_len[l] = len(pos.under[l])
            for c in pos.shuffled(l + 1):
                self.s.shuffled[l] |= 1u << (c % WB_PER_LEVEL)
        for q, c in enumerate(pos.discard):
            self.s.discard[q] = c
        self.s.discard_len = len(pos.discard)
        for k in range(WB_TYPES):
            self.s.stacks[k] = pos.stacks[k]
        for p, seat in enumerate(pos.seats):
            self.s.seats[p].coins = seat.coins
            self.s.seats[p].tokens = seat.tokens
            for c in seat.hand:
                self.s.seats[p].hand[c // WB_PER_LEVEL] |= 1u << (c % WB_PER_LEVEL)
            for c in seat.pool:
                self.s.seats[p].pool[c // WB_PER_LEVEL] |= 1u << (c % WB_PER_LEVEL)
            self.s.seats[p].houses = len(seat.street)
            for h, house in enumerate(seat.street):
                for l in range(WB_LEVELS):
                    self.s.seats[p].street[h][l] = house.floors[l]
                self.s.seats[p].character[h] = house.character
                if house.pending:
                    self.s.seats[p].pending |= 1 << h
        self.s.key = full_key_c(&self.game.g, &self.s)

    @staticmethod
    def from_position(pos, Game game not None):
        """A State of `game` holding `pos` (a `position.Position` of the same configuration)."""
        cdef State st
        _check_instance(pos, _position.Position, "a Walking in Burano position")
        if pos.config() != game.config():
            raise PositionError("the position does not belong to this game (players, options or data)")
        st = State.__new__(State)
        st.bind(game)
        st.set_from(pos)
        return st

    def to_position(self):
        """The fields as a `position.Position`."""
        cdef int p, l, j, q, h, c
        g = self.game
        pos = _position.Position(g.num_players, g.options, g.data)
        pos.phase, pos.round, pos.turn = self.s.phase, self.s.round, self.s.turn
        pos.first_player, pos.to_move = self.s.first, self.s.to_move
        pos.last_round = bool(self.s.last_round)
        pos.market = [[self.s.market[l][j] for j in range(WB_MAX_COLUMNS)] for l in range(WB_LEVELS)]
        pos.under = [[[self.s.under[l][q], self.s.under_owner[l][q], self.s.under_round[l][q]]
                      for q in range(self.s.under_len[l])] for l in range(WB_LEVELS)]
        pos.discard = [self.s.discard[q] for q in range(self.s.discard_len)]
        pos.stacks = [self.s.stacks[k] for k in range(WB_TYPES)]
        pos.placed = self.s.placed
        pos.returned = [self.s.returned[q] for q in range(self.s.returned_len)]
        for p in range(g.num_players):
            seat = pos.seats[p]
            seat.coins, seat.tokens = self.s.seats[p].coins, self.s.seats[p].tokens
            seat.hand = [c for c in range(WB_CARDS)
                         if self.s.seats[p].hand[c // WB_PER_LEVEL] & (1u << (c % WB_PER_LEVEL))]
            seat.pool = {c for c in range(WB_CARDS)
                         if self.s.seats[p].pool[c // WB_PER_LEVEL] & (1u << (c % WB_PER_LEVEL))}
            seat.street = []
            for h in range(self.s.seats[p].houses):
                house = _position.House()
                house.floors = [self.s.seats[p].street[h][l] for l in range(WB_LEVELS)]
                house.character = self.s.seats[p].character[h]
                house.pending = bool(self.s.seats[p].pending & (1 << h))
                seat.street.append(house)
        return pos

    def to_dict(self, seat=None):
        if seat is not None:
            seat = _parse_seat(seat, self.s.num_players)
        return _position.position_to_dict(self.to_position(), seat)

    def __str__(self):
        return _render(self.to_dict())

    def __repr__(self):
        return (f"<walking-in-burano State round {self.s.round + 1} {_rules.PHASE_NAMES[self.s.phase]} "
                f"key {self.s.key:016x}>")

    # --- fields

    @property
    def phase(self):
        return self.s.phase

    @property
    def round(self):
        return self.s.round

    @property
    def turn(self):
        return self.s.turn

    @property
    def to_move(self):
        return self.s.to_move

    @property
    def options(self):
        """The game's `position.Options`."""
        return self.game.options

    @property
    def data(self):
        """The game's card data (`data.CardData`)."""
        return self.game.data

    @property
    def first_player(self):
        return self.s.first

    @property
    def last_round(self):
        return bool(self.s.last_round)

    @property
    def placed(self):
        return self.s.placed

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

    def _text_kind(self):
        return chance_kind_c(&self.game.g, &self.s) if is_chance_phase(self.s.phase) else None

    def action_to_string(self, action):
        return _rules.action_to_str(action, self._text_kind())

    def string_to_action(self, text):
        return _rules.parse_action(text, self._text_kind())

    def where(self):
        """Where the game stands, for messages."""
        if self.s.phase == WB_PHASE_OVER:
            return "after the end of the game"
        if self.s.phase == WB_PHASE_DEAL or self.s.phase == WB_PHASE_FIRST:
            return "during setup"
        if self.s.phase == WB_PHASE_REFILL:
            return f"in the refill after round {self.s.round + 1}"
        return f"in round {self.s.round + 1}, seat {_SEAT_LETTERS[self.s.to_move]} to move"

    # --- outcome

    def _totals(self):
        cdef int totals[WB_MAX_PLAYERS]
        cdef int cats[WB_MAX_PLAYERS]
        cdef int windows[WB_MAX_PLAYERS]
        totals_c(&self.game.g, &self.s, totals, cats, windows)
        n = self.s.num_players
        return [totals[p] for p in range(n)], [cats[p] for p in range(n)], [windows[p] for p in range(n)]

    def scores(self):
        """Each seat's total A + B + C - D with the street as it stands (§11)."""
        return self._totals()[0]

    def finishing_key(self, player):
        """§12: the total; tied, more coins; still tied, more cats (WD-10)."""
        p = _parse_seat(player, self.s.num_players, "player")
        totals, cats, _ = self._totals()
        return totals[p], self.s.seats[p].coins, cats[p]

    def winners(self):
        keys = [self.finishing_key(p) for p in range(self.s.num_players)]
        return [p for p in range(self.s.num_players) if keys[p] == max(keys)]

    def final_breakdown(self, player):
        """§11.1 for one seat as its street stands: characters, shops, tokens, closed windows lost."""
        cdef int parts[5]
        p = _parse_seat(player, self.s.num_players, "player")
        score_parts_c(&self.game.g, &self.s.seats[p], parts)
        _, _, windows = self._totals()
        lost = parts[3] if self.game.g.window_penalty and parts[3] == max(windows) and parts[3] > 0 else 0
        return {"characters": parts[0], "shops": parts[1], "tokens": parts[2], "windows": -lost}

    def estimated_scores(self):
        """The totals as the streets stand now (a cut-off evaluation)."""
        return [float(x) for x in self.scores()]

    def move_prior(self, player, legal):
        """The move prior of `player` over `legal` (`heuristic.prior`, computed in C), or None."""
        cdef int buf[WB_NUM_ACTIONS]
        cdef int moves[WB_NUM_ACTIONS]
        cdef double out[WB_NUM_ACTIONS]
        cdef int i, n
        player, legal = _check_prior_arguments(self, player, legal)   # ids legal here: none past the buffer
        if legal is None:
            return None
        n = len(legal)
        for i in range(n):
            buf[i] = legal[i]
        if not prior_c(&self.game.g, &self.s, player, buf, n, out):
            return None
        return {buf[i]: out[i] for i in range(n)}
