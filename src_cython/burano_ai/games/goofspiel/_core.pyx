"""The compiled Goofspiel core: positions as a C struct, the rules in `nogil` C, and the C game interface.

A port of the reference model (`burano_ai.games.goofspiel.reference`), held against it move for move
by tests/test_goofspiel_core.py: the same legal actions, chance outcomes and probabilities, Zobrist
keys (the cells of `rules.zobrist`, copied into C tables at import), information-set keys, resamples
(the same SplitMix64 draws) and returns. A position is a fixed-size `GsStateC` (`_core.pxd`): hands,
prizes won and prizes left are 16-bit masks in 32-bit words, so a copy is one struct assignment.

`GOOFSPIEL_OPS` is the game's `GameOpsC` (burano_ai/core/_game.pxd): static `noexcept nogil` wrappers
around the hot functions below. `State` extends `NativeState` and points `ops`, `game_ptr` and
`state_ptr` at them, so the native search can run Goofspiel without cimporting it. `num_actions` in the
ops is `GS_MAX_CARDS` (16), the bound for every configuration; a game uses the ids 0..num_cards-1.

The heuristic playout policy bids near the prize's value: card c with weight 1 / (1 + |c - prize|),
the game's `prior` (`rules.bid_weight`). JSON, rendering and the view's rules are the pure-Python
`position` and `render` modules; the core never imports the reference model.
"""

cimport cython
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memcpy

from burano_ai._build cimport BURANO_DEBUG_BUILD
from burano_ai._rng cimport Rng, rng_seed, rng_below, rng_uniform
from burano_ai.core._game cimport (
    DECISION_OPEN, DECISION_SECRET, GAME_ABI_VERSION, NO_TURN, OPS_CHANCE_PLAYER, OPS_PLAYOUT_CAPPED,
    OPS_PLAYOUT_DEAD_END, OPS_POLICY_HEURISTIC, OPS_TERMINAL_PLAYER, GameOpsC, NativeState,
)

import json

from burano_ai.core.arguments import check_index as _check_index, check_indent as _check_indent
from burano_ai.core.arguments import check_instance as _check_instance
from burano_ai.core.game import check_prior_arguments as _check_prior_arguments
from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.seats import parse_seat as _parse_seat
from burano_ai.core.seeds import check_seed as _check_seed
import burano_ai.games.goofspiel.rules as _rules
from burano_ai.games.goofspiel.position import Position as _Position
from burano_ai.games.goofspiel.position import position_from_json as _position_from_json
from burano_ai.games.goofspiel.position import position_to_dict as _position_to_dict
from burano_ai.games.goofspiel.render import render as _render

cdef extern from *:
    """
    #define GS_CTZ(x) __builtin_ctz(x)
    #define GS_CLZ(x) __builtin_clz(x)
    #define GS_POPCOUNT(x) __builtin_popcount(x)
    """
    int GS_CTZ(uint32_t x) noexcept nogil
    int GS_CLZ(uint32_t x) noexcept nogil
    int GS_POPCOUNT(uint32_t x) noexcept nogil


if GS_MAX_PLAYERS != _rules.MAX_PLAYERS or GS_MAX_CARDS != _rules.MAX_CARDS or GS_TURN_STRIDE != _rules.TURN_STRIDE:
    raise ImportError("goofspiel _core.pxd sizes differ from burano_ai.games.goofspiel.rules")
if (GS_PHASE_CHANCE, GS_PHASE_BID, GS_PHASE_OVER) != (_rules.PHASE_CHANCE, _rules.PHASE_BID, _rules.PHASE_OVER):
    raise ImportError("goofspiel _core.pxd phases differ from burano_ai.games.goofspiel.rules")

_U64 = 0xFFFF_FFFF_FFFF_FFFF
CHANCE = OPS_CHANCE_PLAYER
TERMINAL = OPS_TERMINAL_PLAYER
POLICIES = ("random", "heuristic")


# ================================================================================================
# Zobrist tables (rules.zobrist, copied once)
# ================================================================================================

