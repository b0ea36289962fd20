"""The main island: hole mask, fountain and roof geometry (rules spec §2, [RD-1])."""

#: The island is a SIZE x SIZE lattice of cells (x, y); a cell is a hole when (x + y) is even.
SIZE = 9
NUM_HOLES = 41


def is_hole(x: int, y: int) -> bool:
    """Return whether cell (x, y) is a hole of the main island [RD-1]."""
    return 0 <= x < SIZE and 0 <= y < SIZE and (x + y) % 2 == 0


#: The hole under the fountain; it holds the one cube placed at setup.
FOUNTAIN = (4, 4)
#: Two holes are diagonal neighbours when they differ by one of these offsets.
DIAGONAL_OFFSETS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
#: A roof joins two cubes this many cells apart on one row or column.
ROOF_SPAN = 2
#: Cube levels: 1 on the ground, 2 on a level-1 roof, 3 on a level-2 roof. Only levels 1-2 take roofs.
MAX_LEVEL = 3
MAX_ROOF_LEVEL = 2
