"""`burano bench`: a deterministic signature and a speed table for every registered game.

Stockfish's `bench` is the model: fixed positions, fixed seeds and fixed budgets give a signature that
changes only when the rules or the search change (a commit that changes it says so; a refactor must
not), and the same run measures the machine's speed.

Positions: for each game and player count, one seeded uniform-random game (`SEED`) is played to the end
with the compiled rules; the bench positions are its first decisions at 0 %, 50 % and 90 % of its
length ("start", "middle", "late": for Burano the late one lies in the last round; a game too short
for three distinct decisions gets the ones it has, and the report says so). Nothing here knows
any game: everything comes from the registry (`burano_ai.games`) and the State protocol.

Signature (`signature`): per game and player count, the moves, iterations and tree nodes of fixed-seed
one-thread searches (`engine.suggest`, `SIGNATURE_ITERATIONS` iterations, the game's default search:
`GameSpec.search_defaults`) at the three positions, a hash
of `RANDOM_GAMES` seeded random games played through the Python API, and the final scores of seeded
C playouts (random, and heuristic where the game has it); a SHA-256 digest of all that (the first 16
hex digits) per game and over every game. It does not depend on the machine, its load, `--quick` or
`--threads`.

Speed (`speed`), per game at its default player count: C playouts/s from the start (random,
heuristic), random games/s through the Python API with the compiled core and with the reference model,
their ratio (the core's playouts over the reference's games), clone/key/legal-actions in ns at the
middle position (all of these per second of this process's CPU time, so that the time other processes
hold the CPU is not charged to them), search iterations/s there on one thread and on N threads sharing
one native tree (wall clock: the threads' speed-up is wall-clock by nature), and
the native tree's memory per node (allocated bytes over nodes after the one-thread search, whose
capacity grows in steps, and the fixed size of a node record plus a hash slot). Every rate is the best
of three batches of a wall-clock length, so load from other processes lowers it less.

`compare(a, b)` lines up two `--json` results as ratios.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import platform
import random
import sys
import time
from typing import Any, Callable, Iterable, Mapping

from burano_ai import __version__
from burano_ai.core.errors import OptionError
from burano_ai.core.jsonio import json_error_text
from burano_ai.engine import suggest
from burano_ai.games import all_specs, get_spec
from burano_ai.random_play import random_step, sample_chance
from burano_ai.search import Limit, Params
from burano_ai.search.ismcts import make_searcher, native_tree_blocker
from burano_ai.search.parallel import canonical_root, usable_cores

#: The `format` tag of `--json` output.
FORMAT = "burano-bench/1"
#: Seed of the random game that gives the bench positions, and of the signature's searches.
SEED = 2026
#: The bench positions: name -> fraction of the seeded random game's length.
POSITIONS = {"start": 0.0, "middle": 0.5, "late": 0.9}
#: Iterations of each signature search (one thread, seed `SEED`).
SIGNATURE_ITERATIONS = 300
#: Seeded random games hashed per game and player count (Python API), and seeded C playouts per policy.
RANDOM_GAMES = 5
SIGNATURE_PLAYOUTS = 5
#: Seconds of each speed measurement (three batches of a third): default and `--quick`.
SECONDS = 0.9
QUICK_SECONDS = 0.12
#: The speed table's rows: key -> (label, unit, higher is better).
METRICS: dict[str, tuple[str, str, bool]] = {
    "random_playouts": ("random playouts (C)", "/s", True),
    "heuristic_playouts": ("heuristic playouts (C)", "/s", True),
    "api_random_games": ("random games, Python API", "/s", True),
    "reference_random_games": ("random games, reference model", "/s", True),
    "core_vs_reference": ("core / reference", "x", True),
    "clone_ns": ("clone", "ns", False),
    "key_ns": ("key", "ns", False),
    "legal_actions_ns": ("legal actions", "ns", False),
    "search_1_thread": ("search, 1 thread", "it/s", True),
    "search_n_threads": ("search, N threads, one tree", "it/s", True),
    "thread_speedup": ("N threads / 1 thread", "x", True),
    "net_leaf_us": ("net leaf evaluation (encode + net, C)", "us", False),
    "bytes_per_node": ("tree allocated per node", "B", False),
    "node_record_bytes": ("node record + hash slot", "B", False),
}
#: OpenSpiel games timed by `--peer openspiel` besides the registry's keys that OpenSpiel also has.
PEER_GAMES = ("hearts", "backgammon")

Progress = Callable[[str], None]


def _quiet(_message: str) -> None:
    pass


# ------------------------------------------------------------------------------------------------
# Positions


def specs_for(game: str | None) -> list:
    """The specs to bench: every registered game, or the one named (OptionError if unknown)."""
    return all_specs() if game is None else [get_spec(game)]


def bench_positions(spec, players: int) -> dict[str, Any]:
    """The bench positions of `spec` at `players` players: name -> a compiled State with a seat to move.

    The first real decision (two legal moves or more) at or after each `POSITIONS` fraction of one
    seeded random game's steps, each a later one than the position before. A short game may have fewer
    than three distinct decisions: it gets the ones there are (a 4-move hand: "start" and "middle"), in
    `POSITIONS` order; a game without a real decision gets its first forced one as "start".

    Raises:
        OptionError: the seeded game has nobody to move in any state.
    """
    state = spec.new_game(players).new_initial_state(SEED)
    rng = random.Random(SEED)
    trail = [state.clone()]
    while not state.is_terminal():
        random_step(state, rng)
        trail.append(state.clone())
    choices = [i for i, s in enumerate(trail)
               if not s.is_terminal() and not s.is_chance_node() and len(s.legal_actions()) > 1]
    if not choices:     # a game without a choice: its first decision
        choices = [i for i, s in enumerate(trail) if not s.is_terminal() and not s.is_chance_node()][:1]
    if not choices:
        raise OptionError(f"{spec.key} {players}p: its seeded random game has nobody to move: nothing to bench")
    found: dict[str, Any] = {}
    last = -1
    for name, fraction in POSITIONS.items():
        index = int(fraction * (len(trail) - 1))
        pick = next((i for i in choices if i >= index), choices[-1])
        if pick <= last:                # the same decision as the position before: take a later one
            pick = next((i for i in choices if i > last), None)
            if pick is None:
                break
        found[name] = trail[pick]
        last = pick
    return found


def _player_counts(spec) -> range:
    return range(spec.min_players, spec.max_players + 1)


def _random_game_moves(spec, players: int, seed: int) -> list[int]:
    """The steps of one seeded random game through the Python API (as `burano random-game` plays it)."""
    state = spec.new_game(players).new_initial_state(seed)
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        steps.append(action)
        state.apply_action(action)
    return steps + [round(float(s), 6) for s in state.returns()]


def _policies(spec) -> tuple[str, ...]:
    return ("random", "heuristic") if "heuristic_playout" in spec.capabilities else ("random",)


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# ------------------------------------------------------------------------------------------------
# Signature


def game_signature(spec, iterations: int = SIGNATURE_ITERATIONS, seed: int = SEED,
                   progress: Progress = _quiet) -> dict[str, Any]:
    """The signature parts of one game (see the module doc): per player count, the searches at the bench
    positions, the random games' hash and the C playouts' scores; with their digest and node count."""
    parts: dict[str, Any] = {}
    nodes = 0
    for players in _player_counts(spec):
        progress(f"{spec.key} {players}p: signature searches")
        searches = []
        for name, state in bench_positions(spec, players).items():
            result = suggest(state, limit=Limit(iterations=iterations),
                             params=Params(**spec.search_defaults), seed=seed, threads=1)
            searches.append({"position": name, "seat": result.seat, "move": result.move,
                             "iterations": result.iterations, "nodes": result.nodes})
            nodes += result.nodes
        games = [_random_game_moves(spec, players, seed + i) for i in range(RANDOM_GAMES)]
        start = spec.new_game(players).new_initial_state(seed)
        playouts = {}
        if hasattr(start, "playout"):
            for policy in _policies(spec):
                playouts[policy] = [[round(float(x), 6) for x in start.clone().playout(seed + i, policy)]
                                    for i in range(SIGNATURE_PLAYOUTS)]
        parts[str(players)] = {"searches": searches, "random_games": _digest(games),
                               "random_game_steps": sum(len(g) for g in games), "playouts": playouts}
    return {"digest": _digest(parts), "nodes": nodes, "players": parts}


def signature(specs: Iterable, iterations: int = SIGNATURE_ITERATIONS, seed: int = SEED,
              progress: Progress = _quiet) -> dict[str, Any]:
    """The bench signature of `specs`: per game `game_signature`, and one digest and node count over all."""
    games = {spec.key: game_signature(spec, iterations, seed, progress) for spec in specs}
    return {"digest": _digest({key: g["digest"] for key, g in games.items()}),
            "nodes": sum(g["nodes"] for g in games.values()),
            "iterations": iterations, "seed": seed, "games": games}


# ------------------------------------------------------------------------------------------------
# Speed


def _rate(fn: Callable[[], int], seconds: float, cpu: bool = True) -> float:
    """Units per second of `fn` (which returns the units it did): the best of three batches of
    `seconds / 3` of wall clock each (each batch calls `fn` at least once).

    With `cpu`, per second of this process's CPU time rather than of wall clock: single-threaded work
    on a shared machine would otherwise be charged the time other processes held the CPU.
    """
    best = 0.0
    for _ in range(3):
        done, start, cpu_start = 0, time.perf_counter(), time.process_time()
        while True:
            done += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        if cpu:
            elapsed = max(time.process_time() - cpu_start, 1e-9)
        best = max(best, done / elapsed)
    return best


def _per_call_ns(fn: Callable[[], Any], seconds: float, batch: int = 1000) -> float:
    def run() -> int:
        for _ in range(batch):
            fn()
        return batch
    return 1e9 / _rate(run, seconds)


def _playout_runner(state, policy: str) -> Callable[[], int]:
    """A call that plays games from copies of `state` in C and returns how many: the compiled module's
    batch `playouts` where it has one, else `State.playout` on a clone."""
    batch = importlib.import_module(type(state).__module__).__dict__.get("playouts")
    if batch is not None:
        counter = iter(range(1 << 62))
        return lambda: (batch(state, 50, next(counter), policy), 50)[1]
    seeds = iter(range(1 << 62))
    return lambda: (state.clone().playout(next(seeds), policy), 1)[1]


def _api_games(start) -> Callable[[], int]:
    seeds = iter(range(1 << 62))

    def run() -> int:
        state, rng = start.clone(), random.Random(next(seeds))
        while not state.is_terminal():
            random_step(state, rng)
        return 1
    return run


def _search_rate(root, seat: int, params: Params, threads: int, seconds: float) -> tuple[float, Any]:
    """Iterations/s of fresh searches from `root` with `threads` threads (calibrated so one batch takes
    about `seconds / 3`), and the last searcher."""
    probe = make_searcher(root, seat, params, SEED)
    start = time.perf_counter()
    probe.run(iterations=100, **({"threads": threads} if threads > 1 else {}))
    per_iteration = max(time.perf_counter() - start, 1e-6) / 100
    iterations = max(100, int(seconds / 3 / per_iteration))
    last = [probe]

    def run() -> int:
        searcher = make_searcher(root, seat, params, SEED)
        searcher.run(iterations=iterations, **({"threads": threads} if threads > 1 else {}))
        last[0] = searcher
        return searcher.iterations
    return _rate(run, seconds, cpu=False), last[0]


def net_leaf_us(state, seat: int, seconds: float) -> float | None:
    """Microseconds of one leaf evaluation by a learned net in C (the game's encoder and the net it ships
    for the player count, else a linear net of the encoder's shape), or None without an encoder."""
    if not getattr(state, "num_features", 0):
        return None
    from burano_ai.search._native import NetEval, time_leaf_evaluations
    from burano_ai.search.netfile import AUTO, net_for
    net = net_for(state, AUTO)
    if net is None:
        n, f = state.num_players, state.num_features
        net = NetEval([([[0.001] * f for _ in range(3 * n)], [0.0] * (3 * n))], n, 20.0)
    count = 1000
    while True:
        took = time_leaf_evaluations(net, state, seat, count)
        if took >= seconds / 4 or count >= 10**8:
            return took / count * 1e6
        count *= 4


def game_speed(spec, threads: int, seconds: float, progress: Progress = _quiet) -> dict[str, Any]:
    """The speed table's column of one game at its default player count (`METRICS` keys; a metric the
    game cannot run is missing)."""
    players = spec.default_players
    positions = bench_positions(spec, players)
    start = positions["start"]
    middle = positions.get("middle", start)     # a game with one decision measures it twice
    out: dict[str, Any] = {"players": players}
    if hasattr(start, "playout"):
        for policy in _policies(spec):
            progress(f"{spec.key}: {policy} playouts")
            out[f"{policy}_playouts"] = _rate(_playout_runner(start, policy), seconds)
    progress(f"{spec.key}: random games through the Python API")
    out["api_random_games"] = _rate(_api_games(start), seconds)
    if "reference" in spec.implementations:
        progress(f"{spec.key}: random games with the reference model")
        reference = spec.new_game(players, "reference").new_initial_state(SEED)
        out["reference_random_games"] = _rate(_api_games(reference), seconds)
        fastest = out.get("random_playouts", out["api_random_games"])
        out["core_vs_reference"] = fastest / out["reference_random_games"]
    progress(f"{spec.key}: clone, key, legal actions")
    out["clone_ns"] = _per_call_ns(middle.clone, seconds)
    if hasattr(middle, "key"):
        out["key_ns"] = _per_call_ns(middle.key, seconds)
    out["legal_actions_ns"] = _per_call_ns(middle.legal_actions, seconds)
    seat = middle.current_player()
    leaf = net_leaf_us(middle, seat, seconds)
    if leaf is not None:
        progress(f"{spec.key}: net leaf evaluation")
        out["net_leaf_us"] = leaf
    root, params = canonical_root(middle, seat), Params(**spec.search_defaults)     # the game's default search
    progress(f"{spec.key}: search, 1 thread")
    out["search_1_thread"], searcher = _search_rate(root, seat, params, 1, seconds)
    if native_tree_blocker(root, params) is None:
        nodes = searcher.nodes
        if nodes:
            out["bytes_per_node"] = searcher.memory_bytes / nodes
        out["node_record_bytes"] = sum(type(searcher).node_bytes())
        if threads > 1:
            progress(f"{spec.key}: search, {threads} threads on one tree")
            out["search_n_threads"], _ = _search_rate(root, seat, params, threads, seconds)
            out["thread_speedup"] = out["search_n_threads"] / out["search_1_thread"]
    return out


# ------------------------------------------------------------------------------------------------
# OpenSpiel as a peer


def openspiel_peer(keys: Iterable[str], seconds: float, progress: Progress = _quiet) -> dict[str, Any]:
    """Random-simulation steps/s and games/s of OpenSpiel's own games through pyspiel (the registry's
    keys that OpenSpiel also has, and `PEER_GAMES`), and its ISMCTS iterations/s where it runs.

    Raises:
        OptionError: pyspiel is not installed.
    """
    try:
        import pyspiel
    except ImportError:
        raise OptionError("--peer openspiel needs pyspiel, which is not installed "
                          "(pip install open_spiel)") from None
    names = [k for k in keys if k in pyspiel.registered_names()] + \
            [n for n in PEER_GAMES if n in pyspiel.registered_names() and n not in keys]
    out: dict[str, Any] = {}
    for name in names:
        progress(f"openspiel {name}: random games")
        game = pyspiel.load_game(name)
        seeds = iter(range(1 << 62))
        steps_done = [0]

        def run() -> int:
            rng = random.Random(next(seeds))
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                steps_done[0] += 1
            return 1

        start = time.process_time()
        games_per_s = _rate(run, seconds)
        row = {"random_games": games_per_s,
               "us_per_step": (time.process_time() - start) / max(steps_done[0], 1) * 1e6}
        try:
            from open_spiel.python.algorithms import ismcts, mcts
            if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
                progress(f"openspiel {name}: ISMCTS")
                import numpy as np
                evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(SEED))
                bot = ismcts.ISMCTSBot(game, evaluator, 1.0, 100, random_state=np.random.RandomState(SEED))
                state, rng = game.new_initial_state(), random.Random(SEED)
                while not state.is_terminal() and (state.is_chance_node() or len(state.legal_actions()) < 2):
                    if state.is_chance_node():
                        actions, probs = zip(*state.chance_outcomes())
                        state.apply_action(rng.choices(actions, probs)[0])
                    else:
                        state.apply_action(state.legal_actions()[0])
                row["ismcts_iterations"] = _rate(lambda: (bot.step(state), 100)[1], seconds)
        except Exception as exc:    # pragma: no cover - depends on the installed open_spiel
            row["ismcts_error"] = f"{type(exc).__name__}: {exc}"
        out[name] = row
    return out


