"""Kuhn poker's entry in the game registry (`burano_ai.games`): its declaration, nothing else."""

from __future__ import annotations

from burano_ai.core.history import HistoryGame
from burano_ai.core.spec import SpecBase
from burano_ai.games.kuhn_poker.game import State


class KuhnPokerSpec(SpecBase):
    """The `core.game.GameSpec` of Kuhn poker (OpenSpiel's `kuhn_poker`): the required declaration only."""

    key = "kuhn-poker"
    title = "Kuhn poker"
    min_players, max_players, default_players = 2, 6, 2
    position_format = "kuhn-poker-position/1"
    implementations = {"python": "burano_ai.games.kuhn_poker.spec:Game"}
    capabilities = frozenset({"hidden_information"})
    utility = "payoff"
    score_name = "chips"

    def payoff_range(self, num_players: int) -> tuple[float, float]:
        """Lose the ante and a bet (2); win every other seat's (2 each)."""
        return -2.0, 2.0 * (num_players - 1)

    def action_counts(self, num_players: int) -> tuple[int, int]:
        """pass and bet; n + 1 cards to deal."""
        return 2, num_players + 1


SPEC = KuhnPokerSpec()
Game = HistoryGame.of(SPEC, State)
