"""Bot tournaments: duplicate deals with seat rotation, results with confidence intervals and ratings.

    from burano_ai.arena import ArenaConfig, run_arena
    result = run_arena(ArenaConfig(bots=("ismcts:iterations=500", "greedy"), players=2, games=20, seed=1))
    print(result.table())
    result.write_json("results.json")

Design
    **Lineup and seatings.** `bots` gives one spec per seat (a shorter list is repeated to fill the seats:
    ``A,B`` at 4 players is ``A,B,A,B``). Equal specs are one *entry* of the results (three
    ``openspiel-ismcts`` seats are one entry with three seats per game). A *deal* is played once per
    *seating*: with ``seating="all"`` every distinct permutation of the lineup over the seats, with
    ``"rotate"`` every distinct rotation; ``"auto"`` (default) takes all permutations when there are at
    most 6, else the rotations (four distinct bots at 4 players: 4 rotations instead of 24 permutations).
    ``games`` is rounded up to whole deals.

    **Duplicate deals.** Every game of a deal uses the same setup seed and the same chance RNG stream (a
    fresh ``random.Random(chance_seed)``, drawn from in the order chance events occur), so every bot
    meets the same setup and, while play coincides, the same draws from every seat. The arena samples
    all chance outcomes; bots only decide. Forced moves (one legal action) are played by the arena
    without asking the bot.

    **Seeds.** Game ``g`` (deal ``d = g // seatings``) uses ``deal_seed = derive(seed, d, DEAL)``,
    ``chance_seed = derive(seed, d, CHANCE)`` and bot seeds ``derive(seed, g, seat, BOT)`` (31 bits):
    a game is a pure function of (config, g), so results do not depend on the number of workers or on
    the backend — except for bots with a ``time`` budget, whose searches depend on the machine.

    **Statistics per entry.** Win rate = mean win share (1/k for a k-way shared win) over the entry's
    seats, with a 95 % Wilson score interval on n = seats played (ties make it approximate); mean VP,
    mean rank (1 = best; tied seats share the mean of their places), mean VP margin (own VP minus the
    best other seat's).

    **Rating.** A Plackett–Luce model of each game's finishing order (by VP, then the rules' tie-breaks:
    prep cubes, coins; exact ties are ordered by seat) with one strength per entry shared by its seats,
    fitted by Hunter's MM iterations (Ann. Statist. 2004) with a weak prior (one virtual win and one
    virtual loss of each entry against a reference of strength 1, which keeps ratings finite for an
    entry that never loses). Reported on the Elo scale, ``400 * log10(strength)``, shifted so the
    entries' mean is 0; the 95 % interval is the 2.5-97.5 percentile range over `bootstrap` refits on
    deals resampled with replacement (whole deals, so the duplicate pairing is kept).

Results JSON: see `RESULTS_SCHEMA` (``schema``/``version`` fields first); CSV: one row per seat per game.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from . import __version__
from .bots import BotSpec, check_bot_spec, make_bot, parse_bot_spec, with_time_per_move
from .errors import OptionError
from .search.ismcts import sample_chance
from .seeds import derive

SCHEMA = "burano-arena-results"
SCHEMA_VERSION = 1
BACKENDS = ("local", "ray")
SEATINGS = ("auto", "all", "rotate")
#: Most distinct permutations `seating="auto"` plays per deal before it falls back to rotations.
AUTO_MAX_PERMUTATIONS = 6
_DEAL, _CHANCE, _BOT = 0xDEA1, 0xC4A5CE, 0xB07

#: The results JSON, key -> meaning (types in brackets). Version 1.
RESULTS_SCHEMA: dict[str, str] = {
    "schema": "[str] always 'burano-arena-results'",
    "version": "[int] schema version (1)",
    "burano_ai_version": "[str] package version that produced the file",
    "config": "[object] bots [list of str, as given], players [int], games [int, as asked], seed [int], "
              "time_per_move [float|null], workers [int], backend [str], seating [str], bootstrap [int], "
              "engine [str: module.qualname of the Game class]",
    "lineup": "[list of int] entry index of each seat before seating permutations",
    "seatings": "[list of list of int] entry index per seat for each game of a deal",
    "deals": "[int] deals played",
    "games_played": "[int] deals * len(seatings)",
    "elapsed": "[float] wall-clock seconds of the whole run",
    "entries": "[list of object] one per distinct bot spec: index [int], spec [str, canonical], "
               "seats_played [int], win_share [float, summed], win_rate [float], win_rate_ci95 "
               "[[float, float]], wins [int, outright or shared], mean_vp [float], sd_vp [float], "
               "mean_rank [float], mean_margin [float], decisions [int], forced [int], think_seconds "
               "[float], seconds_per_decision [float], iterations [int], iterations_per_second [float], "
               "rating [float, Elo scale, mean 0], rating_ci95 [[float, float]]",
    "seat_win_rate": "[list of float] mean win share of each seat (seat order effect)",
    "rating": "[object] method [str], scale [str], prior [str], bootstrap [int], bootstrap_unit [str]",
    "games": "[list of object] index, deal [int], seating [list of int: entry per seat], deal_seed, "
             "chance_seed [int], bot_seeds [list of int], scores [list of int], ranks [list of float], "
             "returns [list of float], winners [list of int], decisions, forced [list of int], "
             "think_seconds [list of float], iterations [list of int], seconds [float], length [int], "
             "tiebreak [list of [vp, prep cubes, coins]]",
    "notes": "[list of str] remarks (games rounded up to whole deals, time budgets not reproducible)",
}


# ------------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class ArenaConfig:
    """What to play. See the module docstring for lineups, seatings and seeds.

    Attributes:
        bots: bot spec strings, one per seat (repeated to fill the seats if shorter).
        players: 2, 3 or 4.
        games: games to play (rounded up to whole deals).
        seed: seed of every deal, chance stream and bot.
        time_per_move: seconds per decision for search bots whose spec has no budget of its own.
        workers: games played in parallel (local processes, or Ray CPUs).
        backend: ``local`` (processes) or ``ray`` (Ray tasks).
        seating: ``auto``, ``all`` (every distinct permutation) or ``rotate``.
        bootstrap: bootstrap refits for the rating intervals.
    """

    bots: tuple[str, ...]
    players: int = 2
    games: int = 2
    seed: int = 0
    time_per_move: float | None = None
    workers: int = 1
    backend: str = "local"
    seating: str = "auto"
    bootstrap: int = 200

    def validate(self) -> None:
        """Raise OptionError naming the first bad option (bot specs included)."""
        if isinstance(self.players, bool) or self.players not in (2, 3, 4):
            raise OptionError(f"players must be 2, 3 or 4, not {self.players!r}")
        if not self.bots:
            raise OptionError("no bots given: list one bot spec per seat, e.g. --bots ismcts,greedy")
        if len(self.bots) > self.players:
            raise OptionError(f"{len(self.bots)} bots listed for {self.players} seats: list at most one per seat")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise OptionError(f"games must be a whole number >= 1, not {self.games!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise OptionError(f"seed must be an integer, not {self.seed!r}")
        if self.time_per_move is not None and (not isinstance(self.time_per_move, (int, float))
                                               or not math.isfinite(self.time_per_move)
                                               or self.time_per_move <= 0):
            raise OptionError(f"time per move must be a positive number of seconds, not {self.time_per_move!r}")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or not 1 <= self.workers <= 256:
            raise OptionError(f"workers must be a whole number from 1 to 256, not {self.workers!r}")
        if self.backend not in BACKENDS:
            raise OptionError(f"backend must be one of {', '.join(BACKENDS)}, not {self.backend!r}")
        if self.seating not in SEATINGS:
            raise OptionError(f"seating must be one of {', '.join(SEATINGS)}, not {self.seating!r}")
        if isinstance(self.bootstrap, bool) or not isinstance(self.bootstrap, int) or self.bootstrap < 0:
            raise OptionError(f"bootstrap must be a whole number >= 0, not {self.bootstrap!r}")
        for spec in self.bots:
            check_bot_spec(spec)


def split_bot_list(text: str) -> list[str]:
    """Split ``--bots`` text into specs: a comma starts a new spec unless the next piece is a bare
    ``key=value`` continuing the previous spec's options (``ismcts:time=1,workers=2,greedy`` is two bots).
    Semicolons always separate specs.

    Raises:
        OptionError: an empty spec, or options with no bot before them.
    """
    specs: list[str] = []
    for chunk in text.split(";"):
        for piece in chunk.split(","):
            p = piece.strip()
            is_option = "=" in p and (":" not in p or p.index("=") < p.index(":"))
            if is_option:
                if not specs or ":" not in specs[-1]:
                    raise OptionError(f"bot list {text!r}: option {p!r} does not follow a 'bot:key=value' spec")
                specs[-1] += "," + p
            else:
                if not p:
                    raise OptionError(f"bot list {text!r}: empty bot spec")
                specs.append(p)
    return specs


@dataclass(frozen=True)
class Plan:
    """The resolved tournament: entries, lineup, seatings, deals."""

    entries: tuple[str, ...]        # canonical spec per entry
    lineup: tuple[int, ...]         # entry per seat before permutation
    seatings: tuple[tuple[int, ...], ...]
    deals: int

    @property
    def games(self) -> int:
        return self.deals * len(self.seatings)


def seatings_of(lineup: Sequence[int], mode: str) -> list[tuple[int, ...]]:
    """Distinct seatings of a lineup: all permutations, rotations, or ``auto`` (see the module doc)."""
    perms = sorted(set(itertools.permutations(lineup)))
    rotations: list[tuple[int, ...]] = []
    for k in range(len(lineup)):
        r = tuple(lineup[k:]) + tuple(lineup[:k])
        if r not in rotations:
            rotations.append(r)
    if mode == "all" or (mode == "auto" and len(perms) <= AUTO_MAX_PERMUTATIONS):
        return perms
    return rotations


def make_plan(config: ArenaConfig) -> Plan:
    """Resolve specs (with the time per move), entries, lineup, seatings and the number of deals."""
    config.validate()
    specs = [with_time_per_move(parse_bot_spec(s), config.time_per_move).canonical() for s in config.bots]
    seat_specs = [specs[i % len(specs)] for i in range(config.players)]
    entries: list[str] = []
    for s in seat_specs:
        if s not in entries:
            entries.append(s)
    lineup = tuple(entries.index(s) for s in seat_specs)
    seatings = tuple(seatings_of(lineup, config.seating))
    deals = -(-config.games // len(seatings))
    return Plan(tuple(entries), lineup, seatings, deals)


# ------------------------------------------------------------------------------------------------
# One game


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs (picklable: it travels to worker processes and Ray tasks)."""

    index: int
    deal: int
    seating: tuple[int, ...]
    specs: tuple[str, ...]          # spec per seat
    players: int
    deal_seed: int
    chance_seed: int
    bot_seeds: tuple[int, ...]
    game_factory: Any


