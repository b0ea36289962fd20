"""The move search: SO-ISMCTS over the State API (see `ismcts` for the algorithm).

Modules, in dependency order: `limits` (budgets), `params` (tunables, reward), `tree` (nodes, exported
plans), `pyramid` (the pyramid prior), `ismcts` (the searcher), `result` (SearchResult), `parallel`
(the honest root, root-parallel workers). `burano_ai.engine.suggest` is the entry point.
"""

from .ismcts import (Searcher, estimated_scores, is_pyramid_decision, is_turn_decision, is_turn_start, make_searcher,
                     native_heuristic_rollout, native_rollout, random_rollout)
from .limits import Limit
from .params import Params
from .result import Candidate, PlanStep, SearchResult

__all__ = ["Candidate", "Limit", "Params", "PlanStep", "SearchResult", "Searcher", "estimated_scores",
           "is_pyramid_decision", "is_turn_decision", "is_turn_start", "make_searcher", "native_heuristic_rollout",
           "native_rollout", "random_rollout"]