cdef uint64_t Z_HAND[GS_MAX_PLAYERS][GS_MAX_CARDS + 1]
cdef uint64_t Z_WON[GS_MAX_PLAYERS][GS_MAX_CARDS + 1]
cdef uint64_t Z_BID[GS_MAX_PLAYERS][GS_MAX_CARDS + 1]
cdef uint64_t Z_LEFT[GS_MAX_CARDS + 1]
cdef uint64_t Z_PRIZE[GS_MAX_CARDS + 1]
cdef uint64_t Z_HIDDEN_BID[GS_MAX_PLAYERS]
cdef uint64_t Z_VIEWER[GS_MAX_PLAYERS]


cdef void _init_zobrist() except *:
    cdef int p, c
    z = _rules.zobrist
    for c in range(GS_MAX_CARDS + 1):
        Z_LEFT[c] = z(_rules.Z_LEFT, c)
        Z_PRIZE[c] = z(_rules.Z_PRIZE, c)
        for p in range(GS_MAX_PLAYERS):
            Z_HAND[p][c] = z(_rules.Z_HAND, p, c)
            Z_WON[p][c] = z(_rules.Z_WON, p, c)
            Z_BID[p][c] = z(_rules.Z_BID, p, c)
    for p in range(GS_MAX_PLAYERS):
        Z_HIDDEN_BID[p] = z(_rules.Z_HIDDEN_BID, p)
        Z_VIEWER[p] = z(_rules.Z_VIEWER, p)


_init_zobrist()


# ================================================================================================
# The rules in C
# ================================================================================================

cdef inline uint32_t card_bit(int card) noexcept nogil:
    return (<uint32_t>1) << (card - 1)


cdef inline int kth_card(uint32_t mask, int k) noexcept nogil:
    """The card of the k-th set bit (0-based, from the lowest) of `mask`."""
    cdef int i
    for i in range(k):
        mask &= mask - 1
    return GS_CTZ(mask) + 1


cdef int current_player_c(const GsStateC* s) noexcept nogil:
    if s.phase == GS_PHASE_OVER:
        return OPS_TERMINAL_PLAYER
    if s.phase == GS_PHASE_CHANCE:
        return OPS_CHANCE_PLAYER
    return s.bidder


cdef int legal_actions_c(const GsGameC* g, const GsStateC* s, int* out) noexcept nogil:
    """The bidder's cards as action ids (card - 1), increasing; 0 at chance or the end."""
    cdef int n = 0
    cdef uint32_t mask
    if s.phase != GS_PHASE_BID:
        return 0
    mask = s.hands[s.bidder]
    while mask:
        out[n] = GS_CTZ(mask)
        n += 1
        mask &= mask - 1
    return n


cdef int chance_outcomes_c(const GsGameC* g, const GsStateC* s, int* actions, double* probs) noexcept nogil:
    """The prizes left as outcome ids, increasing, each with probability 1/k; 0 off chance nodes."""
    cdef int n = 0, i
    cdef uint32_t mask
    cdef double p
    if s.phase != GS_PHASE_CHANCE:
        return 0
    mask = s.prizes_left
    p = 1.0 / GS_POPCOUNT(mask) if mask else 0.0
    while mask:
        actions[n] = GS_CTZ(mask)
        probs[n] = p
        n += 1
        mask &= mask - 1
    return n


cdef int sample_chance_c(const GsGameC* g, const GsStateC* s, Rng* rng) noexcept nogil:
    """A prize left drawn uniformly (its outcome id), or -1 when this is no chance node with a prize."""
    cdef int k
    if s.phase != GS_PHASE_CHANCE or s.prizes_left == 0:
        return -1
    k = <int>rng_below(rng, <uint32_t>GS_POPCOUNT(s.prizes_left))
    return kth_card(s.prizes_left, k) - 1


cdef inline void reveal_prize(GsStateC* s, int card) noexcept nogil:
    s.prizes_left &= ~card_bit(card)
    s.key ^= Z_LEFT[card] ^ Z_PRIZE[card]
    s.prize = <int8_t>card
    s.phase = GS_PHASE_BID
    s.bidder = 0


cdef inline void set_bid(GsStateC* s, int p, int card) noexcept nogil:
    """Replace seat p's bid (0 = none) by `card` (0 = none), keeping the key."""
    if s.bids[p]:
        s.key ^= Z_BID[p][s.bids[p]]
    s.bids[p] = <int8_t>card
    if card:
        s.key ^= Z_BID[p][card]


