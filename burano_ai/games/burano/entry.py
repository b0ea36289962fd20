"""Burano's shortcut for typing moves at the terminal: a whole pyramid in one line (`core.game.MoveEntry`).

A pyramid is 14 secret cube placements, one decision each; `burano play` lets a person type them at
once, `pyramid w w g b ...`, each cube a colour letter (p b y g o w, as on the board; capitals too) or
a colour name or its unambiguous beginning (`white`, `wh`). The line is all or nothing (the session plays it with
`play_many`). A line that is exactly one legal move text (`pyramid white`) is that move.
"""

from __future__ import annotations

from typing import Sequence

from burano_ai.games.burano.data.colours import COLOUR_LETTERS, COLOURS

#: The first word of a pyramid line (also the verb of each pyramid move).
PYRAMID = "pyramid"


def parse_colour(token: str) -> str | None:
    """A cube colour from a letter (`W`) or a name or its unambiguous beginning (`white`, `wh`)."""
    t = token.lower()
    if len(t) == 1 and t.upper() in COLOUR_LETTERS:
        return COLOURS[COLOUR_LETTERS.index(t.upper())]
    matches = [c for c in COLOURS if c.startswith(t)]
    return matches[0] if len(matches) == 1 else None


def pyramid_moves(tokens: Sequence[str]) -> tuple[list[str], str | None]:
    """(`pyramid <colour>` moves, None) for the tokens after `pyramid`, or ([], the error)."""
    if not tokens:
        return [], "pyramid: name the colours, e.g. pyramid w w g b (letters p b y g o w or colour names)"
    moves = []
    for i, token in enumerate(tokens):
        colour = parse_colour(token)
        if colour is None:
            return [], (f"pyramid: {token!r} (colour {i + 1}) is not a colour: use the letters "
                        f"{' '.join(COLOUR_LETTERS.lower())} or {', '.join(COLOURS)}")
        moves.append(f"{PYRAMID} {colour}")
    return moves, None


class PyramidLine:
    """The `MoveEntry` of Burano: `pyramid w w g b ...` places several pyramid cubes in order (the
    letters are the board's, lower-case; capitals are read too)."""

    unit = "cubes"
    help = ("  pyramid w w g b ...    several pyramid cubes in one line (colour letters\n"
            "                         p b y g o w or names), played in order, all or nothing\n")

    def expand(self, text: str, legal: Sequence[str]) -> tuple[list[str], str | None] | None:
        """The pyramid moves of a `pyramid ...` line; None for any other line or a legal move's text."""
        words = text.split()
        if not words or words[0] != PYRAMID or (len(words) == 2 and text in legal):
            return None
        return pyramid_moves(words[1:])

    def complete_word(self, line: str) -> list[str]:
        """After `pyramid `, the colour names that complete the last word."""
        if not line.lstrip().startswith(PYRAMID + " "):
            return []
        last = "" if line.endswith(" ") else line.split()[-1]
        return [c for c in COLOURS if c.startswith(last)]

    def one_line(self, moves: Sequence[str]) -> str | None:
        """`pyramid w w g` for pyramid moves (None if one of them is another move)."""
        if not moves or not all(m.startswith(PYRAMID + " ") and m.split()[1] in COLOURS for m in moves):
            return None
        return f"{PYRAMID} " + " ".join(COLOUR_LETTERS[COLOURS.index(m.split()[1])].lower() for m in moves)


ENTRY = PyramidLine()
