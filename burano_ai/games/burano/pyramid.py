"""A prior over pyramid colours: which colour a seat puts on its next pyramid position.

Positions fill in the fixed order b1..b9 (base), m1..m4 (middle), top [RD-19]; cubes are taken from the
top down, so the upper five positions hold the colours a seat can build first in the season and the
base holds the ones it takes last (or keeps). The prior is a simple template, one weight per colour:

* every colour the seat still holds: weight 1;
* upper position (middle or top): + `ACTION_BONUS` of the action that the colour's marker shows
  (fishing and lace move workers and score; earning pays best later, with more coins visible), and
  + `ROOF_BONUS` for each of the seat's roof tiles showing that colour (cubes to lay roofs on);
* base position: + `LACE_KEEP_BONUS` if one of the seat's lace workers stands on a square of that
  colour (lace scoring pays with a pyramid cube of the square's colour, covered or not, §8.2).

It is Burano's `State.prior` (`heuristics.prior`; in C for the native search, `_ops.pxi`): the
progressive bias of the searching seat's own pyramid decisions and the model of how the other seats
build theirs in secret. The features are public and constant through a pyramid stage except the
position, which moves on by one with every cube. The weights read public things only (markers, roof tiles, lace
workers, the number of cubes placed): from the reference State's fields when present, else from
`to_dict()` (slower: the compiled State keeps these in C), else the prior is uniform.
"""

from __future__ import annotations

from burano_ai.games.burano import actions
from burano_ai.games.burano.data.colours import COLOURS, NUM_COLOURS
from burano_ai.games.burano.data.roofs import ROOF_PAIRS
from burano_ai.games.burano.data.turn import ACTIONS, EARNING, FISHING, LACE

#: Weight added on the upper positions for the action a colour triggers.
ACTION_BONUS = {FISHING: 1.0, LACE: 1.0, EARNING: 0.5}
#: Weight added on the upper positions per roof tile of the seat that shows the colour.
ROOF_BONUS = 0.5
#: Weight added on the base positions when a lace worker of the seat stands on that colour.
LACE_KEEP_BONUS = 1.0
#: Index of the first upper (middle) position.
FIRST_UPPER = 9


class Features:
    """The public facts the prior reads for one seat: next position, action per colour, roofs, lace."""

    __slots__ = ("position", "markers", "roof", "lace")

    def __init__(self, position: int, markers: list[int], roof: list[int], lace: list[int]) -> None:
        self.position = position
        self.markers = markers
        self.roof = roof
        self.lace = lace


def _features_from_fields(state, player: int) -> Features:
    roof = [0] * NUM_COLOURS
    for tile in state.players[player].roof_slots:
        if tile is not None:
            for c in set(ROOF_PAIRS[tile[1]]):
                roof[c] += 1
    lace = [0] * NUM_COLOURS
    colours = state.layout.colour
    for sq, occupant in enumerate(state.workshop):
        if occupant == player and colours[sq] >= 0:
            lace[colours[sq]] += 1
    return Features(state.pyramid_count(player), list(state.markers), roof, lace)


def _features_from_dict(state, player: int) -> Features:
    from burano_ai.games.burano import topology
    d = state.to_dict()
    seat = d["seats"][player]
    markers = [0] * NUM_COLOURS
    for action, name in enumerate(ACTIONS):
        for c in d["markers"][name]:
            markers[COLOURS.index(c)] = action
    roof = [0] * NUM_COLOURS
    for tile in seat["roof_slots"]:
        if tile is not None:
            for c in set(tile["fields"]):
                roof[COLOURS.index(c)] += 1
    layout = getattr(getattr(state, "game", None), "layout", None) \
        or topology.build_workshop_layout(tuple(d["workshop_layout"]))
    lace = [0] * NUM_COLOURS
    for name in seat["workshop"]:
        c = layout.colour[topology.parse_square(name)]
        if c >= 0:
            lace[c] += 1
    position = sum(1 for c in seat["pyramid"] if c is not None)
    return Features(position, markers, roof, lace)


def public_features(state, player: int) -> Features | None:
    """The prior's inputs for `player`, or None if this State exposes them neither way."""
    try:
        return _features_from_fields(state, player)
    except (AttributeError, TypeError):
        pass
    try:
        return _features_from_dict(state, player)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError):
        return None


def colour_prior(state, player: int, legal: list[int], features: Features | None = None) -> dict[int, float]:
    """Prior probability of each legal PYRAMID action of `player` (who must be the one to move)."""
    if features is None:
        features = public_features(state, player)
    weights = {}
    for action in legal:
        w = 1.0
        if features is not None:
            c = action - actions.PYRAMID
            if features.position >= FIRST_UPPER:
                w += ACTION_BONUS.get(features.markers[c], 0.0) + ROOF_BONUS * features.roof[c]
            elif features.lace[c]:
                w += LACE_KEEP_BONUS
        weights[action] = w
    total = sum(weights.values())
    return {a: w / total for a, w in weights.items()}
