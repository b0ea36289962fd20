"""Leduc poker for 2-6 players, OpenSpiel's `leduc_poker` with its default parameters: Python only."""
