"""The shared vocabulary: player ids, phases, stages, chance kinds and seat names, defined once.

Both rules implementations and Burano's position format speak these names. `CHANCE`, `TERMINAL`
and the seat syntax are the framework's (`burano_ai.core.seats`), re-exported here for Burano's own
modules; the rest is Burano's. The integer values are part of the position format's compiled twin
(``src_cython/burano_ai/games/burano/_types.pxd`` repeats them for C, and ``burano_ai.games.burano._core`` checks at import that
the two agree).
"""

from __future__ import annotations

from enum import IntEnum

from burano_ai.core.seats import SEAT_LETTERS as _FRAMEWORK_SEATS
from burano_ai.core.seats import CHANCE, TERMINAL, parse_seat, seat_letter  # noqa: F401 (re-exported)
from burano_ai.games.burano.data.colours import MAX_PLAYERS, SEAT_LETTERS

#: An empty slot, cell or square (no cube, no roof, no colour, no island).
EMPTY = -1
#: No seat (an unoccupied workshop square, no actor).
NO_PLAYER = -1


class _Named(IntEnum):
    """An IntEnum whose members also carry the lower-case name the position format uses."""

    @property
    def label(self) -> str:
        """The member's name in position JSON, e.g. ``Phase.ROOF_PICK.label == "roof-pick"``."""
        return _LABELS[type(self)][self]

    @classmethod
    def labels(cls) -> tuple[str, ...]:
        """Every member's label, in value order (index = value)."""
        return _LABELS[cls]


class Phase(_Named):
    """What kind of decision is pending (who decides is the state's `actor`)."""

    ROOF_PICK = 0      # choose the kind of a roof tile (setup §3.10, clean-up §8.5)
    PYRAMID = 1        # place the next pyramid cube (§4.1, secret)
    TURN = 2           # a turn's main decision: take / build / roof / privilege / done (§4.2)
    FISH_SAIL = 3      # fishing: choose where the boat sails (§5.1)
    FISH_SWAP = 4      # fishing, on the way to an island: privilege dock swaps, then `go` (§4.3) [RD-37]
    FISH_DRAW = 5      # fishing: draw from the deck or the display
    FISH_SEND = 6      # fishing: send a worker or not
    PORT_TRADE = 7     # sell fish at a port
    LACE_PLACE = 8     # lace: place a worker in the workshop (§5.2)
    RECALL = 9         # earning: recall a worker (§5.3)
    ROOF_BONUS = 10    # a scored roof's bonus (§7)
    LACE_PAY = 11      # lace scoring: pay for a workshop square (§8.2)
    REPLENISH = 12     # clean-up: take cubes (§8.3)
    PRIV_RESERVE = 13  # clean-up: spend privilege on reserve cubes
    ROOF_DISCARD = 14  # clean-up: discard a roof tile (§8.5)
    CHANCE_NODE = 15   # a chance event is pending (`chance_kind`)
    GAME_OVER = 16


class Stage(_Named):
    """Which loop of the game a decision belongs to (outside the turn loop: setup, clean-up steps)."""

    SETUP = 0
    PYRAMID = 1
    ROUNDS = 2
    LACE_SCORING = 3
    REPLENISH = 4
    ROOF_REFILL = 5
    END = 6


class ChanceKind(_Named):
    """The pending chance event at a chance node."""

    NONE = 0
    FISH_DRAW = 1
    FISH_REFILL = 2
    BUILDING_DRAW = 3
    BUILDING_REFILL = 4
    ROOF_TILE = 5
    MARKERS = 6


_LABELS = {
    Phase: ("roof-pick", "pyramid", "turn", "fish-sail", "fish-swap", "fish-draw", "fish-send", "port-trade", "lace",
            "recall", "roof-bonus", "lace-pay", "replenish", "privilege-reserve", "roof-discard", "chance",
            "game-over"),
    Stage: ("setup", "pyramid", "rounds", "lace-scoring", "replenish", "roof-refill", "end"),
    ChanceKind: ("none", "fish-draw", "fish-refill", "building-draw", "building-refill", "roof-tile", "markers"),
}
for _cls, _names in _LABELS.items():
    assert len(_names) == len(_cls), _cls

#: Phases that are steps inside a turn's action (fishing, port, lace, recall, roof bonus).
ACTION_STEP_PHASES = frozenset(range(Phase.FISH_SAIL, Phase.ROOF_BONUS + 1))

PHASE_NAMES = Phase.labels()
STAGE_NAMES = Stage.labels()
CHANCE_KIND_NAMES = ChanceKind.labels()


# Burano's seats are the framework's first four.
assert len(SEAT_LETTERS) == MAX_PLAYERS and _FRAMEWORK_SEATS.startswith(SEAT_LETTERS)
