"""Seats and the special players: the one seat vocabulary of every game and service.

Seats are 0-based ints in Python and letters A-F where people read and type them. `CHANCE` and
`TERMINAL` are OpenSpiel's pseudo-players (`pyspiel.PlayerId`): `current_player()` at a chance node
and once the game is over. A game declares its own player range (`GameSpec.min_players` /
`max_players`) within 1..`MAX_SEATS`.
"""

from __future__ import annotations

from burano_ai.core.arguments import int_text, value_text
from burano_ai.core.errors import BuranoError, OptionError

#: The framework's seat letters: at most six seats (Venice 2099 needs five).
SEAT_LETTERS = "ABCDEF"
#: Most seats any game may have.
MAX_SEATS = len(SEAT_LETTERS)
#: `current_player()` at a chance node (OpenSpiel's `pyspiel.PlayerId.CHANCE`).
CHANCE = -1
#: `current_player()` once the game is over (OpenSpiel's `pyspiel.PlayerId.TERMINAL`).
TERMINAL = -4


def seat_letter(seat: int) -> str:
    """The letter of 0-based seat `seat` (0 -> "A")."""
    return SEAT_LETTERS[seat]


def parse_seat(value: int | str, num_players: int, what: str = "seat",
               error: type[BuranoError] = OptionError) -> int:
    """The 0-based seat named by `value`: a letter (what people type) or a 0-based int (Python).

    Raises:
        OptionError (or `error`): no such seat in a game of `num_players` (the message names `what`).
        TypeError: `value` is neither an int nor a str (a bool is not a seat).
    """
    letters = SEAT_LETTERS[:num_players]
    if isinstance(value, str):
        text = value.strip().upper()
        if len(text) == 1 and text in letters:
            return letters.index(text)
        raise error(f"{what} {value_text(value)} is not a seat of this {num_players}-player game "
                    f"(use {', '.join(letters)})")
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a seat letter or a 0-based int, not {type(value).__name__}")
    if not 0 <= value < num_players:
        raise error(f"{what} {int_text(value)} is not a seat of this {num_players}-player game "
                    f"(0-based: 0-{num_players - 1}, or a letter {', '.join(letters)})")
    return value
