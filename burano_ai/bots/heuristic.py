"""`HeuristicBot`: plays a game's own bot (`core.game.BotDeclaration`, declared by its spec's `bots()`,
such as Burano's ``greedy``) behind the bot interface.

The game supplies only the choice (its heuristic); the bot hands it what every bot shares: the seat's
view loaded back (`seat_view`: it never sees what the seat cannot), a `random.Random` seeded per
decision, the spec's options over the declared defaults and the bots' chance sampler (`base.chance_outcome`:
the search's, so a game's bot samples chance as the arena and the search do, golden-pinned).
"""

from __future__ import annotations

import random

from burano_ai.bots.base import Bot, chance_outcome, seat_view
from burano_ai.bots.spec import BotSpec
from burano_ai.core.game import BotDeclaration


class HeuristicBot(Bot):
    """A game's own bot: `declaration.choose` on the seat's view."""

    def __init__(self, spec: BotSpec, seed: int, game: str, declaration: BotDeclaration) -> None:
        super().__init__(spec, seed, game)
        self.name = spec.name
        self.declaration = declaration
        self.options = {**declaration.options, **self.options}

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        return self.declaration.choose(seat_view(state, seat), seat, legal, random.Random(seed), self.options,
                                       chance_outcome)