def game_tasks(config: ArenaConfig, plan: Plan, game_factory: Any) -> list[GameTask]:
    """The tasks of every game of the plan, in game order."""
    tasks = []
    per_deal = len(plan.seatings)
    for g in range(plan.games):
        deal, k = divmod(g, per_deal)
        seating = plan.seatings[k]
        tasks.append(GameTask(
            index=g, deal=deal, seating=seating, specs=tuple(plan.entries[e] for e in seating),
            players=config.players,
            deal_seed=derive(config.seed, deal, _DEAL),
            chance_seed=derive(config.seed, deal, _CHANCE),
            bot_seeds=tuple(derive(config.seed, g, seat, _BOT) for seat in range(config.players)),
            game_factory=game_factory))
    return tasks


def finishing_key(state, seat: int) -> tuple[int, int, int]:
    """The rules' order of finish (§10): VP, then prep-area cubes, then coins."""
    pl = state.players[seat]
    return (pl.vp, sum(pl.prep), pl.coins)


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game of the tournament; return its record (see `RESULTS_SCHEMA` ``games``)."""
    start = time.perf_counter()
    n = task.players
    state = task.game_factory(n).new_initial_state(task.deal_seed)
    bots = [make_bot(spec, seed) for spec, seed in zip(task.specs, task.bot_seeds)]
    for bot in bots:
        bot.restart()
    chance_rng = random.Random(task.chance_seed)
    decisions, forced = [0] * n, [0] * n
    think = [0.0] * n
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance_rng))
            length += 1
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
            forced[seat] += 1
        else:
            t0 = time.perf_counter()
            try:
                action = bots[seat].step(state.clone())
            except Exception as exc:
                raise RuntimeError(f"game {task.index}: bot {task.specs[seat]!r} (seat {seat}) failed: "
                                   f"{type(exc).__name__}: {exc}") from exc
            think[seat] += time.perf_counter() - t0
            decisions[seat] += 1
            if action not in legal:
                raise RuntimeError(f"game {task.index}: bot {task.specs[seat]!r} (seat {seat}) chose the "
                                   f"illegal action {action} ({state.action_to_string(action)})")
        state.apply_action(action)
        length += 1
    keys = [finishing_key(state, p) for p in range(n)]
    ranks = [1 + sum(1 for q in range(n) if keys[q] > keys[p]) + (sum(1 for q in range(n) if keys[q] == keys[p]) - 1) / 2
             for p in range(n)]
    return {
        "index": task.index, "deal": task.deal, "seating": list(task.seating),
        "deal_seed": task.deal_seed, "chance_seed": task.chance_seed, "bot_seeds": list(task.bot_seeds),
        "scores": [int(v) for v in state.scores()], "ranks": ranks,
        "tiebreak": [list(k) for k in keys],
        "returns": [float(r) for r in state.returns()], "winners": [int(w) for w in state.winners()],
        "decisions": decisions, "forced": forced, "think_seconds": [round(t, 6) for t in think],
        "iterations": [b.iterations for b in bots],
        "seconds": round(time.perf_counter() - start, 6), "length": length,
    }


# ------------------------------------------------------------------------------------------------
# Backends


Progress = Callable[[int, int], None]


def _run_local(tasks: list[GameTask], workers: int, progress: Progress | None) -> list[dict[str, Any]]:
    total = len(tasks)
    if workers == 1 or total <= 1:
        records = []
        for task in tasks:
            records.append(play_game(task))
            if progress:
                progress(len(records), total)
        return records
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    # "spawn": the parent may run threads (a progress bar), which makes "fork" unsafe.
    ctx = multiprocessing.get_context("spawn")
    records = []
    with ProcessPoolExecutor(max_workers=min(workers, total), mp_context=ctx) as pool:
        futures = [pool.submit(play_game, task) for task in tasks]
        try:
            for future in as_completed(futures):
                records.append(future.result())
                if progress:
                    progress(len(records), total)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return records


def _run_ray(tasks: list[GameTask], workers: int, progress: Progress | None) -> list[dict[str, Any]]:
    """Each game is a Ray task. Uses the Ray runtime already initialised (any cluster), else starts a
    local one with `workers` CPUs (Ray >= 2.x removed `local_mode`; a local cluster is the test setup)."""
    try:
        import ray
    except ImportError as exc:
        raise OptionError(f"backend 'ray' needs Ray: pip install 'burano-ai[ray]' ({exc})") from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(play_game)
    refs = [remote.remote(task) for task in tasks]
    pending = list(refs)
    done_count = 0
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        done_count += len(done)
        if progress:
            progress(done_count, len(tasks))
    return list(ray.get(refs))


# ------------------------------------------------------------------------------------------------
# Statistics


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (`successes` may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def finishing_orders(records: Sequence[dict[str, Any]]) -> list[list[int]]:
    """Each game's seats as entries, best first (exact ties ordered by seat)."""
    orders = []
    for rec in records:
        keys = rec["tiebreak"]
        seats = sorted(range(len(keys)), key=lambda p: (tuple(-x for x in keys[p]), p))
        orders.append([rec["seating"][p] for p in seats])
    return orders


