"""Game-playing bots behind one interface, made from spec strings (`make_bot("ismcts:iterations=2000", seed)`).

A bot chooses the action of the seat to move: ``bot.step(state) -> action id``; ``bot.restart()`` returns
it to the state it was made in (same seed, counters cleared) before a new game. Bots see the position
only as their seat may: every bot that looks beyond the legal moves starts from the seat's one-seat view
(`seat_view`), so opponents' blind cards and secret pyramid cubes never
reach it. Chance is not a bot's business: whoever runs the game (the arena) samples chance outcomes.

Spec strings: ``name`` or ``name:key=value,key=value``. Bots and their keys:

==================  ======================================================================================
``random``          uniform over the legal actions. No keys.
``greedy``          one move ahead with a fixed heuristic (see `GreedyBot`). Keys: ``samples`` (chance
                    completions averaged per move, 3), ``depth`` (sub-decisions followed, 4).
``ismcts``          our SO-ISMCTS through `burano_ai.engine.suggest`. Keys: ``iterations`` (default 1000
                    when no budget is given), ``time`` (seconds per decision), ``workers`` (root-parallel
                    processes, 1), ``c`` (exploration), ``win_weight``, ``margin`` (margin_scale),
                    ``pyramid_bias``, ``horizon`` (horizon_turns), ``playout`` (heuristic | random),
                    ``tree`` (auto | python | native; see `burano_ai.search.params`).
``mcts-pkg``        the PyPI `mcts` package's UCT on one determinization (see `MctsPkgBot`). Keys:
                    ``iterations`` (500 when no budget is given) or ``time``, ``c``,
                    ``rollout`` (native | python).
``openspiel-ismcts``  OpenSpiel's Python `ISMCTSBot` through `burano_ai.openspiel`. Keys: ``iterations``
                    (500 when no budget is given), ``time``, ``c``, ``evaluator`` (native | random),
                    ``rollouts``, ``final`` (max-visit | normalized | max-value), ``worlds``,
                    ``inconsistent`` (allow inconsistent action sets: 0 | 1).
``openspiel-mcts``  OpenSpiel's Python `MCTSBot` on one determinization. Keys: ``iterations`` (500),
                    ``c``, ``evaluator``, ``rollouts``, ``solve`` (0 | 1). No ``time``: OpenSpiel's MCTS
                    counts simulations only.
==================  ======================================================================================

Numbers accept ``_`` separators (``iterations=20_000``). Every bad spec raises `OptionError` naming the
bad part. Every random choice derives from the bot's seed and a decision counter, so a bot with an
iteration budget plays the same moves for the same seed (a ``time`` budget does not: it depends on the
machine).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import OptionError
from .search.ismcts import margins, rewards, sample_chance
from .seeds import derive
from .search.limits import DEFAULT_ITERATIONS, Limit
from .search.params import Params


# Phases of the State API (same numbers in the reference and the compiled core).
_TURN = 2
#: Phases that continue a move of the turn: sail, draw, send, port trade, lace, recall, roof bonus.
_SUB_DECISION_PHASES = frozenset(range(3, 10))


# ------------------------------------------------------------------------------------------------
# Spec strings


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec: bot `name` and its `options` (already converted to numbers/strings)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def canonical(self) -> str:
        """The spec as text with its keys in a fixed order (`ismcts:iterations=2000,workers=2`)."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_format_value(v)}" for k, v in sorted(self.options.items()))

    def budget(self) -> tuple[str, float] | None:
        """("iterations", n) or ("time", s) for a search bot with an explicit budget, else None."""
        if "iterations" in self.options:
            return ("iterations", float(self.options["iterations"]))
        if "time" in self.options:
            return ("time", float(self.options["time"]))
        return None


def _format_value(v: Any) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _positive_int(name: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text.replace("_", ""))
        except ValueError:
            raise ValueError(f"{name} must be a whole number, not {text!r}") from None
        if v < 1:
            raise ValueError(f"{name} must be at least 1, not {v}")
        return v
    return parse


def _number(name: str, low: float | None = None, high: float | None = None,
            strict_low: bool = False) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            v = float(text.replace("_", ""))
        except ValueError:
            raise ValueError(f"{name} must be a number, not {text!r}") from None
        if not math.isfinite(v):
            raise ValueError(f"{name} must be a finite number, not {text!r}")
        if low is not None and (v <= low if strict_low else v < low):
            raise ValueError(f"{name} must be {'>' if strict_low else '>='} {low:g}, not {text}")
        if high is not None and v > high:
            raise ValueError(f"{name} must be <= {high:g}, not {text}")
        return v
    return parse


