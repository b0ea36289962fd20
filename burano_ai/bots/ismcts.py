"""`IsmctsBot`: our SO-ISMCTS (`burano_ai.engine.suggest`) behind the bot interface."""

from __future__ import annotations

from typing import Any

from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.search.evaluators import HorizonEstimate
from burano_ai.search.limits import DEFAULT_BOT_ITERATIONS, Limit
from burano_ai.search.netfile import eval_to_net
from burano_ai.search.params import Params
from burano_ai.bots.base import Bot
from burano_ai.bots.presets import get_preset
from burano_ai.bots.spec import BotSpec


class IsmctsBot(Bot):
    """Our SO-ISMCTS (`burano_ai.engine.suggest`) with the spec's budget and tunables.

    The search starts from the seat's view and resamples hidden information itself. Each decision's
    search is seeded from the bot's seed and the decision counter. It runs one thread unless the spec
    says ``threads=T`` (one shared tree, not reproducible), so that arena games replay exactly. With
    ``preset=NAME`` the search starts from that frozen version's tunables (`burano_ai.bots.presets`)
    instead of the game's default search (`Params(**GameSpec.search_defaults)`); the spec's other keys
    override them.
    """

    name = "ismcts"

    def __init__(self, spec: BotSpec, seed: int, game: str = DEFAULT_GAME) -> None:
        super().__init__(spec, seed, game)
        o = self.options
        iterations = o.get("iterations")
        seconds = o.get("time")
        if iterations is None and seconds is None:
            iterations = DEFAULT_BOT_ITERATIONS
        self.limit = Limit(iterations=iterations, seconds=seconds)
        self.workers = o.get("workers", 1)
        self.threads = o.get("threads", 1)
        if self.threads > 1 and self.workers > 1:
            raise OptionError(f"bot spec {self.spec!r}: threads shares one tree and workers runs separate trees: "
                              "choose one of them")
        changes: dict[str, Any] = {}
        for key, param in (("c", "exploration"), ("root_c", "root_exploration"), ("root_ramp", "root_ramp"),
                           ("final", "final_selection"), ("root", "root"), ("halving_visits", "halving_visits"),
                           ("secret", "secret"), ("secret_c", "secret_exploration"), ("win_weight", "win_weight"), ("margin", "margin_scale"),
                           ("pyramid_bias", "pyramid_bias"), ("playout", "playout_policy"), ("tree", "tree")):
            if key in o:
                changes[param] = o[key]
        if o.get("playout") == "heuristic" and "horizon" in o:
            raise OptionError(f"bot spec {self.spec!r}: playout=heuristic cannot be combined with horizon "
                              "(play to a horizon is uniform random)")
        if "eval" in o:
            changes["net"] = eval_to_net(o["eval"])
        if "net_weight" in o:
            changes["net_weight"] = o["net_weight"]
        try:
            if "horizon" in o:
                changes["evaluator"] = HorizonEstimate(o["horizon"])
            base = Params(**get_preset(o["preset"]).params) if "preset" in o else \
                Params(**get_spec(self.game).search_defaults)
            self.params = base.with_(**changes)
        except OptionError as exc:
            raise OptionError(f"bot spec {self.spec!r}: {exc}") from None

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        from burano_ai.engine import suggest
        from burano_ai.search.parallel import game_factory_for
        limit = self.limit
        if self.max_seconds is not None and (limit.seconds is None or limit.seconds > self.max_seconds):
            limit = Limit(iterations=limit.iterations, seconds=self.max_seconds)   # the owner's cap: sooner
        result = suggest(state, seat=seat, limit=limit, params=self.params, seed=seed, workers=self.workers,
                         threads=self.threads, game_factory=game_factory_for(state),
                         stop=self.stop_event if self.workers == 1 else None)
        self.iterations += result.iterations
        return result.action
