"""OpenSpiel adapter: Azul: Stained Glass of Sintra as a Python pyspiel game (`python_azul_sintra`).

Needs the ``[openspiel]`` extra (``import pyspiel``). Importing this module registers the game::

    import burano_ai.games.azul_sintra.openspiel, pyspiel
    game = pyspiel.load_game("python_azul_sintra(players=3,side=B)")
    state = game.new_initial_state()          # a chance node: setup lays the first strip

Game type: sequential, explicit stochastic chance (setup and the factory draws are chance nodes, spec
§11.2), **perfect information** (§11.1: like backgammon), constant-sum utility (`returns()` are win
shares: 1/k to each of the k winners, summing to 1), terminal rewards. Parameters: ``players`` (2-4,
default 2), ``side`` (A or B), ``engine`` (``auto``/``core``: the compiled core's State is wrapped;
``reference``: the pure-Python model). The placeholder component data is used (there is no data
parameter). Actions are our action ids (`rules`: 456 decisions; chance outcomes share the ids 0..7).
``information_state_string(p)`` is our information-set key (the whole position: nothing is hidden);
``resample_from_infostate`` is a copy; ``observation_string(p)`` is the position JSON. No tensors.
The adapter itself is `burano_ai.core.openspiel`'s, shared by every game.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from burano_ai.core import openspiel
from burano_ai.core.errors import OptionError
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.data import FACTORIES, MAX_PLAYERS, MIN_PLAYERS

SHORT_NAME = "python_azul_sintra"
#: Setup steps (6 + 16 per seat), draws (at most 24 per factory) and decisions (48F + 16N, §11.5), with room.
MAX_GAME_LENGTH = 2000

GAME_TYPE = openspiel.game_type(SHORT_NAME, "Azul: Stained Glass of Sintra (burano_ai; placeholder data)",
                                information="perfect", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                                parameters={"players": 2, "side": "A", "engine": "auto"})


class AzulSintraGame(openspiel.AdapterGame):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`)."""

    GAME_TYPE = GAME_TYPE
    PACKAGE = __package__
    MAX_GAME_LENGTH = MAX_GAME_LENGTH

    def make_rules(self, params: dict[str, Any]):
        players = self.check_players(params["players"])
        side, engine = params["side"], params["engine"]
        if side not in rules.SIDES:
            raise OptionError(f"{SHORT_NAME}: side must be A or B, not {side!r}")
        return self.rules_game_class(engine)(players, side), {"players": players, "side": side, "engine": engine}

    def check_rules(self, rules_game) -> None:
        """`AdapterGame.check_rules`, naming the option: a `joker_choice` Game has 856 actions, more than
        the 456 declared."""
        if rules_game.flags.joker_choice:
            raise OptionError(f"{SHORT_NAME} declares the {rules.NUM_ACTIONS} actions of the spec's rules: a game "
                              f"with the joker_choice option ({rules.NUM_ACTIONS_JOKER_CHOICE} actions) cannot be "
                              "played through OpenSpiel")
        super().check_rules(rules_game)


pyspiel.register_game(GAME_TYPE, AzulSintraGame)


def game_for(num_players: int, engine: str = "auto", side: str = "A") -> AzulSintraGame:
    """A cached `AzulSintraGame` for wrapping positions."""
    return AzulSintraGame.cached(players=num_players, side=side, engine=engine)


assert all(FACTORIES[n] * 48 + 16 * n + 6 + 16 * n + 24 * FACTORIES[n] < MAX_GAME_LENGTH for n in FACTORIES)