cdef void resolve_c(const GsGameC* g, GsStateC* s) noexcept nogil:
    """The single highest bid takes the prize (a tied highest bid: nobody); the bids leave the hands."""
    cdef int p, best = 0, count = 0, winner = -1, card
    for p in range(g.num_players):
        if s.bids[p] > best:
            best = s.bids[p]
            count = 1
            winner = p
        elif s.bids[p] == best:
            count += 1
    if count == 1:
        s.won[winner] |= card_bit(s.prize)
        s.points[winner] += s.prize
        s.key ^= Z_WON[winner][s.prize]
    for p in range(g.num_players):
        card = s.bids[p]
        s.hands[p] &= ~card_bit(card)
        s.key ^= Z_HAND[p][card]
        set_bid(s, p, 0)
    s.key ^= Z_PRIZE[s.prize]
    s.prize = 0
    s.round += 1
    s.bidder = -1


cdef void start_round_c(const GsGameC* g, GsStateC* s) noexcept nogil:
    """Reveal a fixed-order prize; play the last round by itself (one card left in every hand)."""
    cdef int p, left = GS_POPCOUNT(s.hands[0])
    if left == 0:
        s.phase = GS_PHASE_OVER
        s.bidder = -1
        return
    if left == 1:
        reveal_prize(s, GS_CTZ(s.prizes_left) + 1)
        for p in range(g.num_players):
            set_bid(s, p, GS_CTZ(s.hands[p]) + 1)
        resolve_c(g, s)
        s.phase = GS_PHASE_OVER
        return
    if g.points_order == GS_ORDER_RANDOM:
        s.phase = GS_PHASE_CHANCE
        s.bidder = -1
    elif g.points_order == GS_ORDER_DESCENDING:
        reveal_prize(s, 32 - GS_CLZ(s.prizes_left))
    else:
        reveal_prize(s, GS_CTZ(s.prizes_left) + 1)


cdef void apply_action_c(const GsGameC* g, GsStateC* s, int action) noexcept nogil:
    """Reveal prize action+1 (chance) or bid card action+1 (the bidder); unchecked."""
    if s.phase == GS_PHASE_CHANCE:
        reveal_prize(s, action + 1)
        return
    set_bid(s, s.bidder, action + 1)
    s.bidder += 1
    if s.bidder == g.num_players:
        resolve_c(g, s)
        start_round_c(g, s)


cdef uint64_t full_key_c(const GsGameC* g, const GsStateC* s) noexcept nogil:
    """The Zobrist key recomputed from the fields (equals the incremental `s.key`)."""
    cdef uint64_t k = 0
    cdef int p, c
    for p in range(g.num_players):
        for c in range(1, g.num_cards + 1):
            if s.hands[p] & card_bit(c):
                k ^= Z_HAND[p][c]
            if s.won[p] & card_bit(c):
                k ^= Z_WON[p][c]
        if s.bids[p]:
            k ^= Z_BID[p][s.bids[p]]
    for c in range(1, g.num_cards + 1):
        if s.prizes_left & card_bit(c):
            k ^= Z_LEFT[c]
    if s.prize:
        k ^= Z_PRIZE[s.prize]
    return k


cdef uint64_t info_key_c(const GsGameC* g, const GsStateC* s, int seat) noexcept nogil:
    """The key of what `seat` sees: the other seats' bids of this round only as "has bid"."""
    cdef uint64_t k = s.key ^ Z_VIEWER[seat]
    cdef int p
    for p in range(g.num_players):
        if p != seat and s.bids[p]:
            k ^= Z_BID[p][s.bids[p]] ^ Z_HIDDEN_BID[p]
    return k


cdef inline double bid_weight_c(int card, int prize) noexcept nogil:
    """rules.bid_weight: 1 / (1 + |card - prize|)."""
    cdef int d = card - prize
    if d < 0:
        d = -d
    return 1.0 / (1.0 + d)


