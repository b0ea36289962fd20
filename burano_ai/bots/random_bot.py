"""`RandomBot`: uniform over the legal actions (the weakest baseline)."""

from __future__ import annotations

import random

from burano_ai.bots.base import Bot


class RandomBot(Bot):
    """Uniformly random over the legal actions."""

    name = "random"

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        return legal[random.Random(seed).randrange(len(legal))]