def plackett_luce(orders: Sequence[Sequence[int]], num_entries: int, weights: Sequence[float] | None = None,
                  iterations: int = 2000, tol: float = 1e-10) -> list[float]:
    """Plackett–Luce strengths (one per entry, shared by its seats) by Hunter's MM algorithm.

    Each entry also gets one virtual win and one virtual loss against a reference of strength 1 (a weak
    prior that keeps strengths finite). `weights` multiplies each game (bootstrap multiplicities).
    Returns strengths with geometric mean 1.
    """
    import numpy as np
    E = num_entries
    rows: list[list[int]] = []     # per stage: copies of each entry still unplaced
    winners: list[int] = []
    row_weights: list[float] = []
    for g, order in enumerate(orders):
        w = 1.0 if weights is None else float(weights[g])
        if w == 0.0:
            continue
        counts = [0] * E
        for e in order:
            counts[e] += 1
        for t in range(len(order) - 1):
            rows.append(list(counts))
            winners.append(order[t])
            row_weights.append(w)
            counts[order[t]] -= 1
    gamma = np.ones(E)
    if not rows:
        return [1.0] * E
    M = np.array(rows, dtype=float)
    wr = np.array(row_weights)
    W = np.zeros(E)
    np.add.at(W, np.array(winners), wr)
    W += 1.0                                       # prior: one virtual win
    for _ in range(iterations):
        S = M @ gamma
        D = (M * (wr / S)[:, None]).sum(axis=0) + 2.0 / (gamma + 1.0)   # prior: 2 virtual games vs strength 1
        new = W / D
        new /= math.exp(float(np.mean(np.log(new))))
        if float(np.max(np.abs(np.log(new) - np.log(gamma)))) < tol:
            gamma = new
            break
        gamma = new
    return [float(x) for x in gamma]


