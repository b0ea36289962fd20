"""Venice 2099's search prior (readable form): the heuristic playout's move preference, as the seat sees it.

The heuristic playout (`_core.heuristic_action_c`) reads the world being played out: every card in a hand
will sink its district, so a square is worth its numeral if its district survives, 0 if it will sink. A
prior is asked for at a tree node of the searching seat, whose hidden part (the other hands) is one
sample; reading that sample would make the node's prior a coin toss of the first world that reached it.
So the prior reads only what the seat knows (§9): `sink_chances` gives each district the chance its
card is in a hand, 1 for the seat's own cards, and for an unseen card the hand sizes of the opponents
that may hold it (ranked at least their last play, §10.3) over the unseen cards they may hold, summed
over those opponents and capped at 1 (exact with 2 players, where the one opponent's hand is a uniform
draw from those cards; with more the opponents share the cards and the sum is an estimate).

`action_value` is then the playout's preference with worths weighted by survival:

- a square (`square_worth`): a district's worth (its numeral, an X `X_WORTH`) times its chance to
  survive; a platform `PLATFORM_WORTH` (safe, no points);
- PLACE and RESCUE: the square's worth (declining a rescue `DECLINE_VALUE`);
- MOVE: the worth gained by the figure moved (a gondola move less `GONDOLA_COST`); passing 0;
- BUY: the token's expected worth (§7's V at the colour's expected surviving districts, interpolated
  between whole counts, V(0) = 0) less its price (a coin is a point); passing 0.

`prior` is the softmax of `action_value / PRIOR_TEMPERATURE` over the legal actions of the seat to
decide (the rescue's owner in a rescue); None for a card (the lowest rank is forced, and which of
equal cards sinks is not something the preference reads), for another seat, and with no moves.
`_core.prior_c` is the same arithmetic in C (tests/games/venice_2099/test_prior.py holds them together).
Measured in docs/strength.md (Venice 2099, "The search prior").
"""

from __future__ import annotations

from typing import Sequence

from burano_ai.core.priors import softmax_prior
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import NUM_DISTRICTS, NUMERIC_VALUES, X_INDEX, token_value
from burano_ai.games.venice_2099.rules import (
    BUY0, DECLINE_RESCUE, GONDOLA0, MOVE0, PASS_BUY, PASS_MOVE, PHASE_BUY, PHASE_MOVE, PHASE_PLACE,
    PHASE_RESCUE, PLACE0, PLATFORM, RESCUE0,
)

#: The worth of standing on a platform (safe, no points) and of an X district (the heuristic playout's).
PLATFORM_WORTH = 0.5
X_WORTH = 10.0
#: A gondola move's cost in points (the value of the card it spends, as the playout counts it).
GONDOLA_COST = 3.0
#: Declining a rescue: below any square.
DECLINE_VALUE = -1.0
#: The softmax temperature of the prior (points of `action_value`).
PRIOR_TEMPERATURE = 1.0


def sink_chances(state, seat: int) -> list[float]:
    """Per district: the chance, as `seat` sees it, that a card in a hand will sink it (the module docstring)."""
    chance = [0.0] * NUM_DISTRICTS
    for k in state.hands[seat]:
        chance[rules.card_district(k, state.options)] = 1.0
    known = set(state.hands[seat]) | {k for _, k in state.played}
    unseen = [k for k in state.deck() if k not in known]
    for o in range(state.num_players):
        held = len(state.hands[o])
        if o == seat or held == 0:
            continue
        bound = state.bound(o)
        eligible = [k for k in unseen if rules.card_vi(k, state.options) >= bound]
        for k in eligible:
            chance[rules.card_district(k, state.options)] += held / len(eligible)
    return [min(c, 1.0) for c in chance]


def square_worth(state, s: int, chance: Sequence[float]) -> float:
    """The worth of standing on square s: a district's worth times its chance to survive; a platform's."""
    t = state.tiles[s]
    if t >= PLATFORM:
        return PLATFORM_WORTH
    worth = X_WORTH if rules.district_vi(t) == X_INDEX else float(NUMERIC_VALUES[rules.district_vi(t)])
    return worth * (1.0 - chance[t])


def token_worth(surviving: float) -> float:
    """§7's V at an expected count of surviving districts, interpolated between whole counts (V(0) = 0)."""
    low = int(surviving)
    frac = surviving - low
    v_low = float(token_value(low)) if low else 0.0
    return v_low if frac == 0.0 else v_low * (1.0 - frac) + frac * token_value(low + 1)


def action_value(state, player: int, action: int, chance: Sequence[float]) -> float:
    """The preference of `player` (the seat to decide) for `action` (the module docstring)."""
    if state.phase == PHASE_PLACE:
        return square_worth(state, action - PLACE0, chance)
    if state.phase == PHASE_RESCUE:
        return DECLINE_VALUE if action == DECLINE_RESCUE else square_worth(state, action - RESCUE0, chance)
    if state.phase == PHASE_MOVE:
        if action == PASS_MOVE:
            return 0.0
        base, cost = (MOVE0, 0.0) if action < GONDOLA0 else (GONDOLA0, GONDOLA_COST)
        f, to = divmod(action - base, 64)
        return square_worth(state, to, chance) - square_worth(state, state.figures[player][f], chance) - cost
    if action == PASS_BUY:                                         # PHASE_BUY
        return 0.0
    s = state.figures[player][action - BUY0]
    colour = rules.district_colour(state.tiles[s])
    surviving = sum(1.0 - chance[state.tiles[q]] for q in range(state.n * state.n)
                    if state.is_land(q) and rules.district_colour(state.tiles[q]) == colour)
    return token_worth(surviving) - (state.coins_on[s] + 1.0)


def prior(state, player: int, legal: Sequence[int]) -> dict[int, float] | None:
    """The softmax of `action_value / PRIOR_TEMPERATURE` over `legal` for the seat to decide in a place,
    move, buy or rescue; None elsewhere (a card, another seat, no moves)."""
    if state.phase not in (PHASE_PLACE, PHASE_MOVE, PHASE_BUY, PHASE_RESCUE) or player != state.to_move() \
            or not legal:
        return None
    chance = sink_chances(state, player)
    return softmax_prior(legal, [action_value(state, player, a, chance) for a in legal], PRIOR_TEMPERATURE)

