"""Every tunable of the search in one place, with the reasoning behind each default.

Reward (what an iteration scores for each seat)
    ``reward = win_weight * win_share + (1 - win_weight) * sigmoid(margin / margin_scale)``
    where ``win_share`` is `returns()` at the end of the game (1/k for each of k tied winners) and
    ``margin`` is the seat's VP minus the best VP among the other seats. The win share is what a
    player is judged by; the margin term keeps the search informative when the win is already
    decided either way (a lost position still prefers losing by 3 to losing by 30) and breaks ties
    between equally winning moves in favour of the larger lead. With the defaults (0.7, 10), a move
    that adds 10 VP of margin is worth about as much as a 10 % higher chance to win.
    At a cut-off (an `evaluator` that stops before the end: `evaluators.HorizonEstimate`,
    `evaluators.LeafEstimate`) the seats' VP are estimates, and the win share goes to the seat(s) with
    the highest estimate. The formula and the estimate live in `burano_ai.search.rewards`.

Exploration
    UCB over rewards in [0, 1] with availability counts (SO-ISMCTS):
    ``mean + exploration * sqrt(ln(avail) / visits)``. The root's constant rises with the search,
    from `exploration` to `root_exploration` (1.4) over the first `root_ramp` (20,000) availabilities of
    a root move (`root_constant`; v0.1 used 0.7 everywhere). A long analysis thus keeps comparing the
    candidate moves, which is what a player reads, while a short search for a move in play keeps its
    iterations on the few moves and the plans that matter. Measured (docs/strength.md): with 0.7 the
    runner-up moves stop receiving visits after ~10,000 iterations; 1.4 from the first iteration had the
    lowest regret on the position suite at 1 s per decision (0.86 points vs 1.14 for 0.7) but lost to
    v0.1 at 0.1 s per decision (Elo −98 [−214, −1] after 20 duplicate pairs), where the wide root left
    too few iterations for the plans; a constant of 1.4 everywhere also found the best last-round line
    later.

Root
    ``root="ucb"`` (the default) chooses the searching seat's move at the root by UCB, as at every other
    node (Exploration above). UCB can starve a move whose value shows only deeper (issue 33): once
    another move is ahead, the starved one never gets the visits that would show its value, and the
    answer depends on the seed. ``root="halving"`` is sequential halving at the root (Gumbel AlphaZero's,
    without a known budget, since searches are often time-limited): every root move is brought to
    `halving_visits` (v0) visits, the alive move with the fewest visits going next (the visits of
    iterations in flight included, so threads spread out; ties: the first in legal order); then the
    better half by mean value stays alive and is brought to the next target, each phase costing about
    v0 x m0 iterations for m0 root moves (`halving_schedule`), until two moves remain, which share the rest
    of the search equally for as long as it runs: the runner-up is never starved. The game's prior orders
    only the root's expansions there (no progressive bias). Below the root nothing changes. A root with one
    move searches as before. The final move is chosen as always (`final_selection`): dropped moves keep
    their few visits and values. `halving_visits` is 16: with 32, the first phase at an Azul root of 25
    moves would not end within the ~700 iterations of a 0.05 s decision. Measured (docs/strength.md, "Session 14: the root"):
    halving finds the starved move of issue 33's kind (a Walking in Burano position: UCB leaves it 1,328
    visits at 0.79 from 8,000 to 20,000 iterations, halving shows it at 0.87, as good as UCB's choice), but
    it makes answers depend more on the seed, not less: at 2,000 iterations 70 of 108 positions split over
    5 seeds against UCB's 58, and 6 of its splits are reported as ties against 39 of UCB's, since it drops
    moves for good on means of 16-100 visits. At equal time (Azul 2p, 0.05 s a decision) the SPRT accepted H0
    after 214 pairs, Elo -0 [-32, +32]. UCB stays the default.

Prior and secret choices
    The searching seat's own decisions where the game has a prior (`State.prior`: Burano's pyramid
    prior) are ordered by it through progressive bias
    ``prior_bias * prior / (visits + 1)`` (the name was ``pyramid_bias``, still accepted). Other seats'
    secret choices (`DecisionMode.SECRET`: Burano's pyramid cubes) are never tree decisions: they are
    sampled from the same prior (as seen from their seat; uniform where the game has none) like chance
    outcomes, which keeps the searching seat from conditioning on choices it cannot see and keeps them
    from reacting to the searcher's. That is a fixed model of the other seats, and a longer search
    best-responds to it harder: in Goofspiel at 3 and 4 players more iterations lost (a 4,000-iteration bot
    won 0.125 of 3-player games against 250-iteration copies). ``secret="ucb"`` chooses each other seat's
    secret choice by its own bandit instead (UCB on that seat's rewards, untried choices first: drawn from
    the prior in the Python tree, in the iteration seed's order in the native one), kept at the node where
    the round of secret choices began and keyed by the seat and its own earlier choices in the round:
    every iteration through the round updates it, the searching seat's own choice of the round is an
    edge below it, so neither reacts to the other's choice (decoupled UCT, as simultaneous-move MCTS
    plays a simultaneous move). Measured in docs/strength.md ("Simultaneous bids").

    UCB chooses deterministically from the bandits' counts, and so does the searching seat's own UCT: both
    read the same history of iterations, and the two can fall into step. On a Goofspiel 2p endgame (seat A
    wins unless B's 11 meets A's 10 in the same round: the game's value for A is 2/3) seat B bid 11 in 15% of
    the iterations where A bid 10 and in 54% where A bid 4, so A valued its 10 at a 0.82 win chance and
    five seeds split between all three bids without reporting a tie. ``secret="exp3"`` draws each other
    seat's choice at random by Exp3 instead, from the iteration's seed: with K legal choices the chance of
    choice a is (1 - gamma) * softmax(eta * G)[a] + gamma / K, eta = gamma / K, where G[a] sums the seat's
    reward divided by the chance it was chosen with (an unbiased estimate of its reward against what the
    others play); untried choices still come first. The draws are independent of the searching seat's
    choice: there B bid 11 in 35% of the iterations whatever A bid, and every seed valued every bid at a
    0.65-0.70 win chance (the test: tests/test_simultaneous.py).

    With either bandit ("ucb" or "exp3"), the round's secret choices that other seats made before the
    searching seat's own (it saw that they chose, not what) are taken back in every sampled world
    (`State.rewind_secret`, where the game has it: Goofspiel), and those seats' bandits at the root choose
    them again, so every seat of the round is modelled alike. Drawn by `resample` from the prior instead,
    they made the later seats' search best-respond to a fixed model of the earlier ones: between equal
    searches the first bidder won 85-92% of 2-player Goofspiel games.

Playout
    An iteration leaving the tree plays the game to its end (a playout) with the compiled core's
    playout in C. ``playout_policy="heuristic"`` (the default) picks each decision by a cheap fixed
    preference (roofs and sales first, builds whose colour can act now, fishing trips by matches,
    ...: Burano's `heuristic_score` in its compiled core), uniformly at random one decision in 8;
    ``playout_policy="random"`` picks uniformly. The heuristic playout is ~1.2-1.5x slower per playout
    but its results say far more about a move: with 400 iterations per decision it won 0.90 of 40
    two-player games against the mcts package's UCT where the uniform playout won 0.60, and it beat
    the uniform playout head to head at equal time (docs/strength.md). Any other leaf evaluation is an
    `evaluator` (`burano_ai.search.evaluators`: a custom Python playout, random play to a horizon and
    an estimate, or an estimate at the leaf).

Final move
    ``final_selection="lcb"`` (the default) suggests, among the moves with at least a tenth of the top
    visits, the one with the highest lower confidence bound of its value (mean - 2 standard errors):
    `burano_ai.search.result.rank_candidates`. Most visits alone ("visits", the classic robust child and
    the search's choice up to v0.1) is a fine rule for one tree, but merged trees of root-parallel
    workers and near ties make it a coin flip between moves whose values differ clearly. Either way the
    suggested move is never dominated (another move with more visits and a higher value).

Tree
    The same algorithm has two implementations (`burano_ai.search.ismcts`): the readable Python
    `Searcher`, and `burano_ai.search._native.NativeSearcher`, which runs whole iterations in C (1.4-2.5x the
    iterations per second mid-game, where playouts dominate; far more where they are short: see
    docs/benchmarks.md). The native tree needs the compiled core and the core's own playout to the
    end of the game (`evaluator` None or a `CorePlayout`: the evaluator's `native_policy`).
    ``tree="auto"`` takes it whenever it can run the search. Only the native tree can be shared by
    several threads (`engine.suggest(threads=...)`, the default there: one thread per usable core).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from burano_ai.core.errors import OptionError
from burano_ai.search.evaluators import PLAYOUT_POLICIES, CorePlayout, Evaluator, function_name
from burano_ai.search.result import TIE_MARGIN

START_METHODS = ("spawn", "fork", "forkserver")
#: `Params.halving_visits`'s default (see "Root" in the module docstring).
HALVING_VISITS = 16
FINAL_SELECTIONS = ("lcb", "visits")
TREES = ("auto", "python", "native")
ROOTS = ("ucb", "halving")
SECRETS = ("prior", "ucb", "exp3")
#: The exploration probability (gamma) of the other seats' Exp3 bandits (secret="exp3") by default.
EXP3_GAMMA = 0.1


@dataclass(frozen=True, init=False)
class Params:
    """Search tunables (see the module docstring for the reward and the pyramid prior).

    Attributes:
        exploration: UCB constant c (rewards lie in [0, 1]).
        root_exploration: UCB constant at the root once the search has run `root_ramp` iterations
            through a root move, or None for `exploration` (see the module docstring).
        root_ramp: availabilities of a root move over which the root's constant rises linearly from
            `exploration` to `root_exploration` (0: `root_exploration` from the start).
        win_weight: weight of the win share in the reward; the rest is the VP-margin term.
        margin_scale: VP margin that moves the margin term from 0.5 to sigmoid(1) = 0.73.
        prior_bias: progressive-bias weight of the game's prior (`State.prior`) for the searching seat's
            decisions (Burano: its pyramid cubes). `pyramid_bias`, its old name, is accepted by the
            constructor and `with_` and readable as an alias.
        playout_policy: policy of the built-in playout (the evaluator when `evaluator` is None):
            "heuristic" or "random" (see the module docstring). It needs a State with a native playout
            (the compiled core); on a State without one (the pure-Python reference model) every
            built-in playout is uniform random in Python (`evaluators.random_playout`), whatever this
            says.
        evaluator: how a leaf is scored (`burano_ai.search.evaluators`); None = the built-in playout,
            ``CorePlayout(playout_policy)``. Must be picklable (its functions module-level or
            `functools.partial`s of them) to be used with several workers.
        start_method: multiprocessing start method for several workers; None = "fork" where the
            platform has it and the process runs a single thread (cheap: no re-import), else "spawn".
        final_selection: how the suggested move is chosen from the root's statistics: "lcb" or "visits"
            (see the module docstring).
        tree: which implementation runs the search (see the module docstring): "auto" = the native
            tree (C) when it can run the search, else the Python tree; "python" = always the Python
            `ismcts.Searcher`; "native" = always the native tree, and an OptionError naming the reason
            when it cannot run the search (an evaluator other than the core's playout, or a root that
            is not a compiled State with the C game interface, `burano_ai.core._game.NativeState`).
            Both give the same kind of result but from different random streams, so the same seed
            gives different (equally valid) searches.
        net: the learned evaluation at the leaves (docs/learning.md): None (the playout alone),
            "builtin" (the net the game ships for the player count, `burano_ai.games.builtin_net`; an
            error where it ships none), "auto" (that net where the game ships one and the native tree
            runs the search, else the playout alone: a game's default search once a net passed its gate)
            or the path of a net file (`burano_ai.search.netfile`). Only the native tree runs a net.
        net_weight: with a net, the weight of its value in a leaf's reward, in (0, 1]: 1 = the net alone
            (no playout), below 1 a blend with the playout's result (both are run).
        root: how the searching seat's moves at the root are chosen (see "Root" in the module docstring):
            "ucb" (UCB with `root_constant`, as at every other node) or "halving" (sequential halving
            without a known budget, `halving_schedule`).
        halving_visits: with root="halving", the visits v0 every root move gets in the first phase (each
            later phase costs about as many iterations as the first: `halving_schedule`).
        tie_margin: a candidate whose value is within this of the suggestion's (0..1) is reported tied with
            it whatever the standard errors (`SearchResult.tied`, `search.result.is_tied`). A search of a
            given budget makes the same moves whatever the margin; only what its answer calls settled
            changes (and so how long `burano suggest` without a budget searches: until no tie remains). A
            game whose independent searches value the same moves further apart sets its own in its default
            search (bench/tie_calibration.py).
        secret: how the other seats' secret simultaneous choices are chosen in the search (see "Prior and
            secret choices" in the module docstring): "prior" (sampled from the game's prior, uniform where it
            has none), "ucb" (each seat's own bandit, shared by every iteration through the round: the
            simultaneous move as decoupled UCT plays it) or "exp3" (the same bandits choosing at random by
            Exp3, so that they cannot fall into step with the searching seat's choices).
        secret_exploration: with secret="ucb", the UCB constant of the other seats' bandits, or None for
            `exploration`; with secret="exp3", their exploration probability gamma in (0, 1], or None for
            EXP3_GAMMA (`secret_c`).
    """

    exploration: float
    root_exploration: float | None
    root_ramp: int
    win_weight: float
    margin_scale: float
    prior_bias: float
    playout_policy: str
    evaluator: Evaluator | None
    start_method: str | None
    tree: str
    final_selection: str
    net: str | None
    net_weight: float
    root: str
    halving_visits: int
    tie_margin: float
    secret: str
    secret_exploration: float | None

    def __init__(self, exploration: float = 0.7, win_weight: float = 0.7, margin_scale: float = 10.0,
                 prior_bias: float = 1.0, playout_policy: str = "heuristic", evaluator: Evaluator | None = None,
                 start_method: str | None = None, tree: str = "auto", final_selection: str = "lcb",
                 root_exploration: float | None = 1.4, root_ramp: int = 20_000, *,
                 pyramid_bias: float | None = None, net: str | None = None, net_weight: float = 1.0,
                 root: str = "ucb", halving_visits: int = HALVING_VISITS, tie_margin: float = TIE_MARGIN,
                 secret: str = "prior", secret_exploration: float | None = None) -> None:
        if pyramid_bias is not None:     # the old name of prior_bias (bot specs, presets, scripts)
            prior_bias = pyramid_bias
        for name, value in (("exploration", exploration), ("root_exploration", root_exploration),
                            ("root_ramp", root_ramp),
                            ("win_weight", win_weight),
                            ("margin_scale", margin_scale), ("prior_bias", prior_bias),
                            ("playout_policy", playout_policy), ("evaluator", evaluator),
                            ("start_method", start_method), ("tree", tree), ("final_selection", final_selection),
                            ("net", net), ("net_weight", net_weight), ("root", root),
                            ("halving_visits", halving_visits), ("tie_margin", tie_margin), ("secret", secret),
                            ("secret_exploration", secret_exploration)):
            object.__setattr__(self, name, value)
        self.validate()

    def validate(self) -> None:
        """Raise OptionError naming the first out-of-range tunable."""
        for name in ("exploration", "win_weight", "margin_scale", "prior_bias"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise OptionError(f"search parameter {name} must be a number, not {value!r}")
        for name in ("root_exploration", "secret_exploration"):     # optional UCB constants
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not math.isfinite(value) or value < 0):
                raise OptionError(f"{name} must be a number >= 0 or None, not {value!r}")
        if self.exploration < 0:
            raise OptionError(f"exploration must be >= 0, not {self.exploration}")
        if isinstance(self.root_ramp, bool) or not isinstance(self.root_ramp, int) or self.root_ramp < 0:
            raise OptionError(f"root_ramp must be a whole number >= 0, not {self.root_ramp!r}")
        if not 0.0 <= self.win_weight <= 1.0:
            raise OptionError(f"win_weight must lie in 0..1, not {self.win_weight}")
        if self.margin_scale <= 0:
            raise OptionError(f"margin_scale must be > 0, not {self.margin_scale}")
        if self.prior_bias < 0:
            raise OptionError(f"prior_bias must be >= 0, not {self.prior_bias}")
        if self.evaluator is not None and not callable(getattr(self.evaluator, "evaluate", None)):
            raise OptionError(f"evaluator must be a burano_ai.search.evaluators.Evaluator (an estimate function "
                              f"goes in LeafEstimate(fn) or HorizonEstimate(turns, fn)), not {self.evaluator!r}")
        if self.start_method is not None and self.start_method not in START_METHODS:
            raise OptionError(f"start_method must be one of {', '.join(START_METHODS)}, not {self.start_method!r}")
        if self.playout_policy not in PLAYOUT_POLICIES:
            raise OptionError(f"playout must be one of {', '.join(PLAYOUT_POLICIES)}, not {self.playout_policy!r}")
        if self.final_selection not in FINAL_SELECTIONS:
            raise OptionError(f"final_selection must be one of {', '.join(FINAL_SELECTIONS)}, "
                              f"not {self.final_selection!r}")
        if self.root not in ROOTS:
            raise OptionError(f"root must be one of {', '.join(ROOTS)}, not {self.root!r}")
        if self.secret not in SECRETS:
            raise OptionError(f"secret must be one of {', '.join(SECRETS)}, not {self.secret!r}")
        if self.secret == "exp3" and self.secret_exploration is not None and not 0 < self.secret_exploration <= 1:
            raise OptionError(f"secret_exploration is Exp3's exploration probability with secret=exp3: it must lie "
                              f"in (0, 1], not {self.secret_exploration!r}")
        if isinstance(self.halving_visits, bool) or not isinstance(self.halving_visits, int) \
                or self.halving_visits < 1:
            raise OptionError(f"halving_visits must be a whole number >= 1, not {self.halving_visits!r}")
        if isinstance(self.tie_margin, bool) or not isinstance(self.tie_margin, (int, float)) \
                or not 0.0 <= self.tie_margin < 1.0:
            raise OptionError(f"tie_margin must lie in [0, 1), not {self.tie_margin!r}")
        if self.tree not in TREES:
            raise OptionError(f"tree must be one of {', '.join(TREES)}, not {self.tree!r}")
        if self.net is not None and (not isinstance(self.net, str) or not self.net):
            raise OptionError(f"net must be 'builtin' or a net file's path, not {self.net!r}")
        if isinstance(self.net_weight, bool) or not isinstance(self.net_weight, (int, float)) \
                or not 0.0 < self.net_weight <= 1.0:
            raise OptionError(f"net_weight must lie in (0, 1], not {self.net_weight!r}")
        if self.net not in (None, "auto") and (self.tree == "python" or self.native_policy is None):
            raise OptionError("a learned evaluation (net) runs only in the native tree with the core's playout: "
                              "it cannot be combined with tree='python' or a Python evaluator")
        if self.tree == "native" and self.native_policy is None:
            raise OptionError(f"tree='native' plays to the end of the game with the core's C playout: "
                              f"{self.evaluator} needs tree='python'")

    @property
    def pyramid_bias(self) -> float:
        """The old name of `prior_bias`."""
        return self.prior_bias

    @property
    def root_c(self) -> float:
        """The UCB constant at the root (`root_exploration`, or `exploration` when that is None)."""
        return self.exploration if self.root_exploration is None else self.root_exploration

    @property
    def leaf_evaluator(self) -> Evaluator:
        """The evaluator the search uses: `evaluator`, or the built-in playout with `playout_policy`."""
        return CorePlayout(self.playout_policy) if self.evaluator is None else self.evaluator

    @property
    def native_policy(self) -> str | None:
        """The core playout policy the native tree would run, or None when the evaluator is Python code."""
        return self.leaf_evaluator.native_policy

    @property
    def native_tree_blocker(self) -> str | None:
        """Why these tunables keep the search off the native tree (whatever the root), or None."""
        if self.native_policy is not None:
            return None
        return f"{self.evaluator} is Python code (the native tree plays out with the core's C playout only)"

    @property
    def secret_c(self) -> float:
        """The exploration of the other seats' bandits: `secret_exploration`, else `exploration` (their UCB
        constant, secret="ucb") or EXP3_GAMMA (their exploration probability, secret="exp3")."""
        if self.secret_exploration is not None:
            return float(self.secret_exploration)
        return EXP3_GAMMA if self.secret == "exp3" else self.exploration

    @property
    def result_note(self) -> str | None:
        """What the search's win chances and VP mean when they are not final results, else None."""
        return self.leaf_evaluator.note

    def with_(self, **changes: Any) -> Params:
        """Return a copy with some tunables changed (validated)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """The tunables as plain data (the evaluator by description)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["evaluator"] = None if self.evaluator is None else _describe(self.evaluator)
        return out


