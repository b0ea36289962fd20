"""The position editor's server side: validate a typed position with the engine's loader, deal a start.

A position the user types (full, or one seat's view) is loaded by `engine.load_position`, the front door
every tool uses; its first error comes back with the field it names, for the page to show next to it.
The editor's tools belong to a game's board module: only a game declaring the `web_editor` capability
has one (Burano); the loader check itself works for any game.
"""

from __future__ import annotations

import json
from typing import Any

from burano_ai import engine
from burano_ai.core.errors import OptionError, PositionError
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL
from burano_ai.games import get_spec
from burano_ai.web.games import check_players, kind_of_position


class FieldError(PositionError):
    """A position error with the field it names (`position.seats[1].coins`), for the editor."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.field = field


def error_field(message: str) -> str | None:
    """The field a loader message names: `position.seats[1].coins: ...` -> `position.seats[1].coins`."""
    head = message.split(":", 1)[0].strip()
    return head if head.startswith("position") and " " not in head else None


def check_position(position: Any) -> dict[str, Any]:
    """Load `position` (a dict or JSON text) and return what the board shows of it.

    Raises:
        FieldError: the loader's message and its field.
    """
    if isinstance(position, dict):   # through the text loader, so its size and nesting limits apply
        position = json.dumps(position)
    try:
        state, view = engine.load_position(position)
    except PositionError as exc:
        raise FieldError(str(exc), error_field(str(exc))) from None
    to_move = state.current_player()
    legal = [state.action_to_string(a) for a in state.legal_actions()] if to_move >= 0 else []
    return {
        "ok": True,
        "kind": kind_of_position(position),
        "players": state.num_players,
        "view_seat": None if view is None else SEAT_LETTERS[view],
        "position": state.to_dict(view),   # what was typed, normalised: a view stays a view
        "to_move": ("over" if to_move == TERMINAL else "chance" if to_move == CHANCE else SEAT_LETTERS[to_move]),
        "legal": legal,
    }


def deal_position(kind: Any, players: Any, seed: Any) -> dict[str, Any]:
    """A seeded deal of game `kind` as a full position dict: the editor's starting point."""
    spec = get_spec(kind)
    if "web_editor" not in spec.capabilities:
        raise OptionError(f"{spec.title} has no position editor on the web board")
    check_players(spec, players)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(f"seed must be a whole number >= 0, not {seed!r}")
    return spec.new_game(players).new_initial_state(seed).to_dict()