cdef void resample_c(const GsGameC* g, GsStateC* s, int seat, Rng* rng) noexcept nogil:
    """Redraw each other seat's bid of this round from its hand by the prior, 1 / (1 + |card - prize|)
    (as the reference, same draws): the search samples an earlier seat's hidden bid by the same model it
    samples a later seat's secret bid by (the tree's `prior`). Drawn uniformly, the second bidder searched
    against a first bidder who bids at random and lost 90 % of the games between equal searches."""
    cdef int p, c, last
    cdef uint32_t mask
    cdef double total, u
    for p in range(g.num_players):
        if p != seat and s.bids[p]:
            total = 0.0
            mask = s.hands[p]
            while mask:
                total += bid_weight_c(GS_CTZ(mask) + 1, s.prize)
                mask &= mask - 1
            u = rng_uniform(rng) * total
            mask = s.hands[p]
            last = 0
            while mask:
                c = GS_CTZ(mask) + 1
                last = c
                u -= bid_weight_c(c, s.prize)
                if u < 0.0:
                    break
                mask &= mask - 1
            set_bid(s, p, last)


cdef int heuristic_bid_c(const GsStateC* s, Rng* rng) noexcept nogil:
    """A card of the bidder's hand drawn with weight 1 / (1 + |card - prize|) (the prior)."""
    cdef uint32_t mask = s.hands[s.bidder]
    cdef double total = 0.0, u
    cdef int c, last = 0
    while mask:
        c = GS_CTZ(mask) + 1
        total += bid_weight_c(c, s.prize)
        mask &= mask - 1
    u = rng_uniform(rng) * total
    mask = s.hands[s.bidder]
    while mask:
        c = GS_CTZ(mask) + 1
        last = c
        u -= bid_weight_c(c, s.prize)
        if u < 0.0:
            return c - 1
        mask &= mask - 1
    return last - 1


cdef int playout_c(const GsGameC* g, GsStateC* s, Rng* rng, int policy) noexcept nogil:
    """Play to the end in place; return the steps taken, or GS_PLAYOUT_CAPPED / GS_PLAYOUT_DEAD_END."""
    cdef int steps = 0, a, n
    while s.phase != GS_PHASE_OVER:
        if steps >= GS_STEP_LIMIT:
            return GS_PLAYOUT_CAPPED
        if s.phase == GS_PHASE_CHANCE:
            a = sample_chance_c(g, s, rng)
            if a < 0:
                return GS_PLAYOUT_DEAD_END
        else:
            n = GS_POPCOUNT(s.hands[s.bidder])
            if n == 0:
                return GS_PLAYOUT_DEAD_END
            if policy == GS_POLICY_HEURISTIC and s.prize:
                a = heuristic_bid_c(s, rng)
            else:
                a = kth_card(s.hands[s.bidder], <int>rng_below(rng, <uint32_t>n)) - 1
        apply_action_c(g, s, a)
        steps += 1
    return steps


cdef void outcome_c(const GsGameC* g, const GsStateC* s, double* scores, double* shares) noexcept nogil:
    """Points, and 1/k of the win for each of the k seats with the most points."""
    cdef int p, best = -1, count = 0
    for p in range(g.num_players):
        scores[p] = s.points[p]
        if s.points[p] > best:
            best = s.points[p]
            count = 1
        elif s.points[p] == best:
            count += 1
    for p in range(g.num_players):
        shares[p] = 1.0 / count if s.points[p] == best else 0.0


# ================================================================================================
# The C game interface (burano_ai/core/_game.pxd)
# ================================================================================================

# The wrappers every core shares (core/_ops_glue.pxi: ops_num_players .. ops_full_key and
# fill_common_ops), over this game's structs; its own wrappers follow.
ctypedef GsGameC CoreGameC
ctypedef GsStateC CoreStateC
cdef enum:
    CORE_PLAYOUT_CAPPED = GS_PLAYOUT_CAPPED
    CORE_PLAYOUT_DEAD_END = GS_PLAYOUT_DEAD_END
include "burano_ai/core/_ops_glue.pxi"
include "_encode.pxi"

cdef int ops_chance_kind(const void* game, const void* state) noexcept nogil:
    return 0                     # one kind of chance event: a prize reveal

cdef void ops_resample(const void* game, void* state, int seat, Rng* rng) noexcept nogil:
    resample_c(<const GsGameC*>game, <GsStateC*>state, seat, rng)