def elo_ratings(strengths: Sequence[float]) -> list[float]:
    """400 * log10(strength), shifted to mean 0."""
    elo = [400.0 * math.log10(s) for s in strengths]
    mean = sum(elo) / len(elo)
    return [e - mean for e in elo]


def rate(records: Sequence[dict[str, Any]], num_entries: int, bootstrap: int, seed: int
         ) -> tuple[list[float], list[tuple[float, float]]]:
    """Elo-scale Plackett–Luce ratings and bootstrap 95 % intervals (deals resampled)."""
    orders = finishing_orders(records)
    ratings = elo_ratings(plackett_luce(orders, num_entries))
    if bootstrap <= 0 or num_entries < 2:
        return ratings, [(r, r) for r in ratings]
    import numpy as np
    deals = sorted({rec["deal"] for rec in records})
    deal_pos = {d: i for i, d in enumerate(deals)}
    game_deal = np.array([deal_pos[rec["deal"]] for rec in records])
    rng = np.random.default_rng(derive(seed, 0xB0075))
    samples = []
    for _ in range(bootstrap):
        picks = np.bincount(rng.integers(0, len(deals), len(deals)), minlength=len(deals))
        samples.append(elo_ratings(plackett_luce(orders, num_entries, weights=picks[game_deal], iterations=300,
                                                 tol=1e-7)))
    arr = np.array(samples)
    lo = np.percentile(arr, 2.5, axis=0)
    hi = np.percentile(arr, 97.5, axis=0)
    return ratings, [(float(a), float(b)) for a, b in zip(lo, hi)]


