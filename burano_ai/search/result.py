"""What a search returns: ranked candidate moves, statistics and the plan for the rest of the turn."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable


from burano_ai.core.seats import seat_letter
from burano_ai.search.tree import NO_CHANCE, PlanTree, principal_variation

#: Separator of the readable plan.
PLAN_ARROW = " → "


#: A plan step with fewer visits than this is marked uncertain: the search has barely compared it with
#: its alternatives (with 10,000 iterations the steps of a clear plan have hundreds or thousands).
PLAN_MIN_VISITS = 50

#: Final-move selection (`Params.final_selection` = "lcb"): a candidate competes only with at least this
#: share of the most visited candidate's visits, and the candidates are ranked by a lower confidence
#: bound of their value, mean - LCB_Z * standard error. A rarely tried move with a lucky mean cannot win,
#: and two well-tried moves are ranked by value rather than by a few visits more or less (the coin flip
#: of summed visits that root-parallel workers used to make).
LCB_MIN_SHARE = 0.1
LCB_Z = 2.0

#: Honest ties (issue 21): a candidate is tied with the suggested move when their values differ by at most
#: TIE_Z standard errors of the difference (sqrt(se1² + se2²), each standard error from the candidate's
#: own rewards: `Candidate.stderr`) or by at most TIE_MARGIN on the 0..1 value scale. The standard errors
#: alone are too confident: a tree's visits are not independent samples, and the move a search locks onto
#: early gets the deeper search and the better value. Measured (docs/benchmarks.md, "Honest ties"): on the
#: 2p mid-season bench position, seeds 1 and 2 at 10,000 iterations each settled on a different roof,
#: 0.031 and 0.035 ahead of the other with standard errors of 0.004-0.008, and seeds 1 and 3 at 30,000
#: iterations 0.048 and 0.040 ahead (errors 0.002-0.006); TIE_MARGIN covers that seed-to-seed spread at
#: the default budget and a few times it (larger budgets lock in harder: issue 11 item 4). Only candidates
#: the LCB selection ranks (visits ≥ LCB_MIN_SHARE of the top) can be tied: a rarely tried move has a wide
#: interval because the search found it worse early and left it. At a simultaneous choice searched with the
#: other seats' bandits (`SearchResult.mixed`) a closely measured move under that floor counts too.
#: TIE_MARGIN is the default of `Params.tie_margin`; a game whose independent searches spread wider sets its
#: own in its default search (issue 33: bench/tie_calibration.py measures it; docs/strength.md, "A tie
#: margin per game"). The spread that is not in the standard errors is the searches' own: each tree plays
#: the later decisions its own way, and a move's value is the value of that play, so two trees value the
#: same move apart by an amount that more iterations shrink slowly.
TIE_Z = 2.0
TIE_MARGIN = 0.05
#: Tied moves named in the one-line text (`tie_text`); the rest are counted.
TIE_NAMED = 5


@dataclass(frozen=True)
class PlanStep:
    """One move of a plan (a principal variation) and the visits of its edge.

    Attributes:
        uncertain: fewer than `PLAN_MIN_VISITS` visits: the search has barely compared this step with
            its alternatives; read it as a guess.
        chance: the game's label of the chance event (`State.chance_kind_name`; Burano: "fish-draw", ...) the
            search met right after this step, or None. The steps after it are the plan averaged over
            its outcomes.
    """

    action: int
    move: str
    visits: int
    uncertain: bool = False
    chance: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        """The step for people: `sail I3 [4812]`, `go? [12]` when uncertain, `draw deck [96] ⟨fish-draw⟩`."""
        out = f"{self.move}{'?' if self.uncertain else ''} [{self.visits}]"
        return out + (f" ⟨{self.chance}⟩" if self.chance else "")


@dataclass(frozen=True)
class Candidate:
    """One root move with its statistics (means over the iterations that started with it).

    Attributes:
        action: global action id.
        move: readable move text.
        visits: iterations that started with this move.
        value: mean reward of the searching seat (the quantity the search maximises, 0..1).
        win_prob: mean win share (1/k for a k-way shared win; estimated at a cut-off horizon).
        expected_vp: mean final VP of the searching seat (estimated at a cut-off horizon).
        expected_margin: mean of final VP minus the best other seat's final VP.
        lcb: lower confidence bound of `value` (mean - LCB_Z standard errors; `value` when the spread is
            unknown), what the final-move selection ranks by.
        plan: the seat's most visited line after this move until its turn ends, the move first.
        margin_stdev: standard deviation of the final VP margin over the move's iterations (None when
            unknown); not in `to_dict` (the engine protocol reports it as `marginStdev`).
        seat_win_probs: every seat's mean win share after this move, in seat order (None when unknown);
            not in `to_dict` (the engine protocol reports it as `winrates`).
    """

    action: int
    move: str
    visits: int
    value: float
    win_prob: float
    expected_vp: float
    expected_margin: float
    lcb: float = 0.0
    plan: tuple[PlanStep, ...] = ()
    margin_stdev: float | None = None
    seat_win_probs: tuple[float, ...] | None = None

    @property
    def stderr(self) -> float:
        """Standard error of `value` (from `lcb` = value - LCB_Z standard errors; 0 when the spread is unknown)."""
        return max(self.value - self.lcb, 0.0) / LCB_Z

    @property
    def plan_text(self) -> str:
        """The plan as readable moves: `take top → build pink@e5 → sail I2 → done`."""
        return PLAN_ARROW.join(step.move for step in self.plan)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["margin_stdev"], out["seat_win_probs"]
        out["plan"] = self.plan_text
        out["pv"] = [step.to_dict() for step in self.plan]
        return out


@dataclass(frozen=True)
class SearchResult:
    """The answer of a search for `seat`.

    Attributes:
        seat: the searching seat (0-based; `seat_letter` gives A-D).
        action / move: the suggested move (the first candidate; see `rank_candidates`).
        candidates: every root move tried, the suggested move first (`rank_candidates`).
        pv: the plan to the end of the current turn for the suggested move (its candidate's plan).
        iterations: iterations run in all (over every worker).
        elapsed: wall-clock seconds of the search (including starting workers).
        iterations_per_second: iterations / elapsed.
        seed, workers, threads: what the search was run with: `workers` root-parallel processes with
            a tree each, or `threads` sharing one tree (one of them is 1).
        nodes: tree nodes created (summed over workers).
        notes: remarks for the user (a forced move, a time limit cutting the budget, ...).
        stopped: the search was stopped before its budget ran out (`engine.suggest(stop=...)`, Ctrl-C
            in `burano suggest`): the result is the best so far. Only then `to_dict` has "stopped": true.
        partial: a report while the search runs (`engine.suggest(on_report=...)`), not its final result.
        trees: independent trees searched in this process, a thread each (`engine.suggest(trees=...)`).
        tree_moves: when several trees searched (trees or workers), the move each would have chosen on its
            own, in tree order. Moves that differ from the suggestion are reported tied with it (`tied`):
            a tree can starve a move whose value shows only deeper, and another tree's choice says so.
        tie_margin: values this close to the suggestion's are tied with it whatever their standard errors
            (`Params.tie_margin`, the game's default search's: `tied`).
        mixed: the root is a secret simultaneous choice searched with the other seats' bandits
            (`Params.secret` "ucb" or "exp3"): its visits are the seat's mixed strategy, not a verdict on each move,
            so `tied` also compares a move with few visits whose value is measured closely (`tied_candidates`).
    """

    seat: int
    action: int
    move: str
    candidates: tuple[Candidate, ...]
    pv: tuple[PlanStep, ...]
    iterations: int
    elapsed: float
    iterations_per_second: float
    seed: int
    workers: int = 1
    nodes: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    threads: int = 1
    stopped: bool = False
    partial: bool = False
    trees: int = 1
    tree_moves: tuple[int, ...] = ()
    tie_margin: float = TIE_MARGIN
    mixed: bool = False

    @property
    def seat_letter(self) -> str:
        return seat_letter(self.seat)

    @property
    def deterministic(self) -> bool:
        """True when the search mode is reproducible: the same seed, iteration budget and workers give
        this same result (one thread, or root-parallel workers). Threads sharing a tree are not; nor is
        any search stopped by its time budget or by a stop request."""
        return self.threads == 1

    @property
    def mode(self) -> str:
        """How the search ran, in words: "1 thread", "2 threads, one tree", "2 workers, a tree each"."""
        if self.workers > 1:
            return f"{self.workers} workers, a tree each"
        if self.trees > 1:
            return f"{self.trees} trees, a thread each"
        if self.threads > 1:
            return f"{self.threads} threads, one tree"
        return "1 thread"

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def plan(self) -> str:
        """The principal variation as readable text: `take top → build pink@e5 → sail I2 → done`."""
        return PLAN_ARROW.join(step.move for step in self.pv)

    @property
    def tied(self) -> tuple[Candidate, ...]:
        """The candidates statistically tied for first (`tied_candidates`), the suggested move first; empty
        when the suggested move is settled."""
        return tied_candidates(self.candidates, self.tree_moves, self.tie_margin, self.mixed)

    @property
    def trees_disagree(self) -> bool:
        """Several independent trees searched and not all of them chose the suggested move."""
        return any(a != self.action for a in self.tree_moves)

    @property
    def tie_text(self) -> str:
        """One line for people: the tied moves named, or "" when the answer is settled."""
        return tie_text(self.tied, self.trees_disagree, self.tie_margin)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": self.seat_letter,
            "move": self.move,
            "action": self.action,
            "plan": self.plan,
            "pv": [s.to_dict() for s in self.pv],
            "candidates": [c.to_dict() for c in self.candidates],
            "iterations": self.iterations,
            "elapsed": round(self.elapsed, 4),
            "iterations_per_second": round(self.iterations_per_second, 1),
            "seed": self.seed,
            "workers": self.workers,
            "nodes": self.nodes,
            "notes": list(self.notes),
            "threads": self.threads,
            "deterministic": self.deterministic,
            "tied": [c.move for c in self.tied],
            **({"stopped": True} if self.stopped else {}),
            **({"trees": self.trees} if self.trees > 1 else {}),
            **({"tree_moves": [self._move_text(a) for a in self.tree_moves]} if self.tree_moves else {}),
        }

    def _move_text(self, action: int) -> str:
        return next((c.move for c in self.candidates if c.action == action), str(action))

    def __str__(self) -> str:
        lines = [f"seat {self.seat_letter}: {self.move}   plan: {PLAN_ARROW.join(s.text() for s in self.pv)}",
                 f"{self.iterations} iterations in {self.elapsed:.2f} s ({self.iterations_per_second:.0f}/s), "
                 f"seed {self.seed}, {self.mode}{'' if self.deterministic else ' (not reproducible)'}"]
        for c in self.candidates[:8]:
            lines.append(f"  {c.move:<32} visits {c.visits:>7}  win {c.win_prob:6.1%}  "
                         f"VP {c.expected_vp:6.1f}  margin {c.expected_margin:+6.1f}")
        if self.tied:
            lines.append(self.tie_text)
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def is_tied(best: Candidate, other: Candidate, margin: float = TIE_MARGIN) -> bool:
    """Are the two moves' values statistically indistinguishable (TIE_Z standard errors of the
    difference, or `margin`)?"""
    gap = abs(best.value - other.value)
    return gap <= margin or gap <= TIE_Z * math.hypot(best.stderr, other.stderr)


def tied_candidates(candidates: tuple[Candidate, ...] | list[Candidate],
                    tree_moves: tuple[int, ...] | list[int] = (),
                    margin: float = TIE_MARGIN, mixed: bool = False) -> tuple[Candidate, ...]:
    """The ranked `candidates` (the suggested move first) that are statistically tied with the first,
    the first included; empty when no other candidate is. Only candidates with at least LCB_MIN_SHARE of
    the top visits count (see TIE_Z); a move that one of several independent trees chose (`tree_moves`)
    is tied whatever its statistics: the trees disagree, so no answer is settled. `margin`: see `is_tied`.

    `mixed` (`SearchResult.mixed`: a simultaneous choice searched with the other seats' bandits): the visits
    are a mixed strategy, and a move the seat plays rarely can be as good as its favourite (in an
    equilibrium every move it mixes is). There a candidate under the visit floor also counts when its value
    is measured to within half the margin (standard error <= margin / 2): the floor keeps out wide intervals,
    and this one is narrow."""
    if len(candidates) < 2:
        return ()
    best = candidates[0]
    floor = LCB_MIN_SHARE * max(c.visits for c in candidates)
    chosen = set(tree_moves)
    tied = [c for c in candidates[1:]
            if c.action in chosen or ((c.visits >= floor or (mixed and c.stderr <= margin / 2))
                                      and is_tied(best, c, margin))]
    return (best, *tied) if tied else ()


def starved_candidates(candidates: tuple[Candidate, ...] | list[Candidate], tied: tuple[Candidate, ...] = (),
                       margin: float = TIE_MARGIN) -> tuple[Candidate, ...]:
    """The ranked `candidates`' runner-ups that the tie rule (`tied_candidates`; `tied` its answer) leaves out
    only for their visits: under the floor (LCB_MIN_SHARE of the top's visits) yet tied with the first by
    `is_tied`, best mean value first. A tree that locked onto one move early leaves such a move where it
    was: on Azul's game 2 decision 21 of bench/seed_agreement.py `C B>1` kept the 14,716 visits and 0.249 it
    had when `C G>1` took over, while `C G>1` went on to 154,671 visits and 0.298, and searched on its own
    it reached 0.300 (issue 33). `burano suggest` checks these on their own when its search did not settle."""
    if len(candidates) < 2:
        return ()
    best = candidates[0]
    floor = LCB_MIN_SHARE * max(c.visits for c in candidates)
    named = {c.action for c in tied}
    starved = [c for c in candidates[1:]
               if c.action not in named and c.visits < floor and is_tied(best, c, margin)]
    return tuple(sorted(starved, key=lambda c: (-c.value, -c.visits, c.action)))


def tie_text(tied: tuple[Candidate, ...], trees_disagree: bool = False, margin: float = TIE_MARGIN) -> str:
    """`tied: build orange@e1, build orange@i7 (statistically tied: ...)`, or "" for no tie."""
    if not tied:
        return ""
    named = ", ".join(c.move for c in tied[:TIE_NAMED])
    more = f" and {len(tied) - TIE_NAMED} more" if len(tied) > TIE_NAMED else ""
    why = "; the independent trees chose different moves" if trees_disagree else ""
    return (f"tied: {named}{more} (statistically tied: values within {margin:g} or {TIE_Z:g} standard "
            f"errors{why}; as good as each other as far as the search can tell)")


def rank_candidates(candidates: list[Candidate], selection: str = "lcb") -> list[Candidate]:
    """The candidates in the order a result lists them, the suggested move first.

    "visits": most visited first (ties: higher value, then lower action id) — the classic robust child.
    "lcb": candidates with at least LCB_MIN_SHARE of the top visits, by lower confidence bound, then the
    rest by visits. Either way the first candidate is never dominated: no other candidate has both more
    visits and a higher mean value (such a one is moved to the front).
    """
    by_visits = sorted(candidates, key=lambda c: (-c.visits, -c.value, c.action))
    if selection == "visits" or not by_visits:
        ranked = by_visits
    else:
        floor = LCB_MIN_SHARE * by_visits[0].visits
        eligible = sorted((c for c in by_visits if c.visits >= floor), key=lambda c: (-c.lcb, -c.visits, c.action))
        ranked = eligible + [c for c in by_visits if c.visits < floor]
    first = ranked[0]
    while True:
        better = [c for c in ranked if c.visits > first.visits and c.value > first.value]
        if not better:
            break
        first = max(better, key=lambda c: (c.value, c.visits))
    return [first] + [c for c in ranked if c is not first]


def lower_bound(reward_sum: float, square_sum: float | None, visits: int) -> float:
    """Mean reward minus LCB_Z standard errors (the mean itself when the squares are unknown)."""
    mean = reward_sum / visits
    if square_sum is None or visits < 2:
        return mean if square_sum is None else mean - LCB_Z * 0.5    # one sample: the widest spread of 0..1
    variance = max(square_sum / visits - mean * mean, 0.0) * visits / (visits - 1)
    return mean - LCB_Z * math.sqrt(variance / visits)


def spread(total: float, square_sum: float, visits: int) -> float:
    """Standard deviation of a quantity from its sum and its sum of squares over `visits` samples."""
    if visits < 2:
        return 0.0
    mean = total / visits
    return math.sqrt(max(square_sum / visits - mean * mean, 0.0) * visits / (visits - 1))


def candidate_plan(plan: PlanTree, action: int, seat: int, action_to_string: Callable[[int], str],
                   chance_kind_name: Callable[[int], str]) -> tuple[PlanStep, ...]:
    """The plan of one root move: its most visited line (`tree.principal_variation`), steps marked
    (chance kinds named by the game: `State.chance_kind_name`)."""
    return tuple(PlanStep(a, action_to_string(a), v, uncertain=v < PLAN_MIN_VISITS,
                          chance=chance_kind_name(k) if k != NO_CHANCE else None)
                 for a, v, k in principal_variation({action: plan[action]}, seat))


def summary_choice(summary: dict[str, Any], selection: str = "lcb") -> int:
    """The move one search's summary would suggest on its own (`rank_candidates` by `selection`), or -1."""
    candidates = []
    for action, (visits, value, *_rest) in summary["plan"].items():
        if visits == 0:
            continue
        _share, _vp, _margin, *squares = summary["root_stats"].get(action, (0.0, 0.0, 0.0))
        candidates.append(Candidate(action=action, move="", visits=visits, value=value / visits, win_prob=0.0,
                                    expected_vp=0.0, expected_margin=0.0,
                                    lcb=lower_bound(value, squares[0] if squares else None, visits)))
    return rank_candidates(candidates, selection)[0].action if candidates else -1


def build_result(summary: dict[str, Any], seat: int, seed: int, workers: int, elapsed: float,
                 action_to_string: Callable[[int], str], notes: tuple[str, ...] = (),
                 threads: int = 1, selection: str = "lcb", stopped: bool = False,
                 partial: bool = False, *, chance_kind_name: Callable[[int], str], trees: int = 1,
                 tie_margin: float = TIE_MARGIN, mixed: bool = False) -> SearchResult:
    """Turn a (merged) search summary into a SearchResult (`selection`: see `rank_candidates`; `tie_margin`:
    `Params.tie_margin`; `mixed`: `SearchResult.mixed`;
    `action_to_string` and `chance_kind_name` are the root State's, which name its moves and chance kinds)."""
    plan: PlanTree = summary["plan"]
    stats = summary["root_stats"]
    seat_shares = summary.get("seat_shares", {})
    candidates = []
    for action, (visits, value, *_rest) in plan.items():
        if visits == 0:
            continue
        share, vp, margin, *squares = stats.get(action, (0.0, 0.0, 0.0))
        candidates.append(Candidate(action=action, move=action_to_string(action), visits=visits,
                                    value=value / visits, win_prob=share / visits, expected_vp=vp / visits,
                                    expected_margin=margin / visits,
                                    lcb=lower_bound(value, squares[0] if squares else None, visits),
                                    plan=candidate_plan(plan, action, seat, action_to_string, chance_kind_name),
                                    margin_stdev=spread(margin, squares[1], visits) if len(squares) > 1 else None,
                                    seat_win_probs=(tuple(x / visits for x in seat_shares[action])
                                                    if action in seat_shares else None)))
    candidates = rank_candidates(candidates, selection)
    iterations = summary["iterations"]
    best = candidates[0] if candidates else None
    return SearchResult(seat=seat, action=best.action if best else -1, move=best.move if best else "",
                        candidates=tuple(candidates), pv=best.plan if best else (), iterations=iterations,
                        elapsed=elapsed, iterations_per_second=iterations / elapsed if elapsed > 0 else 0.0,
                        seed=seed, workers=workers, nodes=summary.get("nodes", 0), notes=tuple(notes),
                        threads=threads, stopped=stopped, partial=partial, trees=trees,
                        tree_moves=tuple(summary.get("tree_moves", ())), tie_margin=tie_margin, mixed=mixed)