# ------------------------------------------------------------------------------------------------
# The whole run, JSON and comparison


def run_bench(game: str | None = None, quick: bool = False, threads: int | None = None,
              peer: str | None = None, progress: Progress = _quiet,
              signature_iterations: int | None = None) -> dict[str, Any]:
    """The signature and the speed table of one game (`game`) or every game, as the `--json` object.

    Raises:
        OptionError: an unknown game, a thread count out of range, an unknown peer or one not installed.
    """
    specs = specs_for(game)
    if threads is None:
        threads = max(2, usable_cores())
    from burano_ai.search._native import MAX_THREADS
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise OptionError(f"--threads must be 1..{MAX_THREADS}, not {threads!r}")
    if peer not in (None, "openspiel"):
        raise OptionError(f"unknown peer {peer!r} (known: openspiel)")
    if peer == "openspiel":
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            raise OptionError("--peer openspiel needs pyspiel, which is not installed "
                              "(pip install open_spiel)") from None
    seconds = QUICK_SECONDS if quick else SECONDS
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    wall = time.perf_counter()
    result: dict[str, Any] = {
        "format": FORMAT, "version": __version__, "quick": quick, "threads": threads,
        "machine": {"cpus": os.cpu_count(), "usable_cores": usable_cores(), "python": platform.python_version(),
                    "platform": platform.platform(), "load_before": list(load) if load else None},
        "signature": signature(specs, signature_iterations or SIGNATURE_ITERATIONS, SEED, progress),
        "speed": {spec.key: game_speed(spec, threads, seconds, progress) for spec in specs},
    }
    if peer == "openspiel":
        result["peer"] = {"openspiel": openspiel_peer([s.key for s in specs], seconds, progress)}
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    result["machine"]["load_after"] = list(load) if load else None
    result["seconds"] = time.perf_counter() - wall
    return result


