"""Workshop area layouts (rules spec §2 [RD-3]).

Each layout is 4 rows of 7 squares; a square is a colour letter (P B Y G O W), optionally followed by
`$` for a coin square, or `.` for an empty square. A workshop tile is a connected group of squares of
one colour; `burano_ai.games.burano.topology` checks that every colour forms exactly one tile of the right size.
"""

ROWS, COLS = 4, 7
NUM_SQUARES = ROWS * COLS

LAYOUT_4P = (
    "P  P  P  P$ W  W  W",
    "Y  Y  Y  G  G  G  W$",
    "Y$ .  B  B  G$ O  O",
    ".  .  B  B$ O$ O  .",
)

LAYOUT_2P_3P = (
    "P  P$ P  .  G  G$ .",
    ".  .  .  B  G  .  W",
    ".  .  .  B$ B  W  W$",
    ".  Y  Y$ Y  O  O$ O",
)

#: Tile size and number of empty squares by layout.
TILE_SIZE = {"4p": 4, "2-3p": 3}
EMPTY_SQUARES = {"4p": 4, "2-3p": 10}


def default_layout(num_players: int) -> tuple[str, ...]:
    """Return the default layout rows for a player count."""
    return LAYOUT_4P if num_players == 4 else LAYOUT_2P_3P
