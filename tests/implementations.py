"""The rules implementations under test, by name: the reference model and the compiled core."""

from burano_ai import Game as CoreGame
from burano_ai.games.burano.reference import Game as ReferenceGame

IMPLEMENTATIONS = {"core": CoreGame, "reference": ReferenceGame}