cdef int ops_rewind_secret(const void* game, void* state, int seat) noexcept nogil:
    """Take back the bids of this round made before `seat`'s (seats 0 .. seat - 1 bid in order), when `seat` is
    to bid: the round starts again from seat 0 (`GameOpsC.rewind_secret`; the reference's `rewind_secret`)."""
    cdef GsStateC* s = <GsStateC*>state
    cdef int p
    if s.phase != GS_PHASE_BID or s.bidder != seat or seat == 0:
        return 0
    for p in range(seat):
        set_bid(s, p, 0)
    s.bidder = 0
    return 1

cdef int ops_decision_mode(const void* game, const void* state) noexcept nogil:
    return DECISION_SECRET if (<const GsStateC*>state).phase == GS_PHASE_BID else DECISION_OPEN

cdef int ops_prior(const void* game, const void* state, int player, const int* legal, int n,
                   double* out) noexcept nogil:
    cdef const GsStateC* s = <const GsStateC*>state
    cdef double total = 0.0
    cdef int i
    if s.phase != GS_PHASE_BID or n <= 0:
        return 0
    for i in range(n):
        out[i] = bid_weight_c(legal[i] + 1, s.prize)
        total += out[i]
    for i in range(n):
        out[i] /= total
    return 1

cdef int64_t ops_turn_id(const void* game, const void* state) noexcept nogil:
    cdef const GsStateC* s = <const GsStateC*>state
    if s.phase != GS_PHASE_BID:
        return NO_TURN
    return <int64_t>s.round * GS_TURN_STRIDE + s.bidder

cdef uint64_t ops_info_key(const void* game, const void* state, int seat) noexcept nogil:
    return info_key_c(<const GsGameC*>game, <const GsStateC*>state, seat)


cdef int ops_consistent(const void* game, const void* state) noexcept nogil:
    return state_consistent(<const GsGameC*>game, <const GsStateC*>state)


cdef GameOpsC GOOFSPIEL_OPS
fill_common_ops(&GOOFSPIEL_OPS)
GOOFSPIEL_OPS.num_actions = GS_MAX_CARDS
GOOFSPIEL_OPS.max_legal = GS_MAX_CARDS
GOOFSPIEL_OPS.min_players = _rules.MIN_PLAYERS
GOOFSPIEL_OPS.max_players = GS_MAX_PLAYERS
GOOFSPIEL_OPS.chance_kind = ops_chance_kind
GOOFSPIEL_OPS.resample = ops_resample
GOOFSPIEL_OPS.rewind_secret = ops_rewind_secret
GOOFSPIEL_OPS.decision_mode = ops_decision_mode
GOOFSPIEL_OPS.prior = ops_prior
GOOFSPIEL_OPS.turn_id = ops_turn_id
GOOFSPIEL_OPS.info_key = ops_info_key
GOOFSPIEL_OPS.consistent = ops_consistent
GOOFSPIEL_OPS.name = b"goofspiel"
GOOFSPIEL_OPS.encoder_version = GS_ENCODER_VERSION
GOOFSPIEL_OPS.num_features = gs_num_features
GOOFSPIEL_OPS.encode = gs_encode


# ================================================================================================
# Debug checks
# ================================================================================================

cdef bint state_consistent(const GsGameC* g, const GsStateC* s) noexcept nogil:
    """Incremental key and points equal their recomputation; phase, bidder and round fit the fields."""
    cdef int p, c, pts, k = 0
    if s.key != full_key_c(g, s):
        return False
    for p in range(g.num_players):
        pts = 0
        for c in range(1, g.num_cards + 1):
            if s.won[p] & card_bit(c):
                pts += c
        if pts != s.points[p]:
            return False
    if s.round != g.num_cards - GS_POPCOUNT(s.hands[0]) or s.num_players != g.num_players:
        return False
    if s.phase == GS_PHASE_OVER:
        return s.hands[0] == 0 and s.bidder == -1
    if s.phase == GS_PHASE_CHANCE:
        return s.prize == 0 and s.bidder == -1
    while k < g.num_players and s.bids[k]:
        k += 1
    return s.phase == GS_PHASE_BID and s.prize != 0 and s.bidder == k and k < g.num_players


# ================================================================================================
# Python API: Game and State (the reference's)
# ================================================================================================