def _choice(name: str, *choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        t = text.strip().lower()
        if t not in choices:
            raise ValueError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
        return t
    return parse


def _flag(name: str) -> Callable[[str], bool]:
    def parse(text: str) -> bool:
        t = text.strip().lower()
        if t in ("1", "true", "yes", "on"):
            return True
        if t in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{name} must be 0 or 1, not {text!r}")
    return parse


_TIME = _number("time", low=0.0, strict_low=True)
_OPENSPIEL_KEYS = {
    "iterations": _positive_int("iterations"),
    "c": _number("c", low=0.0),
    "evaluator": _choice("evaluator", "native", "random"),
    "rollouts": _positive_int("rollouts"),
}

#: Keys each bot accepts and how each value is parsed.
BOT_KEYS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "greedy": {"samples": _positive_int("samples"), "depth": _positive_int("depth")},
    "ismcts": {
        "iterations": _positive_int("iterations"),
        "time": _TIME,
        "workers": _positive_int("workers"),
        "c": _number("c", low=0.0),
        "win_weight": _number("win_weight", low=0.0, high=1.0),
        "margin": _number("margin", low=0.0, strict_low=True),
        "pyramid_bias": _number("pyramid_bias", low=0.0),
        "horizon": _positive_int("horizon"),
        "playout": _choice("playout", "heuristic", "random"),
        "tree": _choice("tree", "auto", "python", "native"),
    },
    "mcts-pkg": {
        "iterations": _positive_int("iterations"),
        "time": _TIME,
        "c": _number("c", low=0.0),
        "rollout": _choice("rollout", "native", "python"),
    },
    "openspiel-ismcts": {
        **_OPENSPIEL_KEYS,
        "time": _TIME,
        "final": _choice("final", "max-visit", "normalized", "max-value"),
        "worlds": _positive_int("worlds"),
        "inconsistent": _flag("inconsistent"),
    },
    "openspiel-mcts": {**_OPENSPIEL_KEYS, "solve": _flag("solve")},
}
#: Bots that accept a wall-clock budget per decision (`time`), e.g. from the arena's --time-per-move.
TIMED_BOTS = frozenset({"ismcts", "mcts-pkg", "openspiel-ismcts"})