def summarise(records: Sequence[dict[str, Any]], plan: Plan, players: int, bootstrap: int, seed: int
              ) -> tuple[list[dict[str, Any]], list[float]]:
    """Per-entry statistics and the per-seat win rate."""
    E = len(plan.entries)
    acc = [{"seats": 0, "share": 0.0, "wins": 0, "vp": [], "rank": 0.0, "margin": 0.0, "decisions": 0,
            "forced": 0, "think": 0.0, "iterations": 0} for _ in range(E)]
    seat_share = [0.0] * players
    for rec in records:
        scores = rec["scores"]
        for seat, e in enumerate(rec["seating"]):
            a = acc[e]
            a["seats"] += 1
            a["share"] += rec["returns"][seat]
            a["wins"] += 1 if seat in rec["winners"] else 0
            a["vp"].append(scores[seat])
            a["rank"] += rec["ranks"][seat]
            a["margin"] += scores[seat] - max(s for q, s in enumerate(scores) if q != seat)
            a["decisions"] += rec["decisions"][seat]
            a["forced"] += rec["forced"][seat]
            a["think"] += rec["think_seconds"][seat]
            a["iterations"] += rec["iterations"][seat]
            seat_share[seat] += rec["returns"][seat]
    ratings, intervals = rate(records, E, bootstrap, seed)
    entries = []
    for e, a in enumerate(acc):
        n = a["seats"]
        vps = a["vp"]
        mean_vp = sum(vps) / n if n else 0.0
        sd_vp = math.sqrt(sum((v - mean_vp) ** 2 for v in vps) / (n - 1)) if n > 1 else 0.0
        lo, hi = wilson_interval(a["share"], n)
        entries.append({
            "index": e, "spec": plan.entries[e], "seats_played": n,
            "win_share": round(a["share"], 6), "win_rate": a["share"] / n if n else 0.0,
            "win_rate_ci95": [lo, hi], "wins": a["wins"],
            "mean_vp": mean_vp, "sd_vp": sd_vp, "mean_rank": a["rank"] / n if n else 0.0,
            "mean_margin": a["margin"] / n if n else 0.0,
            "decisions": a["decisions"], "forced": a["forced"], "think_seconds": round(a["think"], 4),
            "seconds_per_decision": a["think"] / a["decisions"] if a["decisions"] else 0.0,
            "iterations": a["iterations"],
            "iterations_per_second": a["iterations"] / a["think"] if a["think"] > 0 else 0.0,
            "rating": ratings[e], "rating_ci95": list(intervals[e]),
        })
    games = len(records)
    return entries, [s / games if games else 0.0 for s in seat_share]