cdef class Game:
    """Rules and metadata of one Goofspiel configuration (the reference `Game`'s API, compiled states).

    Args:
        num_players: 2..5. num_cards: 2..16 (default 13).
        points_order: "random", "descending" or "ascending".
    """

    def __init__(self, num_players=_rules.DEFAULT_PLAYERS, num_cards=_rules.DEFAULT_CARDS, points_order="random"):
        _rules.check_config(num_players, num_cards, points_order)
        self.num_players = num_players
        self.num_cards = num_cards
        self.points_order = points_order
        self.g.num_players = num_players
        self.g.num_cards = num_cards
        self.g.points_order = _rules.POINTS_ORDERS.index(points_order)

    def __repr__(self):
        return f"Game(num_players={self.num_players}, num_cards={self.num_cards}, points_order={self.points_order!r})"

    def __eq__(self, other):
        return isinstance(other, Game) and self.config() == other.config()

    def __hash__(self):
        return hash(self.config())

    def __reduce__(self):
        return (Game, self.config())

    def config(self):
        """(num_players, num_cards, points_order)."""
        return self.num_players, self.num_cards, self.points_order

    def num_distinct_actions(self):
        return self.num_cards

    def max_chance_outcomes(self):
        return self.num_cards

    def max_game_length(self):
        """Most actions in a game: a prize and a bid per seat for each round but the last."""
        return (self.num_cards - 1) * (self.num_players + (1 if self.points_order == "random" else 0))

    def new_initial_state(self, seed=0):
        """The starting position (no seeded setup: `seed` is accepted and unused; TypeError if not an int)."""
        _check_seed(seed)
        cdef State st = State(self)
        start_round_c(&self.g, &st.s)
        return st

    def state_from_position(self, position):
        """A State of this game holding `position` (a `burano_ai.games.goofspiel.position.Position`)."""
        return State.from_position(position, self)

    def state_from_json(self, text):
        """Load a position (full, or one seat's view); PositionError naming the field if it is wrong."""
        return State.from_position(_position_from_json(text, expect=self.config()), self)


