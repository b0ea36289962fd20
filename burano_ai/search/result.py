"""What a search returns: ranked candidate moves, statistics and the plan for the rest of the turn."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ..enums import seat_letter
from .tree import PlanTree, principal_variation

#: Separator of the readable plan.
PLAN_ARROW = " → "


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
    """

    action: int
    move: str
    visits: int
    value: float
    win_prob: float
    expected_vp: float
    expected_margin: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PlanStep:
    """One move of the principal variation and the visits of its edge."""

    action: int
    move: str
    visits: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SearchResult:
    """The answer of a search for `seat`.

    Attributes:
        seat: the searching seat (0-based; `seat_letter` gives A-D).
        action / move: the suggested move (the most visited root move).
        candidates: every root move tried, most visited first.
        pv: the plan to the end of the current turn (the seat's most visited line).
        iterations: iterations run in all (over every worker).
        elapsed: wall-clock seconds of the search (including starting workers).
        iterations_per_second: iterations / elapsed.
        seed, workers, threads: what the search was run with: `workers` root-parallel processes with
            a tree each, or `threads` sharing one tree (one of them is 1).
        nodes: tree nodes created (summed over workers).
        notes: remarks for the user (a forced move, a time limit cutting the budget, ...).
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

    @property
    def seat_letter(self) -> str:
        return seat_letter(self.seat)

    @property
    def deterministic(self) -> bool:
        """True when the search mode is reproducible: the same seed, iteration budget and workers give
        this same result (one thread, or root-parallel workers). Threads sharing a tree are not; nor is
        any search stopped by its time budget."""
        return self.threads == 1

    @property
    def mode(self) -> str:
        """How the search ran, in words: "1 thread", "2 threads, one tree", "2 workers, a tree each"."""
        if self.workers > 1:
            return f"{self.workers} workers, a tree each"
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
        }

    def __str__(self) -> str:
        lines = [f"seat {self.seat_letter}: {self.move}   plan: {self.plan}",
                 f"{self.iterations} iterations in {self.elapsed:.2f} s ({self.iterations_per_second:.0f}/s), "
                 f"seed {self.seed}, {self.mode}{'' if self.deterministic else ' (not reproducible)'}"]
        for c in self.candidates[:8]:
            lines.append(f"  {c.move:<32} visits {c.visits:>7}  win {c.win_prob:6.1%}  "
                         f"VP {c.expected_vp:6.1f}  margin {c.expected_margin:+6.1f}")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def build_result(summary: dict[str, Any], seat: int, seed: int, workers: int, elapsed: float,
                 action_to_string: Callable[[int], str], notes: tuple[str, ...] = (),
                 threads: int = 1) -> SearchResult:
    """Turn a (merged) search summary into a SearchResult."""
    plan: PlanTree = summary["plan"]
    stats = summary["root_stats"]
    candidates = []
    for action, (visits, value, *_rest) in plan.items():
        if visits == 0:
            continue
        share, vp, margin = stats.get(action, (0.0, 0.0, 0.0))
        candidates.append(Candidate(action=action, move=action_to_string(action), visits=visits,
                                    value=value / visits, win_prob=share / visits, expected_vp=vp / visits,
                                    expected_margin=margin / visits))
    candidates.sort(key=lambda c: (-c.visits, -c.value, c.action))
    pv = tuple(PlanStep(a, action_to_string(a), v) for a, v in principal_variation(plan, seat))
    iterations = summary["iterations"]
    best = candidates[0] if candidates else None
    return SearchResult(seat=seat, action=best.action if best else -1, move=best.move if best else "",
                        candidates=tuple(candidates), pv=pv, iterations=iterations, elapsed=elapsed,
                        iterations_per_second=iterations / elapsed if elapsed > 0 else 0.0, seed=seed,
                        workers=workers, nodes=summary.get("nodes", 0), notes=tuple(notes), threads=threads)