def root_constant(c: float, root_c: float, ramp: float, avail: float) -> float:
    """The UCB constant of a root move available `avail` times: from `c` up to `root_c` over `ramp`."""
    if avail >= ramp:
        return root_c
    return c + (root_c - c) * avail / ramp


def halving_schedule(v0: int, m0: int, phase: int) -> tuple[int, int]:
    """Phase `phase` of sequential halving at the root (`Params.root` = "halving") of `m0` moves with
    `v0` first-phase visits: (m_k, t_k), the moves still alive and the visits each must reach before
    the best half by mean value goes on. m_0 = m0, m_k = max(2, ceil(m_{k-1} / 2)) (never below 2 once
    m0 >= 2); t_0 = v0, t_k = t_{k-1} + ceil(v0 * m0 / m_k), so every phase costs about v0 * m0
    iterations. Once 2 are alive (or m0 <= 2) there is no later phase: they share the rest of the search.
    The native tree runs the same schedule in C (`_native.halving_schedule`)."""
    alive, target = m0, v0
    for _ in range(phase):
        if alive <= 2:
            break
        alive = max(2, (alive + 1) // 2)
        target += (v0 * m0 + alive - 1) // alive
    return alive, target


def _describe(evaluator: Any) -> str:
    """An evaluator as plain data: its class and fields, functions by module and name (else its str)."""
    def value(v: Any) -> str:
        return function_name(v) if callable(v) else repr(v)
    if not is_dataclass(evaluator):
        return str(evaluator)
    parts = ", ".join(f"{f.name}={value(getattr(evaluator, f.name))}" for f in fields(evaluator))
    return f"{type(evaluator).__name__}({parts})"
