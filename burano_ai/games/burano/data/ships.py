"""Merchant ships and their tables (rules spec §6.2 [RD-17])."""

SHIPS = ("different", "identical", "pairs", "triples")
DIFFERENT, IDENTICAL, PAIRS, TRIPLES = range(4)
NUM_SHIPS = 4

#: VP by row, row i (0-based) needing i + 1 units of the ship's pattern.
#: different: i+1 cards of distinct species; identical: i+1 cards of one species;
#: pairs: i+1 pairs of distinct species; triples: i+1 triples of distinct species.
SHIP_ROW_VP = (
    (2, 4, 6, 8),
    (2, 6, 12, 20),
    (5, 10, 15),
    (12, 24),
)
