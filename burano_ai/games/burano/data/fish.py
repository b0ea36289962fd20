"""Fish cards: species, groups, deck and display sizes (rules spec §6.1 [RD-10])."""

SPECIES = ("lobster", "tuna", "squid", "crab", "shrimp", "octopus", "clam", "eel")
NUM_SPECIES = 8
CARDS_PER_SPECIES = 6
TOTAL_FISH_CARDS = NUM_SPECIES * CARDS_PER_SPECIES
#: Face-up fish display size.
FISH_DISPLAY_SIZE = 3
#: Species groups for the Sold-fish building cards.
GROUP_A = (0, 1, 2, 3)
GROUP_B = (4, 5, 6, 7)
#: VP for each fish card that cannot be drawn because display and deck are empty.
EMPTY_DRAW_VP = 2
#: End of game: VP per fish card in hand.
HAND_CARD_VP = 1
