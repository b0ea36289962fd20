"""The schedule ring: pieces, symbols and worker counts (rules spec §2 [RD-4], §3)."""

from burano_ai.games.burano.data.colours import BLUE, GREEN, ORANGE, PINK, WHITE, YELLOW

COIN, FOUNTAIN = 0, 1
SYMBOLS = ("$", "F")

#: Four pieces of three houses each, clockwise: (colour, symbol).
RING_PIECES = (
    ((PINK, COIN), (YELLOW, FOUNTAIN), (BLUE, COIN)),      # r1
    ((BLUE, COIN), (GREEN, FOUNTAIN), (WHITE, COIN)),      # r2
    ((GREEN, COIN), (PINK, FOUNTAIN), (ORANGE, COIN)),     # r3
    ((YELLOW, COIN), (ORANGE, FOUNTAIN), (WHITE, COIN)),   # r4
)
NUM_PIECES = 4
HOUSES_PER_PIECE = 3
NUM_HOUSES = 12
#: The three arrows are sectors 10, 11, 12 (1-based), i.e. the three houses just before sector 1.
ARROW_SECTORS = (10, 11, 12)

#: Worker tokens per player: 12 workers start on the houses, one more marks the score.
WORKER_TOKENS = 13
#: At setup three workers leave the ring: one to the seat's island, one marks privilege, one moves.
ACTIVE_WORKERS = 10
MARKER_TOKENS = 3
START_RING_WORKERS = 9
START_PRIVILEGE = 1
