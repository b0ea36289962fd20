"""OpenSpiel adapter: Walking in Burano as a Python pyspiel game (`python_walking_in_burano`).

Needs the ``[openspiel]`` extra (``import pyspiel``). Importing this module registers the game::

    import burano_ai.games.walking_in_burano.openspiel, pyspiel
    game = pyspiel.load_game("python_walking_in_burano(players=3)")
    state = game.new_initial_state()          # a chance node: the first setup deal

Game type: sequential, explicit stochastic chance (the setup deals, the first player and the refill
draws are chance nodes, spec §15.1), **imperfect information** (§14: a seat's returned cards, WD-27),
constant-sum utility (`returns()` are win shares: 1/k to each of the k winners, summing to 1), terminal
rewards. Parameters: ``players`` (2-4, default 2), ``public_returns`` (the §14 variant: perfect
information apart from chance), ``engine`` (``auto``/``core``: the compiled core's State is wrapped;
``reference``: the pure-Python model). The placeholder card data PD-1 is used (there is no data
parameter; a wrapped State plays by its own Game, whatever its options and data). Actions are our
action ids (`rules`: 619; chance outcomes are card ids 0..71 or seats).

``information_state_string(p)`` is our information-set key (another seat's pooled cards without their
place); ``resample_from_infostate(p, sampler)`` draws a seed from the sampler and calls our
``State.resample(p, seed)`` (its OpenSpiel history is the original's: use it for search, not replay);
``observation_string(p)`` is the seat's view JSON. No tensors. The adapter itself is
`burano_ai.core.openspiel`'s, shared by every game.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from burano_ai.core import openspiel
from burano_ai.core.errors import OptionError
from burano_ai.games.walking_in_burano.data import MAX_PLAYERS, MIN_PLAYERS, ROUND_GUARD
from burano_ai.games.walking_in_burano.position import Options

SHORT_NAME = "python_walking_in_burano"
#: 3N setup deals and the first player, then per round at most 3N refill draws and per turn 1 acquire,
#: 3 places, 1 end, 3 visits, 3 returns; 30 rounds at most (WD-20).
MAX_GAME_LENGTH = 16 + ROUND_GUARD * (15 + MAX_PLAYERS * 11)

GAME_TYPE = openspiel.game_type(SHORT_NAME, "Walking in Burano (burano_ai; placeholder deck PD-1)",
                                information="imperfect", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                                parameters={"players": 2, "public_returns": False, "engine": "auto"})


class WalkingInBuranoGame(openspiel.AdapterGame):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`)."""

    GAME_TYPE = GAME_TYPE
    PACKAGE = __package__
    MAX_GAME_LENGTH = MAX_GAME_LENGTH

    def make_rules(self, params: dict[str, Any]):
        players = self.check_players(params["players"])
        public, engine = params["public_returns"], params["engine"]
        if not isinstance(public, bool):
            raise OptionError(f"{SHORT_NAME}: public_returns must be true or false, not {public!r}")
        return (self.rules_game_class(engine)(players, Options(public_returns=public)),
                {"players": players, "public_returns": public, "engine": engine})


pyspiel.register_game(GAME_TYPE, WalkingInBuranoGame)


def game_for(num_players: int, engine: str = "auto") -> WalkingInBuranoGame:
    """A cached `WalkingInBuranoGame` for wrapping positions."""
    return WalkingInBuranoGame.cached(players=num_players, engine=engine)
