"""Self-play data: games the engine plays against itself, with the search's value at every decision.

`burano selfplay --game G --players N --games K --out DIR` plays K games of G in which every seat is
today's engine (the game's default search, `iterations` a decision, one thread), and writes one JSON
line per finished game to ``DIR/games.jsonl``:

    {"format": "burano-selfplay/1", "game", "players", "options", "seed", "iterations",
     "explore", "actions": [every step, chance outcomes included, from new_initial_state(0)],
     "decisions": [[step index, seat, [search's win share of every seat], chosen action], ...],
     "scores": [final scores], "returns": [final win shares], "seconds"}

A game is a pure function of (game, players, options, seed, iterations, explore, the engine's code):
its chance comes from ``derive(seed, 1)``, its decisions' searches from ``derive(seed, 2, decision)``,
and its exploration from ``derive(seed, 3)``. The positions themselves are not stored: a game's steps
replayed from the initial state give them back (`replay_steps`), so the encoder can change without
new games.

Exploration: the first `explore` decisions of a game are drawn in proportion to the root moves' visits
(AlphaZero's temperature 1), so that games from similar seeds diverge; the rest are the search's
suggestion. The search's value is the suggested move's per-seat win share (`Candidate.seat_win_probs`),
the value a player reading the search would believe.

Runs are resumable: the seeds already in ``games.jsonl`` are skipped, and a line cut by a kill is
ignored. They run in this process (``workers=1``), or as Ray tasks over every core (``workers > 1``: a
local Ray runtime; ``address``: an existing cluster, the same code) through the arena's backends.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from burano_ai.core.errors import OptionError
from burano_ai.core.options import game_for
from burano_ai.core.seeds import derive
from burano_ai.games import get_spec
from burano_ai.search.evaluators import sample_chance_cumulative
from burano_ai.search.limits import Limit
from burano_ai.search.params import Params

FORMAT = "burano-selfplay/1"
GAMES_FILE = "games.jsonl"
#: Most games one run asks for, and the largest per-decision budget (a run must end in a session).
MAX_GAMES = 1_000_000
MAX_ITERATIONS = 1_000_000


@dataclass(frozen=True)
class SelfPlayTask:
    """One game to play (picklable: it crosses to worker processes and Ray tasks)."""

    game: str
    players: int
    seed: int
    iterations: int
    explore: int
    options: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] | None = None


def _visit_sample(result, rng: random.Random) -> int:
    candidates = [c for c in result.candidates if c.visits > 0]
    if not candidates:
        return result.action
    total = sum(c.visits for c in candidates)
    r = rng.random() * total
    acc = 0.0
    for c in candidates:
        acc += c.visits
        if r < acc:
            return c.action
    return candidates[-1].action


def play_selfplay_game(task: SelfPlayTask) -> dict[str, Any]:
    """Play one self-play game and return its record (the module docstring's line)."""
    from burano_ai.engine import suggest      # the engine imports the search, which is heavy: import late

    start = time.perf_counter()
    spec = get_spec(task.game)
    n = task.players
    state = game_for(spec, n, task.options).new_initial_state(0)
    params = Params(**(task.params if task.params is not None else spec.search_defaults))
    chance_rng = random.Random(derive(task.seed, 1))
    explore_rng = random.Random(derive(task.seed, 3))
    actions: list[int] = []
    decisions: list[list[Any]] = []
    limit = Limit(iterations=task.iterations)
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance_cumulative(state, chance_rng)
        else:
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                result = suggest(state, seat=seat, limit=limit, params=params,
                                 seed=derive(task.seed, 2, len(decisions)), threads=1)
                best = result.candidates[0]
                action = _visit_sample(result, explore_rng) if len(decisions) < task.explore else result.action
                shares = list(best.seat_win_probs) if best.seat_win_probs else None
                decisions.append([len(actions), seat, [round(v, 5) for v in shares] if shares else None, action])
        actions.append(int(action))
        state.apply_action(action)
    return {
        "format": FORMAT, "game": task.game, "players": n, "options": dict(task.options), "seed": task.seed,
        "iterations": task.iterations, "explore": task.explore, "actions": actions, "decisions": decisions,
        "scores": [float(v) for v in state.scores()], "returns": [float(v) for v in state.returns()],
        "seconds": round(time.perf_counter() - start, 3),
    }


def read_games(path: str | os.PathLike) -> Iterator[dict[str, Any]]:
    """The complete records of a games file (or of ``DIR/games.jsonl``); a cut last line is skipped."""
    p = Path(path)
    if p.is_dir():
        p = p / GAMES_FILE
    if not p.exists():
        return
    with open(p, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue        # a line cut by a kill: the game is played again on resume
            if isinstance(record, dict) and record.get("format") == FORMAT:
                yield record


def replay_steps(record: Mapping[str, Any], game_factory=None) -> Iterator[tuple[int, Any]]:
    """Replay a self-play record: yield (step index, the State before that step) for every step, chance
    events included (the State is the live one: clone it to keep it)."""
    spec = get_spec(record["game"])
    state = game_for(spec, record["players"], record.get("options") or {}, game_factory).new_initial_state(0)
    for i, action in enumerate(record["actions"]):
        yield i, state
        state.apply_action(action)


def check_run_options(game: str, players: int | None, games: int, iterations: int, explore: int) -> int:
    spec = get_spec(game)
    n = spec.default_players if players is None else players
    if not spec.min_players <= n <= spec.max_players:
        raise OptionError(f"{game} plays {spec.min_players}-{spec.max_players} players, not {n}")
    if not 1 <= games <= MAX_GAMES:
        raise OptionError(f"games must be 1..{MAX_GAMES:_}, not {games}")
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise OptionError(f"iterations must be 1..{MAX_ITERATIONS:_}, not {iterations}")
    if explore < 0:
        raise OptionError(f"explore must be at least 0, not {explore}")
    return n


def run_selfplay(out: str | os.PathLike, game: str, players: int | None = None, games: int = 100,
                 iterations: int = 400, explore: int = 8, seed: int = 1, workers: int = 1,
                 address: str | None = None, options: Mapping[str, Any] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play `games` self-play games (seeds ``derive(seed, 0, i)`` for i < games) into ``out/games.jsonl``,
    skipping the seeds already there. Returns a summary: games played now, games in the file, seconds.

    Raises:
        OptionError: a bad option, or an existing file of another game, player count or budget.
    """
    n = check_run_options(game, players, games, iterations, explore)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    done: set[int] = set()
    for record in read_games(out_dir):
        if (record["game"], record["players"], record["iterations"], record["explore"]) != (game, n, iterations, explore):
            raise OptionError(f"{out_dir / GAMES_FILE} holds games of {record['game']} {record['players']}p at "
                              f"{record['iterations']} iterations (explore {record['explore']}): "
                              "write this run to another directory")
        done.add(record["seed"])
    seeds = [derive(seed, 0, i) for i in range(games)]
    tasks = [SelfPlayTask(game, n, s, iterations, explore, dict(options or {})) for s in seeds if s not in done]
    start = time.perf_counter()
    path = out_dir / GAMES_FILE
    # A line cut by a kill would glue to the next record: start on a fresh line.
    if path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\n")
    count = [0]

    def on_record(record: dict[str, Any]) -> None:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, separators=(",", ":")) + "\n")
        count[0] += 1
        if progress:
            progress(len(done) + count[0], games)

    if tasks:
        from burano_ai.arena.backends import run_local, run_ray
        if address is not None or workers > 1:
            if address is not None:
                import ray
                if not ray.is_initialized():
                    ray.init(address=address, include_dashboard=False, log_to_driver=False)
            run_ray(play_selfplay_game, tasks, max(workers, 1), on_record=on_record)
        else:
            run_local(play_selfplay_game, tasks, 1, on_record=on_record)
    return {"played": count[0], "games": len(done) + count[0], "seconds": round(time.perf_counter() - start, 3),
            "path": str(path)}
