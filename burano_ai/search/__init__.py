"""The move search: SO-ISMCTS over the State API (see `ismcts` for the algorithm).

Modules, in dependency order: `limits` (budgets), `rewards` (win shares, margins, the reward, the VP
estimate), `evaluators` (how a leaf is scored: playouts, horizon, estimate), `params` (tunables, and
why), `tree` (nodes, exported plans), `ismcts` (the searcher), `result` (SearchResult), `parallel`
(the honest root, root-parallel workers); `_native` is the tree in C. `burano_ai.engine.suggest` is the
entry point. The search reaches a game only through the State Protocol (`burano_ai.core.game`) and,
in C, the C game interface (`burano_ai.core._game`): it imports no game.
"""

from burano_ai.search.evaluators import (
    CorePlayout,
    Evaluator,
    HorizonEstimate,
    LeafEstimate,
    PythonPlayout,
    play_to_horizon,
    random_playout,
)
from burano_ai.search.ismcts import (
    Searcher,
    is_secret_decision,
    make_searcher,
)
from burano_ai.search.limits import Limit
from burano_ai.search.params import Params
from burano_ai.search.result import Candidate, PlanStep, SearchResult
from burano_ai.search.rewards import estimated_scores

__all__ = ["Candidate", "CorePlayout", "Evaluator", "HorizonEstimate", "LeafEstimate", "Limit", "Params", "PlanStep",
           "PythonPlayout", "SearchResult", "Searcher", "estimated_scores", "is_secret_decision", "make_searcher",
           "play_to_horizon", "random_playout"]
