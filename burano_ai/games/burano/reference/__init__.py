"""The reference model: Burano's complete rules in readable pure Python.

It is the executable specification and the oracle the compiled core is tested against move for
move. It favours clarity over speed. Usage::

    from burano_ai.games.burano.reference import Game
    state = Game(num_players=4).new_initial_state(seed=7)
    while not state.is_terminal():
        ...
"""

from burano_ai.games.burano.reference.game import Game
from burano_ai.games.burano.reference.state import CHANCE, TERMINAL, State

__all__ = ["CHANCE", "TERMINAL", "Game", "State"]
