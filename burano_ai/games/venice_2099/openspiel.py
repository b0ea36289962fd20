"""OpenSpiel adapter: Venice 2099 as a Python pyspiel game (`python_venice_2099`).

Needs the ``[openspiel]`` extra (``import pyspiel``). Importing this module registers the game::

    import burano_ai.games.venice_2099.openspiel, pyspiel
    game = pyspiel.load_game("python_venice_2099(players=5)")
    state = game.new_initial_state()          # a chance node: the layout of a1 (2 players: the colour left out)

Game type: sequential, explicit stochastic chance (setup only: the 2-player colour removal, the layout
square by square, the deal card by card; spec §10.2), imperfect information (the hands and the
set-aside cards, §9), constant-sum utility (`returns()` are win shares: 1/k to each of the k winners
after the tie-break, summing to 1), terminal rewards (§10.1). Parameters: ``players`` (2-5, default 3),
``engine`` (``auto``/``core``: the compiled core's State is wrapped; ``reference``: the pure-Python
model). The rule flags are the spec's decisions (a wrapped State with other flags plays by its own Game).
Actions are our action ids (689 decisions, §10.6); chance outcomes use 0..48.

Information: ``information_state_string(p)`` is the seat's information-set key of the current position
(`State.information_state_key`: every card it cannot see hidden; compact, not a perfect-recall history);
``observation_string(p)`` is the seat's one-seat view (position JSON). ``resample_from_infostate(p,
sampler)`` draws a seed from the sampler and calls our ``State.resample(p, seed)`` (§10.3's exact
sampler); the result keeps ``information_state_string(p)``. Its OpenSpiel history is the original's: use
it for search, not replay. The out-of-turn rescue (§5.6) is a node whose `current_player` is the
drowning figure's owner. No tensors. The adapter itself is `burano_ai.core.openspiel`'s, shared by
every game.
"""

from __future__ import annotations

import pyspiel

from burano_ai.core import openspiel
from burano_ai.games.venice_2099.data import CARDS_EACH, FIGURES_EACH, GRID, MAX_PLAYERS, MIN_PLAYERS

SHORT_NAME = "python_venice_2099"
#: Setup steps (N^2 + 1 layout and colour steps, the deal) and decisions (§10.8: placements + 5 a turn).
MAX_GAME_LENGTH = 400

GAME_TYPE = openspiel.game_type(SHORT_NAME, "Venice 2099 (burano_ai)", information="imperfect",
                                min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                                parameters={"players": 3, "engine": "auto"})


class Venice2099Game(openspiel.AdapterGame):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`)."""

    GAME_TYPE = GAME_TYPE
    PACKAGE = __package__
    MAX_GAME_LENGTH = MAX_GAME_LENGTH


pyspiel.register_game(GAME_TYPE, Venice2099Game)


def game_for(num_players: int, engine: str = "auto") -> Venice2099Game:
    """A cached `Venice2099Game` for wrapping positions."""
    return Venice2099Game.cached(players=num_players, engine=engine)


# the longest game: 2-player colour + N^2 tiles + the deal, placements, and per turn a move step of up to
# two moves (VD-4's alternative), a buy, a card and a rescue
assert all(1 + GRID[n] ** 2 + n * CARDS_EACH[n] + n * FIGURES_EACH[n] + 5 * n * CARDS_EACH[n] < MAX_GAME_LENGTH
           for n in GRID)
