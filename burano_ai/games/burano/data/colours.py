"""Action colours, player colours and the cube supply (rules spec §1)."""

#: The six action colours, in id order. Cube, dock, workshop and ring colours use these ids.
COLOURS = ("pink", "blue", "yellow", "green", "orange", "white")
PINK, BLUE, YELLOW, GREEN, ORANGE, WHITE = range(6)
NUM_COLOURS = 6
#: One-letter abbreviations used in the layouts below and in board renderings.
COLOUR_LETTERS = "PBYGOW"

#: Player colours by seat (seat 0 = seat letter A = first player at setup).
PLAYER_COLOURS = ("blue", "red", "green", "black")
SEAT_LETTERS = "ABCD"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: House cubes in the game, per action colour (120 in all).
CUBES_PER_COLOUR = 20
TOTAL_CUBES = CUBES_PER_COLOUR * NUM_COLOURS
