"""The vocabulary every game and service shares: errors, seeds, seats, the game and state protocols."""
