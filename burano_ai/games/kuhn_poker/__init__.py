"""Kuhn poker for 2-6 players, OpenSpiel's `kuhn_poker`: written in Python only against `core.history`."""
