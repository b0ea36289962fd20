"""Move-by-move analysis of a game record for one seat: where did it lose the game?

For each decision of the seat (a step it played with more than one legal move) the engine searches the
position before the step *from the seat's one-seat view only* (`state.to_json(seat)` -> `engine.suggest`),
and compares its best move's win probability with the move that was played:

    from burano_ai.analysis import analyse
    from burano_ai.record import GameRecord
    from burano_ai.search import Limit
    result = analyse(GameRecord.load("game.json"), seat="A", limit=Limit(iterations=10_000), seed=1)
    print(result.summary())
    result.annotate(record); record.save("annotated.json")

The played move's value (`played_win`), in order of preference (`Decision.method`):

- ``best``: the played move is the engine's best move: its own row.
- ``search``: the main search tried the played move at least `min_played_visits` times: its row.
- ``restricted``: otherwise a second search of the same position with the root kept to the played move
  (`engine.suggest(..., allow_moves=[move])`), a quarter of the budget: every iteration starts with it.

The loss is ``max(0, win - played_win)`` (a played move estimated better than the engine's choice costs
nothing), the VP-margin loss likewise. Flags: `THRESHOLDS`, for a loss of at least `NOISE_Z` standard
errors (`standard_error`); a ``search`` row whose flag is within the noise is settled by the restricted
second search. The method and the thresholds are documented in docs/analysis.md.

Deterministic: the search of decision at ply ``p`` is seeded ``derive(seed, p)`` (its second search
``derive(seed, p, 1)``); with an iteration budget and one thread (the default with iterations) the same
seed gives the same analysis, bit for bit. A time budget or several threads do not.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from burano_ai.core.errors import OptionError
from burano_ai.core.seats import SEAT_LETTERS, parse_seat
from burano_ai.core.seeds import derive
from burano_ai.core.workers import process_pool, wait_first
from burano_ai.engine import load_position, suggest
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.record import GameRecord, RecordError
from burano_ai.search.limits import DEFAULT_SUGGEST_ITERATIONS, Limit
from burano_ai.search.params import Params

#: The format tag of `Analysis.to_dict`.
FORMAT = "burano-analysis/1"

#: Flags by win-probability loss (a fraction: 0.05 = 5 percentage points), most severe first.
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
FLAGS = tuple(name for name, _ in reversed(THRESHOLDS))

#: The main search's row of the played move is trusted with at least this many visits, or this share of
#: the search's iterations if that is more (with 10,000 iterations: 200 visits, a standard error of at
#: most 3.5 points on a win probability).
MIN_PLAYED_VISITS = 50
MIN_PLAYED_SHARE = 0.02
#: The second search (of the played move alone) gets this share of the budget.
SECOND_SEARCH_SHARE = 0.25
#: A loss is flagged only when it is at least this many standard errors (`Decision.noise`): a drop the
#: estimates cannot tell from Monte Carlo noise is no mistake.
NOISE_Z = 2.0
#: Floor of the variance of a win-probability estimate (`standard_error`): a standard error of at least
#: 0.1 / sqrt(visits).
MIN_VARIANCE = 0.01
#: Most worker processes (`analyse(jobs=...)`, `burano analyse --jobs`).
MAX_JOBS = 64

#: The annotation keys an analysis writes (`Decision.annotations`).
ANNOTATION_KEYS = frozenset({"best", "win", "played_win", "loss", "margin_loss", "flag", "visits", "played_visits",
                             "method", "time"})

Progress = Callable[[int, int], None]


def flag_for(loss: float) -> str | None:
    """The flag of a win-probability loss (`THRESHOLDS`), or None."""
    for name, threshold in THRESHOLDS:
        if loss >= threshold - 1e-12:
            return name
    return None


@dataclass
class Decision:
    """The analysis of one decision of the seat (win probabilities and margins are the seat's).

    Attributes:
        ply: index of the step in the record (the position is the one before it).
        phase: where in the game the decision stands (the game's `GameSpec.decision_label`: Burano's
            season and round or stage).
        played: the move played; best: the engine's move.
        win / played_win: win probability after the best / the played move.
        loss: max(0, win - played_win); margin_loss likewise for the expected VP margin.
        flag: "inaccuracy", "mistake", "blunder" or None (`THRESHOLDS`; only a loss of at least
            `NOISE_Z` x `noise`).
        noise: standard error of the loss (from the visits behind `win` and `played_win`).
        visits: iterations of the main search; played_visits: its visits of the played move.
        method: where `played_win` comes from (module docstring).
        time: seconds spent on this decision (both searches).
    """

    ply: int
    phase: str
    played: str
    best: str
    win: float
    played_win: float
    loss: float
    margin: float
    played_margin: float
    margin_loss: float
    flag: str | None
    noise: float
    visits: int
    played_visits: int
    method: str
    legal: int
    time: float

    def annotations(self) -> dict[str, Any]:
        """The keys written into the record step (docs/analysis.md); `flag` only when there is one."""
        out = {"best": self.best, "win": round(self.win, 4), "played_win": round(self.played_win, 4),
               "loss": round(self.loss, 4), "margin_loss": round(self.margin_loss, 2), "flag": self.flag,
               "visits": self.visits, "played_visits": self.played_visits, "method": self.method,
               "time": round(self.time, 3)}
        if self.flag is None:
            del out["flag"]
        return out

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("win", "played_win", "loss", "noise"):
            out[key] = round(out[key], 6)
        for key in ("margin", "played_margin", "margin_loss"):
            out[key] = round(out[key], 4)
        out["time"] = round(self.time, 4)
        return out


@dataclass
class Analysis:
    """The analysis of one seat's decisions in a record."""

    seat: int
    players: int
    names: list[str]
    limit: Limit
    seed: int
    threads: int | None
    jobs: int = 1
    decisions: list[Decision] = field(default_factory=list)
    forced: list[int] = field(default_factory=list)
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)
    game: str = DEFAULT_GAME

    @property
    def seat_letter(self) -> str:
        return SEAT_LETTERS[self.seat]

    @property
    def deterministic(self) -> bool:
        return self.limit.seconds is None and self.threads == 1

    def summary(self) -> dict[str, Any]:
        """Decisions, forced moves skipped, mean loss, mean margin loss, counts per flag."""
        n = len(self.decisions)
        counts = {name: sum(1 for d in self.decisions if d.flag == name) for name in FLAGS}
        return {
            "decisions": n, "forced": len(self.forced),
            "mean_loss": round(sum(d.loss for d in self.decisions) / n, 6) if n else 0.0,
            "mean_margin_loss": round(sum(d.margin_loss for d in self.decisions) / n, 4) if n else 0.0,
            "agreement": round(sum(1 for d in self.decisions if d.method == "best") / n, 4) if n else 0.0,
            **counts,
            "time_per_decision": round(sum(d.time for d in self.decisions) / n, 4) if n else 0.0,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the settings, every decision, the plies of the forced moves skipped, the summary."""
        return {
            "format": FORMAT, "game": self.game, "seat": self.seat_letter, "players": self.players, "names": self.names,
            "limit": self.limit.to_dict(), "seed": self.seed, "threads": self.threads, "jobs": self.jobs,
            "deterministic": self.deterministic,
            "thresholds": {name: t for name, t in THRESHOLDS},
            "decisions": [d.to_dict() for d in self.decisions], "forced": list(self.forced),
            "summary": self.summary(), "notes": list(self.notes), "elapsed": round(self.elapsed, 3),
        }

    def annotate(self, record: GameRecord) -> None:
        """Write each decision's `Decision.annotations` into its step of `record`, replacing an earlier
        analysis's keys (other keys, such as a comment, are kept)."""
        for d in self.decisions:
            step = record.steps[d.ply]
            kept = {k: v for k, v in (step.annotations or {}).items() if k not in ANNOTATION_KEYS}
            step.annotations = {**kept, **d.annotations()}

    def plot(self, path: str) -> None:
        """Write a PNG of the seat's win probability over the game (needs matplotlib: the `plot` extra)."""
        plot_win_probability(self, path)


def _share(limit: Limit, share: float) -> Limit:
    return Limit(iterations=None if limit.iterations is None else max(1, int(limit.iterations * share)),
                 seconds=None if limit.seconds is None else limit.seconds * share)


def check_seat(record: GameRecord, seat: int | str | None) -> int:
    """The 0-based seat to analyse: `seat`, else the seat a one-seat export was made for.

    Raises:
        OptionError: no seat given for a full record, no such seat, or another seat than the export's.
    """
    if seat is None:
        if record.view is None:
            raise OptionError(f"which seat? give --seat ({', '.join(SEAT_LETTERS[:record.players])})")
        seat = record.view
    p = parse_seat(seat, record.players, what="seat")
    if record.view is not None and SEAT_LETTERS[p] != record.view:
        raise OptionError(f"the record is exported for seat {record.view}: it can be analysed for "
                          f"seat {record.view} only, not {SEAT_LETTERS[p]}")
    return p


def decision_points(record: GameRecord, seat: int, game_factory=None
                    ) -> tuple[list[tuple[int, str, str, str]], list[int]]:
    """Replay the whole record (a bad step raises RecordError before any search) and return the seat's
    decisions as (ply, the seat's one-seat view JSON before the step, phase, move played) and the plies of
    its forced moves."""
    spec = record.spec
    letter = SEAT_LETTERS[seat]
    points: list[tuple[int, str, str, str]] = []
    forced: list[int] = []
    for ply, state in record.positions(game_factory):
        if ply == len(record.steps) or record.steps[ply].actor != letter:
            continue
        if len(state.legal_actions()) == 1:
            forced.append(ply)
        else:
            points.append((ply, state.to_json(seat), spec.decision_label(state, seat), record.steps[ply].move))
    return points, forced


def analyse(record: GameRecord, seat: int | str | None = None, limit: Limit | None = None, seed: int = 0,
            threads: int | None = None, params: Params | None = None, game_factory=None,
            progress: Progress | None = None, min_played_visits: int | None = None, jobs: int = 1) -> Analysis:
    """Analyse every decision of `seat` in `record` (see the module docstring).

    Args:
        limit: the budget of each decision's main search; default `DEFAULT_SUGGEST_ITERATIONS` iterations.
        seed: every search's seed derives from it and the step's ply.
        threads: search threads; default 1 with an iteration-only budget (reproducible) or several
            `jobs`, else the engine's default (every usable core).
        progress: called as ``progress(decisions done, decisions in all)``.
        min_played_visits: trust the main search's row of the played move from this many visits
            (default: `MIN_PLAYED_VISITS` or `MIN_PLAYED_SHARE` of the iterations, whichever is more).
        jobs: decisions analysed at once, in that many worker processes (spawned; `game_factory` and
            `params` must then be picklable). Each decision's searches are the same whichever process
            runs them, so the analysis is too.

    Raises:
        RecordError: a bad record (the message names the step). OptionError: a bad seat or option.
    """
    start = time.perf_counter()
    if not isinstance(record, GameRecord):
        raise OptionError(f"record must be a burano_ai.record.GameRecord, not {type(record).__name__}")
    p = check_seat(record, seat)
    if limit is None:
        limit = Limit(iterations=DEFAULT_SUGGEST_ITERATIONS)
    if not isinstance(limit, Limit):
        raise OptionError(f"limit must be a burano_ai.search.Limit, not {limit!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise OptionError(f"seed must be a whole number from 0 to 2^63-1, not {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise OptionError(f"jobs must be a whole number from 1 to {MAX_JOBS}, not {jobs!r}")
    if threads is None and (limit.seconds is None or jobs != 1):
        threads = 1     # reproducible; with several jobs the processes share the cores instead
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise OptionError(f"threads must be a whole number >= 1, not {threads!r}")
    params = params or Params(**get_spec(record.game).search_defaults)      # the game's default search
    points, forced = decision_points(record, p, game_factory)
    analysis = Analysis(seat=p, players=record.players, names=[s.name for s in record.seats], limit=limit,
                        seed=seed, threads=threads, jobs=jobs, forced=forced, game=record.game)
    if forced:
        analysis.notes.append(f"{len(forced)} forced move{'s' if len(forced) != 1 else ''} (one legal option) "
                              f"skipped")
    if not points:
        analysis.notes.append(f"seat {SEAT_LETTERS[p]} has no decision in this record")
    tasks = [(ply, view, phase, move, p, limit, seed, threads, params, game_factory, min_played_visits, record.game)
             for ply, view, phase, move in points]
    if jobs == 1 or len(tasks) <= 1:
        for k, task in enumerate(tasks):
            analysis.decisions.append(_decision(*task))
            if progress is not None:
                progress(k + 1, len(tasks))
    else:
        analysis.decisions = _in_processes(tasks, jobs, progress)
    analysis.elapsed = time.perf_counter() - start
    return analysis


def _in_processes(tasks: list[tuple], jobs: int, progress: Progress | None) -> list[Decision]:
    """`_decision` of every task in `jobs` spawned processes; the decisions in task order.

    The pool (`core.workers.process_pool`) ends its workers on SIGTERM, SIGHUP and SIGINT, and at once when
    a task fails: nothing outlives the analysis."""
    out: list[Decision | None] = [None] * len(tasks)
    with process_pool(min(jobs, len(tasks))) as pool:
        futures = {pool.submit(_decision, *task): k for k, task in enumerate(tasks)}
        pending, finished = set(futures), 0
        while pending:
            done, pending = wait_first(pending)      # wakes up so a Ctrl-C is seen (core.workers)
            for future in done:
                out[futures[future]] = future.result()
                finished += 1
                if progress is not None:
                    progress(finished, len(tasks))
    return [d for d in out if d is not None]


def _decision(ply: int, view: str, phase: str, move: str, seat: int, limit: Limit, seed: int,
              threads: int | None, params: Params, game_factory, min_played_visits: int | None,
              game: str) -> Decision:
    t0 = time.perf_counter()
    root, _ = load_position(view, game_factory, game)  # the seat's view: the search's own root (never modified)
    result = suggest(root, seat=seat, view=seat, limit=limit, params=params, seed=derive(seed, ply),
                     threads=threads, game_factory=game_factory)
    best = result.candidates[0]
    try:
        played = root.string_to_action(move)
    except ValueError as exc:   # the replay played it, so this cannot happen with a sound record
        raise RecordError(f"record.steps[{ply}]: {exc}") from None
    row = next((c for c in result.candidates if c.action == played), None)
    played_visits = row.visits if row is not None else 0
    floor = min_played_visits if min_played_visits is not None else max(
        MIN_PLAYED_VISITS, int(MIN_PLAYED_SHARE * result.iterations))
    second = _share(limit, SECOND_SEARCH_SHARE)

    def restricted_search() -> tuple[str, float, float, int]:
        other = suggest(root, seat=seat, view=seat, limit=second, params=params, seed=derive(seed, ply, 1),
                        threads=threads, game_factory=game_factory, allow_moves=[played])
        c = other.candidates[0]
        return "restricted", c.win_prob, c.expected_margin, c.visits

    if played == best.action:
        method, win, margin, n = "best", best.win_prob, best.expected_margin, best.visits
    elif row is not None and row.visits >= floor:
        method, win, margin, n = "search", row.win_prob, row.expected_margin, row.visits
    else:
        method, win, margin, n = restricted_search()
    loss = max(0.0, best.win_prob - win)
    noise = 0.0 if method == "best" else math.hypot(standard_error(best.win_prob, best.visits),
                                                     standard_error(win, n))
    if method == "search" and flag_for(loss) is not None and loss < NOISE_Z * noise:
        # A flag the row cannot tell from noise: search the move played on its own to settle it.
        method, win, margin, n = restricted_search()
        loss = max(0.0, best.win_prob - win)
        noise = math.hypot(standard_error(best.win_prob, best.visits), standard_error(win, n))
    flag = flag_for(loss) if loss >= NOISE_Z * noise else None
    return Decision(ply=ply, phase=phase, played=move, best=best.move, win=best.win_prob, played_win=win,
                    loss=loss, margin=best.expected_margin, played_margin=margin,
                    margin_loss=max(0.0, best.expected_margin - margin), flag=flag, noise=noise,
                    visits=result.iterations, played_visits=played_visits, method=method,
                    legal=len(root.legal_actions()), time=time.perf_counter() - t0)


def standard_error(p: float, n: int) -> float:
    """Standard error of a mean win probability `p` over `n` iterations.

    Rewards lie in [0, 1], so p(1-p) bounds their variance; it is floored at `MIN_VARIANCE` so that a mean
    of exactly 0 or 1 over few iterations is not taken for certainty."""
    return math.sqrt(max(p * (1.0 - p), MIN_VARIANCE) / max(n, 1))


def plot_win_probability(analysis: Analysis, path: str) -> None:
    """The seat's win probability at each decision (the engine's best move) and after the move played,
    flagged moves marked; x: the step of the record."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise OptionError(f"--plot needs matplotlib: pip install 'burano-ai[plot]' ({exc})") from None
    fig, ax = plt.subplots(figsize=(8, 4))
    xs = [d.ply for d in analysis.decisions]
    ax.plot(xs, [d.win for d in analysis.decisions], color="tab:blue", linewidth=1.5,
            label="best move (engine)")
    ax.plot(xs, [d.played_win for d in analysis.decisions], color="tab:grey", linewidth=0.8, linestyle="--",
            label="move played")
    colours = {"inaccuracy": "gold", "mistake": "darkorange", "blunder": "red"}
    for name in FLAGS:
        marked = [d for d in analysis.decisions if d.flag == name]
        if marked:
            ax.scatter([d.ply for d in marked], [d.played_win for d in marked], color=colours[name], zorder=3,
                       label=f"{name} ({len(marked)})")
    ax.axhline(1.0 / analysis.players, color="black", linewidth=0.5, linestyle=":")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("step of the record")
    ax.set_ylabel(f"win probability of seat {analysis.seat_letter}")
    s = analysis.summary()
    ax.set_title(f"seat {analysis.seat_letter} ({analysis.names[analysis.seat]}): {s['decisions']} decisions, "
                 f"mean loss {100 * s['mean_loss']:.1f} points")
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
