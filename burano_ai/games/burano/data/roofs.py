"""Roof tiles: kinds, colour pairs and scoring (rules spec §7 [RD-11], [RD-12], [RD-16])."""

from burano_ai.games.burano.data.colours import BLUE, GREEN, ORANGE, PINK, WHITE, YELLOW

ROOF_KINDS = ("island", "workshop", "fountains", "flat")
ISLAND_MAJORITY, WORKSHOP_MAJORITY, FOUNTAINS, FLAT = range(4)
NUM_ROOF_KINDS = 4

#: The 12 colour pairs of every kind, one tile each; field 0 first.
ROOF_PAIRS = (
    (BLUE, PINK), (BLUE, GREEN), (BLUE, ORANGE), (BLUE, WHITE),
    (PINK, YELLOW), (PINK, GREEN), (PINK, ORANGE),
    (YELLOW, GREEN), (YELLOW, ORANGE), (YELLOW, WHITE),
    (GREEN, WHITE), (ORANGE, WHITE),
)
TILES_PER_KIND = 12
TOTAL_ROOF_TILES = TILES_PER_KIND * NUM_ROOF_KINDS
ROOF_SLOTS = 3

#: Majority roofs: VP for having the strict majority on 1, 2, 3 or more islands / workshops.
MAJORITY_ROOF_VP = (0, 2, 5, 9)
#: Fountains roof: VP for 0..4 visible fountains on the ring.
FOUNTAIN_ROOF_VP = (0, 2, 3, 5, 9)
FLAT_ROOF_VP = 4
#: Roof bonus: privilege instead of a building card.
ROOF_PRIVILEGE_BONUS = 2
