"""Burano's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from burano_ai.core.errors import OptionError
from burano_ai.core.people import PeopleSide
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.burano.data.colours import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COLOURS
from burano_ai.games.burano.notation import FORMAT as POSITION_FORMAT


#: The built-in position of `burano suggest` (in data/examples/).
EXAMPLE_POSITION = "midgame-4p-C.json"


@dataclass(frozen=True)
class BuranoSpec(PeopleSide):
    """The `core.game.GameSpec` of Burano (EmperorS4, 2015)."""

    key: str = "burano"
    title: str = "Burano"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    default_players: int = 4
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.burano._core:Game",
        "reference": "burano_ai.games.burano.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({
        "native_search", "hidden_information", "secret_moves", "heuristic_playout", "web_board",
        "openspiel",
    })

    def game_class(self, implementation: str = "compiled"):
        """The Game class of `implementation` ("compiled" or "reference")."""
        if implementation not in self.implementations:
            raise OptionError(f"unknown implementation {implementation!r} of {self.title} "
                              f"(expected {' or '.join(self.implementations)})")
        module, _, attribute = self.implementations[implementation].partition(":")
        return getattr(importlib.import_module(module), attribute)

    def new_game(self, num_players: int, implementation: str = "compiled"):
        """A Game of `implementation` for `num_players` players."""
        if isinstance(num_players, bool) or not isinstance(num_players, int) or \
                not self.min_players <= num_players <= self.max_players:
            raise OptionError(f"{self.title} is played by {self.min_players}-{self.max_players} players, "
                              f"not {num_players!r}")
        return self.game_class(implementation)(num_players)

    # --- engine side: positions, records, bots, arena (engine, protocol, record, session, arena)

    # --- people side: terminal rendering, move entry, score columns (cli, play)

    def render(self, position):
        """The board as plain text (`render.render_position`): islands, route, workshop, every seat."""
        from burano_ai.games.burano.render import render_position
        return render_position(position)

    def render_legal_actions(self, state) -> str:
        """The legal moves grouped by verb, or the chance outcomes with their probabilities."""
        from burano_ai.games.burano.render import render_legal_actions
        return render_legal_actions(state)

    def phase_label(self, position) -> str:
        """`spring r1` in the rounds, else the season and stage (`setup`, `summer pyramid`, ...)."""
        if position["stage"] == "setup":
            return "setup"
        if position["stage"] == "rounds":
            return f"{position['season']} r{position['round']}"
        return f"{position['season']} {position['stage']}"

    def turn_label(self, position) -> str:
        """`spring round 1, rounds (turn)`: the season and round, the stage and the phase."""
        where = position["season"] if position["stage"] != "rounds" else \
            f"{position['season']} round {position['round']}"
        return f"{where}, {position['stage']} ({position['phase']})"

    def chance_label(self, position) -> str:
        """The pending chance event's kind (`fish`, `roof-tile`, ...)."""
        return position["context"]["chance"]

    def seat_label(self, seat: int) -> str:
        """`A (blue)`: the letter and the player colour."""
        return f"{SEAT_LETTERS[seat]} ({PLAYER_COLOURS[seat]})"

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """VP, coins and the cubes in the preparation area (the order of finish's three keys)."""
        seats = state.to_dict()["seats"]
        return [("VP", [str(seat["vp"]) for seat in seats]),
                ("coins", [str(seat["coins"]) for seat in seats]),
                ("prep cubes", [str(sum(seat["prep"].values())) for seat in seats])]

    def describe_scores(self, scores) -> str:
        """`A 34 VP, B 20 VP`."""
        return ", ".join(f"{SEAT_LETTERS[p]} {v} VP" for p, v in enumerate(scores))

    def example_position(self) -> str:
        """Seat C's view of a 4-player summer position (`data/examples/midgame-4p-C.json`)."""
        from importlib import resources
        return resources.files("burano_ai.games.burano.data").joinpath("examples", EXAMPLE_POSITION) \
            .read_text(encoding="utf-8")

    def move_entry(self):
        """A whole pyramid in one line (`entry.PyramidLine`)."""
        from burano_ai.games.burano.entry import ENTRY
        return ENTRY

    # --- web side: the board module (web)


SPEC = BuranoSpec()
