"""Seasons, turn costs and scoring tables (rules spec §4, §4.2, §8, §10)."""

SEASONS = ("spring", "summer", "autumn", "winter")
SEASON_ROUNDS = (4, 4, 3, 3)
NUM_ROUNDS = sum(SEASON_ROUNDS)

#: Coins gained (positive) or paid (negative) before the 1st..4th move of a turn.
MOVE_COSTS = (+1, -3, -3, -4)
MAX_MOVES = 4
#: Coins gained by a player who makes no move in their turn.
NO_MOVE_COINS = 1
START_COINS = 3
#: Starting reserve: this many cubes of each colour.
START_RESERVE_PER_COLOUR = 3

#: The pyramid: 9 base cells (3x3), 4 middle cells (2x2) and 1 top, 14 in all.
PYRAMID_BASE, PYRAMID_MIDDLE, PYRAMID_TOP = 9, 4, 1
PYRAMID_SIZE = 14
#: Coins per cube returned from the reserve after pyramid construction.
LEFTOVER_CUBE_COINS = 1
PREP_SLOTS = 3

#: Clean-up island majority VP by player count: {num_players: VP}.
ISLAND_MAJORITY_VP = {2: 2, 3: 3, 4: 4}
#: Lace scoring: VP per paid worker, and union bonus by union size (index = size; 0-1 give nothing).
LACE_PAID_VP = 2
UNION_BONUS = (0, 0, 1, 2, 4, 6, 9, 12, 16, 21)
#: Bumped workers (fishing or lace) earn their owner this many coins.
BUMP_COINS = 2
#: Earning: coins per recalled worker.
RECALL_COINS = 1
#: End of game: one VP per this many coins (rounded down).
COINS_PER_VP = 5
#: Colour markers: two per action cell (fishing, lace, earning).
ACTIONS = ("fishing", "lace", "earning")
FISHING, LACE, EARNING = range(3)
MARKERS_PER_ACTION = 2