def load_result(path: str) -> dict[str, Any]:
    """A `--json` result read back.

    Raises:
        OptionError: the file is missing, unreadable, not JSON or not a `burano-bench/1` result.
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise OptionError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise OptionError(f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:           # an integer literal past Python's 4,300-digit limit
        raise OptionError(f"{path} is not JSON: {json_error_text(exc)}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise OptionError(f"{path} is not a burano bench result (no \"format\": \"{FORMAT}\")")
    speed, sig = data.get("speed"), data.get("signature")
    if not isinstance(speed, dict) or not isinstance(sig, dict) or not isinstance(sig.get("digest"), str) or \
            not all(isinstance(col, dict) and all(isinstance(v, (int, float)) for v in col.values())
                    for col in speed.values()):
        raise OptionError(f"{path}: a burano bench result needs a \"signature\" with a \"digest\" and a "
                          f"\"speed\" object of numbers per game")
    return data


def _number(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def format_table(result: Mapping[str, Any]) -> list[str]:
    """The report of a `run_bench` result for people: signature lines, then the speed table."""
    lines = []
    machine = result["machine"]
    load = machine.get("load_before")
    lines.append(f"burano bench {result['version']}: {'quick, ' if result['quick'] else ''}"
                 f"{result['threads']} threads, {machine['cpus']} CPUs"
                 + (f", load average {load[0]:.2f} before" if load else ""))
    sig = result["signature"]
    lines.append("")
    lines.append(f"signature searches: {sig['iterations']} iterations each, one thread, seed {sig['seed']}")
    for key, game in sig["games"].items():
        for players, part in game["players"].items():
            moves = "; ".join(f"{s['position']} {s['move']} ({s['nodes']} nodes)" for s in part["searches"])
            lines.append(f"  {key} {players}p: {moves}")
            lines.append(f"  {key} {players}p: random games {part['random_games']} "
                         f"({part['random_game_steps']} steps)")
            if len(part["searches"]) < len(POSITIONS):
                lines.append(f"  {key} {players}p: only {len(part['searches'])} distinct decision position(s) "
                             f"in its seeded game")
        lines.append(f"  {key}: {game['digest']}")
    lines.append(f"signature {sig['digest']}  nodes {sig['nodes']}")
    lines.append("")
    keys = list(result["speed"])
    headers = ["", "unit"] + [f"{k} {result['speed'][k]['players']}p" for k in keys]
    rows = [headers]
    for metric, (label, unit, _higher) in METRICS.items():
        cells = [_number(result["speed"][k][metric], unit) if metric in result["speed"][k] else "-" for k in keys]
        if any(c != "-" for c in cells):
            rows.append([label.replace("N threads", f"{result['threads']} threads"), unit] + cells)
    widths = [max(len(r[i]) for r in rows) for i in range(len(headers))]
    for row in rows:
        lines.append("  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1])] +
                               [c.rjust(w) for c, w in zip(row[2:], widths[2:])]).rstrip())
    for name, row in result.get("peer", {}).get("openspiel", {}).items():
        extra = f", ISMCTS {row['ismcts_iterations']:,.0f} it/s" if "ismcts_iterations" in row else \
            f" (its ISMCTS does not run it: {row['ismcts_error'][:60]})" if "ismcts_error" in row else ""
        lines.append(f"openspiel {name}: {row['random_games']:,.0f} random games/s, "
                     f"{row['us_per_step']:.2f} us/step{extra}")
    after = machine.get("load_after")
    lines.append(f"took {result['seconds']:.1f} s" + (f"; load average {after[0]:.2f} after" if after else ""))
    return lines


def compare(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Lines comparing two results: whether the signatures agree (per game), then B/A for every speed
    metric both have (for a time, below 1 is faster; for a rate, above 1)."""
    lines = []
    sig_a, sig_b = a["signature"], b["signature"]
    if sig_a["digest"] == sig_b["digest"]:
        lines.append(f"signature: same ({sig_a['digest']})")
    else:
        lines.append(f"signature: differs (A {sig_a['digest']}, B {sig_b['digest']})")
        for key in sorted(set(sig_a.get("games", {})) | set(sig_b.get("games", {}))):
            da = sig_a.get("games", {}).get(key, {}).get("digest", "-")
            db = sig_b.get("games", {}).get(key, {}).get("digest", "-")
            lines.append(f"  {key}: {'same' if da == db else 'differs'} (A {da}, B {db})")
    rows = [["", "unit", "A", "B", "B/A"]]
    for key in [k for k in a["speed"] if k in b["speed"]]:
        for metric, (label, unit, higher) in METRICS.items():
            va, vb = a["speed"][key].get(metric), b["speed"][key].get(metric)
            if va is None or vb is None or not va:
                continue
            better = "faster" if (vb > va) == higher else "slower"
            rows.append([f"{key}: {label}", unit, _number(va, unit), _number(vb, unit),
                         f"{vb / va:.3f} ({better})" if vb != va else "1.000"])
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for row in rows:
        lines.append("  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1])] +
                               [c.rjust(w) for c, w in zip(row[2:], widths[2:])]).rstrip())
    if len(rows) == 1:
        lines.append("(no speed metric in both results)")
    return lines


def to_json(result: Mapping[str, Any]) -> str:
    """The `--json` text of a result."""
    return json.dumps(result, indent=1) + "\n"


if __name__ == "__main__":     # pragma: no cover
    print("\n".join(format_table(run_bench(progress=lambda m: print(m, file=sys.stderr)))))
