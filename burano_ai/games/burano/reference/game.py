"""The reference Game: configuration and metadata; the seeded setup is `burano_ai.games.burano.deal` (rules spec §3)."""

from __future__ import annotations

from burano_ai.games.burano import actions
from burano_ai.games.burano import position
from burano_ai.games.burano.deal import deal
from burano_ai.games.burano.notation import position_from_json
from burano_ai.games.burano.reference.state import State


class Game:
    """Rules and metadata of one Burano configuration.

    Args:
        num_players: 2, 3 or 4.
        workshop_layout: 4 rows of 7 squares (see `burano_ai.games.burano.data.workshops`); default by player count.
    """

    def __init__(self, num_players: int = 4, workshop_layout: list[str] | tuple[str, ...] | None = None) -> None:
        self.layout = position.workshop_layout(num_players, workshop_layout)   # validates both
        self.num_players = num_players

    def __repr__(self) -> str:
        return f"Game(num_players={self.num_players})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.num_players == self.num_players and other.layout == self.layout

    def __hash__(self) -> int:
        return hash((self.num_players, self.layout.rows))

    # Metadata (OpenSpiel names).
    def num_distinct_actions(self) -> int:
        return actions.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return actions.NUM_MARKER_MAPPINGS

    def new_initial_state(self, seed: int = 0) -> State:
        """Set up a new game from a seed (`burano_ai.games.burano.deal`, §3); the first decision is seat A's roof pick."""
        return State.from_position(deal(self.num_players, seed, self.layout), self)

    def state_from_position(self, position) -> State:
        """A State of this game holding a copy of `position` (a `burano_ai.games.burano.position.Position`)."""
        return State.from_position(position, self)

    def state_from_json(self, text: str) -> State:
        """Load a position (full, or one seat's view) written by `State.to_json` or by hand."""
        return State.from_position(position_from_json(text, num_players=self.num_players), self)
