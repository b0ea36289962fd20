"""The order of finish (rules §10): most VP, then most cubes in the preparation area, then most coins.

One home for the tie-break rule, read through the State API alone (``state.players[seat]``: ``vp``,
``prep``, ``coins``), so that either rules implementation, the arena and any report can rank seats the
same way without importing a rules model.
"""

from __future__ import annotations


def finishing_key(state, seat: int) -> tuple[int, int, int]:
    """The rules' order of finish (§10): VP, then prep-area cubes, then coins (larger is better)."""
    pl = state.players[seat]
    return (pl.vp, sum(pl.prep), pl.coins)