cdef class State(NativeState):
    """A Goofspiel position in a C struct, with the reference `State`'s API and the C game interface
    (the game-independent part of the API is `NativeState`'s)."""

    def __init__(self, Game game):
        """The position before the first round starts (use `Game.new_initial_state`)."""
        cdef int p
        cdef uint32_t cards = (<uint32_t>1 << game.num_cards) - 1
        self.bind(game)
        self.s.num_players = game.num_players
        for p in range(game.num_players):
            self.s.hands[p] = cards
        self.s.prizes_left = cards
        self.s.bidder = -1
        self.s.phase = GS_PHASE_CHANCE
        self.s.key = full_key_c(&game.g, &self.s)

    cdef void bind(self, object game) except *:
        self.game = <Game?>game
        self.ops = &GOOFSPIEL_OPS
        self.game_ptr = &self.game.g
        self.state_ptr = &self.s

    # --- conversions

    @staticmethod
    def from_position(ref, Game game=None):
        """Build from a `Position` (or any object with its fields, such as a reference State)."""
        cdef State st
        cdef int p
        _check_instance(ref, _Position, "a Goofspiel position")
        if game is None:
            game = Game(ref.num_players, ref.num_cards, ref.points_order)
        elif (ref.num_players, ref.num_cards, ref.points_order) != game.config():
            raise PositionError("the position does not belong to this game (players, num_cards or points_order)")
        st = State.__new__(State)
        st.bind(game)
        st.s.num_players = game.num_players
        for p in range(game.num_players):
            st.s.hands[p] = 0
            for c in ref.hands[p]:
                st.s.hands[p] |= card_bit(c)
            st.s.won[p] = 0
            st.s.points[p] = 0
            for c in ref.won[p]:
                st.s.won[p] |= card_bit(c)
                st.s.points[p] += c
            st.s.bids[p] = ref.bids[p]
        st.s.prizes_left = 0
        for c in ref.prizes_left:
            st.s.prizes_left |= card_bit(c)
        st.s.prize = ref.prize
        st.s.round = ref.round
        st.s.phase = ref.phase
        st.s.bidder = ref.bidder
        st.s.key = full_key_c(&game.g, &st.s)
        return st

    def to_position(self):
        """The fields as a `burano_ai.games.goofspiel.position.Position`."""
        pos = _Position(self.game.num_players, self.game.num_cards, self.game.points_order)
        pos.hands = self.hands
        pos.prizes_left = self.prizes_left
        pos.prize = self.s.prize
        pos.bids = self.bids
        pos.won = self.won
        return pos

    def to_dict(self, seat=None):
        """The position as a JSON-ready dict, full or as `seat` sees it (the other seats' bids of this
        round as "?"; `position.position_to_dict`)."""
        if seat is not None:
            seat = _parse_seat(seat, self.s.num_players)
        return _position_to_dict(self.to_position(), seat)

    def __str__(self):
        return _render(self.to_dict())

    def __repr__(self):
        return f"<goofspiel State round {self.s.round} {_rules.PHASE_NAMES[self.s.phase]} key {self.s.key:016x}>"

    # --- fields

    @property
    def num_cards(self):
        return self.game.num_cards

    @property
    def points_order(self):
        return self.game.points_order

    @property
    def round(self):
        return self.s.round

    @property
    def phase(self):
        return self.s.phase

    @property
    def bidder(self):
        return self.s.bidder

    @property
    def prize(self):
        return self.s.prize

    @property
    def hands(self):
        return [mask_to_cards(self.s.hands[p]) for p in range(self.s.num_players)]

    @property
    def won(self):
        return [mask_to_cards(self.s.won[p]) for p in range(self.s.num_players)]

    @property
    def bids(self):
        return [self.s.bids[p] for p in range(self.s.num_players)]

    @property
    def prizes_left(self):
        return mask_to_cards(self.s.prizes_left)

    @property
    def points(self):
        return [self.s.points[p] for p in range(self.s.num_players)]

    @property
    def chance_kind(self):
        """The kind of the pending chance event: always 0, the prize reveal (`rules.CHANCE_KIND_NAMES`)."""
        return 0

    def chance_kind_name(self, kind=None):
        """The label of a chance kind ("prize"; default: the pending one)."""
        names = _rules.CHANCE_KIND_NAMES
        return names[0 if kind is None else _check_index(kind, len(names), "chance kind")]

    def phase_name(self):
        """The label of the pending phase: "chance", "bid" or "over"."""
        return _rules.PHASE_NAMES[self.s.phase]

    # --- move texts

    cdef object illegal_error(self, action, text):
        return _rules.illegal_move_error(action, text, self.s.phase, self._where(), self.offered_ids())

    def action_to_string(self, action):
        """"prize N" at a chance node, "bid N" otherwise (TypeError if `action` is not an int)."""
        return _rules.action_to_str(action, self.s.phase == GS_PHASE_CHANCE)

    def string_to_action(self, text):
        """The action id of "bid N" or "prize N" (the kind must fit the node: a prize only at chance)."""
        kind, action = _rules.parse_action(text, self.game.num_cards)
        want = "prize" if self.s.phase == GS_PHASE_CHANCE else "bid"
        if kind != want:
            raise IllegalMoveError(f"illegal move {text.strip()!r} {self._where()}: expected '{want} N'")
        return action

    def _where(self):
        return _rules.where(self.s.phase, self.s.round, self.s.bidder, self.s.prize)

    # --- outcome

    def scores(self):
        """Each seat's points (final once the game is over)."""
        return self.points

    def finishing_key(self, player):
        """The order of finish: the more points the better (equal keys share the place)."""
        return (self.s.points[_parse_seat(player, self.s.num_players, "player")],)

    def winners(self):
        """Seats sharing the win: most points."""
        best = max(self.points)
        return [p for p in range(self.s.num_players) if self.s.points[p] == best]

    def estimated_scores(self):
        """Points plus a fair share (1/n) of the prizes still unresolved (current prize included)."""
        left = sum(mask_to_cards(self.s.prizes_left)) + self.s.prize
        return [self.s.points[p] + left / self.s.num_players for p in range(self.s.num_players)]


cdef list mask_to_cards(uint32_t mask):
    cdef list out = []
    while mask:
        out.append(GS_CTZ(mask) + 1)
        mask &= mask - 1
    return out
