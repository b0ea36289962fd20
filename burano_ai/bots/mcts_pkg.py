"""`MctsPkgBot`: the PyPI `mcts` package's UCT on one determinization, a third-party baseline.

An adapter: it imports the `mcts` package at import time, so only the registry imports this module (on
demand, when a ``mcts-pkg`` bot is made).
"""

from __future__ import annotations

import math
import random

import mcts as mcts_package

from burano_ai.search.evaluators import CorePlayout, random_playout
from burano_ai.search.params import Params
from burano_ai.search.rewards import margins, payoff_rewards, rewards
from burano_ai.core.game import payoff_range_of
from burano_ai.core.seeds import derive
from burano_ai.bots.base import Bot, resolve_chance, seat_view
from burano_ai.bots.spec import BotSpec
from burano_ai.games import DEFAULT_GAME

#: Native rollouts: the State's own uniform playout (in C for a compiled State), else `random_playout`.
_UNIFORM_PLAYOUT = CorePlayout("random")


class _PkgState:
    """A determinized State in the interface the `mcts` package expects (camelCase methods)."""

    __slots__ = ("state", "seat", "search")

    def __init__(self, state, seat: int, search: "MctsPkgBot._Search") -> None:
        self.state = state
        self.seat = seat
        self.search = search

    def getCurrentPlayer(self) -> int:   # noqa: N802 (the package's names)
        """1 when the searching seat is to move, else -1 (only newer versions of the package read it)."""
        return 1 if self.state.current_player() == self.seat else -1

    def getPossibleActions(self) -> list[int]:   # noqa: N802
        return self.state.legal_actions()

    def takeAction(self, action: int) -> "_PkgState":   # noqa: N802
        s = self.state.clone()
        s.apply_action(action)
        resolve_chance(s, self.search.rng)
        return _PkgState(s, self.seat, self.search)

    def isTerminal(self) -> bool:   # noqa: N802
        return self.state.is_terminal()

    def getReward(self) -> float:   # noqa: N802
        return self.search.reward(self.state)


class MctsPkgBot(Bot):
    """UCT from the PyPI `mcts` package (``from mcts import mcts``) on one determinization.

    Each decision: resample the hidden information once from the seat's view (one determinized world),
    wrap it in the package's interface (`_PkgState`: getCurrentPlayer / getPossibleActions / takeAction /
    isTerminal / getReward) and run the package's search loop (``mcts.search``: ``executeRound`` until the
    ``iterations`` or the ``time`` budget, whichever ends first, or the owner's stop or cap). Playouts use
    the State's native uniform random playout (``rollout=native``, the compiled core's, in C) or the
    package's own Python `randomPolicy` (``rollout=python``). The reward is our search's reward for the
    searching seat (win share blended with the VP margin, `burano_ai.search.params`).

    Known weaknesses, kept as they are (this bot is a baseline):

    * Sign convention: version 1.0.4 (the one on PyPI) backs up one scalar reward, the searching seat's,
      at every node and maximises it everywhere: opponents are modelled as helping us. Later versions on
      GitHub multiply by ``getCurrentPlayer()`` (+1/-1): a two-player minimax convention that is also
      wrong for 3-4 players (all opponents treated as one). Neither is max^n.
    * No chance nodes: `takeAction` samples chance outcomes once and the child keeps that sample forever
      (the tree is built over one realisation of every draw).
    * No hidden-information handling beyond the single determinization (strategy fusion, and the
      opponents' secret pyramid cubes become tree decisions it can see).
    * Python speed: a node stores a full state copy, selection is pure Python, and a time budget counts
      in the package's milliseconds. Tie-breaks use the global `random` module, which the bot seeds
      before each search and restores afterwards.
    """

    name = "mcts-pkg"

    class _Search:
        def __init__(self, seat: int, seed: int, native: bool) -> None:
            self.seat = seat
            self.rng = random.Random(seed)
            self.native = native
            self.params = Params()

        def reward(self, state) -> float:
            scores = [float(v) for v in state.scores()]
            payoff_range = payoff_range_of(state.game)
            if payoff_range is not None:        # a game of payoffs (chips): expected chips, normalised
                return payoff_rewards(list(state.returns()), payoff_range)[self.seat]
            return rewards(margins(scores), list(state.returns()), self.params)[self.seat]

        def rollout(self, pkg_state: _PkgState) -> float:
            s = pkg_state.state.clone()
            seed = self.rng.getrandbits(31)
            if self.native:
                _UNIFORM_PLAYOUT.play(s, seed)   # the State's own playout where it has one (compiled)
            else:
                random_playout(s, seed)
            return self.reward(s)

    def __init__(self, spec: BotSpec, seed: int, game: str = DEFAULT_GAME) -> None:
        super().__init__(spec, seed, game)
        self._mcts = mcts_package
        o = self.options
        self.iterations_limit = o.get("iterations") if "time" in o else o.get("iterations", 500)
        self.seconds = o.get("time")
        self.c = o.get("c", 1.0 / math.sqrt(2.0))
        self.native = o.get("rollout", "native") == "native"

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        world = seat_view(state, seat).resample(seat, seed)
        search = self._Search(seat, derive(seed, 1), self.native)
        policy = search.rollout if self.native else self._mcts.randomPolicy
        # The package's own loop runs to its limit, unstoppable; this is the same loop (`mcts.search`) with
        # both limits and the owner's stop and cap looked at before every round (one rollout each).
        searcher = self._mcts.mcts(iterationLimit=1, explorationConstant=self.c, rolloutPolicy=policy)
        deadline = self.deadline(self.seconds)
        rounds = self.iterations_limit if self.iterations_limit is not None else 10**9
        saved = random.getstate()
        random.seed(seed)
        try:
            searcher.root = self._mcts.treeNode(_PkgState(world, seat, search), None)
            done = 0
            while done < rounds and (done == 0 or not self.should_stop(deadline)):
                searcher.executeRound()
                done += 1
            action = searcher.getAction(searcher.root, searcher.getBestChild(searcher.root, 0))
        finally:
            random.setstate(saved)
        self.iterations += searcher.root.numVisits
        return int(action)
