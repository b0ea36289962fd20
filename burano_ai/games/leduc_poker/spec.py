"""Leduc poker's entry in the game registry (`burano_ai.games`): its declaration, nothing else."""

from __future__ import annotations

from burano_ai.core.history import HistoryGame
from burano_ai.core.spec import SpecBase
from burano_ai.games.leduc_poker.game import State

#: The most a seat can put in: the ante, two raises of 2 and two of 4.
MAX_STAKE = 1 + 2 * 2 + 2 * 4


class LeducPokerSpec(SpecBase):
    """The `core.game.GameSpec` of Leduc poker (OpenSpiel's `leduc_poker`): the required declaration only."""

    key, title = "leduc-poker", "Leduc poker"
    min_players, max_players, default_players = 2, 6, 2
    #: Chips won or lost (OpenSpiel's returns), what a seat's score column shows.
    utility, score_name = "payoff", "chips"
    position_format = "leduc-poker-position/1"
    implementations = {"python": "burano_ai.games.leduc_poker.spec:Game"}
    capabilities = frozenset({"hidden_information"})

    def action_counts(self, num_players: int) -> tuple[int, int]:
        """fold, call, raise; 2 (n + 1) cards to deal."""
        return 3, 2 * (num_players + 1)

    def payoff_range(self, num_players: int) -> tuple[float, float]:
        """Lose the most a seat can stake; win it from every other seat."""
        return -float(MAX_STAKE), float(MAX_STAKE * (num_players - 1))

SPEC = LeducPokerSpec()
Game = HistoryGame.of(SPEC, State)
