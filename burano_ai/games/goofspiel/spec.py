"""Goofspiel's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any

from burano_ai.core.errors import OptionError, PositionError
from burano_ai.games.goofspiel import rules
from burano_ai.games.goofspiel.position import FORMAT as POSITION_FORMAT
from burano_ai.games.goofspiel.position import position_from_json
from burano_ai.games.goofspiel.render import render as _render


@dataclass(frozen=True)
class GoofspielSpec:
    """The `core.game.GameSpec` of Goofspiel (OpenSpiel's `goofspiel`, played sequentially).

    A Game takes `num_cards` (2..16, default 13) and `points_order` ("random", "descending",
    "ascending") besides the player count; `new_game` passes them on.
    """

    key: str = "goofspiel"
    title: str = "Goofspiel"
    min_players: int = rules.MIN_PLAYERS
    max_players: int = rules.MAX_PLAYERS
    default_players: int = rules.DEFAULT_PLAYERS
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.goofspiel._core:Game",
        "reference": "burano_ai.games.goofspiel.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({
        "native_search", "hidden_information", "secret_moves", "heuristic_playout",
    })

    def game_class(self, implementation: str = "compiled"):
        """The Game class of `implementation` ("compiled" or "reference")."""
        if implementation not in self.implementations:
            raise OptionError(f"unknown implementation {implementation!r} of {self.title} "
                              f"(expected {' or '.join(self.implementations)})")
        module, _, attribute = self.implementations[implementation].partition(":")
        return getattr(importlib.import_module(module), attribute)

    def new_game(self, num_players: int, implementation: str = "compiled", *,
                 num_cards: int = rules.DEFAULT_CARDS, points_order: str = "random"):
        """A Game of `implementation` for `num_players` players (and `num_cards`, `points_order`)."""
        if isinstance(num_players, bool) or not isinstance(num_players, int) or \
                not self.min_players <= num_players <= self.max_players:
            raise OptionError(f"{self.title} is played by {self.min_players}-{self.max_players} players, "
                              f"not {num_players!r}")
        return self.game_class(implementation)(num_players, num_cards, points_order)

    # --- engine side: positions

    def load_position(self, text: str, implementation: str = "compiled"):
        """A State of a `goofspiel-position/1` text (its own parameters pick the Game).

        Raises:
            PositionError: a field is wrong (named). TypeError: `text` is not a str.
        """
        pos = position_from_json(text)
        return self.game_class(implementation)(pos.num_players, pos.num_cards, pos.points_order) \
            .state_from_position(pos)

    # --- people side: terminal rendering

    def render(self, state_dict: dict[str, Any] | str) -> str:
        """Plain text of a position dict (or its JSON text) for the terminal."""
        if isinstance(state_dict, str):
            try:
                state_dict = json.loads(state_dict)
            except json.JSONDecodeError as e:
                raise PositionError(f"position: not valid JSON ({e})") from None
        return _render(state_dict)


SPEC = GoofspielSpec()
