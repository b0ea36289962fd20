"""Azul: Stained Glass of Sintra's moves in people's words (`GameSpec.describe_move`), for the list of choices,
the narration and the web board: what a move takes, where it goes, and what breaks.

    F1 B>2   take the 3 blue from factory 1 to column 2: 3 placed, 0 broken
    C P>x    take the 2 pink and the first-player token from the centre and break them: 2 broken
    keep Y   keep the yellow on window 3's top cell

The counts are read off the position as the rules place the pieces (coloured cells first, then jokers, AD-13;
a jokers-first draft of the `joker_choice` option the other way round); the move text stays the notation.
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.data import data_from_dict, default_data

#: What the move codes mean, for `help` (`burano play`) and the notes.
CODES = ("F3 P>4: factory 3's pink to column 4; C: the centre; >x: break them all; "
         "reset: the glazier back to column 1")


class MoveCodes:
    """`burano play`'s help for Azul (`GameSpec.move_entry`): what the move codes mean; no short form."""

    unit = "moves"
    help = ("  F3 P>4                 factory 3's pink to column 4; C: from the centre\n"
            "                         >x: break them all; F3 P>4j: jokers first\n"
            "                         reset: the glazier back to column 1\n"
            "                         keep Y: keep the yellow of a complete strip\n")

    def expand(self, text: str, legal) -> None:
        return None

    def complete_word(self, line: str) -> list[str]:
        return []

    def one_line(self, moves) -> None:
        return None


def _data(d: dict[str, Any]):
    return default_data() if d["data"] is None else data_from_dict(d["data"])


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def draft_outcome(d: dict[str, Any], source: int, colour: int, target: int,
                  jokers_first: bool = False) -> tuple[int, int, int]:
    """(pieces taken, placed, broken) of drafting `colour` from `source` to `target` in position `d` (the seat
    to move), as the rules place them (`reference.State._draft`)."""
    data = _data(d)
    letter = data.letters[colour]
    pieces = d["centre"] if source == rules.CENTRE else d["factories"][source]
    taken = pieces.count(letter)
    if target == rules.BREAK:
        return taken, 0, taken
    seat = d["seats"][SEAT_LETTERS.index(d["to_move"])]
    col = seat["columns"][target]
    face = data.faces[col["strip"] - 1]["ab".index(col["face"])]
    free_colour = face.count(letter) - col["pieces"].count(letter)
    free_joker = face.count("J") - len(col["jokers"])
    if jokers_first:
        on_joker = min(taken, free_joker)
        on_colour = min(taken - on_joker, free_colour)
    else:
        on_colour = min(taken, free_colour)
        on_joker = min(taken - on_colour, free_joker)
    placed = on_colour + on_joker
    return taken, placed, taken - placed


def describe_move(state, action: int) -> str:
    """The move `action` of the seat to move in words (module docstring)."""
    d = state.to_dict()
    data = _data(d)
    if rules.KEEP0 <= action < rules.NUM_ACTIONS and d["keep"] is not None:
        column = d["keep"]["column"]
        top, _bottom = d["seats"][SEAT_LETTERS.index(d["to_move"])]["columns"][column - 1]["window"]
        return f"keep the {data.colour_names[action - rules.KEEP0]} on window {column}'s {'top' if top is None else 'bottom'} cell"
    if action == rules.RESET:
        return "reset: the glazier goes back to column 1"
    if 0 <= action < rules.DRAFT_ACTIONS:
        source, colour, target = rules.decode_draft(action)
        jokers_first = False
    elif rules.JOKER_DRAFT0 <= action < rules.NUM_ACTIONS_JOKER_CHOICE:
        source, colour, target = rules.decode_joker_draft(action)
        jokers_first = True
    else:
        return state.action_to_string(action)
    taken, placed, broken = draft_outcome(d, source, colour, target, jokers_first)
    token = " and the first-player token" if source == rules.CENTRE and d["token"] == "centre" else ""
    where = "the centre" if source == rules.CENTRE else f"factory {source + 1}"
    what = f"take the {taken} {data.colour_names[colour]}{token} from {where}"
    if target == rules.BREAK:
        return f"{what} and break them: {broken} broken"
    jokers = ", jokers first" if jokers_first else ""
    return f"{what} to column {target + 1}{jokers}: {placed} placed, {broken} broken"