def parse_bot_spec(spec: str) -> BotSpec:
    """Parse ``name[:key=value,...]`` and check the name, the keys and every value.

    Raises:
        OptionError: unknown bot, unknown or repeated key, missing ``=``, or a bad value; the message
            names the spec and the bad part.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"empty bot spec {spec!r}: expected a bot name such as {', '.join(BOT_KEYS)}")
    text = spec.strip()
    name, colon, rest = text.partition(":")
    name = name.strip().lower()
    if name not in BOT_KEYS:
        raise OptionError(f"unknown bot {name!r} in spec {text!r} (known bots: {', '.join(BOT_KEYS)})")
    keys = BOT_KEYS[name]
    options: dict[str, Any] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key = key.strip().lower()
            if not eq or not key or not value.strip():
                raise OptionError(f"bot spec {text!r}: {part.strip()!r} is not key=value")
            if key not in keys:
                known = ", ".join(keys) if keys else "none"
                raise OptionError(f"bot spec {text!r}: unknown key {key!r} for {name} (known keys: {known})")
            if key in options:
                raise OptionError(f"bot spec {text!r}: key {key!r} given twice")
            try:
                options[key] = keys[key](value.strip())
            except ValueError as exc:
                raise OptionError(f"bot spec {text!r}: {exc}") from None
    elif colon:
        raise OptionError(f"bot spec {text!r}: nothing after ':' (drop the ':' or add key=value)")
    if name == "mcts-pkg" and "iterations" in options and "time" in options:
        raise OptionError(f"bot spec {text!r}: the mcts package takes iterations or time, not both")
    return BotSpec(name, options, text)


def with_time_per_move(spec: BotSpec, seconds: float | None) -> BotSpec:
    """The spec with ``time=seconds`` added when the bot takes a time budget and has none of its own."""
    if seconds is None or spec.name not in TIMED_BOTS or spec.budget() is not None:
        return spec
    return BotSpec(spec.name, {**spec.options, "time": float(seconds)}, spec.text)


# ------------------------------------------------------------------------------------------------
# The interface


class Bot:
    """Base class: one seat's player. Subclasses implement `_choose`.

    Attributes:
        spec: the canonical spec string the bot was made from.
        seed: its seed.
        decisions: decisions taken since the last restart (forced moves included if asked).
        iterations: search iterations run since the last restart (0 for bots that do not search).
    """

    name = "bot"

    def __init__(self, spec: BotSpec, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"a bot seed must be an integer, not {seed!r}")
        self.spec = spec.canonical()
        self.options = dict(spec.options)
        self.seed = seed
        self.decisions = 0
        self.iterations = 0

    def restart(self) -> None:
        """Forget everything of the previous game: back to the state the bot was made in."""
        self.decisions = 0
        self.iterations = 0

    def step(self, state) -> int:
        """Return the action id the seat to move at `state` plays (`state` is not modified)."""
        seat = state.current_player()
        if seat < 0:
            raise ValueError(f"{self.spec}: no decision to take (current player {seat})")
        decision_seed = derive(self.seed, self.decisions, 0xB07)
        self.decisions += 1
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self._choose(state, seat, legal, decision_seed)

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} seed={self.seed}>"


def seat_view(state, seat: int):
    """The seat's one-seat view of `state`, loaded back as a State by the state's own Game.

    Loading a view fills the hidden parts with a sample that depends on the view alone (as the search's
    `canonical_root` does), so positions the seat cannot tell apart give the same view, bit for bit.
    """
    game = getattr(state, "game", None)
    if game is None or not hasattr(game, "state_from_json"):
        from .search.parallel import canonical_root
        return canonical_root(state, seat)
    return game.state_from_json(state.to_json(seat))


class RandomBot(Bot):
    """Uniformly random over the legal actions."""

    name = "random"

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        return legal[random.Random(seed).randrange(len(legal))]


# ------------------------------------------------------------------------------------------------
# Greedy


#: Heuristic weights of `greedy_value` (VP-equivalents).
PREP_CUBE_VALUE = 0.3
WORKER_OFF_RING_VALUE = 0.4
COINS_PER_VP = 5.0


def greedy_value(state, seat: int) -> float:
    """The greedy heuristic: what `seat` holds now, in VP.

    ``VP + (coins + privilege) / 5 + fish cards in hand (1 VP each at the end)
    + 0.3 per cube in the preparation area + 0.4 per worker off the ring`` (on an island or in the
    workshop: majorities and lace scoring to come). Only the seat's own holdings are read.
    """
    pl = state.players[seat]
    workers_off = state.workers_off_ring(seat) if hasattr(state, "workers_off_ring") else 0
    return (pl.vp + (pl.coins + pl.privilege) / COINS_PER_VP + sum(pl.hand_known) + sum(pl.hand_blind)
            + PREP_CUBE_VALUE * sum(pl.prep) + WORKER_OFF_RING_VALUE * workers_off)


class GreedyBot(Bot):
    """One move ahead with `greedy_value`.

    For each legal action: apply it to a copy of the seat's view, resolve chance by sampling, then, while
    the same move asks the seat for a follow-up (sail, draw, send, trade, lace, recall, roof bonus; at most
    `depth` of them), take the follow-up with the best immediate value; score the result with
    `greedy_value`. An action followed by chance or follow-ups is scored as the mean of `samples` such
    completions. The best action wins; ties go to a seeded random pick. It never reads what its seat
    cannot see: it works on the seat's view (`seat_view`), whose hidden parts are a sample.
    """

    name = "greedy"

    def __init__(self, spec: BotSpec, seed: int) -> None:
        super().__init__(spec, seed)
        self.samples = self.options.get("samples", 3)
        self.depth = self.options.get("depth", 4)

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        world = seat_view(state, seat)
        rng = random.Random(seed)
        best: list[int] = []
        best_value = -math.inf
        for action in legal:
            value = self._action_value(world, seat, action, rng)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _action_value(self, world, seat: int, action: int, rng: random.Random) -> float:
        after = world.clone()
        after.apply_action(action)
        if not after.is_chance_node() and not self._is_follow_up(after, seat):
            return greedy_value(after, seat)
        total = 0.0
        for _ in range(self.samples):
            s = after.clone()
            _resolve_chance(s, rng)
            total += self._finish_move(s, seat, rng)
        return total / self.samples

    def _is_follow_up(self, state, seat: int) -> bool:
        return state.current_player() == seat and state.phase in _SUB_DECISION_PHASES

    def _finish_move(self, state, seat: int, rng: random.Random) -> float:
        steps = 0
        while steps < self.depth and self._is_follow_up(state, seat):
            best_state, best_value = None, -math.inf
            for b in state.legal_actions():
                s = state.clone()
                s.apply_action(b)
                _resolve_chance(s, rng)
                v = greedy_value(s, seat)
                if v > best_value:
                    best_state, best_value = s, v
            state = best_state
            steps += 1
        return greedy_value(state, seat)


def _resolve_chance(state, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))


# ------------------------------------------------------------------------------------------------
# Our ISMCTS


class IsmctsBot(Bot):
    """Our SO-ISMCTS (`burano_ai.engine.suggest`) with the spec's budget and tunables.

    The search starts from the seat's view and resamples hidden information itself. Each decision's
    search is seeded from the bot's seed and the decision counter.
    """

    name = "ismcts"

    def __init__(self, spec: BotSpec, seed: int) -> None:
        super().__init__(spec, seed)
        o = self.options
        iterations = o.get("iterations")
        seconds = o.get("time")
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.limit = Limit(iterations=iterations, seconds=seconds)
        self.workers = o.get("workers", 1)
        changes: dict[str, Any] = {}
        for key, param in (("c", "exploration"), ("win_weight", "win_weight"), ("margin", "margin_scale"),
                           ("pyramid_bias", "pyramid_bias"), ("horizon", "horizon_turns"), ("playout", "playout"),
                           ("tree", "tree")):
            if key in o:
                changes[param] = o[key]
        if o.get("playout") == "heuristic" and "horizon_turns" in changes:
            raise OptionError(f"bot spec {self.spec!r}: playout=heuristic cannot be combined with horizon "
                              "(play to a horizon is uniform random)")
        try:
            self.params = Params().with_(**changes)
        except OptionError as exc:
            raise OptionError(f"bot spec {self.spec!r}: {exc}") from None

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        from .engine import suggest
        from .search.parallel import game_factory_for
        result = suggest(state, seat=seat, limit=self.limit, params=self.params, seed=seed, workers=self.workers,
                         game_factory=game_factory_for(state))
        self.iterations += result.iterations
        return result.action


# ------------------------------------------------------------------------------------------------
# The PyPI `mcts` package


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
        _resolve_chance(s, self.search.rng)
        return _PkgState(s, self.seat, self.search)

    def isTerminal(self) -> bool:   # noqa: N802
        return self.state.is_terminal()

    def getReward(self) -> float:   # noqa: N802
        return self.search.reward(self.state)


class MctsPkgBot(Bot):
    """UCT from the PyPI `mcts` package (``from mcts import mcts``) on one determinization.

    Each decision: resample the hidden information once from the seat's view (one determinized world),
    wrap it in the package's interface (`_PkgState`: getCurrentPlayer / getPossibleActions / takeAction /
    isTerminal / getReward) and run ``mcts(iterationLimit=...)`` or ``mcts(timeLimit=...)``. Playouts use
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
            return rewards(margins(scores), list(state.returns()), self.params)[self.seat]

        def rollout(self, pkg_state: _PkgState) -> float:
            s = pkg_state.state.clone()
            seed = self.rng.getrandbits(31)
            if self.native and callable(getattr(s, "rollout", None)):
                s.rollout(seed, "random")
            else:
                from .search.ismcts import random_rollout
                random_rollout(s, seed)
            return self.reward(s)

    def __init__(self, spec: BotSpec, seed: int) -> None:
        super().__init__(spec, seed)
        try:
            import mcts as mcts_package
        except ImportError as exc:
            raise OptionError(f"bot {self.spec!r} needs the PyPI package 'mcts' (pip install mcts): {exc}") from None
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
        if self.seconds is not None:
            searcher = self._mcts.mcts(timeLimit=self.seconds * 1000.0, explorationConstant=self.c,
                                       rolloutPolicy=policy)
        else:
            searcher = self._mcts.mcts(iterationLimit=self.iterations_limit, explorationConstant=self.c,
                                       rolloutPolicy=policy)
        saved = random.getstate()
        random.seed(seed)
        try:
            action = searcher.search(initialState=_PkgState(world, seat, search))
        finally:
            random.setstate(saved)
        self.iterations += searcher.root.numVisits
        return int(action)


