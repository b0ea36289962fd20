"""Type stub for the compiled module burano_ai.games.burano._core (src_cython/burano_ai/games/burano/_core.pyx).

The compiled rules core: `Game` and `State` with the reference model's API (burano_ai.games.burano.reference),
positions stored in a fixed-size C struct, plus 64-bit Zobrist keys, integer information-state keys,
fast resampling and playouts in C.
"""

from typing import Any, SupportsIndex

from burano_ai.games.burano.position import Position
from burano_ai.games.burano.topology import WorkshopLayout

PHASE_NAMES: tuple[str, ...]
STAGE_NAMES: tuple[str, ...]
CHANCE: int          # current_player() at a chance node (-1)
TERMINAL: int        # current_player() at the end (-4)
POLICIES: tuple[str, ...]   # playout policies: "random", "heuristic"
ZOBRIST_SEED: int

class Game:
    """Rules and metadata of one configuration; same constructor as the reference Game."""

    num_players: int
    layout: WorkshopLayout

    def __init__(self, num_players: int = 4, workshop_layout: list[str] | tuple[str, ...] | None = None) -> None: ...
    def num_distinct_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def new_initial_state(self, seed: int = 0) -> State:
        """The dealt position for `seed` (`burano_ai.games.burano.deal`): the same as the reference's."""
    def state_from_position(self, position: Position) -> State: ...
    def state_from_json(self, text: str) -> State: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class PlayerView:
    """Read-only snapshot of one seat (`SeatPosition`'s attribute names)."""

    ring_pieces: list[int]
    ring_offset: int
    ring_workers: int
    pyramid: list[int]
    reserve: list[int]
    prep: list[int]
    coins: int
    vp: int
    privilege: int
    roof_slots: list[tuple[int, int] | None]
    buildings: list[int]
    hand_known: list[int]
    hand_blind: list[int]
    sold: list[int]
    boat: int

Seat = int | str     # a 0-based int or a seat letter (enums.parse_seat)

class State:
    """A position in a C struct with the reference State's API.

    `apply_action` and `play` are checked (IllegalMoveError, the state untouched); the unchecked apply
    is C-only (`_core.pxd`). Seats are 0-based ints or letters; other types raise TypeError.
    """

    game: Game
    @property
    def num_players(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def stage(self) -> int: ...
    @property
    def season(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def actor(self) -> int: ...
    @property
    def first_player(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def order_index(self) -> int: ...
    @property
    def layout(self) -> WorkshopLayout: ...
    @property
    def markers(self) -> list[int]: ...
    @property
    def workshop(self) -> list[int]: ...
    @property
    def players(self) -> list[PlayerView]: ...
    def pyramid_count(self, player: Seat) -> int: ...
    def workers_off_ring(self, player: Seat) -> int: ...
    def supply(self) -> list[int]: ...
    def fish_deck(self) -> list[int]: ...
    def building_deck(self) -> list[int]: ...
    def roof_stack(self, kind: int) -> list[int]: ...
    def component_counts(self) -> dict[str, int]: ...
    def __init__(self, game: Game) -> None:
        """An empty position, like the reference State(game)."""
    @staticmethod
    def from_position(position: Position, game: Game | None = None) -> State: ...
    def to_position(self) -> Position: ...
    def to_dict(self, seat: Seat | None = None) -> dict[str, Any]: ...
    def to_json(self, seat: Seat | None = None, indent: int | None = None) -> str: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self, player: Seat | None = None) -> list[int]:
        """Sorted legal ids of the seat to move ([] at chance nodes, at the end, or if `player` is not to move)."""
    def apply_action(self, action: SupportsIndex) -> None:
        """Apply a legal action or an offered chance outcome.

        Raises TypeError unless `action` is an int (bool and float are not; numpy integers are), and
        IllegalMoveError (state untouched) if it is not legal here / not an offered outcome / the game is over.
        """
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def chance_outcome_actions(self) -> list[int]: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> State: ...
    def scores(self) -> list[int]: ...
    def winners(self) -> list[int]: ...
    def returns(self) -> list[float]: ...
    def action_to_string(self, action: SupportsIndex) -> str: ...
    def string_to_action(self, text: str) -> int:
        """The id of a move text; TypeError if `text` is not a str, IllegalMoveError if it names no move."""
    def play(self, text: str) -> int:
        """Parse, check and apply a move text; TypeError for a non-str, IllegalMoveError (state untouched)
        like the reference."""
    def key(self) -> int:
        """64-bit Zobrist key, maintained incrementally."""
    def full_key(self) -> int:
        """64-bit Zobrist key recomputed from scratch (equals key())."""
    def information_state_key(self, seat: Seat) -> int:
        """64-bit key equal for states that `seat` cannot tell apart (what to_dict(seat) shows)."""
    def resample(self, seat: Seat, seed: int) -> State:
        """A copy with what `seat` cannot know replaced by a uniform consistent sample."""
    def check(self) -> None:
        """Raise AssertionError unless key and derived counts equal their recomputation and the
        reference's invariants hold."""
    def playout(self, seed: int = 0, policy: str = "random") -> list[int]:
        """Play this state to the end in place (C, no GIL); return the final scores.

        PositionError if it meets a decision with no legal action or a chance node with no outcome
        (a malformed position)."""
    def __reduce__(self) -> tuple[Any, ...]: ...

def playout(state: State, seed: int = 0, policy: str = "random") -> list[int]:
    """Play a copy of `state` to the end; return the final scores (the state is unchanged)."""

def playouts(state: State, count: int, seed: int = 0, policy: str = "random") -> tuple[int, list[float]]:
    """Play `count` games from copies of `state` in C; return (actions applied, summed returns per seat)."""
