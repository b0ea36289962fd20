"""The compiled Azul: Stained Glass of Sintra core: positions as a C struct, the rules in `nogil` C, and the
C game interface.

A port of the reference model (`burano_ai.games.azul_sintra.reference`, the executable specification;
the rules' citations live there), held against it move for move by tests/test_azul_core.py: the same
legal actions, chance outcomes and probabilities, Zobrist keys, scores and returns. A position is a
fixed-size `AzStateC` (`_core.pxd`) of counts, so a copy is one struct assignment; the key is kept
incrementally (each changed field XORs its old and new `rules.zobrist` cell, computed by the same
mix64 formula in C) and `full_key` recomputes it.

The game has perfect information (§11.1): `resample` is NULL in `AZUL_SINTRA_OPS` and a copy in Python;
chance happens at setup and at the refills between rounds. Playouts are uniform random, or with the
heuristic policy (`heuristic_action_c`) a cheap one-step preference for placing over breaking. JSON, rendering and validation are the pure-Python `position` and `render`
modules; the core never imports the reference model.
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
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
import burano_ai.games.azul_sintra.data as _data
import burano_ai.games.azul_sintra.heuristic as _heuristic
import burano_ai.games.azul_sintra.rules as _rules
from burano_ai.games.azul_sintra.position import Position as _Position
from burano_ai.games.azul_sintra.position import check_config as _check_config
from burano_ai.games.azul_sintra.position import make_flags as _make_flags
from burano_ai.games.azul_sintra.position import position_from_json as _position_from_json
from burano_ai.games.azul_sintra.position import position_to_dict as _position_to_dict
from burano_ai.games.azul_sintra.position import validate as _validate
from burano_ai.games.azul_sintra.render import render as _render


if (AZ_MAX_PLAYERS, AZ_COLOURS, AZ_COLUMNS, AZ_MAX_FACTORIES, AZ_ROUNDS, AZ_TRACK) != (
        _data.MAX_PLAYERS, _data.NUM_COLOURS, _data.COLUMNS, _data.MAX_FACTORIES, _data.ROUNDS, _data.TRACK_SPACES):
    raise ImportError("azul_sintra _core.pxd sizes differ from burano_ai.games.azul_sintra.data")
if (AZ_NUM_ACTIONS, AZ_MAX_ACTIONS, AZ_MAX_OUTCOMES, AZ_PHASE_OVER, AZ_CHANCE_DRAW, AZ_CHANCE_FIRST) != (
        _rules.NUM_ACTIONS, _rules.NUM_ACTIONS_JOKER_CHOICE, _rules.MAX_CHANCE_OUTCOMES, _rules.PHASE_OVER,
        _rules.CHANCE_DRAW, _rules.CHANCE_FIRST):
    raise ImportError("azul_sintra _core.pxd constants differ from burano_ai.games.azul_sintra.rules")

CHANCE = OPS_CHANCE_PLAYER
TERMINAL = OPS_TERMINAL_PLAYER
_U64 = 0xFFFF_FFFF_FFFF_FFFF

# Action layout (rules): DRAFT = (source * 5 + colour) * 9 + target; RESET 450; KEEP 451..455;
# with joker_choice, jokers-first DRAFT = 456 + (source * 5 + colour) * 8 + column.
cdef enum:
    CENTRE = 9
    BREAK = 8
    RESET = 450
    KEEP0 = 451
    JOKER_DRAFT0 = 456
if (CENTRE, BREAK, RESET, KEEP0, JOKER_DRAFT0) != (_rules.CENTRE, _rules.BREAK, _rules.RESET, _rules.KEEP0,
                                                   _rules.JOKER_DRAFT0):
    raise ImportError("azul_sintra action layout differs from rules")

# Zobrist cell kinds (rules.Z_*), checked below.
cdef enum:
    Z_PHASE = 0
    Z_ROUND = 1
    Z_TO_MOVE = 2
    Z_STARTER = 3
    Z_TOKEN = 4
    Z_INDICATOR = 5
    Z_BAG = 6
    Z_TOWER = 7
    Z_FACTORY = 8
    Z_CENTRE = 9
    Z_KEEP_COLUMN = 10
    Z_KEEP = 11
    Z_SCORE = 12
    Z_TRACK = 13
    Z_HITS = 14
    Z_GLAZIER = 15
    Z_STRIP = 16
    Z_FACE = 17
    Z_FILLED = 18
    Z_JOKER = 19
    Z_WINDOW_TOP = 20
    Z_WINDOW_BOTTOM = 21
    Z_VIEWER = 22
if (Z_PHASE, Z_KEEP, Z_SCORE, Z_FILLED, Z_VIEWER) != (_rules.Z_PHASE, _rules.Z_KEEP, _rules.Z_SCORE,
                                                       _rules.Z_FILLED, _rules.Z_VIEWER):
    raise ImportError("azul_sintra Zobrist kinds differ from rules")

cdef uint64_t ZOBRIST_SEED = _rules.ZOBRIST_SEED
# The move preference's weights and the prior's temperature (`heuristic`, the readable form).
cdef double BREAK_COST = _heuristic.BREAK_COST
cdef double COMPLETION_BONUS = _heuristic.COMPLETION_BONUS
cdef double JUMP_COST = _heuristic.JUMP_COST
cdef double PRIOR_TEMPERATURE = _heuristic.PRIOR_TEMPERATURE
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


cdef inline void upd(AzStateC* s, int kind, int where, int old, int new) noexcept nogil:
    if old != new:
        s.key ^= zob(kind, where, old) ^ zob(kind, where, new)


if zob(3, 1, -1) != _rules.zobrist(3, 1, -1):
    raise ImportError("azul_sintra Zobrist cells differ from rules.zobrist")


# Field setters that keep the key.
cdef inline void set_phase(AzStateC* s, int v) noexcept nogil:
    upd(s, Z_PHASE, 0, s.phase, v)
    s.phase = <int8_t>v

cdef inline void set_to_move(AzStateC* s, int v) noexcept nogil:
    upd(s, Z_TO_MOVE, 0, s.to_move, v)
    s.to_move = <int8_t>v

cdef inline void set_token(AzStateC* s, int v) noexcept nogil:
    upd(s, Z_TOKEN, 0, s.token, v)
    s.token = <int8_t>v

cdef inline void set_starter(AzStateC* s, int v) noexcept nogil:
    upd(s, Z_STARTER, 0, s.starter, v)
    s.starter = <int8_t>v

cdef inline void set_round(AzStateC* s, int v) noexcept nogil:
    upd(s, Z_ROUND, 0, s.round, v)
    s.round = <int8_t>v

cdef inline void set_keep_column(AzStateC* s, int v) noexcept nogil:
    upd(s, Z_KEEP_COLUMN, 0, s.keep_column, v)
    s.keep_column = <int8_t>v

cdef inline void set_indicator(AzStateC* s, int i, int v) noexcept nogil:
    upd(s, Z_INDICATOR, i, s.indicator[i], v)
    s.indicator[i] = <int8_t>v

cdef inline void add_bag(AzStateC* s, int c, int d) noexcept nogil:
    upd(s, Z_BAG, c, s.bag[c], s.bag[c] + d)
    s.bag[c] += d

cdef inline void add_tower(AzStateC* s, int c, int d) noexcept nogil:
    upd(s, Z_TOWER, c, s.tower[c], s.tower[c] + d)
    s.tower[c] += d

cdef inline void add_centre(AzStateC* s, int c, int d) noexcept nogil:
    upd(s, Z_CENTRE, c, s.centre[c], s.centre[c] + d)
    s.centre[c] += d

cdef inline void set_keep(AzStateC* s, int c, int v) noexcept nogil:
    upd(s, Z_KEEP, c, s.keep[c], v)
    s.keep[c] = <int16_t>v

cdef inline void set_factory(AzStateC* s, int f, int c, int v) noexcept nogil:
    upd(s, Z_FACTORY, f * AZ_COLOURS + c, s.factories[f][c], v)
    s.factories[f][c] = <int16_t>v

cdef inline void add_score(AzStateC* s, int p, int d) noexcept nogil:
    upd(s, Z_SCORE, p, s.boards[p].score, s.boards[p].score + d)
    s.boards[p].score += d

cdef inline void set_track(AzStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_TRACK, p, s.boards[p].track, v)
    s.boards[p].track = <int8_t>v

cdef inline void set_hits(AzStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_HITS, p, s.boards[p].hits, v)
    s.boards[p].hits = v

cdef inline void set_glazier(AzStateC* s, int p, int v) noexcept nogil:
    upd(s, Z_GLAZIER, p, s.boards[p].glazier, v)
    s.boards[p].glazier = <int8_t>v

cdef inline void set_strip(AzStateC* s, int p, int k, int v) noexcept nogil:
    upd(s, Z_STRIP, p * AZ_COLUMNS + k, s.boards[p].strip[k], v)
    s.boards[p].strip[k] = <int8_t>v

cdef inline void set_face(AzStateC* s, int p, int k, int v) noexcept nogil:
    upd(s, Z_FACE, p * AZ_COLUMNS + k, s.boards[p].face[k], v)
    s.boards[p].face[k] = <int8_t>v

cdef inline void set_top(AzStateC* s, int p, int k, int v) noexcept nogil:
    upd(s, Z_WINDOW_TOP, p * AZ_COLUMNS + k, s.boards[p].top[k], v)
    s.boards[p].top[k] = <int8_t>v

cdef inline void set_bottom(AzStateC* s, int p, int k, int v) noexcept nogil:
    upd(s, Z_WINDOW_BOTTOM, p * AZ_COLUMNS + k, s.boards[p].bottom[k], v)
    s.boards[p].bottom[k] = <int8_t>v

cdef inline void set_filled(AzStateC* s, int p, int k, int c, int v) noexcept nogil:
    upd(s, Z_FILLED, (p * AZ_COLUMNS + k) * AZ_COLOURS + c, s.boards[p].filled[k][c], v)
    s.boards[p].filled[k][c] = <int8_t>v

cdef inline void set_joker(AzStateC* s, int p, int k, int c, int v) noexcept nogil:
    upd(s, Z_JOKER, (p * AZ_COLUMNS + k) * AZ_COLOURS + c, s.boards[p].jokers[k][c], v)
    s.boards[p].jokers[k][c] = <int8_t>v


cdef uint64_t full_key_c(const AzGameC* g, const AzStateC* s) noexcept nogil:
    """The Zobrist key recomputed from every field (the reference's `State.key`)."""
    cdef uint64_t k
    cdef int i, c, f, p, col, w
    cdef const AzBoardC* b
    k = zob(Z_PHASE, 0, s.phase) ^ zob(Z_ROUND, 0, s.round) ^ zob(Z_TO_MOVE, 0, s.to_move)
    k ^= zob(Z_STARTER, 0, s.starter) ^ zob(Z_TOKEN, 0, s.token)
    k ^= zob(Z_KEEP_COLUMN, 0, s.keep_column)
    for i in range(AZ_ROUNDS):
        k ^= zob(Z_INDICATOR, i, s.indicator[i])
    for c in range(AZ_COLOURS):
        k ^= zob(Z_BAG, c, s.bag[c]) ^ zob(Z_TOWER, c, s.tower[c])
        k ^= zob(Z_CENTRE, c, s.centre[c]) ^ zob(Z_KEEP, c, s.keep[c])
        for f in range(g.num_factories):
            k ^= zob(Z_FACTORY, f * AZ_COLOURS + c, s.factories[f][c])
    for p in range(g.num_players):
        b = &s.boards[p]
        k ^= zob(Z_SCORE, p, b.score) ^ zob(Z_TRACK, p, b.track)
        k ^= zob(Z_HITS, p, b.hits) ^ zob(Z_GLAZIER, p, b.glazier)
        for col in range(AZ_COLUMNS):
            w = p * AZ_COLUMNS + col
            k ^= zob(Z_STRIP, w, b.strip[col]) ^ zob(Z_FACE, w, b.face[col])
            k ^= zob(Z_WINDOW_TOP, w, b.top[col]) ^ zob(Z_WINDOW_BOTTOM, w, b.bottom[col])
            for c in range(AZ_COLOURS):
                k ^= zob(Z_FILLED, w * AZ_COLOURS + c, b.filled[col][c])
                k ^= zob(Z_JOKER, w * AZ_COLOURS + c, b.jokers[col][c])
    return k


# ================================================================================================
# The rules in C (the reference's functions, in the same order)
# ================================================================================================

cdef inline bint present(const AzBoardC* b, int k) noexcept nogil:
    return b.strip[k] >= 0 and b.bottom[k] < 0


cdef inline int strip_pieces(const AzBoardC* b, int k) noexcept nogil:
    cdef int c, n = 0
    for c in range(AZ_COLOURS):
        n += b.filled[k][c] + b.jokers[k][c]
    return n


cdef inline int jokers_used(const AzBoardC* b, int k) noexcept nogil:
    cdef int c, n = 0
    for c in range(AZ_COLOURS):
        n += b.jokers[k][c]
    return n


cdef inline bint accepts(const AzGameC* g, const AzBoardC* b, int k, int c) noexcept nogil:
    cdef const int8_t* face
    if not present(b, k):
        return False
    face = g.face[b.strip[k]][b.face[k]]
    return b.filled[k][c] < face[c] or jokers_used(b, k) < face[AZ_COLOURS]


cdef inline bint joker_order_matters(const AzGameC* g, const AzBoardC* b, int k, int c) noexcept nogil:
    """A present strip with a free cell printed c and a free joker: jokers first places differently."""
    cdef const int8_t* face
    if not present(b, k):
        return False
    face = g.face[b.strip[k]][b.face[k]]
    return b.filled[k][c] < face[c] and jokers_used(b, k) < face[AZ_COLOURS]


cdef inline bint table_empty(const AzGameC* g, const AzStateC* s) noexcept nogil:
    cdef int f, c
    for c in range(AZ_COLOURS):
        if s.centre[c]:
            return False
        for f in range(g.num_factories):
            if s.factories[f][c]:
                return False
    return True


cdef inline int on_factories(const AzGameC* g, const AzStateC* s) noexcept nogil:
    cdef int f, c, n = 0
    for f in range(g.num_factories):
        for c in range(AZ_COLOURS):
            n += s.factories[f][c]
    return n


cdef inline int bag_total(const AzStateC* s) noexcept nogil:
    cdef int c, n = 0
    for c in range(AZ_COLOURS):
        n += s.bag[c]
    return n


cdef int current_player_c(const AzStateC* s) noexcept nogil:
    if s.phase == AZ_PHASE_OVER:
        return OPS_TERMINAL_PLAYER
    if s.phase == AZ_PHASE_SETUP or s.phase == AZ_PHASE_REFILL:
        return OPS_CHANCE_PLAYER
    return s.to_move


cdef int setup_cursor_c(const AzGameC* g, const AzStateC* s, int* who, int* col) noexcept nogil:
    """The pending setup step's kind (AZ_CHANCE_*), its seat (or indicator slot) and column."""
    cdef int p, k, i
    cdef int order[6]
    order[0] = 1; order[1] = 2; order[2] = 3; order[3] = 4; order[4] = 5; order[5] = 0
    if s.starter < 0:
        who[0] = 0; col[0] = 0
        return AZ_CHANCE_FIRST
    for p in range(g.num_players):
        for k in range(AZ_COLUMNS):
            if s.boards[p].strip[k] < 0:
                who[0] = p; col[0] = k
                return AZ_CHANCE_STRIP
            if s.boards[p].face[k] < 0:
                who[0] = p; col[0] = k
                return AZ_CHANCE_FACE
    for i in range(AZ_ROUNDS):
        if s.indicator[order[i]] < 0:
            who[0] = order[i]; col[0] = 0
            return AZ_CHANCE_INDICATOR
    who[0] = 0; col[0] = 0
    return AZ_CHANCE_INDICATOR


cdef int chance_kind_c(const AzGameC* g, const AzStateC* s) noexcept nogil:
    cdef int who, col
    if s.phase == AZ_PHASE_SETUP:
        return setup_cursor_c(g, s, &who, &col)
    return AZ_CHANCE_DRAW if s.phase == AZ_PHASE_REFILL else 0


cdef int bag_draw_c(const AzStateC* s, int* actions, double* probs) noexcept nogil:
    cdef int c, n = 0, total = bag_total(s)
    for c in range(AZ_COLOURS):
        if s.bag[c]:
            actions[n] = c
            probs[n] = (<double>s.bag[c]) / total
            n += 1
    return n


cdef int chance_outcomes_c(const AzGameC* g, const AzStateC* s, int* actions, double* probs) noexcept nogil:
    cdef int kind, who, col, n = 0, i, c, left
    cdef bint used
    if s.phase == AZ_PHASE_REFILL:
        return bag_draw_c(s, actions, probs)
    if s.phase != AZ_PHASE_SETUP:
        return 0
    kind = setup_cursor_c(g, s, &who, &col)
    if kind == AZ_CHANCE_FIRST:
        for i in range(g.num_players):
            actions[i] = i
            probs[i] = 1.0 / g.num_players
        return g.num_players
    if kind == AZ_CHANCE_STRIP:
        for c in range(AZ_COLUMNS):
            used = False
            for i in range(AZ_COLUMNS):
                if s.boards[who].strip[i] == c:
                    used = True
            if not used:
                actions[n] = c
                n += 1
        for i in range(n):
            probs[i] = 1.0 / n
        return n
    if kind == AZ_CHANCE_FACE:
        if s.boards[who].strip[col] == g.joker_strip:
            actions[0] = 1 - g.joker_face
            probs[0] = 1.0
            return 1
        actions[0] = 0; actions[1] = 1
        probs[0] = 0.5; probs[1] = 0.5
        return 2
    if who != 0:
        for c in range(AZ_COLOURS):
            used = False
            for i in range(AZ_ROUNDS):
                if s.indicator[i] == c:
                    used = True
            if not used:
                actions[n] = c
                n += 1
        for i in range(n):
            probs[i] = 1.0 / n
        return n
    return bag_draw_c(s, actions, probs)


cdef int sample_chance_c(const AzGameC* g, const AzStateC* s, Rng* rng) noexcept nogil:
    """An outcome drawn with its probability, or -1 off chance nodes. Bag draws pick a piece uniformly
    among the bag's pieces (probability bag[c] / total, exactly)."""
    cdef int actions[AZ_MAX_OUTCOMES]
    cdef double probs[AZ_MAX_OUTCOMES]
    cdef int n, r, c, kind, who, col
    if s.phase == AZ_PHASE_REFILL or (s.phase == AZ_PHASE_SETUP and setup_cursor_c(g, s, &who, &col)
                                      == AZ_CHANCE_INDICATOR and who == 0):
        n = bag_total(s)
        if n <= 0:
            return -1
        r = <int>rng_below(rng, <uint32_t>n)
        for c in range(AZ_COLOURS):
            if r < s.bag[c]:
                return c
            r -= s.bag[c]
        return -1
    n = chance_outcomes_c(g, s, actions, probs)
    if n <= 0:
        return -1
    return actions[<int>rng_below(rng, <uint32_t>n)]       # every other chance node is uniform


cdef int legal_actions_c(const AzGameC* g, const AzStateC* s, int* out) noexcept nogil:
    cdef int n = 0, src, f, c, k, start, found
    cdef const AzBoardC* b
    cdef const int16_t* counts
    if s.phase == AZ_PHASE_KEEP:
        for c in range(AZ_COLOURS):
            if s.keep[c]:
                out[n] = KEEP0 + c
                n += 1
        return n
    if s.phase != AZ_PHASE_DRAFT:
        return 0
    b = &s.boards[s.to_move]
    for f in range(g.num_factories + 1):
        if f == g.num_factories:
            src = CENTRE
            counts = s.centre
        else:
            src = f
            counts = s.factories[f]
        for c in range(AZ_COLOURS):
            if not counts[c]:
                continue
            found = 0
            for k in range(b.glazier, AZ_COLUMNS):
                if accepts(g, b, k, c):
                    out[n] = (src * AZ_COLOURS + c) * 9 + k
                    n += 1
                    found = 1
            if not found:
                out[n] = (src * AZ_COLOURS + c) * 9 + BREAK
                n += 1
    for k in range(b.glazier):
        if present(b, k):
            out[n] = RESET
            n += 1
            break
    if g.joker_choice:
        for f in range(g.num_factories + 1):
            if f == g.num_factories:
                src = CENTRE
                counts = s.centre
            else:
                src = f
                counts = s.factories[f]
            for c in range(AZ_COLOURS):
                if counts[c]:
                    for k in range(b.glazier, AZ_COLUMNS):
                        if joker_order_matters(g, b, k, c):
                            out[n] = JOKER_DRAFT0 + (src * AZ_COLOURS + c) * AZ_COLUMNS + k
                            n += 1
    return n


cdef void continue_refill_c(const AzGameC* g, AzStateC* s) noexcept nogil:
    cdef int c, t
    while True:
        if on_factories(g, s) == g.pieces_per_factory * g.num_factories:
            break
        if bag_total(s):
            return
        t = 0
        for c in range(AZ_COLOURS):
            t += s.tower[c]
        if not t:
            break
        for c in range(AZ_COLOURS):
            add_bag(s, c, s.tower[c])
            add_tower(s, c, -s.tower[c])
    start_round_c(g, s)


cdef void final_scoring_c(const AzGameC* g, const AzStateC* s, int p, int* leftover, int* track,
                          int* side) noexcept nogil:
    cdef const AzBoardC* b = &s.boards[p]
    cdef int k, n = 0, o, cells, c, complete, best, cnt
    cdef int orn[AZ_COLUMNS]
    for k in range(AZ_COLUMNS):
        if present(b, k):
            n += strip_pieces(b, k)
    leftover[0] = n // g.leftover_per_point
    track[0] = g.track[b.track]
    if g.side == 0:
        for o in range(AZ_COLUMNS):
            orn[o] = 0
        for k in range(AZ_COLUMNS):
            if g.ornament_of[k] >= 0:
                orn[g.ornament_of[k]] += (b.top[k] >= 0) + (b.bottom[k] >= 0)
        side[0] = 0
        for o in range(g.num_ornaments):
            side[0] += g.ornament_points[orn[o]]
    else:
        complete = 0
        for k in range(AZ_COLUMNS):
            complete += b.bottom[k] >= 0
        best = 0
        for c in range(AZ_COLOURS):
            cnt = 0
            for k in range(AZ_COLUMNS):
                cnt += (b.top[k] == c) + (b.bottom[k] == c)
            if cnt > best:
                best = cnt
        side[0] = complete * best


cdef void end_round_c(const AzGameC* g, AzStateC* s) noexcept nogil:
    cdef int p, leftover, track, side
    if g.indicator_to_tower:
        add_tower(s, s.indicator[s.round], 1)
    if s.token >= 0:
        set_starter(s, s.token)
    set_token(s, -1)
    set_to_move(s, -1)
    if s.round == AZ_ROUNDS - 1:
        set_phase(s, AZ_PHASE_OVER)
        for p in range(g.num_players):
            final_scoring_c(g, s, p, &leftover, &track, &side)
            add_score(s, p, leftover + track + side)
        return
    set_round(s, s.round + 1)
    set_phase(s, AZ_PHASE_REFILL)
    continue_refill_c(g, s)


cdef void start_round_c(const AzGameC* g, AzStateC* s) noexcept nogil:
    set_phase(s, AZ_PHASE_DRAFT)
    set_token(s, -1)
    set_to_move(s, s.starter)
    if on_factories(g, s) == 0:
        end_round_c(g, s)


cdef void end_turn_c(const AzGameC* g, AzStateC* s) noexcept nogil:
    s.turn += 1
    if table_empty(g, s):
        end_round_c(g, s)
    else:
        set_to_move(s, (s.to_move + 1) % g.num_players)


cdef void steps_c(const AzGameC* g, AzStateC* s, int p, int steps) noexcept nogil:
    cdef int i, t
    for i in range(steps):
        t = s.boards[p].track + 1
        if t == AZ_TRACK - 1:
            add_score(s, p, -g.bottom_loss)
            set_hits(s, p, s.boards[p].hits + 1)
            t = 0
        set_track(s, p, t)


cdef void draft_c(const AzGameC* g, AzStateC* s, int src, int c, int target, bint jokers_first) noexcept nogil:
    cdef int p = s.to_move, steps = 0, n, x, on_colour, on_joker, broken, k, free_colour, free_joker
    cdef AzBoardC* b = &s.boards[p]
    cdef const int8_t* face
    if src == CENTRE:
        n = s.centre[c]
        add_centre(s, c, -n)
        if s.token < 0:
            set_token(s, p)
            steps += g.token_steps
    else:
        n = s.factories[src][c]
        for x in range(AZ_COLOURS):
            if x != c:
                add_centre(s, x, s.factories[src][x])
            set_factory(s, src, x, 0)
    if target == BREAK:
        broken = n
    else:
        if target > b.glazier:
            set_glazier(s, p, target)
        face = g.face[b.strip[target]][b.face[target]]
        free_colour = face[c] - b.filled[target][c]
        free_joker = face[AZ_COLOURS] - jokers_used(b, target)
        if jokers_first:
            on_joker = free_joker if free_joker < n else n
            on_colour = free_colour if free_colour < n - on_joker else n - on_joker
        else:
            on_colour = free_colour if free_colour < n else n
            on_joker = free_joker if free_joker < n - on_colour else n - on_colour
        set_filled(s, p, target, c, b.filled[target][c] + on_colour)
        set_joker(s, p, target, c, b.jokers[target][c] + on_joker)
        broken = n - on_colour - on_joker
    add_tower(s, c, broken)
    steps_c(g, s, p, steps + broken)
    if target != BREAK and strip_pieces(b, target) == g.strip_cells:
        # 3a: the round bonus, then the keep phase
        k = s.indicator[s.round]
        add_score(s, p, b.filled[target][k] + b.jokers[target][k])
        for x in range(AZ_COLOURS):
            set_keep(s, x, b.filled[target][x] + b.jokers[target][x])
            set_filled(s, p, target, x, 0)
            set_joker(s, p, target, x, 0)
        set_keep_column(s, target)
        set_phase(s, AZ_PHASE_KEEP)
        if g.auto_keep:
            for x in range(AZ_COLOURS):
                if s.keep[x]:
                    keep_c(g, s, x)
                    break
    else:
        end_turn_c(g, s)


cdef void keep_c(const AzGameC* g, AzStateC* s, int c) noexcept nogil:
    cdef int p = s.to_move, k = s.keep_column, x, j, pts
    cdef AzBoardC* b = &s.boards[p]
    set_keep(s, c, s.keep[c] - 1)
    for x in range(AZ_COLOURS):
        add_tower(s, x, s.keep[x])
        set_keep(s, x, 0)
    if b.top[k] < 0:
        set_top(s, p, k, c)
        set_face(s, p, k, b.face[k] ^ 1)
    else:
        set_bottom(s, p, k, c)
    pts = g.window[k]
    for j in range(k + 1, AZ_COLUMNS):
        if b.top[j] >= 0 or b.bottom[j] >= 0:
            pts += g.window[j]
    add_score(s, p, pts)
    set_keep_column(s, -1)
    set_phase(s, AZ_PHASE_DRAFT)
    end_turn_c(g, s)


cdef void apply_action_c(const AzGameC* g, AzStateC* s, int action) noexcept nogil:
    cdef int kind, who, col, k
    cdef AzBoardC* b
    if s.phase == AZ_PHASE_SETUP:
        kind = setup_cursor_c(g, s, &who, &col)
        if kind == AZ_CHANCE_FIRST:
            set_starter(s, action)
        elif kind == AZ_CHANCE_STRIP:
            set_strip(s, who, col, action)
        elif kind == AZ_CHANCE_FACE:
            set_face(s, who, col, action)
        else:
            set_indicator(s, who, action)
            add_bag(s, action, -1)
            if who == 0:
                set_phase(s, AZ_PHASE_REFILL)
                continue_refill_c(g, s)
    elif s.phase == AZ_PHASE_REFILL:
        k = on_factories(g, s) // g.pieces_per_factory
        set_factory(s, k, action, s.factories[k][action] + 1)
        add_bag(s, action, -1)
        continue_refill_c(g, s)
    elif s.phase == AZ_PHASE_KEEP:
        keep_c(g, s, action - KEEP0)
    elif action == RESET:
        b = &s.boards[s.to_move]
        for k in range(AZ_COLUMNS):
            if present(b, k):
                set_glazier(s, s.to_move, k)
                break
        end_turn_c(g, s)
    elif action >= JOKER_DRAFT0:
        k = action - JOKER_DRAFT0
        draft_c(g, s, k // (AZ_COLOURS * AZ_COLUMNS), (k // AZ_COLUMNS) % AZ_COLOURS, k % AZ_COLUMNS, True)
    else:
        draft_c(g, s, action // 45, (action // 9) % 5, action % 9, False)


cdef inline int64_t track_loss_c(const AzGameC* g, const AzBoardC* b) noexcept nogil:
    return <int64_t>g.bottom_loss * b.hits - g.track[b.track]


cdef void outcome_c(const AzGameC* g, const AzStateC* s, double* scores, double* shares) noexcept nogil:
    """Scores, and 1/k of the win for each of the k seats with the best (score, -track loss) (§8, AD-14)."""
    cdef int p, count = 0, best = 0
    for p in range(g.num_players):
        scores[p] = s.boards[p].score
        if p == 0 or s.boards[p].score > s.boards[best].score or (
                s.boards[p].score == s.boards[best].score and
                track_loss_c(g, &s.boards[p]) < track_loss_c(g, &s.boards[best])):
            best = p
    for p in range(g.num_players):
        if s.boards[p].score == s.boards[best].score and \
                track_loss_c(g, &s.boards[p]) == track_loss_c(g, &s.boards[best]):
            count += 1
    for p in range(g.num_players):
        if s.boards[p].score == s.boards[best].score and \
                track_loss_c(g, &s.boards[p]) == track_loss_c(g, &s.boards[best]):
            shares[p] = 1.0 / count
        else:
            shares[p] = 0.0


cdef double draft_value_c(const AzGameC* g, const AzStateC* s, int action) noexcept nogil:
    """The heuristic playout's value of a draft or reset for the seat to move (higher is better):
    `heuristic.draft_value`: pieces placed, minus BREAK_COST (1.5) per piece broken and for the token's
    step, plus COMPLETION_BONUS (3) for a completion, minus JUMP_COST (0.3) per column the glazier jumps
    right. A reset is worth 0."""
    cdef const AzBoardC* b = &s.boards[s.to_move]
    cdef int src, c, t, n, free, placed, broken
    cdef const int8_t* face
    cdef double v
    if action == RESET:
        return 0.0
    if action >= JOKER_DRAFT0:
        src = (action - JOKER_DRAFT0) // (AZ_COLOURS * AZ_COLUMNS)
        c = ((action - JOKER_DRAFT0) // AZ_COLUMNS) % AZ_COLOURS
        t = (action - JOKER_DRAFT0) % AZ_COLUMNS
    else:
        src = action // 45
        c = (action // 9) % 5
        t = action % 9
    n = s.centre[c] if src == CENTRE else s.factories[src][c]
    v = 0.0
    if src == CENTRE and s.token < 0:
        v -= BREAK_COST * g.token_steps
    if t == BREAK:
        return v - BREAK_COST * n
    face = g.face[b.strip[t]][b.face[t]]
    free = face[c] - b.filled[t][c] + face[AZ_COLOURS] - jokers_used(b, t)
    placed = n if n < free else free
    broken = n - placed
    v += placed - BREAK_COST * broken - JUMP_COST * (t - b.glazier)
    if strip_pieces(b, t) + placed == g.strip_cells:
        v += COMPLETION_BONUS
    return v


cdef int prior_c(const AzGameC* g, const AzStateC* s, int player, const int* legal, int n,
                 double* out) noexcept nogil:
    """The search prior (`heuristic.prior`): a softmax of `draft_value_c / PRIOR_TEMPERATURE` over the
    legal drafts and reset of the seat to move; 0 (none) in the keep phase or for another seat."""
    cdef int i
    cdef double top = -1e300, total = 0.0
    if s.phase != AZ_PHASE_DRAFT or player != s.to_move or n <= 0:
        return 0
    for i in range(n):
        out[i] = draft_value_c(g, s, legal[i])
        if out[i] > top:
            top = out[i]
    for i in range(n):
        out[i] = exp((out[i] - top) / PRIOR_TEMPERATURE)
        total += out[i]
    for i in range(n):
        out[i] /= total
    return 1


cdef int heuristic_action_c(const AzGameC* g, const AzStateC* s, Rng* rng, const int* legal, int n) noexcept nogil:
    """The heuristic playout's choice: the best `draft_value_c` (ties at random); one decision in ten,
    and every keep, uniformly at random."""
    cdef int i, best_n = 0, pick
    cdef double v, best = -1e300
    if s.phase == AZ_PHASE_KEEP or rng_below(rng, 10) == 0:
        return legal[<int>rng_below(rng, <uint32_t>n)]
    for i in range(n):
        v = draft_value_c(g, s, legal[i])
        if v > best:
            best = v
            best_n = 1
        elif v == best:
            best_n += 1
    pick = <int>rng_below(rng, <uint32_t>best_n)
    for i in range(n):
        if draft_value_c(g, s, legal[i]) == best:
            if pick == 0:
                return legal[i]
            pick -= 1
    return legal[0]


cdef int playout_c(const AzGameC* g, AzStateC* s, Rng* rng, int policy) noexcept nogil:
    """Play to the end in place (policy 0: uniformly at random; 1: `heuristic_action_c`); return the
    steps, or AZ_PLAYOUT_* on failure."""
    cdef int buf[AZ_MAX_ACTIONS]
    cdef int steps = 0, a, n
    while s.phase != AZ_PHASE_OVER:
        if steps >= AZ_STEP_LIMIT:
            return AZ_PLAYOUT_CAPPED
        if s.phase == AZ_PHASE_SETUP or s.phase == AZ_PHASE_REFILL:
            a = sample_chance_c(g, s, rng)
            if a < 0:
                return AZ_PLAYOUT_DEAD_END
        else:
            n = legal_actions_c(g, s, buf)
            if n == 0:
                return AZ_PLAYOUT_DEAD_END
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
ctypedef AzGameC CoreGameC
ctypedef AzStateC CoreStateC
cdef enum:
    CORE_PLAYOUT_CAPPED = AZ_PLAYOUT_CAPPED
    CORE_PLAYOUT_DEAD_END = AZ_PLAYOUT_DEAD_END
include "burano_ai/core/_ops_glue.pxi"
include "_encode.pxi"

cdef int ops_chance_kind(const void* game, const void* state) noexcept nogil:
    return chance_kind_c(<const AzGameC*>game, <const AzStateC*>state)

cdef int ops_decision_mode(const void* game, const void* state) noexcept nogil:
    return DECISION_OPEN

cdef int ops_prior(const void* game, const void* state, int player, const int* legal, int n,
                   double* out) noexcept nogil:
    return prior_c(<const AzGameC*>game, <const AzStateC*>state, player, legal, n, out)

cdef int64_t ops_turn_id(const void* game, const void* state) noexcept nogil:
    cdef const AzStateC* s = <const AzStateC*>state
    if s.phase == AZ_PHASE_DRAFT or s.phase == AZ_PHASE_KEEP:
        return s.turn
    return NO_TURN

cdef uint64_t ops_info_key(const void* game, const void* state, int seat) noexcept nogil:
    return (<const AzStateC*>state).key ^ zob(Z_VIEWER, 0, seat)


cdef GameOpsC AZUL_SINTRA_OPS
fill_common_ops(&AZUL_SINTRA_OPS)
AZUL_SINTRA_OPS.num_actions = AZ_NUM_ACTIONS
AZUL_SINTRA_OPS.max_legal = AZ_NUM_ACTIONS       # legal drafts are at most (4F + 5) x 8 + 1 = 329
AZUL_SINTRA_OPS.min_players = _data.MIN_PLAYERS
AZUL_SINTRA_OPS.max_players = AZ_MAX_PLAYERS
AZUL_SINTRA_OPS.chance_kind = ops_chance_kind
AZUL_SINTRA_OPS.resample = NULL                  # perfect information (§11.1)
AZUL_SINTRA_OPS.decision_mode = ops_decision_mode
AZUL_SINTRA_OPS.prior = ops_prior
AZUL_SINTRA_OPS.turn_id = ops_turn_id
AZUL_SINTRA_OPS.info_key = ops_info_key
AZUL_SINTRA_OPS.name = b"azul-sintra"
AZUL_SINTRA_OPS.encoder_version = AZ_ENCODER_VERSION
AZUL_SINTRA_OPS.num_features = az_num_features
AZUL_SINTRA_OPS.encode = az_encode

# With joker_choice: the same functions over 856 actions.
cdef GameOpsC AZUL_SINTRA_JOKER_OPS = AZUL_SINTRA_OPS
AZUL_SINTRA_JOKER_OPS.num_actions = AZ_MAX_ACTIONS
AZUL_SINTRA_JOKER_OPS.max_legal = AZ_MAX_ACTIONS


# ================================================================================================
# Python API: Game and State (the reference's)
# ================================================================================================

cdef class Game:
    """Rules and metadata of one configuration (the reference `Game`'s API, compiled states).

    Args:
        num_players: 2..4. side: "A" or "B". first_player: the starting seat (AD-17).
        data: the component data (`data.load_data`: None = the placeholder, a path, a dict).
    """

    def __init__(self, num_players=2, side="A", first_player=0, data=None, flags=None, *, joker_choice=False,
                 indicator_to_tower=True, auto_keep=False, random_first_player=False):
        cdef int s, f, c, k, i
        if flags is None:
            flags = _make_flags(joker_choice=joker_choice, indicator_to_tower=indicator_to_tower,
                                auto_keep=auto_keep, random_first_player=random_first_player)
        _check_config(num_players, side, first_player, flags)
        d = _data.load_data(data)
        self.num_players = num_players
        self.side = side
        self.first_player = first_player
        self.data = d
        self.flags = flags
        memset(&self.g, 0, sizeof(AzGameC))
        self.g.num_players = num_players
        self.g.num_factories = _data.FACTORIES[num_players]
        self.g.side = _rules.SIDES.index(side)
        self.g.first_player = first_player
        self.g.joker_choice = flags.joker_choice
        self.g.indicator_to_tower = flags.indicator_to_tower
        self.g.auto_keep = flags.auto_keep
        self.g.random_first = flags.random_first_player
        for s in range(AZ_COLUMNS):
            for f in range(2):
                for c in range(AZ_COLOURS + 1):
                    self.g.face[s][f][c] = d.face_counts[s][f][c]
        self.g.joker_strip = d.joker_strip
        self.g.joker_face = d.joker_face
        for k in range(AZ_COLUMNS):
            self.g.window[k] = d.window_values[k]
            self.g.ornament_of[k] = -1
        for i, group in enumerate(d.ornaments):
            for k in group:
                self.g.ornament_of[k] = i
        self.g.num_ornaments = len(d.ornaments)
        for i in range(5):
            self.g.ornament_points[i] = _data.ORNAMENT_POINTS[i]
        for i in range(AZ_TRACK):
            self.g.track[i] = d.track[i]
        self.g.bottom_loss = _data.TRACK_BOTTOM_LOSS
        self.g.token_steps = _data.TOKEN_STEPS
        self.g.leftover_per_point = _data.LEFTOVER_PER_POINT
        self.g.pieces_per_factory = _data.PIECES_PER_FACTORY
        self.g.strip_cells = _data.STRIP_CELLS

    def __repr__(self):
        extra = "" if self.flags.is_default else f", {self.flags}"
        return f"Game(num_players={self.num_players}, side={self.side!r}, first_player={self.first_player}{extra})"

    def __eq__(self, other):
        return isinstance(other, Game) and self.config() == other.config()

    def __hash__(self):
        return hash((self.num_players, self.side, self.first_player, self.flags))

    def __reduce__(self):
        return (Game, (self.num_players, self.side, self.first_player, self.data.to_dict(), self.flags))

    def config(self):
        """(num_players, side, first_player, data, flags)."""
        return self.num_players, self.side, self.first_player, self.data, self.flags

    def num_distinct_actions(self):
        """456, or 856 with `joker_choice` (the jokers-first drafts after the others, AD-23)."""
        return AZ_MAX_ACTIONS if self.g.joker_choice else AZ_NUM_ACTIONS

    def max_chance_outcomes(self):
        return AZ_MAX_OUTCOMES

    def max_game_length(self):
        """Most decisions in a game (§11.5): drafts <= 24F, resets <= drafts, keeps <= 16N."""
        return 48 * self.g.num_factories + 16 * self.num_players

    def new_initial_state(self, seed=0):
        """The position before setup (setup is chance: `seed` is accepted and unused)."""
        _check_seed(seed)
        return State(self)

    def state_from_position(self, position):
        return State.from_position(position, self)

    def state_from_json(self, text):
        """Load a position (full or a seat's view); PositionError naming the field if it is wrong."""
        return State.from_position(_position_from_json(text, expect=self.config()), self)


cdef class State(NativeState):
    """A position in a C struct, with the reference `State`'s API and the C game interface."""

    def __init__(self, Game game):
        self.bind(game)
        self.set_from(_Position(game.num_players, game.side, game.first_player, game.data, game.flags))

    cdef void bind(self, object game) except *:
        self.game = <Game?>game
        self.ops = &AZUL_SINTRA_JOKER_OPS if self.game.g.joker_choice else &AZUL_SINTRA_OPS
        self.game_ptr = &self.game.g
        self.state_ptr = &self.s

    def set_from(self, pos):
        """Load the fields of a `position.Position` of this State's game and recompute the key.

        Raises:
            TypeError: `pos` is not a Position of this game; PositionError: it is of another configuration
                or breaks an invariant (checked before any field is written: the C arrays are bounded).
        """
        cdef int p, k, c, f
        _check_instance(pos, _Position, "an Azul: Stained Glass of Sintra position")
        if pos.config() != self.game.config():
            raise PositionError("the position does not belong to this game (players, side, first_player, data or "
                                "options)")
        _validate(pos)
        memset(&self.s, 0, sizeof(AzStateC))
        self.s.num_players = pos.num_players
        self.s.phase = pos.phase
        self.s.round = pos.round
        self.s.turn = pos.turn
        self.s.to_move = pos.to_move
        self.s.starter = pos.starter
        self.s.token = pos.token
        self.s.keep_column = pos.keep_column
        for k in range(AZ_ROUNDS):
            self.s.indicator[k] = pos.indicator[k]
        for c in range(AZ_COLOURS):
            self.s.bag[c] = pos.bag[c]
            self.s.tower[c] = pos.tower[c]
            self.s.centre[c] = pos.centre[c]
            self.s.keep[c] = pos.keep_pieces[c]
            for f in range(pos.num_factories):
                self.s.factories[f][c] = pos.factories[f][c]
        for p in range(pos.num_players):
            b = pos.boards[p]
            self.s.boards[p].score = b.score
            self.s.boards[p].hits = b.hits
            self.s.boards[p].track = b.track
            self.s.boards[p].glazier = b.glazier
            for k in range(AZ_COLUMNS):
                self.s.boards[p].strip[k] = b.strips[k]
                self.s.boards[p].face[k] = b.faces[k]
                self.s.boards[p].top[k] = b.top[k]
                self.s.boards[p].bottom[k] = b.bottom[k]
                for c in range(AZ_COLOURS):
                    self.s.boards[p].filled[k][c] = b.filled[k][c]
                    self.s.boards[p].jokers[k][c] = b.jokers[k][c]
        self.s.key = full_key_c(&self.game.g, &self.s)

    @staticmethod
    def from_position(pos, Game game not None):
        """A State of `game` holding `pos` (a `position.Position` of the same configuration)."""
        cdef State st
        _check_instance(pos, _Position, "an Azul: Stained Glass of Sintra position")
        if pos.config() != game.config():
            raise PositionError("the position does not belong to this game (players, side, first_player, data or "
                                "options)")
        st = State.__new__(State)
        st.bind(game)
        st.set_from(pos)
        return st

    def to_position(self):
        """The fields as a `position.Position`."""
        cdef int p, k, c, f
        g = self.game
        pos = _Position(g.num_players, g.side, g.first_player, g.data, g.flags)
        pos.phase, pos.round, pos.turn = self.s.phase, self.s.round, self.s.turn
        pos.to_move, pos.starter, pos.token = self.s.to_move, self.s.starter, self.s.token
        pos.keep_column = self.s.keep_column
        pos.indicator = [self.s.indicator[k] for k in range(AZ_ROUNDS)]
        pos.bag = [self.s.bag[c] for c in range(AZ_COLOURS)]
        pos.tower = [self.s.tower[c] for c in range(AZ_COLOURS)]
        pos.centre = [self.s.centre[c] for c in range(AZ_COLOURS)]
        pos.keep_pieces = [self.s.keep[c] for c in range(AZ_COLOURS)]
        pos.factories = [[self.s.factories[f][c] for c in range(AZ_COLOURS)] for f in range(self.game.g.num_factories)]
        for p in range(g.num_players):
            b = pos.boards[p]
            b.score, b.hits = self.s.boards[p].score, self.s.boards[p].hits
            b.track, b.glazier = self.s.boards[p].track, self.s.boards[p].glazier
            b.strips = [self.s.boards[p].strip[k] for k in range(AZ_COLUMNS)]
            b.faces = [self.s.boards[p].face[k] for k in range(AZ_COLUMNS)]
            b.top = [self.s.boards[p].top[k] for k in range(AZ_COLUMNS)]
            b.bottom = [self.s.boards[p].bottom[k] for k in range(AZ_COLUMNS)]
            b.filled = [[self.s.boards[p].filled[k][c] for c in range(AZ_COLOURS)] for k in range(AZ_COLUMNS)]
            b.jokers = [[self.s.boards[p].jokers[k][c] for c in range(AZ_COLOURS)] for k in range(AZ_COLUMNS)]
        return pos

    def to_dict(self, seat=None):
        if seat is not None:
            seat = _parse_seat(seat, self.s.num_players)
        return _position_to_dict(self.to_position(), seat)

    def __str__(self):
        return _render(self.to_dict())

    def __repr__(self):
        return f"<azul-sintra State round {self.s.round + 1} {_rules.PHASE_NAMES[self.s.phase]} key {self.s.key:016x}>"

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
        cdef int who, col, kind
        if self.s.phase == AZ_PHASE_SETUP:
            kind = setup_cursor_c(&self.game.g, &self.s, &who, &col)
            return kind, col, who
        if self.s.phase == AZ_PHASE_REFILL:
            return _rules.CHANCE_DRAW, 0, 0
        return None, 0, 0

    def action_to_string(self, action):
        kind, column, slot = self._text_context()
        return _rules.action_to_str(action, self.game.data.letters, kind, column, slot)

    def string_to_action(self, text):
        kind, column, slot = self._text_context()
        return _rules.parse_action(text, self.game.data.letters, kind, column, slot)

    def where(self):
        """Where the game stands, for messages (the reference's texts)."""
        if self.s.phase == AZ_PHASE_OVER:
            return "after the end of the game"
        if self.s.phase == AZ_PHASE_SETUP:
            return "during setup"
        if self.s.phase == AZ_PHASE_REFILL:
            return f"in the refill before round {self.s.round + 1}"
        return f"in round {self.s.round + 1}, seat {_SEAT_LETTERS[self.s.to_move]} to move"

    # --- outcome

    def scores(self):
        return [self.s.boards[p].score for p in range(self.s.num_players)]

    def track_loss(self, player):
        return track_loss_c(&self.game.g, &self.s.boards[_parse_seat(player, self.s.num_players, "player")])

    def finishing_key(self, player):
        """§8: the higher score; tied, the one who lost fewer points to the track (AD-14)."""
        p = _parse_seat(player, self.s.num_players, "player")
        return self.s.boards[p].score, -track_loss_c(&self.game.g, &self.s.boards[p])

    def winners(self):
        keys = [self.finishing_key(p) for p in range(self.s.num_players)]
        return [p for p in range(self.s.num_players) if keys[p] == max(keys)]

    def final_breakdown(self, player):
        """§8: the final scoring of a seat as it stands: leftover pieces, broken glass, board side."""
        cdef int leftover, track, side
        p = _parse_seat(player, self.s.num_players, "player")
        final_scoring_c(&self.game.g, &self.s, p, &leftover, &track, &side)
        return {"leftover": leftover, "broken glass": track, f"side {self.game.side}": side}

    def estimated_scores(self):
        """The score with the final scoring as it stands now (a cut-off evaluation)."""
        if self.s.phase == AZ_PHASE_OVER:
            return [float(x) for x in self.scores()]
        return [float(self.s.boards[p].score + sum(self.final_breakdown(p).values()))
                for p in range(self.s.num_players)]