# ------------------------------------------------------------------------------------------------
# Factory


def _openspiel_bot(kind: str) -> Callable[[BotSpec, int], Bot]:
    def make(spec: BotSpec, seed: int) -> Bot:
        try:
            from . import openspiel
        except ImportError as exc:
            raise OptionError(f"bot {spec.name!r} needs OpenSpiel: pip install 'burano-ai[openspiel]' "
                              f"({exc})") from None
        cls = openspiel.OpenSpielISMCTSBot if kind == "ismcts" else openspiel.OpenSpielMCTSBot
        return cls(spec, seed)
    return make


BOT_FACTORIES: dict[str, Callable[[BotSpec, int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": IsmctsBot,
    "mcts-pkg": MctsPkgBot,
    "openspiel-ismcts": _openspiel_bot("ismcts"),
    "openspiel-mcts": _openspiel_bot("mcts"),
}


def make_bot(spec: str | BotSpec, seed: int = 0) -> Bot:
    """Make a bot from a spec string (see the module docstring) or a parsed `BotSpec`.

    Raises:
        OptionError: a bad spec, a bad seed, or a bot whose package is not installed.
    """
    parsed = spec if isinstance(spec, BotSpec) else parse_bot_spec(spec)
    return BOT_FACTORIES[parsed.name](parsed, seed)


def check_bot_spec(spec: str) -> BotSpec:
    """Parse a spec and make its bot once (so a missing package is reported before a tournament)."""
    parsed = parse_bot_spec(spec)
    make_bot(parsed, 0)
    return parsed