# ------------------------------------------------------------------------------------------------
# Results


@dataclass
class ArenaResult:
    """A finished tournament: the config, the plan, per-entry statistics and every game's record."""

    config: ArenaConfig
    plan: Plan
    engine: str
    entries: list[dict[str, Any]]
    seat_win_rate: list[float]
    games: list[dict[str, Any]]
    elapsed: float
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The results JSON (see `RESULTS_SCHEMA`)."""
        cfg = asdict(self.config)
        cfg["bots"] = list(self.config.bots)
        cfg["engine"] = self.engine
        return {
            "schema": SCHEMA, "version": SCHEMA_VERSION, "burano_ai_version": __version__,
            "config": cfg, "lineup": list(self.plan.lineup), "seatings": [list(s) for s in self.plan.seatings],
            "deals": self.plan.deals, "games_played": len(self.games), "elapsed": round(self.elapsed, 3),
            "entries": self.entries, "seat_win_rate": self.seat_win_rate,
            "rating": {"method": "plackett-luce (MM, Hunter 2004)", "scale": "elo: 400*log10(strength), mean 0",
                       "prior": "1 virtual win + 1 virtual loss vs a strength-1 reference per entry",
                       "bootstrap": self.config.bootstrap, "bootstrap_unit": "deal"},
            "games": self.games, "notes": self.notes,
        }

    def write_json(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1)
            f.write("\n")

    def write_csv(self, path: str) -> None:
        """One row per seat per game."""
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "deal", "seat", "entry", "spec", "vp", "rank", "win_share", "winner", "decisions",
                        "forced", "think_seconds", "iterations", "deal_seed", "chance_seed", "bot_seed"])
            for rec in self.games:
                for seat, e in enumerate(rec["seating"]):
                    w.writerow([rec["index"], rec["deal"], seat, e, self.plan.entries[e], rec["scores"][seat],
                                rec["ranks"][seat], rec["returns"][seat], int(seat in rec["winners"]),
                                rec["decisions"][seat], rec["forced"][seat], rec["think_seconds"][seat],
                                rec["iterations"][seat], rec["deal_seed"], rec["chance_seed"], rec["bot_seeds"][seat]])

    def table_rows(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        headers = ("bot", "seats", "win rate", "95% CI", "mean VP", "mean rank", "rating", "rating 95% CI",
                   "s/decision")
        rows = []
        for e in sorted(self.entries, key=lambda x: -x["rating"]):
            lo, hi = e["win_rate_ci95"]
            rlo, rhi = e["rating_ci95"]
            rows.append((e["spec"], str(e["seats_played"]), f"{e['win_rate']:.3f}", f"{lo:.3f}-{hi:.3f}",
                         f"{e['mean_vp']:.1f}", f"{e['mean_rank']:.2f}", f"{e['rating']:+.0f}",
                         f"{rlo:+.0f}..{rhi:+.0f}", f"{e['seconds_per_decision']:.3f}"))
        return headers, rows

    def table(self) -> str:
        """A plain-text results table."""
        headers, rows = self.table_rows()
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
        lines = [f"{len(self.games)} games ({self.plan.deals} deals x {len(self.plan.seatings)} seatings), "
                 f"{self.config.players} players, seed {self.config.seed}, {self.elapsed:.1f} s"]
        for row in [headers] + rows:
            lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        lines.append("seat win rate: " + ", ".join(f"{'ABCD'[i]} {r:.3f}" for i, r in enumerate(self.seat_win_rate)))
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Win rate (95 % CI) against search budget per bot family: the skill ladder (needs matplotlib)."""
        plot_ladder(self, path)


