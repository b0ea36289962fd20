"""Burano's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from burano_ai.core.errors import OptionError
from burano_ai.games.burano.data.colours import MAX_PLAYERS, MIN_PLAYERS
from burano_ai.games.burano.notation import FORMAT as POSITION_FORMAT


@dataclass(frozen=True)
class BuranoSpec:
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
        "web_editor", "openspiel",
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

    # --- web side: the board module (web)

    #: The SVG board and its editor tools, under burano_ai/web/static/.
    web_board: str = "games/burano/board.js"


SPEC = BuranoSpec()
