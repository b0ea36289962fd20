"""`RandomBot`: uniform over the legal actions (the weakest baseline)."""

from __future__ import annotations

import random

from .base import Bot


class RandomBot(Bot):
    """Uniformly random over the legal actions."""

    name = "random"

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        return legal[random.Random(seed).randrange(len(legal))]
