"""The sailing route, islands, docks and ports (rules spec §2 [RD-2], §3, §5.1)."""

#: Route nodes in cycle order; the cycle closes from the last back to the first.
ROUTE_NODES = ("PortL", "I1", "I2", "I3", "PortR", "I4", "I5", "I6")
#: The two ports (route node ids) and the six islands (route node ids, island index = position here).
PORT_NODES = (0, 4)
ISLAND_NODES = (1, 2, 3, 5, 6, 7)
NUM_ISLANDS = 6
NUM_PORTS = 2
#: Island letters: seat letter -> island index (A = I1, B = I3, C = I4, D = I6).
SEAT_ISLAND = {"A": 0, "B": 2, "C": 3, "D": 5}
#: Each island has this many dock squares; there are 3 docks of each colour (18 in all).
DOCKS_PER_ISLAND = 3
DOCKS_PER_COLOUR = 3
#: Each port holds at most this many ships; at setup each port gets this many.
PORT_CAPACITY = 4
SHIPS_PER_PORT_AT_SETUP = 2
#: Steps a boat moves in one fishing action: 1, or 1-2 with the Long voyage card.
SAIL_STEPS = 1
LONG_VOYAGE_STEPS = 2
