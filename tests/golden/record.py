"""Record the golden fixtures that pin down behaviour across refactors (tests/test_golden.py checks them).

Run from the repository root: ``python tests/golden/record.py``. Re-record only in the same commit as
a change that alters behaviour on purpose (a rules fix, a search change), and say why in the message.

Fixtures:
- ``random_games.json``: 200 seeded uniform-random games (2/3/4 players), the digest of each action
  sequence, its length, the final scores and the core's final position key.
- ``positions/*.json``: the positions `suggest` is run on (full positions and one-seat views).
- ``suggest.json``: ``burano suggest --json`` on each position with a fixed seed, budget and worker
  count and one thread per worker (``--threads 1``, a deterministic mode), timing fields dropped.
- ``arena.json``: a small iteration-budget ``burano arena`` results file, timing fields dropped.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# Fields that measure time (and quantities derived from it): never part of a golden output.
TIMING_FIELDS = frozenset({"elapsed", "iterations_per_second", "think_seconds", "seconds_per_decision",
                           "time", "seconds"})

RANDOM_GAMES = [(n, seed) for n in (2, 3, 4) for seed in range(67)][:200]

# (name, players, seed, share of the seeded random game played from the deal, whether as the actor's one-seat view)
POSITIONS = [
    ("setup-2p-full", 2, 11, 0.0, False),
    ("setup-3p-view", 3, 12, 0.03, True),
    ("spring-4p-full", 4, 13, 0.15, False),
    ("spring-2p-view", 2, 14, 0.25, True),
    ("summer-3p-view", 3, 15, 0.45, True),
    ("summer-4p-full", 4, 16, 0.55, False),
    ("autumn-2p-full", 2, 17, 0.75, False),
    ("winter-pyramid-4p-view", 4, 18, 0.85, True),
    ("winter-3p-view", 3, 19, 0.95, True),
]

# (position name, iterations, workers, extra options)
SUGGEST_CASES = [
    ("example", 400, 1, []),
    ("setup-2p-full", 300, 1, []),
    ("setup-3p-view", 300, 2, []),
    ("spring-4p-full", 400, 1, ["--playout", "random"]),
    ("spring-2p-view", 400, 2, []),
    ("summer-3p-view", 400, 1, []),
    ("summer-4p-full", 400, 2, []),
    ("autumn-2p-full", 400, 1, []),
    ("winter-pyramid-4p-view", 400, 1, []),
    ("winter-3p-view", 400, 2, []),
]

ARENA_ARGS = ["arena", "--bots", "ismcts:iterations=40;greedy;random", "--players", "3", "--games", "3",
              "--seed", "5", "--bootstrap", "20"]


def without_timing(value):
    """`value` with every timing field removed, recursively."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def play_random_game(game_class, num_players: int, seed: int) -> tuple[list[int], object]:
    """The action sequence of a seeded uniform-random game, and the final state."""
    from burano_ai.random_play import random_step
    state = game_class(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        actions.append(random_step(state, rng))
    return actions, state


def digest(actions: list[int]) -> str:
    return hashlib.sha256(",".join(map(str, actions)).encode()).hexdigest()


def random_game_record(game_class, num_players: int, seed: int) -> dict:
    actions, state = play_random_game(game_class, num_players, seed)
    return {"players": num_players, "seed": seed, "length": len(actions), "sha256": digest(actions),
            "first": actions[:30], "scores": state.scores()}


def position_text(num_players: int, seed: int, share: float, view: bool) -> str:
    """A position `share` of the way through a seeded random game, moved on to the next decision."""
    from burano_ai.random_play import random_step
    from burano_ai.games.burano.reference import Game
    plies = int(share * len(play_random_game(Game, num_players, seed)[0]))
    state = Game(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        random_step(state, rng)
    while state.is_chance_node():
        random_step(state, rng)
    return state.to_json(seat=state.current_player() if view else None, indent=1) + "\n"


def position_path(name: str) -> Path:
    if name == "example":
        return ROOT / "burano_ai" / "games" / "burano" / "data" / "examples" / "midgame-4p-C.json"
    return HERE / "positions" / f"{name}.json"


def run_cli(args: list[str]) -> str:
    from typer.testing import CliRunner
    import cli
    result = CliRunner().invoke(cli.app, args)
    if result.exit_code != 0:
        raise RuntimeError(f"burano {' '.join(args)} exited {result.exit_code}: {result.output}")
    return result.stdout


def suggest_output(name: str, iterations: int, workers: int, extra: list[str]) -> dict:
    # One thread per worker: the deterministic modes (threads sharing a tree are not reproducible).
    args = ["suggest", str(position_path(name)), "--iterations", str(iterations), "--workers", str(workers),
            "--threads", "1", "--seed", "3", "--json", *extra]
    return without_timing(json.loads(run_cli(args)))


def arena_output(tmp: Path) -> dict:
    out = tmp / "arena.json"
    run_cli([*ARENA_ARGS, "--out", str(out)])
    return without_timing(json.loads(out.read_text()))


def main() -> None:
    import tempfile
    from burano_ai.games.burano.reference import Game
    games = []
    for n, seed in RANDOM_GAMES:
        record = random_game_record(Game, n, seed)
        games.append(record)
    (HERE / "random_games.json").write_text(json.dumps(games, indent=0) + "\n")
    (HERE / "positions").mkdir(exist_ok=True)
    for name, n, seed, plies, view in POSITIONS:
        position_path(name).write_text(position_text(n, seed, plies, view))
    suggest = {f"{name}/{iterations}/{workers}{''.join(extra)}": suggest_output(name, iterations, workers, extra)
               for name, iterations, workers, extra in SUGGEST_CASES}
    (HERE / "suggest.json").write_text(json.dumps(suggest, indent=1) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        (HERE / "arena.json").write_text(json.dumps(arena_output(Path(tmp)), indent=1) + "\n")
    print("recorded", len(games), "games,", len(suggest), "suggestions, 1 arena", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
