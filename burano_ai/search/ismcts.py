"""Single-observer information-set MCTS (SO-ISMCTS) for one seat, over the State API only.

One iteration:

1. **Determinize**: ``world = root.resample(seat, iteration_seed)`` — a full world consistent with what
   the searching seat knows. The root itself is built from the seat's one-seat view
   (`burano_ai.search.parallel.canonical_root`), so nothing hidden from the seat can reach the search.
2. **Select / expand** down one tree keyed by action ids. At a decision node only the actions legal in
   this world are available; each available child's availability count goes up by one, and UCB uses
   it in place of the parent's visits: ``mean + c * sqrt(ln(avail) / visits)``. While a node has
   untried legal actions, one of them is expanded (picked by the iteration seed, or drawn from the
   game's prior, `State.prior`) and the iteration leaves the tree. Forced moves (a single legal action) get nodes
   too, so that plans read in full, but do not end the descent. Every seat's public decisions are
   nodes of the same tree, each edge scored for the seat that chose it.
3. **Chance** outcomes are sampled with their probabilities from the iteration's RNG and are *not*
   tree edges: the node after a draw merges all its outcomes (open-loop over chance). For the
   opponents' blind draws this is exactly the searching seat's information-set view; for public
   refills, marker shuffles and the seat's own blind draws it is an approximation that keeps the
   tree narrow (the seat's later choices in the turn are averaged over what it might draw).
4. **Secret choices** (`State.decision_mode()` is `DecisionMode.SECRET`: Burano's pyramid cubes):
   other seats' choices are sampled from the game's prior (`State.prior`, uniform where it has none)
   and are not edges either, so neither side conditions on a choice it cannot see. The searching
   seat's own choices are tree decisions, with progressive bias where the game has a prior. With
   `Params.secret` "ucb" or "exp3" another seat's choice is made by its own bandit instead (`Searcher.secret_choice`),
   kept at the node where the round of secret choices began, so it still sees no choice of the round;
   the round's choices made before the seat's are then taken back in each sampled world
   (`State.rewind_secret`, where the game has it) and made again by their seats' bandits at the root.
5. **Leaf evaluation** by the `Params` evaluator (`burano_ai.search.evaluators`): by default a playout
   from the leaf to the end of the game with the State's own playout and the `Params.playout_policy`
   (the compiled core's, in C; "heuristic" by default) — uniform random in Python on a State without
   one; or a custom Python playout; or — with a horizon — random play until the seat has finished
   that many turns (the tree descent stops there too), then an estimate of the final VP; or an
   estimate at the leaf. A turn ends across an edge chosen in the open (`DecisionMode.OPEN`) whose
   `State.turn_id()` changes (plans stop there too).
6. **Backpropagate** the reward vector (`burano_ai.search.rewards`; why: `burano_ai.search.params`). In a
   game whose utility model is "payoff" (`core.game.UTILITY_MODELS`: poker's chips) the reward is the
   seat's payoff normalised to 0..1 by the game's payoff range (`payoff_rewards`), so the search
   maximises expected chips rather than the chance to take the pot; its scores are those chips.

Randomness: iteration `i` of a search seeded `s` uses ``iteration_seed(s, i)`` for its resample, its
in-tree sampling and its leaf evaluation, so a search is a pure function of (root view, seat, params, seed,
iterations) — on one thread; threads sharing the native tree keep the iteration seeds but not the
order in which iterations see each other's statistics (`burano_ai.search._native`).

The search reads a game through the State Protocol only (`burano_ai.core.game`), never a game's
module. Implementations: `Searcher` below is the readable reference of this algorithm;
`burano_ai.search._native.NativeSearcher` runs the same iterations in C (whole iterations without the GIL, its
own random streams from the same iteration seeds) for searches it supports. `make_searcher` picks one
(`Params.tree`).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable

from burano_ai.core.game import NO_TURN, DecisionMode, payoff_range_of
from burano_ai.core.seats import CHANCE, TERMINAL
from burano_ai.core.errors import OptionError
from burano_ai.core.seeds import derive, mix64
from burano_ai.games import implementation_of
from burano_ai.search.evaluators import sample_chance_cumulative, sample_weighted
from burano_ai.search.params import Params, halving_schedule, root_constant
from burano_ai.search.rewards import margins, payoff_rewards, rewards, top_shares
from burano_ai.search.tree import NO_CHANCE, Node, check_root, export_plan

SECRET = DecisionMode.SECRET
OPEN = DecisionMode.OPEN


def is_secret_decision(state) -> bool:
    """True when the seat to move makes a secret simultaneous choice (Burano: a pyramid cube)."""
    return state.current_player() >= 0 and state.decision_mode() == SECRET


def worker_seed(seed: int, worker: int) -> int:
    """Seed of root-parallel worker `worker` of a search seeded `seed`."""
    return mix64(seed, worker, 0x5EA4C4)


def iteration_seed(search_seed: int, iteration: int) -> int:
    """Seed of one iteration (31 bits, accepted by every `resample` and playout)."""
    return derive(search_seed, iteration)


# ------------------------------------------------------------------------------------------------
# The search


def exp3_chances(gains: list[float], gamma: float) -> list[float]:
    """Exp3's chances of K choices with summed importance-weighted rewards `gains` and exploration
    probability `gamma`: (1 - gamma) * softmax(eta * gains) + gamma / K, eta = gamma / K (Auer et al.
    2002). The native tree's `_native.exp3_chances_c` computes the same."""
    k = len(gains)
    eta = gamma / k
    top = max(gains)
    weights = [math.exp(eta * (g - top)) for g in gains]
    total = sum(weights)
    return [(1.0 - gamma) * w / total + gamma / k for w in weights]