def _family(spec: str) -> str:
    b = parse_bot_spec(spec)
    rest = {k: v for k, v in b.options.items() if k not in ("iterations", "time")}
    return BotSpec(b.name, rest).canonical()


def plot_ladder(result: ArenaResult, path: str) -> None:
    """Write the ladder plot: win rate vs budget (log x) per bot family; bots without a budget are
    horizontal lines; with no budgets at all, a bar chart."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise OptionError(f"--plot needs matplotlib: pip install 'burano-ai[plot]' ({exc})") from None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    budgeted: dict[tuple[str, str], list[tuple[float, dict[str, Any]]]] = {}
    flat = []
    for e in result.entries:
        b = parse_bot_spec(e["spec"]).budget()
        if b is None:
            flat.append(e)
        else:
            budgeted.setdefault((_family(e["spec"]), b[0]), []).append((b[1], e))
    if budgeted:
        for (family, kind), points in sorted(budgeted.items()):
            points.sort(key=lambda p: p[0])
            xs = [p[0] for p in points]
            ys = [p[1]["win_rate"] for p in points]
            err = [[y - p[1]["win_rate_ci95"][0] for y, p in zip(ys, points)],
                   [p[1]["win_rate_ci95"][1] - y for y, p in zip(ys, points)]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"{family} ({kind})")
        for e in flat:
            ax.axhline(e["win_rate"], linestyle="--", linewidth=1, label=e["spec"], color="grey")
        ax.set_xscale("log")
        kinds = {k for _, k in budgeted}
        ax.set_xlabel("budget per decision (" + " / ".join(sorted("iterations" if k == "iterations" else "seconds"
                                                                  for k in kinds)) + ")")
    else:
        names = [e["spec"] for e in result.entries]
        ys = [e["win_rate"] for e in result.entries]
        err = [[y - e["win_rate_ci95"][0] for y, e in zip(ys, result.entries)],
               [e["win_rate_ci95"][1] - y for y, e in zip(ys, result.entries)]]
        ax.bar(range(len(names)), ys, yerr=err, capsize=4)
        ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.axhline(1.0 / result.config.players, color="black", linewidth=0.5, linestyle=":")
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Burano arena: {result.config.players} players, {len(result.games)} games, seed {result.config.seed}")
    if budgeted:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ------------------------------------------------------------------------------------------------
# Entry point


def default_game_factory():
    """The compiled core's Game (`burano_ai.Game`)."""
    from . import Game
    return Game


def run_arena(config: ArenaConfig, progress: Progress | None = None, game_factory: Any = None) -> ArenaResult:
    """Play the tournament and return its results.

    Args:
        config: what to play.
        progress: called as ``progress(games done, games total)`` after each game.
        game_factory: ``num_players -> Game`` (a Game class; picklable); default `burano_ai.Game` (the
            compiled core); `burano_ai.reference.Game` plays the same games, slowly.

    Raises:
        OptionError: a bad option or bot spec, or a backend/bot whose package is missing.
    """
    start = time.perf_counter()
    plan = make_plan(config)
    factory = game_factory or default_game_factory()
    tasks = game_tasks(config, plan, factory)
    if config.backend == "ray":
        records = _run_ray(tasks, config.workers, progress)
    else:
        records = _run_local(tasks, config.workers, progress)
    records.sort(key=lambda r: r["index"])
    entries, seat_rates = summarise(records, plan, config.players, config.bootstrap, config.seed)
    notes = []
    if plan.games != config.games:
        notes.append(f"{config.games} games asked, {plan.games} played: whole deals of {len(plan.seatings)} "
                     f"seatings each")
    if any("time=" in s for s in plan.entries):
        notes.append("bots with a time budget make results depend on the machine (not reproducible bit for bit)")
    engine = f"{factory.__module__}.{factory.__qualname__}"
    return ArenaResult(config, plan, engine, entries, seat_rates, records, time.perf_counter() - start, notes)
