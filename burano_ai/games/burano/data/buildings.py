"""The 16 building cards (rules spec §9, [RD-14], [RD-15])."""

from burano_ai.games.burano.data.colours import BLUE, GREEN, ORANGE, PINK, WHITE, YELLOW

#: Card families.
ROOF_BONUS, ROOF_WILDCARD, SOLD_FISH, LACE_COLOURS = range(4)
LONG_VOYAGE, LACE_BUMPING, ISLAND_TIES, LACE_DISCOUNT, COLLECTOR, MONUMENT = range(4, 10)

#: (name, family, colours or species group) for each of the 16 cards, by card id.
BUILDING_CARDS = (
    ("roof-bonus-A", ROOF_BONUS, (BLUE, PINK)),
    ("roof-bonus-B", ROOF_BONUS, (YELLOW, GREEN)),
    ("roof-bonus-C", ROOF_BONUS, (ORANGE, WHITE)),
    ("wildcard-A", ROOF_WILDCARD, (BLUE, GREEN)),
    ("wildcard-B", ROOF_WILDCARD, (YELLOW, WHITE)),
    ("wildcard-C", ROOF_WILDCARD, (ORANGE, PINK)),
    ("sold-fish-A", SOLD_FISH, (0, 1, 2, 3)),
    ("sold-fish-B", SOLD_FISH, (4, 5, 6, 7)),
    ("lace-colours-A", LACE_COLOURS, (PINK, BLUE, YELLOW)),
    ("lace-colours-B", LACE_COLOURS, (GREEN, ORANGE, WHITE)),
    ("long-voyage", LONG_VOYAGE, ()),
    ("lace-bumping", LACE_BUMPING, ()),
    ("island-ties", ISLAND_TIES, ()),
    ("lace-discount", LACE_DISCOUNT, ()),
    ("collector", COLLECTOR, ()),
    ("monument", MONUMENT, ()),
)
NUM_BUILDINGS = 16
BUILDING_DISPLAY_SIZE = 4

ROOF_BONUS_VP_PER_FIELD = 5
SOLD_FISH_VP_PER_CARD = 2
LACE_COLOURS_VP_PER_WORKER = 2
LACE_DISCOUNT_END_VP = 3
COLLECTOR_VP_PER_CARD = 3
MONUMENT_VP = 9
