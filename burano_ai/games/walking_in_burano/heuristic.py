"""Walking in Burano's cheap move preference, and the search prior made of it (readable form).

`action_value` is the heuristic playout's preference (`_core.action_value_c`, the same arithmetic) of a
decision for the seat to move:

- a take (ACQUIRE): per card taken, how well it fits the street (`fit_value`: 1 on an existing house
  without breaking a soft rule, 0.5 as a clean new house, 0.1 otherwise), plus `SHORT_TAKE_BONUS` per
  card short of three (the coins a short take brings), minus `OVER_HAND_COST` per card over the hand limit;
  taking nothing (the market is empty) is worth 0;
- a placement (PLACE): 1 minus `COST_WEIGHT` per coin it costs, minus `SOFT_RULE_COST` when it breaks a
  soft rule (a token), plus `FINISH_BONUS` when it finishes its house (two real cards there already) or
  `GROW_BONUS` on another existing house; a level-2 or level-3 card opening a new house (on scaffolds)
  loses `SCAFFOLD_COST`; ending the build is worth `END_BUILD_VALUE`;
- a character (VISIT): its points under the house (§11.2), plus `INHABITANT_BONUS` for an inhabitant
  (it also blocks the type for the seat, but scores for the whole street at the end);
- a return: 0 (the playout returns at random).

`prior` turns it into a search prior: a softmax of `action_value / PRIOR_TEMPERATURE` over the legal
takes, placements and visits of the seat to move; no prior for returns (the preference says nothing
about them) or for a seat not to move. The compiled core computes the same (`_core.prior_c`,
`State.move_prior`).

**Off by default** (`SEARCH_PRIOR`): measured at equal iterations, the searcher's progressive bias with
this prior won exactly half of 200 games against the same search without it (docs/strength.md, Walking in
Burano), so `State.prior` and the C interface's `prior` give none, as before. With `SEARCH_PRIOR = True`
(set before the compiled core is imported: it reads the flag once) both give this prior, the searcher
orders its own seat's decisions by it, and the bot key `pyramid_bias` weighs it (0 turns it off again).
"""

from __future__ import annotations

from typing import Sequence

from burano_ai.core.priors import softmax_prior
from burano_ai.games.walking_in_burano import rules, scoring
from burano_ai.games.walking_in_burano.data import CARDS_PER_ACQUIRE, HAND_LIMIT, IS_TOURIST, card_level
from burano_ai.games.walking_in_burano.rules import (
    ACQUIRE_NONE, CHARACTER0, END_BUILD, MAX_HOUSES, NUM_TARGETS, PHASE_ACQUIRE, PHASE_BUILD, PHASE_VISIT,
)

#: `fit_value` of a card with no clean target.
NO_FIT = 0.1
#: `fit_value` of a card that can only open a clean new house.
NEW_HOUSE_FIT = 0.5
SHORT_TAKE_BONUS = 0.6
OVER_HAND_COST = 0.5
COST_WEIGHT = 0.25
SOFT_RULE_COST = 2.5
FINISH_BONUS = 2.0
GROW_BONUS = 0.5
SCAFFOLD_COST = 0.3
END_BUILD_VALUE = 0.3
INHABITANT_BONUS = 1.5
#: The softmax temperature of the prior (units of `action_value`).
PRIOR_TEMPERATURE = 1.0
#: Whether `State.prior` (and the C interface's `prior`) offer the prior to the search: off, measured (see above).
SEARCH_PRIOR = False


def fit_value(state, p: int, card: int) -> float:
    """How well `card` fits seat `p`'s street: 1 on an existing house without breaking a soft rule,
    `NEW_HOUSE_FIT` as a clean new house, `NO_FIT` otherwise (the placement's cost is not asked)."""
    best = NO_FIT
    for t in range(NUM_TARGETS):
        if not state.target_ok(p, card, t) or state.breaks_soft_rule(p, card, t):
            continue
        if t < MAX_HOUSES:
            return 1.0
        best = NEW_HOUSE_FIT
    return best


def action_value(state, action: int) -> float:
    """The preference of the seat to move for `action` in the reference `state` (see the module docstring)."""
    p = state.to_move
    seat = state.seats[p]
    if state.phase == PHASE_ACQUIRE:
        if action == ACQUIRE_NONE:
            return 0.0
        column, lo, hi = rules.decode_acquire(action)
        v, n = 0.0, 0
        for level in range(lo, hi + 1):
            card = state.market[level - 1][column]
            if card >= 0:
                v += fit_value(state, p, card)
                n += 1
        v += SHORT_TAKE_BONUS * (CARDS_PER_ACQUIRE - n)
        over = len(seat.hand) + n - HAND_LIMIT
        if over > 0:
            v -= OVER_HAND_COST * over
        return v
    if state.phase == PHASE_BUILD:
        if action == END_BUILD:
            return END_BUILD_VALUE
        card, t = rules.decode_place(action)
        v = 1.0 - COST_WEIGHT * state.place_cost()
        if state.breaks_soft_rule(p, card, t):
            v -= SOFT_RULE_COST
        if t < MAX_HOUSES:
            v += FINISH_BONUS if len(seat.street[t].real_cards()) == 2 else GROW_BONUS
        elif card_level(card) > 1:
            v -= SCAFFOLD_COST
        return v
    if state.phase == PHASE_VISIT:
        kind = action - CHARACTER0
        points = scoring.character_vp(state.data, seat, state.pending_house(), kind, state.options.boy_scoring)
        return float(points) if IS_TOURIST[kind] else points + INHABITANT_BONUS
    return 0.0


def prior(state, player: int, legal: Sequence[int]) -> dict[int, float] | None:
    """The softmax of `action_value / PRIOR_TEMPERATURE` over `legal` for the seat to move in a take,
    build or visit; None elsewhere (returns, another seat, no moves). Whatever `SEARCH_PRIOR` says."""
    if state.phase not in (PHASE_ACQUIRE, PHASE_BUILD, PHASE_VISIT) or player != state.to_move or not legal:
        return None
    return softmax_prior(legal, [action_value(state, a) for a in legal], PRIOR_TEMPERATURE)