class Searcher:
    """An SO-ISMCTS search for `seat` from `root` (the seat's canonical view; never modified).

    Args:
        root: a state where `seat` is to move (a decision, not chance, not terminal).
        seat: the searching seat.
        params: tunables.
        seed: this search's seed; iteration seeds derive from it (`iteration_seed`).
        root_actions: the root moves the search may choose (action ids; allowMoves / avoidMoves), or
            None for every legal move. (The root's legal moves are the seat's to know, so the same in
            every world; were none of them legal in one, the root would offer all of them.)

    Raises:
        PositionError: the root is terminal, a chance node, or `seat` has no legal action there
            (`tree.check_root`).
        ValueError: `seat` is not to move at the root.
    """

    def __init__(self, root, seat: int, params: Params | None = None, seed: int = 0,
                 root_actions=None) -> None:
        seat = check_root(root, seat)
        if params is not None and params.net not in (None, "auto"):
            raise OptionError("a learned evaluation (net) runs only in the native tree: the root must be a "
                              "compiled State (burano_ai.core._game.NativeState)")
        self.root_actions = None if root_actions is None else frozenset(root_actions)
        self.root_state = root
        self.seat = seat
        self.num_players = root.num_players
        self.params = params or Params()
        self.seed = seed
        self.root = Node()
        #: Root action -> [win share sum, final VP sum, VP margin sum, reward square sum, margin square sum]
        #: for the searching seat (the reward sum is the child's `value`; with the squares it gives the
        #: value's spread; the margin squares give the margin's).
        self.root_stats: dict[int, list[float]] = {}
        #: Root action -> every seat's win share sum (who is likely to win after the move).
        self.seat_shares: dict[int, list[float]] = {}
        self.iterations = 0
        self.elapsed = 0.0
        #: Iterations that met a decision with no legal action or a chance node with no outcome (only a
        #: malformed position has one) and were scored where they stopped, as at the end of a game.
        self.dead_ends = 0
        #: How leaves are scored (`Params.leaf_evaluator`).
        self.evaluator = self.params.leaf_evaluator
        #: (lowest, highest) payoff of a "payoff" game (rewards are payoffs normalised), None for shares.
        self.payoff_range = payoff_range_of(root.game)
        #: Sequential halving at the root (`Params.root` = "halving"; `halving_choice`): the root moves
        #: still alive (None before the first choice among expanded moves), and the phase.
        self.halving_alive: set[int] | None = None
        self.halving_phase = 0
        self.halving_moves = 0          # m0: the root's moves when halving started

    # --- driving

    def run(self, iterations: int | None = None, deadline: float | None = None,
            progress: Callable[[int, int | None], None] | None = None, progress_every: float = 0.1) -> None:
        """Run until `iterations` more iterations are done or `time.time()` passes `deadline`."""
        if iterations is None and deadline is None:
            raise ValueError("run() needs iterations or a deadline")
        start = time.perf_counter()
        done = 0
        next_report = time.time() + progress_every
        try:
            while iterations is None or done < iterations:
                now = time.time()
                if deadline is not None and now >= deadline:
                    break
                self.iterate(iteration_seed(self.seed, self.iterations))
                done += 1
                if progress is not None and now >= next_report:
                    progress(self.iterations, iterations)     # may raise to end the run early
                    next_report = now + progress_every
        finally:
            self.elapsed += time.perf_counter() - start
        if progress is not None:
            progress(self.iterations, iterations)

    # --- one iteration

    def iterate(self, seed: int) -> None:
        """Run one iteration with the given iteration seed."""
        seat = self.seat
        params = self.params
        c = params.exploration
        root_c = params.root_c
        ramp = params.root_ramp
        bias = params.prior_bias
        evaluator = self.evaluator
        horizon = evaluator.horizon_turns
        halving = params.root == "halving"
        bandits = params.secret != "prior"
        log, sqrt = math.log, math.sqrt
        world = self.root_state.resample(seat, seed)
        if bandits:     # the round's secret choices made before the seat's are its bandits' to make again
            rewind = getattr(world, "rewind_secret", None)
            world = (rewind(seat) if rewind is not None else None) or world
        rng = None          # created on first use: seeding costs more than most iterations' other work
        root = node = self.root
        path: list[tuple[Node, int]] = []
        turns = 0
        first_action = -1
        dead_end = False
        anchor = None       # where this round of secret choices began (secret "ucb" or "exp3"; `secret_choice`)
        own: dict[int, tuple[int, ...]] = {}     # each other seat's secret choices so far in the round
        secret_path: list[tuple[list, int, float]] = []
        while True:
            player = world.current_player()
            if player < 0:
                anchor = None
                if player == CHANCE:
                    if not world.chance_outcomes():
                        dead_end = True
                        break
                    if path and path[-1][0].chance == NO_CHANCE:
                        path[-1][0].chance = world.chance_kind
                    if rng is None:
                        rng = random.Random(seed)
                    world.apply_action(sample_chance_cumulative(world, rng))
                    continue
                break   # terminal
            mode = world.decision_mode()
            legal = world.legal_actions()
            if not legal:
                dead_end = True
                break
            if node is root and self.root_actions is not None and player == seat:
                legal = [a for a in legal if a in self.root_actions] or legal
            if bandits:
                if mode != SECRET:
                    anchor = None
                elif anchor is None:
                    anchor = node
                    own = {}
            if mode == SECRET and player != seat:   # a secret choice: not a tree edge
                if rng is None:
                    rng = random.Random(seed)
                if bandits:     # the seat's own bandit at the round's start (`secret_choice`)
                    done = own.get(player, ())
                    action, stat, weight = self.secret_choice(anchor, player, done, world, legal, rng)
                    own[player] = (*done, action)
                    secret_path.append((stat, player, weight))
                    world.apply_action(action)
                    continue
                weights = world.prior(player, legal)    # sampled from the prior
                world.apply_action(sample_weighted(weights if weights is not None else dict.fromkeys(legal, 1.0),
                                                   rng))
                continue
            children = node.children
            if children is None:
                children = node.children = {}
                node.player = player
                if bias > 0 and player == seat:
                    node.prior = world.prior(player, legal)
            prior = node.prior
            untried = [a for a in legal if a not in children]
            if untried:
                for a in legal:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                if len(untried) == 1:
                    action = untried[0]
                elif prior is not None:
                    if rng is None:
                        rng = random.Random(seed)
                    action = sample_weighted({a: prior.get(a, 0.0) + 1e-9 for a in untried}, rng)
                else:
                    action = untried[seed % len(untried)]   # one expansion per iteration: the seed will do
                child = children[action] = Node()
                child.avail = 1
                expanded = len(legal) > 1
            elif node is root and halving and player == seat and len(legal) > 1:
                for a in legal:
                    children[a].avail += 1
                action = self.halving_choice(legal)
                child = children[action]
                expanded = False
            else:
                # UCB with availability counts (+ progressive bias where the node has a prior).
                best_score = -1e300
                child = None
                action = legal[0]
                for a in legal:
                    ch = children[a]
                    avail = ch.avail = ch.avail + 1
                    n = ch.visits
                    k = root_constant(c, root_c, ramp, avail) if node is root else c
                    score = ch.value / n + k * sqrt(log(avail) / n)
                    if prior is not None:
                        score += bias * prior.get(a, 0.0) / (n + 1)
                    if score > best_score:
                        best_score, action, child = score, a, ch
                expanded = False
            if node is root:
                first_action = action
            turn = world.turn_id()
            world.apply_action(action)
            ends = turn != NO_TURN and world.turn_id() != turn
            child.ends_turn = ends
            path.append((child, player))
            node = child
            if ends and mode == OPEN and player == seat:
                turns += 1
                if horizon is not None and turns >= horizon:
                    break
            if expanded:
                break
        # Leaf evaluation.
        if world.current_player() == TERMINAL:
            scores = [float(v) for v in world.scores()]
            exact = True
        elif dead_end:
            self.dead_ends += 1
            scores = [float(v) for v in world.scores()]
            exact = False
        else:
            scores, exact = evaluator.evaluate(world, seat, turns, seed, rng)
        margin = margins(scores)
        if self.payoff_range is None:
            shares = list(world.returns()) if exact else top_shares(scores)
            reward = rewards(margin, shares, params)
        else:
            shares = top_shares(scores)
            reward = payoff_rewards(list(world.returns()) if exact else scores, self.payoff_range)
        for child, mover in path:
            child.visits += 1
            child.value += reward[mover]
        for stat, mover, weight in secret_path:
            stat[0] += 1
            stat[2] += reward[mover] * weight
        stats = self.root_stats.get(first_action)
        if stats is None:
            stats = self.root_stats[first_action] = [0.0, 0.0, 0.0, 0.0, 0.0]
        stats[0] += shares[seat]
        stats[1] += scores[seat]
        stats[2] += margin[seat]
        stats[3] += reward[seat] * reward[seat]
        stats[4] += margin[seat] * margin[seat]
        seat_shares = self.seat_shares.get(first_action)
        if seat_shares is None:
            seat_shares = self.seat_shares[first_action] = [0.0] * len(shares)
        for p, share in enumerate(shares):
            seat_shares[p] += share
        self.iterations += 1

    def secret_choice(self, anchor: Node, player: int, done: tuple[int, ...], world, legal: list[int],
                      rng: random.Random) -> tuple[int, list, float]:
        """Another seat's secret choice with `Params.secret` = "ucb" or "exp3", the statistics to score it by,
        and the weight its reward is added with.

        The seat's bandit lives at `anchor`, the node where the round of secret choices began, keyed by the
        seat and its own earlier choices in the round (`done`): never below the searching seat's own secret
        choice of the round, so neither reacts to the other's (decoupled UCT, as in simultaneous-move MCTS).
        An untried legal choice is tried first (drawn from the game's prior where it has one, else
        uniformly, from `rng`; weight 1). Then with "ucb": UCB with availability counts and
        `Params.secret_c`, ties to the first in `legal` (weight 1). With "exp3": drawn from `rng` with the
        chances `exp3_chances` (gamma = `Params.secret_c`), and weighted 1 / its chance, so the summed
        reward is Exp3's importance-weighted estimate. The statistics are [visits, availability, summed
        (weighted) reward for `player`]."""
        if anchor.secret is None:
            anchor.secret = {}
        table = anchor.secret.setdefault((player, done), {})
        untried = [a for a in legal if a not in table]
        for a in legal:
            stat = table.get(a)
            if stat is not None:
                stat[1] += 1
        if untried:
            if len(untried) == 1:
                action = untried[0]
            else:
                prior = world.prior(player, legal)
                action = sample_weighted({a: (prior.get(a, 0.0) if prior else 1.0) + 1e-9 for a in untried}, rng)
            stat = table[action] = [0, 1, 0.0]
            return action, stat, 1.0
        if self.params.secret == "exp3":
            chances = dict(zip(legal, exp3_chances([table[a][2] for a in legal], self.params.secret_c)))
            action = sample_weighted(chances, rng)      # the native tree draws by `sample_index` alike
            return action, table[action], 1.0 / chances[action]
        c, log, sqrt = self.params.secret_c, math.log, math.sqrt
        best_score, action = -1e300, legal[0]
        for a in legal:
            n, avail, value = table[a]
            score = value / n + c * sqrt(log(avail) / n)
            if score > best_score:
                best_score, action = score, a
        return action, table[action], 1.0

    def halving_choice(self, legal: list[int]) -> int:
        """The root move of this iteration under sequential halving (`Params.root` = "halving"), every one
        of `legal` expanded: the alive move with the fewest visits (ties: the first in `legal`), after
        keeping the best half by mean value (ties: more visits, then the first in `legal`) for as many
        phases as every alive move reached its target (`params.halving_schedule`). The same rule as the
        native tree's (`_native.NativeSearcher.halving_choice`)."""
        children = self.root.children
        v0 = self.params.halving_visits
        if self.halving_alive is None:
            self.halving_alive = set(legal)
            self.halving_moves = len(legal)
        alive = [a for a in legal if a in self.halving_alive]
        while True:
            m, target = halving_schedule(v0, self.halving_moves, self.halving_phase)
            if m <= 2 or any(children[a].visits < target for a in alive):
                break
            keep = halving_schedule(v0, self.halving_moves, self.halving_phase + 1)[0]
            order = {a: i for i, a in enumerate(legal)}
            alive = sorted(alive, key=lambda a: (-children[a].value / children[a].visits, -children[a].visits,
                                                 order[a]))[:keep]
            self.halving_alive = set(alive)
            alive.sort(key=order.__getitem__)
            self.halving_phase += 1
        return min(alive or legal, key=lambda a: children[a].visits)

    # --- results

    def secret_visits(self, player: int) -> dict[int, int]:
        """With `Params.secret` "ucb" or "exp3": {action: visits} of `player`'s first secret choice in the round of
        secret choices that begins at the root, as its bandit chose it (`secret_choice`); {} when there is
        none."""
        if not 0 <= player < self.num_players:
            raise ValueError(f"seat {player} does not exist in a {self.num_players}-player game")
        table = (self.root.secret or {}).get((player, ()), {})
        return {a: stat[0] for a, stat in table.items()}

    def summary(self, max_nodes: int = 20000) -> dict[str, Any]:
        """The search's results in a picklable form that root-parallel searches can sum (the plan tree
        holds at most about `max_nodes` nodes: `tree.export_plan`)."""
        return {
            "iterations": self.iterations,
            "elapsed": self.elapsed,
            "plan": export_plan(self.root, self.seat, max_nodes),
            "root_stats": {a: tuple(v) for a, v in self.root_stats.items()},
            "seat_shares": {a: tuple(v) for a, v in self.seat_shares.items()},
            "nodes": self.root.count(),
        }


# ------------------------------------------------------------------------------------------------
# Choosing the implementation


def native_tree_blocker(root, params: Params) -> str | None:
    """Why the native tree (`burano_ai.search._native.NativeSearcher`) cannot run this search, or None.

    The root's game says whether it can (`burano_ai.games.implementation_of`): the native tree runs the
    compiled State of a game that declares the "native_search" capability, nothing else.
    """
    if params.native_tree_blocker is not None:
        return params.native_tree_blocker
    if payoff_range_of(root.game) is not None:
        return "the native tree scores win shares: a game of payoffs (utility \"payoff\") searches in Python"
    try:
        from burano_ai.search import _native  # noqa: F401
    except ImportError:
        return "the native search (burano_ai.core._game, burano_ai.search._native) is not built"
    found = implementation_of(root.game)
    if found is None:
        return (f"the root's game {type(root.game).__module__}.{type(root.game).__name__} is no registered game's "
                f"implementation (the native tree runs a registered game's compiled State)")
    spec, implementation = found
    if "native_search" not in spec.capabilities:
        return f"{spec.title} does not declare the native_search capability (it has no compiled State with " \
               f"the C game interface)"
    if implementation != "compiled":
        return (f"the root is {spec.title}'s {implementation} implementation, not its compiled State with the C "
                f"game interface (burano_ai.core._game.NativeState)")
    return None


def make_searcher(root, seat: int, params: Params | None = None, seed: int = 0, root_actions=None):
    """The searcher for `params.tree`: the native tree when asked for or ("auto") when it can run the
    search, else the Python `Searcher`; both have the same driving interface and summary.
    `root_actions` restricts the root moves (see `Searcher`).

    Raises:
        OptionError: tree="native" and the native tree cannot run this search (the message says why).
        ValueError: `seat` is not to move at the root.
    """
    params = params or Params()
    if params.tree != "python":
        blocker = native_tree_blocker(root, params)
        if blocker is None:
            from burano_ai.search._native import NativeSearcher
            # The native tree runs the core's playout with `params.native_policy`.
            return NativeSearcher(root, seat, params.with_(evaluator=None, playout_policy=params.native_policy),
                                  seed, root_actions=root_actions)
        if params.tree == "native":
            raise OptionError(f"tree='native' cannot run this search: {blocker}")
    return Searcher(root, seat, params, seed, root_actions=root_actions)
